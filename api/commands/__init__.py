"""Commands of the ``howl`` command line, one module per group of commands."""
