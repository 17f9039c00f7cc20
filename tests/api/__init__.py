"""Tests of the HTTP API, through real HTTP on both stores."""
