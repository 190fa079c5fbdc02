"""The `scorepad` command: `scorepad score FILE.json`, `scorepad run`, and the database commands
(defined in `commands.py`, where `flask --app scorepad ...` finds them too)."""

from __future__ import annotations

import os

import click
from flask import Flask
from flask.cli import FlaskGroup, with_appcontext

from scorepad import create_app
from scorepad.commands import COMMANDS


def _create_app() -> Flask:
    return create_app()


main = FlaskGroup(
    create_app=_create_app, add_default_commands=False, add_version_option=False,
    help="Scorepad: keep score for whist games.",
)
for _command in COMMANDS:
    main.add_command(_command)


@main.command("run")
@click.option("--host", default=None, help="Address to listen on (default: all, so phones can reach it).")
@click.option("--port", default=None, type=int, help="Port (default 5000, or SCOREPAD_PORT).")
@click.option("--workers", default=None, type=int,
              help="gunicorn worker processes (default 1, or SCOREPAD_WORKERS); several need PostgreSQL.")
@click.option("--dev", is_flag=True, help="Werkzeug's development server with the reloader, for working on the code.")
@click.option("--behind-proxy", is_flag=True,
              help="Served through one reverse proxy that terminates HTTPS (docs/https.md): believe its "
                   "X-Forwarded-* headers (SCOREPAD_PROXY_HOPS=1) and listen on 127.0.0.1 unless --host says otherwise.")
@with_appcontext
def run_command(host: str | None, port: int | None, workers: int | None, dev: bool,
                behind_proxy: bool) -> None:
    """Migrate the database, load the demo games, print the URLs and serve the app (gunicorn with
    gevent workers; see serve.py)."""
    from flask import current_app
    from flask_migrate import upgrade

    from scorepad import live, network, security, serve
    from scorepad.events import military
    from scorepad.extensions import db
    from scorepad.games import records

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    workers = app.config["SCOREPAD_WORKERS"] if workers is None else workers
    relay = live.relay_of(app)
    refused = None if dev else serve.refusal(workers, relay.name, relay.shared)
    if refused:
        raise click.ClickException(refused)
    upgrade(directory=app.extensions["migrate"].directory)
    demo = None
    if app.config["SCOREPAD_DEMO"]:
        records.load_demo_games()
        military.load_demo_event()
        demo = military.demo_event()
    if behind_proxy:
        # the proxy alone may reach the app: a phone talking to it directly could claim any scheme or host
        host = host or "127.0.0.1"
        if not app.config["SCOREPAD_PROXY_HOPS"]:
            os.environ["SCOREPAD_PROXY_HOPS"] = "1"  # for gunicorn's worker, which builds the app afresh
            app.config["SCOREPAD_PROXY_HOPS"] = 1
            security.trust_proxies(app, 1)  # for --dev, which serves this app
    host = host or app.config["SCOREPAD_HOST"]
    port = port or app.config["SCOREPAD_PORT"]
    if not os.environ.get("WERKZEUG_RUN_MAIN") and serve.port_taken(host, port):  # (the reloader's child has it)
        raise click.ClickException(f"port {port} is already in use (another Scorepad?): try --port {port + 1}")
    lines = ["Scorepad is running. Open it in a browser:"] + [f"  {url}" for url in network.urls(host, port)]
    base = network.urls(host, port)[-1].split()[0].rstrip("/")  # the LAN address when there is one
    if demo is not None:
        lines += [f"Demo Military Whist event: director {base}/d/{demo.director_token}",
                  f"  projector {base}/b/{demo.public_id}"]
    lines.append(f"New event: {base}/events/new")
    if workers > 1:
        lines.append(f"{workers} workers; live updates through the {relay.name} broker.")
    if app.config["SCOREPAD_PROXY_HOPS"]:
        lines.append(f"Behind a reverse proxy (SCOREPAD_PROXY_HOPS={app.config['SCOREPAD_PROXY_HOPS']}): its X-Forwarded-For, -Proto and "
                     f"-Host headers are believed; open the app at the proxy's https:// address.")
    db.session.remove()
    db.engine.dispose()  # no connection of this process may outlive it into the server
    if not dev:
        serve.exec_gunicorn(host, port, "\n".join(lines), workers)
    from werkzeug.serving import run_simple

    if not os.environ.get("WERKZEUG_RUN_MAIN"):  # the reloader's child prints nothing again
        click.echo("\n".join(lines) + "\n(development server, reloading on code changes)\nPress Ctrl+C to stop.")
    # threaded: each open live stream (server-sent events) holds a thread of its own.
    run_simple(host, port, app, use_reloader=True, threaded=True)
