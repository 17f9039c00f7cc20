"""Game records, positions, replay and the record commands of the command line."""
