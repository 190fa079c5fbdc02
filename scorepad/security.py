"""What every response and every write carries, whatever the page: security headers (Flask-Talisman:
a Content-Security-Policy with scripts and styles from `static/` only, no framing), the session
cookie (HttpOnly, SameSite=Lax, Secure when the request came over HTTPS), a same-origin check
on every unsafe request besides the form token, and no NUL character in any address or field
(PostgreSQL's text cannot hold one: such a value would be a 500 there).

Phones reach the app over plain HTTP on a club's LAN, so nothing here forces HTTPS, and HSTS is
sent only on a request that came over HTTPS (a browser told once to insist on HTTPS for a LAN
address could not open it over HTTP again; over HTTP browsers ignore the header anyway).

Behind a reverse proxy that terminates HTTPS (docs/https.md), `SCOREPAD_PROXY_HOPS` says how many
proxies set the X-Forwarded-* headers; Werkzeug's ProxyFix then takes the scheme, host and client
address from them, so links and QR codes say https://the.host/, the cookie is Secure and each
phone counts as itself (live.py's per-device cap). By default (0) none of those headers is believed:
anyone on the LAN could send them.
"""

from __future__ import annotations

import io
from typing import IO
from urllib.parse import urlsplit

from flask import Flask, Request, Response, abort, g, request
from flask.sessions import SecureCookieSessionInterface
from flask_babel import lazy_gettext
from flask_talisman import Talisman
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.utils import cached_property

CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "font-src": "'self'",
    "manifest-src": "'self'",
    "worker-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Pages reached by a secret link (the director's, a table's, a scorer's, a team's, the QR sheet, a
# group's): kept out of the browser's and any proxy's cache, so a shared phone does not keep them.
SECRET_PATHS = ("/d/", "/t/", "/g/", "/team/", "/qr/", "/group/")
HOLDS_NUL = lazy_gettext(
    "What was sent holds a NUL character (\\0), which no address or field of Scorepad takes, "
    "so it was refused; nothing was saved."
)
HSTS = f"max-age={365 * 24 * 3600}"  # this host only: a club's other sites may still be plain HTTP
CROSS_ORIGIN = lazy_gettext(
    "This request came from another site, so it was refused; nothing was saved. Open Scorepad itself and try again."
)


class _SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure exactly when the request came over HTTPS (a LAN over HTTP keeps it)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


class WholeBodyRequest(Request):
    """A request whose body is refused whole when it is past the limit, however it was sent.

    A body sent without a length (`Transfer-Encoding: chunked`) is read by Werkzeug up to the limit
    and what was read is parsed: a 980 KB form became its first 64 KB, acted on. This one reads such
    a body first, one byte past the limit at most: past it, the request is a 413 as a body with a
    Content-Length is; else it is the body, its length known (`content_length`, for the messages)."""

    @cached_property
    def stream(self) -> IO[bytes]:
        limit = self.max_content_length
        if (
            self.shallow
            or self.content_length is not None
            or limit is None
            or not self.environ.get("wsgi.input_terminated")
        ):
            return super().stream
        raw, body = self.environ["wsgi.input"], bytearray()
        while len(body) <= limit and (chunk := raw.read(min(64 * 1024, limit + 1 - len(body)))):
            body += chunk
        self.__dict__["content_length"] = len(body)  # the cached property's value from now on
        if len(body) > limit:
            raise RequestEntityTooLarge()
        return io.BytesIO(bytes(body))


def same_origin() -> bool:
    """Whether an unsafe request comes from a page of this app: its `Origin` names this host, or
    (browsers that send no Origin) `Sec-Fetch-Site` says same-origin or a typed address. A request
    with neither header (a script, an old browser) still needs its form token."""
    origin = request.headers.get("Origin")
    if origin is not None and origin != "null":
        return urlsplit(origin).netloc == request.host
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site in ("same-origin", "none")
    return origin is None  # "null": a sandboxed or privacy-stripped cross-site post


def leave_nul_to_the_view() -> None:
    """Called before the checks (a blueprint's URL value preprocessor): this request's form is checked
    for NUL by its view, which says so beside the field (a record pasted on the import page), rather
    than answered with the app-wide 400 page. Its path and query are still checked here."""
    g.nul_left_to_view = True


def holds_nul(form: bool = True) -> bool:
    """Whether the request's path, query or form (names or values) holds a NUL character: no field
    takes one, and PostgreSQL refuses it in any text, even a look-up's."""
    if "\x00" in request.path:
        return True
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for fields in ((request.args, request.form) if form else (request.args,))
        for key, values in fields.lists()
    )


def trust_proxies(app: Flask, hops: int) -> None:
    """Believe the last `hops` values of X-Forwarded-For, -Proto and -Host (what the proxies set);
    never X-Forwarded-Port or -Prefix, which the documented proxies do not set, so a phone could."""
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app,
            x_for=hops,
            x_proto=hops,
            x_host=hops,
            x_port=0,
            x_prefix=0,
        )


def init_app(app: Flask) -> None:
    app.request_class = WholeBodyRequest
    trust_proxies(app, int(app.config.get("SCOREPAD_PROXY_HOPS") or 0))
    # HSTS is ours, below: Talisman's would also believe a bare X-Forwarded-Proto header
    Talisman(
        app,
        force_https=False,
        strict_transport_security=False,
        session_cookie_secure=False,
        content_security_policy=CSP,
        frame_options="DENY",
        referrer_policy="same-origin",
    )
    app.config.setdefault("SESSION_COOKIE_SAMESITE", "Lax")
    app.session_interface = _SessionInterface()

    @app.before_request
    def _refuse_cross_origin() -> None:
        if request.method in UNSAFE_METHODS and not same_origin():
            abort(403, description=str(CROSS_ORIGIN))

    @app.before_request
    def _refuse_nul() -> None:
        if holds_nul(form=not g.get("nul_left_to_view", False)):
            abort(400, description=str(HOLDS_NUL))

    @app.after_request
    def _no_store(response: Response) -> Response:
        if request.path.startswith(SECRET_PATHS):
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.after_request
    def _hsts(response: Response) -> Response:
        if request.is_secure:  # over HTTPS (through a trusted proxy): keep to HTTPS from now on
            response.headers["Strict-Transport-Security"] = HSTS
        return response
