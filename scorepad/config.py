"""Configuration from the environment, with defaults that run a LAN scorepad out of the box."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any


def _secret_key(instance_path: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in the instance folder.

    Keeping it on disk means a restart does not log everyone out or void their forms.
    """
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = instance_path / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def database_url_of(url: str) -> str:
    """DATABASE_URL as SQLAlchemy reads it: a PostgreSQL URL without a driver gets psycopg 3, the
    driver installed with the app (SQLAlchemy 2.0 would pick psycopg2); `postgres://`, the old
    Heroku-style scheme SQLAlchemy 2 refuses, is read as `postgresql://`. A URL naming its driver
    (`postgresql+psycopg2://`) is kept as it is."""
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    return url


def proxy_hops(raw: str) -> int:
    """SCOREPAD_PROXY_HOPS as a number of proxies (0 to 5); anything else is said plainly at start-up."""
    try:
        hops = int(raw.strip() or "0")
    except ValueError:
        hops = -1
    if not 0 <= hops <= 5:
        raise ValueError(
            f"SCOREPAD_PROXY_HOPS must be the number of reverse proxies in front of Scorepad "
            f"(0 to 5, usually 1), not {raw!r}"
        )
    return hops


def tap_guard_ms(raw: str) -> int:
    """SCOREPAD_TAP_GUARD_MS as milliseconds (0 to 5000); anything else is said plainly at start-up."""
    try:
        guard = int(raw.strip() or "600")
    except ValueError:
        guard = -1
    if not 0 <= guard <= 5000:
        raise ValueError(
            f"SCOREPAD_TAP_GUARD_MS must be how long, in milliseconds, a repeat of the scorer's tap is "
            f"ignored (0 to 5000, 600 by default), not {raw!r}"
        )
    return guard


def database_url_for(instance_path: Path) -> str:
    """DATABASE_URL, else the SQLite file in the data folder (`instance_path`: data_folder.py)."""
    return database_url_of(os.environ.get("DATABASE_URL") or f"sqlite:///{instance_path / 'scorepad.sqlite3'}")


def from_environment(instance_path: Path) -> dict[str, Any]:
    """Settings read from SECRET_KEY, DATABASE_URL and SCOREPAD_* variables; the SQLite database and
    the secret key are kept in `instance_path`, the data folder (data_folder.py)."""
    instance_path.mkdir(parents=True, exist_ok=True)
    database_url = database_url_for(instance_path)
    return {
        "SECRET_KEY": _secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url,
        # A server's connection can drop (a PostgreSQL restart): ping before use. A SQLite file cannot,
        # and the ping was a query more on every request.
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": not database_url.startswith("sqlite")},
        "SCOREPAD_DEMO": os.environ.get("SCOREPAD_DEMO", "1") == "1",
        "SCOREPAD_HOST": os.environ.get("SCOREPAD_HOST", "0.0.0.0"),
        "SCOREPAD_PORT": int(os.environ.get("SCOREPAD_PORT", "5000")),
        "SCOREPAD_PAGE_SECONDS": int(os.environ.get("SCOREPAD_PAGE_SECONDS", "12")),  # projector paging
        # a repeat of the same choice on the scorer's page within this long is a shaky double tap (app.js)
        "SCOREPAD_TAP_GUARD_MS": tap_guard_ms(os.environ.get("SCOREPAD_TAP_GUARD_MS", "600")),
        # live updates between worker processes (live.py): auto, memory or postgresql; and how many
        # workers `scorepad run` starts (several need the PostgreSQL broker)
        "SCOREPAD_BROKER": os.environ.get("SCOREPAD_BROKER", "auto"),
        "SCOREPAD_WORKERS": int(os.environ.get("SCOREPAD_WORKERS", "1")),
        # heavy jobs (a record's or a backup's check, a big export's encoding) at once per worker, each in
        # a helper process off the worker's loop (offload.py); the next ones wait in line
        "SCOREPAD_HEAVY_JOBS": int(os.environ.get("SCOREPAD_HEAVY_JOBS", "1")),
        # Reverse proxies in front of the app (docs/https.md): their X-Forwarded-For, -Proto and
        # -Host headers are believed, the last this many of each. 0 (the default, a LAN): none is,
        # since anyone can send them.
        "SCOREPAD_PROXY_HOPS": proxy_hops(os.environ.get("SCOREPAD_PROXY_HOPS", "0")),
        "WTF_CSRF_TIME_LIMIT": None,  # a score page may stay open all afternoon
        # the session cookie is sent when the session changes (opening a game remembers it, which
        # renews its month), not again with every tap's answer: some 330 bytes of each, uncompressed
        "SESSION_REFRESH_EACH_REQUEST": False,
        # the largest form (a 64-table event's names) is some 20 KB: anything far larger is refused (413)
        # open live streams, in all and per client address (see live.py); 429 past them
        "SCOREPAD_MAX_STREAMS": int(os.environ.get("SCOREPAD_MAX_STREAMS", "800")),
        "SCOREPAD_MAX_STREAMS_PER_CLIENT": int(os.environ.get("SCOREPAD_MAX_STREAMS_PER_CLIENT", "20")),
        "MAX_CONTENT_LENGTH": int(os.environ.get("SCOREPAD_MAX_REQUEST_KB", "64")) * 1024,
        # an event backup uploaded to /events/restore (or read by `scorepad import-event`): its own limit
        "SCOREPAD_BACKUP_MAX_KB": int(os.environ.get("SCOREPAD_BACKUP_MAX_KB", "8192")),
        # Flask-Compress: pages, fragments, JSON and the static files (read whole first: see
        # views/pwa.py) in brotli or gzip; over plain HTTP browsers offer gzip only, they keep br
        # and zstd for HTTPS. Streamed responses, the live streams above all, are left alone, so
        # each message still goes out the moment it is published.
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        "COMPRESS_STREAMS": False,
        "COMPRESS_BR_LEVEL": 5,  # 4 (the default) and 5 cost the same here; 5 sends 5-7 % less of a tap's answer
    }
