"""Home games: the service that writes them (`service`), the entry adapters that read a hand's taps
(`entry`), the new-game form (`setup_form`), game records in and out (`records`), and what the
pages show of a game (`sheets`, `presenters`). Views call these; nothing here renders a page."""
