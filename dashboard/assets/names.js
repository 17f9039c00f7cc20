/* Accessible markup for what Dash 4.4's components draw, set again whenever they draw it anew:
   - names for the inputs drawn without one (the slider's thumb, the upload's file input, two
     checklists); the file input also leaves the tab order: its area's "choose a file" button
     opens it;
   - a checklist or radio items is a group of native checkboxes or radios named by their labels,
     not a listbox whose options hold inputs (interactive controls nested in interactive roles);
   - a dropdown takes the focus on its own button, named by its label and then its value (Dash
     names it by its value alone), instead of on an input hidden from assistive technology that
     passes the focus on;
   - the window's title names the page shown (Dash keeps one title for every page). */
(function () {
  "use strict";
  var NAMES = [
    ["#replay-slider [role=slider]", "step", false],
    ["#library-upload input[type=file]", "game record file", true],
    ["#stats-bots", "bots' seats", false],
    ["#player-bots", "bots' seats", false]
  ];
  var KINDS = {replay: "replay", table: "table", practice: "practice", player: "player"};
  var OPTIONS = ".dash-options-list[role=listbox]:not(.dash-dropdown-content *)";

  function name() {
    NAMES.forEach(function (n) {
      var el = document.querySelector(n[0] + ":not([aria-label])");
      if (!el) { return; }
      el.setAttribute("aria-label", n[1]);
      if (n[2]) { el.setAttribute("tabindex", "-1"); }
    });
  }

  function groups() {
    document.querySelectorAll(OPTIONS).forEach(function (list) {
      var radio = list.querySelector("input[type=radio]");
      if (!radio && !list.querySelector("input[type=checkbox]")) { return; }
      list.setAttribute("role", radio ? "radiogroup" : "group");
    });
    /* the options' role and state, also when Dash sets their state again */
    document.querySelectorAll(".dash-options-list:not([role=listbox]) > :is([role], [aria-selected])")
      .forEach(function (option) {
        option.removeAttribute("role");
        option.removeAttribute("aria-selected");
      });
  }

  function dropdowns() {
    document.querySelectorAll(".dash-dropdown-focus-target:not([tabindex='-1'])").forEach(function (el) {
      el.setAttribute("tabindex", "-1");
    });
    document.querySelectorAll(".dash-dropdown-focus-target + button[tabindex='-1']:not([disabled])")
      .forEach(function (button) { button.setAttribute("tabindex", "0"); });
    document.querySelectorAll("button.dash-dropdown[id]").forEach(function (button) {
      var label = document.querySelector('label[for="' + window.CSS.escape(button.id) + '"]');
      if (!label) { return; }
      if (!label.id) { label.id = button.id + "-label"; }
      var by = button.getAttribute("aria-labelledby") || "";
      if (by.split(" ")[0] !== label.id) { button.setAttribute("aria-labelledby", (label.id + " " + by).trim()); }
    });
  }

  /* The window's title: the page's heading, what kind of page it is, and the site's name. */
  function title() {
    var heading = document.querySelector("#page h2"), kind = window.location.pathname.split("/")[1];
    var text = heading ? heading.textContent.trim() : "";
    var want = [text, text && KINDS[kind], "Howl"].filter(Boolean).join(" · ");
    if (document.title !== want) { document.title = want; }
  }

  function mend() { name(); groups(); dropdowns(); title(); }

  mend();
  new window.MutationObserver(mend).observe(document.documentElement, {subtree: true, childList: true,
    attributes: true, attributeFilter: ["aria-label", "aria-labelledby", "aria-selected", "role", "tabindex"]});
})();
