"""How `scorepad run` serves: gunicorn with gevent workers, each holding hundreds of open live
streams (server-sent events) at once; `--dev` keeps Werkzeug's server with the reloader.

`scorepad run` migrates the database and loads the demo in its own process, then replaces itself
(exec) with gunicorn, which imports the app afresh in each worker after gevent has patched the
standard library: patching a process that already loaded the app is what gevent warns against.
One worker by default. Several (`--workers N`) need the shared broker, PostgreSQL's (live_pg.py):
with the in-process one a worker's screens would never hear of another worker's entries, so
`scorepad run` refuses them there (`refusal`).
"""

from __future__ import annotations

import os
import socket
import sys

WORKER_CONNECTIONS = 1000  # open connections per worker: the app caps live streams below it (live.py)
BANNER = "SCOREPAD_BANNER"  # what gunicorn prints once it listens (gunicorn_conf.when_ready)


def port_taken(host: str, port: int) -> bool:
    """Something already listens there: say so now, not after the banner was printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def refusal(workers: int, relay_name: str, shared: bool) -> str | None:
    """Why `workers` cannot serve with this relay, or None when they can."""
    if workers < 1:
        return f"--workers {workers}: at least one worker is needed."
    if workers > 1 and not shared:
        return (f"--workers {workers} needs a shared broker for live updates, and this server has the "
                f"{relay_name} one: a screen served by one worker would never hear of an entry made on another. "
                f"Serve SQLite with one worker (it holds {WORKER_CONNECTIONS} connections, a whole hall of phones "
                f"and projectors), or set DATABASE_URL to a PostgreSQL database: its LISTEN/NOTIFY carries the "
                f"updates between workers.")
    return None


def gunicorn_argv(host: str, port: int, workers: int = 1) -> list[str]:
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return [sys.executable, "-m", "gunicorn", "--worker-class", "gevent", "--workers", str(workers),
            "--worker-connections", str(WORKER_CONNECTIONS), "--bind", bind, "--graceful-timeout", "3",
            "--log-level", "warning", "--config", "python:scorepad.gunicorn_conf", "scorepad:create_app()"]


def exec_gunicorn(host: str, port: int, banner: str, workers: int = 1) -> None:
    """Replace this process with gunicorn serving the app (does not return)."""
    sys.stdout.flush()
    os.environ[BANNER] = banner
    argv = gunicorn_argv(host, port, workers)
    os.execv(argv[0], argv)
