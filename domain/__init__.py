"""Howl domain: pure game rules, records and the event-sourced game library."""
