"""Installable app: the web manifest, the service worker (served from the root scope), offline page."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    has_request_context,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext

bp = Blueprint("pwa", __name__)

SHELL_FILES = (
    "css/app.css",
    "css/print.css",
    "js/app.js",
    "js/outbox.js",
    "vendor/htmx-2.0.11.min.js",
    "vendor/htmx-ext-sse-2.2.4.min.js",
    "icons/icon.svg",
    "icons/icon-192.png",
)


RESTAT_SECONDS = 2.0  # how long a static file's hash is taken as current before its file is looked at again


def static_hash(filename: str) -> str:
    """A short hash of a static file's content (cached per app, refreshed when the file changes).
    The file is looked at (a stat) at most every RESTAT_SECONDS: a page links ten static files, and
    a stat for each was 3-4 % of opening a scoring page (profiled)."""
    cache: dict[str, tuple[float, float, int, str]] = current_app.extensions.setdefault("scorepad.static_hashes", {})
    seen = cache.get(filename)
    now = time.monotonic()
    if seen is not None and now - seen[0] < RESTAT_SECONDS:
        return seen[3]
    path = Path(current_app.static_folder or "static") / filename
    try:
        stat = path.stat()
    except OSError:
        return ""
    if seen is None or seen[1:3] != (stat.st_mtime, stat.st_size):
        seen = (now, stat.st_mtime, stat.st_size, hashlib.sha256(path.read_bytes()).hexdigest()[:12])
    else:
        seen = (now, *seen[1:])
    cache[filename] = seen
    return seen[3]


@bp.app_template_global()
def static_url(filename: str) -> str:
    """`url_for("static", filename=...)` with its hash, built once per file version (and script
    root) per app: the ten a page links took 5% of opening a scoring page again (6.4 µs each,
    bench measured in-process; the page 1.3 ms)."""
    key = (request.script_root if has_request_context() else "", filename, static_hash(filename))
    built: dict[tuple[str, str, str], str] = current_app.extensions.setdefault("scorepad.static_urls", {})
    url = built.get(key)
    if url is None:
        url = built[key] = url_for("static", filename=filename)
    return url


@bp.app_url_defaults
def _versioned_static(endpoint: str, values: dict[str, Any]) -> None:
    """Every static URL carries its file's hash (`?v=`): the service worker serves /static/ from its
    cache first, so a changed file must have a new URL or phones keep the old one."""
    if endpoint == "static" and "filename" in values and "v" not in values:
        version = static_hash(str(values["filename"]))
        if version:
            values["v"] = version


YEAR = 365 * 24 * 3600


@bp.after_app_request
def _cache_versioned_static(response: Response) -> Response:
    """A static file asked for under its current hash (`?v=`, as every page links it) never changes
    at that address: phones keep it a year without asking again. Any other static URL is checked
    each time (Flask's default, `no-cache`).

    Text files are read whole here, so Flask-Compress (which runs after this hook) compresses them
    like a page; it leaves streamed responses alone, and its streaming mode would not close the file."""
    if request.endpoint == "static" and response.status_code == 200 and request.view_args:
        if response.mimetype in current_app.config.get("COMPRESS_MIMETYPES", ()):
            response.direct_passthrough = False
            response.make_sequence()  # the file is closed when the response is (call_on_close)
        version = request.args.get("v")
        if version and version == static_hash(str(request.view_args.get("filename", ""))):
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    """Describe the app for installation (name, icons, colours, start page)."""

    def icon(name: str, size: str, purpose: str = "any") -> dict[str, str]:
        return {
            "src": url_for("static", filename=f"icons/{name}"),
            "sizes": size,
            "type": "image/png",
            "purpose": purpose,
        }

    def screenshot(name: str, size: str, form_factor: str, label: str) -> dict[str, str]:
        return {
            "src": url_for("static", filename=f"screenshots/{name}"),
            "sizes": size,
            "type": "image/png",
            "form_factor": form_factor,
            "label": label,
        }

    data = {
        # the app's identity once installed: the start page may change, the installed app stays one
        "id": "/",
        "name": "Scorepad",
        "short_name": "Scorepad",
        "description": gettext("Keep score for whist games: at the table, at home, at the club."),
        "start_url": url_for("home.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f8fafc",
        "theme_color": "#14532d",
        "icons": [
            icon("icon-192.png", "192x192"),
            icon("icon-512.png", "512x512"),
            icon("maskable-512.png", "512x512", "maskable"),
        ],
        # what an install prompt shows (Chrome's richer dialog): a phone and a hall's projector
        "screenshots": [
            screenshot(
                "phone-bidding.png", "585x1140", "narrow", gettext("Scoring a hand of Nomination Whist on a phone")
            ),
            screenshot("projector.png", "1280x720", "wide", gettext("An event's live leaderboard on the projector")),
        ],
    }
    response = current_app.json.response(data)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, rendered so it can list the exact static URLs of the app shell."""
    shell = [url_for("pwa.offline"), url_for("home.index")] + [url_for("static", filename=f) for f in SHELL_FILES]
    # the cache is named after the files' hashes: a changed file makes a new worker that drops the old cache
    version = hashlib.sha256(" ".join(static_hash(f) for f in SHELL_FILES).encode()).hexdigest()[:12]
    body = render_template("pwa/sw.js", version=f"scorepad-shell-{version}", shell=shell)
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
def offline() -> str:
    """Shown by the service worker when a page is asked for with no connection."""
    return render_template("pwa/offline.html")


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for it whatever the page says; answer rather than log a 404."""
    return send_from_directory(current_app.static_folder or "static", "icons/icon-192.png", mimetype="image/png")
