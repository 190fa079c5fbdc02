"""How `scorepad run` serves: gunicorn with one gevent worker, the server that holds hundreds of open
live streams (server-sent events) at once; `--dev` keeps Werkzeug's server with the reloader.

`scorepad run` migrates the database and loads the demo in its own process, then replaces itself
(exec) with gunicorn, which imports the app afresh in its worker after gevent has patched the
standard library: patching a process that already loaded the app is what gevent warns against.
One worker, because live updates are published in the worker's memory (a second worker's screens
would not hear of the first one's entries).
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


def gunicorn_argv(host: str, port: int) -> list[str]:
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return [sys.executable, "-m", "gunicorn", "--worker-class", "gevent", "--workers", "1",
            "--worker-connections", str(WORKER_CONNECTIONS), "--bind", bind, "--graceful-timeout", "3",
            "--log-level", "warning", "--config", "python:scorepad.gunicorn_conf", "scorepad:create_app()"]


def exec_gunicorn(host: str, port: int, banner: str) -> None:
    """Replace this process with gunicorn serving the app (does not return)."""
    sys.stdout.flush()
    os.environ[BANNER] = banner
    argv = gunicorn_argv(host, port)
    os.execv(argv[0], argv)
