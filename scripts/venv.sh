# Sourced by scripts/run and scripts/test: keep .venv installed with the project.
# ensure_venv [EXTRAS]  creates .venv if missing and (re)installs the project in editable
# mode when pyproject.toml, the set of top-level packages or the extras asked for changed;
# a missing or half-made .venv is made anew (python3-venv installed with apt when absent);
# it also fetches the dashboard's plotly.js bundle (ensure_plotly_bundle).

say() { printf '==> %s\n' "$*"; }

sudo_cmd=()
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo_cmd=(sudo)
apt_updated=0
# apt_install PACKAGE…  installs Debian packages (apt-get update once first).
apt_install() {
    say "installing $* (apt-get)"
    if [ "$apt_updated" -eq 0 ]; then
        "${sudo_cmd[@]}" apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "$@" >/dev/null
}

# ensure_plotly_bundle  puts the plotly.js build pinned in pyproject.toml ([tool.howl]
# plotly-bundle, an npm package) at dashboard/vendor/<package>-<version>.min.js, where the
# dashboard serves it instead of plotly's whole bundle (npm installed with apt when absent).
ensure_plotly_bundle() {
    local pin want tmp
    pin=$(sed -n 's/^plotly-bundle = "\(.*\)"$/\1/p' pyproject.toml)
    want="dashboard/vendor/${pin/@/-}.min.js"
    [ -z "$pin" ] || [ -f "$want" ] && return 0
    command -v npm >/dev/null || apt_install npm
    say "fetching $pin (npm pack)"
    tmp=$(mktemp -d)
    if ! (cd "$tmp" && npm pack --silent "$pin" >/dev/null 2>&1 && tar xzf ./*.tgz); then
        rm -rf "$tmp"
        say "npm pack $pin failed: the dashboard serves plotly's whole bundle" >&2
        return 0
    fi
    mkdir -p dashboard/vendor
    rm -f dashboard/vendor/*.min.js
    cp "$(ls "$tmp"/package/*.min.js | head -n 1)" "$want"
    rm -rf "$tmp"
}

ensure_venv() {
    local extras="${1:-}" spec="." stamp digest log
    ensure_plotly_bundle
    [ -n "$extras" ] && spec=".[$extras]"
    if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then  # missing or half made
        python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
            || { say "Howl needs Python 3.11 or newer as python3" >&2; return 1; }
        python3 -c 'import ensurepip' 2>/dev/null || apt_install python3-venv
        say "creating .venv"
        rm -rf .venv
        python3 -m venv .venv
    fi
    stamp=".venv/.howl-installed${extras:+-$extras}"
    digest=$({ .venv/bin/python --version; cat pyproject.toml; ls -d -- */__init__.py; } 2>&1 \
        | sha256sum | cut -d' ' -f1)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
        return 0
    fi
    say "installing the project into .venv (pip install -e '$spec')"
    log=$(mktemp)
    if ! .venv/bin/python -m pip install --disable-pip-version-check -q -e "$spec" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        say "pip install failed" >&2
        return 1
    fi
    rm -f "$log"
    echo "$digest" >"$stamp"
}
