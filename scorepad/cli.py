"""The `scorepad` command: `scorepad score FILE.json`, `scorepad run`, and the database commands
(defined in `commands.py`, where `flask --app scorepad ...` finds them too)."""

from __future__ import annotations

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
@with_appcontext
def run_command(host: str | None, port: int | None) -> None:
    """Migrate the database, load the demo games, print the URLs and serve the app."""
    from flask import current_app
    from flask_migrate import upgrade
    from werkzeug.serving import make_server

    from scorepad import network
    from scorepad.events import military
    from scorepad.games import records

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    upgrade(directory=app.extensions["migrate"].directory)
    demo = None
    if app.config["SCOREPAD_DEMO"]:
        records.load_demo_games()
        military.load_demo_event()
        demo = military.demo_event()
    host = host or app.config["SCOREPAD_HOST"]
    port = port or app.config["SCOREPAD_PORT"]
    # threaded: each open live stream (server-sent events) holds a thread of its own.
    server = make_server(host, port, app, threaded=True)
    click.echo("Scorepad is running. Open it in a browser:")
    for url in network.urls(host, server.server_port):
        click.echo(f"  {url}")
    base = network.urls(host, server.server_port)[-1].split()[0].rstrip("/")  # the LAN address when there is one
    if demo is not None:
        click.echo(f"Demo Military Whist event: director {base}/d/{demo.director_token}")
        click.echo(f"  projector {base}/b/{demo.public_id}")
    click.echo(f"New event: {base}/events/new")
    click.echo("Press Ctrl+C to stop.")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("Stopped.")
