"""Howl's HTTP API, configuration and ``howl`` command line."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("howl")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
