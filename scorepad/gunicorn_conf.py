"""gunicorn's settings hooks for `scorepad run` (see serve.py): print the addresses once the server
listens, start each worker's live-update listener before it serves (the shared broker's, when
there is one: live_pg.py), and say when it stopped. (A worker whose master was killed outright
notices within a second and exits by itself: tests/test_serve.py checks the port is free again.)"""

from __future__ import annotations

import os
from typing import Any

from scorepad.serve import BANNER

# gunicorn would itself take the scheme from X-Forwarded-Proto on a connection from 127.0.0.1:
# whether such headers are believed is SCOREPAD_PROXY_HOPS's alone (security.py), so a spoofed
# header from a local program is not believed by default either.
secure_scheme_headers: dict[str, str] = {}
forwarder_headers = ""


def when_ready(server: Any) -> None:
    print(os.environ.get(BANNER, "Scorepad is running."), flush=True)
    print("Press Ctrl+C to stop.", flush=True)


def on_exit(server: Any) -> None:
    print("Stopped.", flush=True)


def post_worker_init(worker: Any) -> None:
    """The worker hears the other workers' live updates before it serves its first stream."""
    extensions = getattr(worker.wsgi, "extensions", {})
    relay = extensions.get("scorepad.relay")
    if relay is not None:
        relay.start()
