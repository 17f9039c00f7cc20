"""The ``howl`` command line: one click group; each command lives in its own module.

Add a command with ``main.add_command(command)`` below.
"""

from __future__ import annotations

import click

from api import __version__
from api.commands.records import commands as record_commands
from api.commands.simulate import simulate
from api.commands.store import export_game, import_records
from api.serve import serve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="howl")
def main() -> None:
    """Howl: replay and analyse games of The Wolves."""


main.add_command(serve)
for command in record_commands:
    main.add_command(command)
main.add_command(import_records)
main.add_command(export_game)
main.add_command(simulate)
