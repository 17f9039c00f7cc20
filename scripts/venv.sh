# Sourced by scripts/run and scripts/test: keep .venv installed with the project.
# ensure_venv [EXTRAS]  creates .venv if missing and (re)installs the project in editable
# mode when pyproject.toml, the set of top-level packages or the extras asked for changed.

say() { printf '==> %s\n' "$*"; }

ensure_venv() {
    local extras="${1:-}" spec="." stamp digest log
    [ -n "$extras" ] && spec=".[$extras]"
    if [ ! -x .venv/bin/python ]; then
        say "creating .venv"
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
