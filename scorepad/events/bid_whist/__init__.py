"""Bid Whist tournaments: registration (numbered entrants until the start), matches (two entrants
at a table playing a linked home game, signed by both), and the tournament itself (rounds, the
cut, the bracket), all derived by `formats.bid_whist_event`."""
