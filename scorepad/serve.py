"""How `scorepad run` serves: gunicorn with gevent workers, each holding hundreds of open live
streams (server-sent events) at once; where gunicorn cannot run (Windows) or with `--server gevent`,
gevent's own WSGI server in one process (serve_gevent.py), which holds them the same way; `--dev`
keeps Werkzeug's server with the reloader.

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
import subprocess
import sys
from typing import NoReturn

WORKER_CONNECTIONS = 1000  # open connections per worker: the app caps live streams below it (live.py)
BANNER = "SCOREPAD_BANNER"  # what the server prints once it listens (gunicorn_conf.when_ready, serve_gevent)
SERVERS = ("auto", "gunicorn", "gevent")
WINDOWS = sys.platform == "win32"


def server_for(choice: str) -> str:
    """`gunicorn` or `gevent` (gevent.pywsgi, one process) for `--server` / SCOREPAD_SERVER: `auto`
    is gunicorn, except on Windows, where gunicorn does not run."""
    choice = (choice or "auto").strip().lower()
    if choice not in SERVERS:
        raise ValueError(f"SCOREPAD_SERVER must be one of {', '.join(SERVERS)}, not {choice!r}")
    if choice == "auto":
        return "gevent" if WINDOWS else "gunicorn"
    return choice


def port_taken(host: str, port: int) -> bool:
    """Something already listens there: say so now, not after the banner was printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if not WINDOWS:  # there SO_REUSEADDR lets a second program bind a port in use: it would always look free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def refusal(workers: int, relay_name: str, shared: bool, server: str = "gunicorn") -> str | None:
    """Why `workers` cannot serve with this relay and server, or None when they can."""
    if workers < 1:
        return f"--workers {workers}: at least one worker is needed."
    if workers > 1 and server != "gunicorn":
        return (
            f"--workers {workers} needs gunicorn, which does not run on Windows: here Scorepad serves in one "
            f"process, which holds {WORKER_CONNECTIONS} connections (a whole hall of phones and projectors). "
            f"For several workers, serve from Linux or macOS, or from the container (docs/install.md)."
        )
    if workers > 1 and not shared:
        return (
            f"--workers {workers} needs a shared broker for live updates, and this server has the "
            f"{relay_name} one: a screen served by one worker would never hear of an entry made on another. "
            f"Serve SQLite with one worker (it holds {WORKER_CONNECTIONS} connections, a whole hall of phones "
            f"and projectors), or set DATABASE_URL to a PostgreSQL database: its LISTEN/NOTIFY carries the "
            f"updates between workers."
        )
    return None


def gunicorn_argv(host: str, port: int, workers: int = 1) -> list[str]:
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--worker-class",
        "gevent",
        "--workers",
        str(workers),
        "--worker-connections",
        str(WORKER_CONNECTIONS),
        "--bind",
        bind,
        "--graceful-timeout",
        "3",
        "--log-level",
        "warning",
        "--config",
        "python:scorepad.gunicorn_conf",
        "scorepad:create_app()",
    ]


def gevent_argv(host: str, port: int) -> list[str]:
    return [sys.executable, "-m", "scorepad.serve_gevent", host, str(port)]


def serve(server: str, host: str, port: int, banner: str, workers: int = 1) -> NoReturn:
    """Replace this process with the server serving the app (does not return); it prints `banner`
    once it listens."""
    os.environ[BANNER] = banner
    replace_process(gunicorn_argv(host, port, workers) if server == "gunicorn" else gevent_argv(host, port))


def replace_process(argv: list[str], spawn: bool = WINDOWS) -> NoReturn:
    """Run `argv` in this process's place: exec where there is one; on Windows (`spawn`), a child
    process waited for, since os.execv there starts the new process and ends this one at once, and
    the console would take its prompt back (and Ctrl+C) while the server still runs."""
    sys.stdout.flush()
    sys.stderr.flush()
    if not spawn:
        os.execv(argv[0], argv)
    child = subprocess.Popen(argv)
    while True:
        try:
            sys.exit(child.wait())
        except KeyboardInterrupt:  # the console's Ctrl+C reached the child too: wait while it stops
            continue
