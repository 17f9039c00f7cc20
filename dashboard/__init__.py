"""Howl's Dash dashboard, mounted on the API's Flask server."""
