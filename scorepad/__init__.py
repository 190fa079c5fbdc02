"""Scorepad: a mobile-first scorepad for whist games.

`create_app` builds the Flask app: configuration from the environment, extensions bound to it,
blueprints registered. The repo-level `templates/` and `static/` are used in a checkout; an
installed wheel carries them inside the package.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # importing scorepad.rules must not load Flask: the rules stay pure
    from flask import Flask

PACKAGE_DIR = Path(__file__).resolve().parent


def _asset_dir(name: str) -> str:
    """The folder beside the package (installed wheel) or one level up (checkout)."""
    inside = PACKAGE_DIR / name
    return str(inside if inside.is_dir() else PACKAGE_DIR.parent / name)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build an app; `config` overrides the environment (tests pass an in-memory database)."""
    from flask import Flask

    from scorepad import (
        commands,
        data_folder,
        i18n,
        idempotency,
        live,
        live_pg,
        offload,
        pushes,
        security,
        templating,
        views,
    )
    from scorepad import config as settings
    from scorepad.extensions import compress, csrf, db, htmx, migrate

    app = Flask(
        __name__,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
        instance_relative_config=True,
        instance_path=str(data_folder.folder()),  # never inside the install (data_folder.py)
    )
    app.config.from_mapping(settings.from_environment(Path(app.instance_path)))
    if config:
        app.config.update(config)

    templating.init_app(app)
    db.init_app(app)
    migrate.init_app(app, db, directory=str(PACKAGE_DIR / "migrations"), render_as_batch=True)
    htmx.init_app(app)
    i18n.init_app(app)
    csrf.init_app(app)
    security.init_app(app)
    compress.init_app(app)
    live.init_app(app)
    live_pg.init_app(app)
    pushes.init_app(app)  # what each announced change shows, in every worker (never a blueprint's)
    offload.init_app(app)
    views.register(app)
    commands.register(app)
    idempotency.init_app(app)  # last: see its docstring
    if not app.testing:
        _freeze_startup_objects()
    return app


def _freeze_startup_objects() -> None:
    """Keep the objects made while starting (modules, the app: some 100,000) out of the garbage
    collector's full passes. A full pass over them costs 50-80 ms, a stall every few hundred
    requests that every request and live stream of the (single) worker waits out; with them
    frozen it costs a few milliseconds. Tests build an app per test and skip this, so nothing
    of one test is kept for the whole run."""
    import gc

    gc.collect()
    gc.freeze()
