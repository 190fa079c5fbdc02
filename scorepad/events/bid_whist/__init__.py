"""Bid Whist tournaments: registration (numbered entrants until the start), matches (two entrants
at a table playing a linked home game, signed by both), and the tournament itself (rounds, the
cut, the bracket), all derived by `formats.bid_whist_event`.

One module per job: `tournament` (the rows as read: key, settings, teams, stage, draws, the
director's decisions), `writes` (every change), `derived` (the view every page shows, and the
boards' kept copy of it through `boards`), `export` (JSON), `restore_checks` (a restored backup's
rows) and `event_format` (`FORMAT`, what the registry gives); `registration` and `matches` hold
the entrants' and the matches' own rows and writes."""
