"""The `scorepad` command: `scorepad score FILE.json`, `scorepad run`, the whole database's
`backup` and `restore`, `init-postgres`, and the database commands (defined in `commands.py`, where
`flask --app scorepad ...` finds them too).

A database that cannot be used (a PostgreSQL database not created, a refused password, a SQLite
folder that cannot be written) is said in one line with what to do (database_errors.py), never as
a traceback.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext

from scorepad import create_app, data_folder
from scorepad.commands import COMMANDS


def _create_app() -> Flask:
    try:
        moved = data_folder.adopt_old_database()
        if moved:
            click.echo(moved, err=True)
        return create_app()
    except OSError as e:  # the data folder cannot be made or written
        where = e.filename or data_folder.folder()
        raise click.ClickException(
            f"Cannot use the data folder ({where}: {e.strerror or e}): name another with --data or SCOREPAD_DATA."
        ) from None


class ScorepadGroup(FlaskGroup):
    """Flask's command group, with a database that cannot be used said in one plain line."""

    def invoke(self, ctx: click.Context) -> Any:
        from scorepad import config
        from scorepad.database_errors import plain

        try:
            return super().invoke(ctx)
        except Exception as error:
            said = plain(error, config.database_url_for(data_folder.folder()))
            if said is None:
                raise
            raise click.ClickException(said) from None


main = ScorepadGroup(
    create_app=_create_app,
    add_default_commands=False,
    add_version_option=False,
    help="Scorepad: keep score for whist games.",
)
for _command in COMMANDS:
    main.add_command(_command)


def _name_data_folder(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    if value is not None:  # before the app is made, and inherited by the server's processes
        os.environ[data_folder.ENV] = str(value.expanduser().resolve())


data_option = click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    expose_value=False,
    is_eager=True,
    callback=_name_data_folder,
    help="The folder of the SQLite database and secret key (default: SCOREPAD_DATA, else the user's data folder).",
)


@main.command("run")
@click.option("--host", default=None, help="Address to listen on (default: all, so phones can reach it).")
@click.option("--port", default=None, type=int, help="Port (default 5000, or SCOREPAD_PORT).")
@click.option(
    "--workers",
    default=None,
    type=int,
    help="gunicorn worker processes (default 1, or SCOREPAD_WORKERS); several need PostgreSQL.",
)
@click.option("--dev", is_flag=True, help="Werkzeug's development server with the reloader, for working on the code.")
@click.option(
    "--behind-proxy",
    is_flag=True,
    help="Served through one reverse proxy that terminates HTTPS (docs/https.md): believe its "
    "X-Forwarded-* headers (SCOREPAD_PROXY_HOPS=1) and listen on 127.0.0.1 unless --host says otherwise.",
)
@click.option(
    "--server",
    "server_choice",
    type=click.Choice(["auto", "gunicorn", "gevent"]),
    default=None,
    help="gunicorn (several workers; Linux and macOS) or gevent's own server (one process; the choice on "
    "Windows). Default: auto, or SCOREPAD_SERVER.",
)
@data_option
@with_appcontext
def run_command(
    host: str | None, port: int | None, workers: int | None, dev: bool, behind_proxy: bool, server_choice: str | None
) -> None:
    """Migrate the database, load the demo games, print the URLs and where the data is, and serve
    the app (gunicorn with gevent workers, or gevent's server on Windows; see serve.py)."""
    from flask_migrate import upgrade

    from scorepad import live, network, security, serve
    from scorepad.events import military
    from scorepad.extensions import db
    from scorepad.games import records

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    try:
        server = serve.server_for(server_choice or os.environ.get("SCOREPAD_SERVER", "auto"))
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    workers = app.config["SCOREPAD_WORKERS"] if workers is None else workers
    relay = live.relay_of(app)
    refused = None if dev else serve.refusal(workers, relay.name, relay.shared, server)
    if refused:
        raise click.ClickException(refused)
    app.config["SCOREPAD_QUIET_MIGRATIONS"] = True  # a line per migration said nothing a newcomer needs
    try:
        upgrade(directory=app.extensions["migrate"].directory)
    finally:
        app.config.pop("SCOREPAD_QUIET_MIGRATIONS")
    demo = None
    if app.config["SCOREPAD_DEMO"]:
        records.load_demo_games()
        military.load_demo_event()
        demo = military.demo_event()
    if behind_proxy:
        # the proxy alone may reach the app: a phone talking to it directly could claim any scheme or host
        host = host or "127.0.0.1"
        if not app.config["SCOREPAD_PROXY_HOPS"]:
            os.environ["SCOREPAD_PROXY_HOPS"] = "1"  # for the server's process, which builds the app afresh
            app.config["SCOREPAD_PROXY_HOPS"] = 1
            security.trust_proxies(app, 1)  # for --dev, which serves this app
    host = host or app.config["SCOREPAD_HOST"]
    port = port or app.config["SCOREPAD_PORT"]
    if not os.environ.get("WERKZEUG_RUN_MAIN") and serve.port_taken(host, port):  # (the reloader's child has it)
        raise click.ClickException(f"port {port} is already in use (another Scorepad?): try --port {port + 1}")
    lines = ["Scorepad is running. Open it in a browser:"] + [f"  {url}" for url in network.urls(host, port)]
    base = network.urls(host, port)[-1].split()[0].rstrip("/")  # the LAN address when there is one
    if demo is not None:
        lines += [
            f"Demo Military Whist event: director {base}/d/{demo.director_token}",
            f"  projector {base}/b/{demo.public_id}",
        ]
    lines.append(f"New event: {base}/events/new")
    lines.append(data_folder.describe(app.config["SQLALCHEMY_DATABASE_URI"]))
    if not dev and server == "gevent":
        lines.append("Served by gevent's WSGI server, in one process.")
    if workers > 1:
        lines.append(f"{workers} workers; live updates through the {relay.name} broker.")
    if app.config["SCOREPAD_PROXY_HOPS"]:
        lines.append(
            f"Behind a reverse proxy (SCOREPAD_PROXY_HOPS={app.config['SCOREPAD_PROXY_HOPS']}): its X-Forwarded-For, -Proto and "
            f"-Host headers are believed; open the app at the proxy's https:// address."
        )
    db.session.remove()
    db.engine.dispose()  # no connection of this process may outlive it into the server
    if not dev:
        serve.serve(server, host, port, "\n".join(lines), workers)
    from werkzeug.serving import run_simple

    if not os.environ.get("WERKZEUG_RUN_MAIN"):  # the reloader's child prints nothing again
        click.echo("\n".join(lines) + "\n(development server, reloading on code changes)\nPress Ctrl+C to stop.")
    # threaded: each open live stream (server-sent events) holds a thread of its own.
    run_simple(host, port, app, use_reloader=True, threaded=True)


def _known_revision(directory: str) -> Any:
    from alembic.script import ScriptDirectory
    from alembic.script.revision import ResolutionError
    from alembic.util.exc import CommandError

    scripts = ScriptDirectory(directory)

    def known(revision: str) -> bool:
        try:
            return scripts.get_revision(revision) is not None
        except (ResolutionError, CommandError):  # a revision this version never had
            return False

    return known


@main.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
@data_option
@with_appcontext
def backup_command(file: Path, force: bool) -> None:
    """Save the whole database (every game, group and event) to FILE, even while Scorepad runs
    (SQLite; on PostgreSQL it says which pg_dump command to run). `scorepad restore FILE` puts it back."""
    from scorepad import whole_backup

    try:
        click.echo(whole_backup.backup(current_app.config["SQLALCHEMY_DATABASE_URI"], file, force))
    except whole_backup.Refused as e:
        raise click.ClickException(str(e)) from None


@main.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace a database that already exists (it is kept beside, renamed).")
@data_option
@with_appcontext
def restore_command(file: Path, force: bool) -> None:
    """Replace the whole database with a backup made by `scorepad backup`, then bring it up to this
    version's migrations. Stop Scorepad first."""
    from flask_migrate import upgrade

    from scorepad import whole_backup

    directory = current_app.extensions["migrate"].directory
    try:
        said = whole_backup.restore(
            current_app.config["SQLALCHEMY_DATABASE_URI"], file, _known_revision(directory), force
        )
    except whole_backup.Refused as e:
        raise click.ClickException(str(e)) from None
    upgrade(directory=directory)  # a backup made by an older version is brought up to date now
    click.echo(said)


@main.command("init-postgres")
@click.option(
    "--admin",
    "admin_url",
    default=None,
    metavar="URL",
    help="Connect as a PostgreSQL superuser at this address and create them now "
    "(e.g. postgresql://postgres:PASSWORD@localhost/postgres). Without it, print the commands.",
)
@click.option("--database", "name", default="scorepad", show_default=True, help="The database to create.")
@click.option("--user", default="scorepad", show_default=True, help="The user (role) that owns it.")
def init_postgres_command(admin_url: str | None, name: str, user: str) -> None:
    """Create the PostgreSQL user and database Scorepad needs, and print the DATABASE_URL to use."""
    from scorepad import postgres_setup

    password = secrets.token_urlsafe(18)
    if admin_url is None:
        click.echo(postgres_setup.commands(name, user, password))
        return
    try:
        url = postgres_setup.create(admin_url, name, user, password)
    except postgres_setup.Refused as e:
        raise click.ClickException(str(e)) from None
    click.echo(
        f"Created the PostgreSQL user {user!r} and its database {name!r}. Start Scorepad with:\n"
        f"  DATABASE_URL='{url}' scorepad run\n"
        f"(keep that address private: it holds the password)."
    )
