"""The ``howl`` command line: one click group; each command lives in its own module.

Commands load on first use, so ``howl validate`` never pays for the web server's imports.
Add a command as a ``name: "module:attribute"`` entry of ``COMMANDS``.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from api import __version__
from services.config import ConfigError

COMMANDS = {
    "serve": "api.serve:serve",
    "validate": "api.commands.records:validate_command",
    "replay": "api.commands.records:replay_command",
    "score": "api.commands.records:score_command",
    "import": "api.commands.store:import_records",
    "export": "api.commands.store:export_game",
    "purge": "api.commands.store:purge_game",
    "players": "api.commands.players:players",
    "migrate": "api.commands.migrate:migrate",
    "simulate": "api.commands.simulate:simulate",
    "analyse": "api.commands.analyse:analyse",
    "projections": "api.commands.projections:projections",
    "tables": "api.commands.tables:list_tables",
    "table": "api.commands.tables:table",
}


SHORT_HELP = 300
"""Most characters of a command's help ``howl --help`` shows (its first sentence, or this)."""


class LazyGroup(click.Group):
    """A click group whose commands are imported only when they run (or help lists them)."""

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, loaded or not."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with the whole first sentence of its help, wrapped, never cut."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=SHORT_HELP)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a setting that cannot be used is one line, not a traceback."""
        try:
            return super().invoke(ctx)
        except ConfigError as exc:
            raise click.ClickException(str(exc)) from None

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command called ``name``, imported on demand."""
        if name not in self.lazy:
            return super().get_command(ctx, name)
        module, _, attribute = self.lazy[name].partition(":")
        return getattr(importlib.import_module(module), attribute)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="howl")
def main() -> None:
    """Howl: replay and analyse recorded board games (any registered game)."""


if __name__ == "__main__":
    main()
