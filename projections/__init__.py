"""Read models built from the event store: timelines, summaries, statistics, analysis."""
