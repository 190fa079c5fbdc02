"""The commands of the app: `score FILE.json`, `init-db`, `load-demo`, `export-event`, `import-event`.

`create_app` registers them on the Flask CLI (`flask --app scorepad score`); the `scorepad` entry
point (`cli.py`) serves them too, with `run`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click
from flask import Flask
from flask.cli import with_appcontext

from scorepad.games import sheets
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.record import RECORD_MAX_BYTES, parse_record, problems, read_json, score_record, too_large

EXIT_INVALID = 2


def _one_line(text: str) -> str:
    """Escape what a terminal would not print as text (newlines, escapes): one problem, one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _fail(lines: list[str]) -> NoReturn:
    for line in lines:
        click.echo(_one_line(line), err=True)
    sys.exit(EXIT_INVALID)


def _load(file: Path) -> object:
    """The file's JSON, read by the same code as the home page's import (`read_json`): its size
    checked before it is read; every way it can fail exits 2 with one line (never a traceback)."""
    try:
        size = file.stat().st_size
        if size > RECORD_MAX_BYTES:
            raise too_large(size)
        return read_json(file.read_bytes())
    except OSError as e:
        _fail([f"{file}: cannot read the file ({e.strerror or e})"])
    except RuleError as e:
        _fail([f"{file}: {line}" for line in problems(e)])


@click.command("score")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the sheet as JSON instead of a table.")
def score_command(file: Path, as_json: bool) -> None:
    """Validate a game record and print its score sheet (exit status 2 if it is invalid)."""
    data = _load(file)
    try:
        sheet = score_record(data)
        title = parse_record(data).title
    except (RuleError, RuleErrors) as e:
        _fail([f"{file}: {line}" for line in problems(e)])
    click.echo(sheets.to_json(sheet) if as_json else sheets.to_text(sheet, title), nl=not as_json)
    if as_json:
        click.echo()


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Apply the database migrations (creates the database when it does not exist)."""
    from flask import current_app
    from flask_migrate import upgrade

    upgrade(directory=current_app.extensions["migrate"].directory)
    click.echo("Database is up to date.")


@click.command("load-demo")
@with_appcontext
def load_demo_command() -> None:
    """Store the example games as demo games (once)."""
    from scorepad.events import military
    from scorepad.games import records

    count = records.load_demo_games()
    click.echo(f"Loaded {count} demo games." if count else "Demo games already loaded.")
    event = military.load_demo_event()
    click.echo(
        f"Loaded the demo event: director's link /d/{event.director_token}" if event else "Demo event already loaded."
    )


@click.command("export-event")
@click.argument("link")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the backup to this file (default: standard output).",
)
@with_appcontext
def export_event_command(link: str, output: Path | None) -> None:
    """Write the backup of the event whose director's LINK (or token) is given: everything but its
    secret links and PIN (docs/event-backup.md). Exit status 2 if there is no such event. A bare
    token may start with "-": give the link, or put "--" before the token."""
    from scorepad.events import backup, core

    event = core.by_director_token(backup.token_of(link))
    if event is None:
        _fail([f"{link}: no event has this director's link on this server"])
    data = backup.dumps(backup.export_event(event))
    if output is None:
        click.echo(data.decode("utf-8"), nl=False)
        return
    try:
        output.write_bytes(data)
    except OSError as e:
        _fail([f"{output}: cannot write the file ({e.strerror or e})"])
    click.echo(f"Wrote the backup of {event.name!r} to {output} ({len(data) // 1024 + 1} KB).", err=True)


@click.command("import-event")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--pin", "ask_pin", is_flag=True, help="Ask for a director's PIN for the restored event (default: none).")
@click.option("--url", default="", help="This server's address, to print whole links (e.g. http://192.168.1.20:5000).")
@with_appcontext
def import_event_command(file: Path, ask_pin: bool, url: str) -> None:
    """Restore an event from a backup as a new event with new links, and print them (exit status 2,
    nothing stored, if the backup cannot be restored)."""
    from scorepad.events import backup
    from scorepad.events.registry import get_format

    try:
        if file.stat().st_size > backup.limit_bytes():
            raise backup.too_large(file.stat().st_size)
        data = backup.parse(file.read_bytes())
        pin = (
            click.prompt(
                "New director's PIN (4 to 8 digits)",
                hide_input=True,
                confirmation_prompt=True,
                default="",
                show_default=False,
            )
            if ask_pin
            else ""
        )
        event = backup.restore(data, pin=pin, actor="command line")
    except OSError as e:
        _fail([f"{file}: cannot read the file ({e.strerror or e})"])
    except backup.BackupError as e:
        _fail([f"{file}: {problem}" for problem in e.problems])
    base = url.rstrip("/")
    if event.copy_of is not None:
        click.echo(f"This server already has {event.copy_of!r}: the backup is restored as a separate copy.")
    click.echo(f"Restored {event.name!r} as a new event. Its links (the old ones do not work here):")
    click.echo(f"  director (keep it private): {base}/d/{event.director_token}")
    if event.recovery_code:
        click.echo(f"  PIN recovery code (shown once): {event.recovery_code}")
    click.echo(f"  projector: {base}/b/{event.public_id}")
    for table in event.tables:
        click.echo(f"  table {table.number}: {base}/t/{table.token}")
    for entrant in get_format(event.format).teams(event):
        click.echo(f"  team {entrant.number} ({entrant.name}): {base}/team/{entrant.token}")
    click.echo("Print the new QR cards from the control room: the old cards do not open this event.")


COMMANDS = (score_command, init_db_command, load_demo_command, export_event_command, import_event_command)


def register(app: Flask) -> None:
    """Add the commands to `flask --app scorepad ...`."""
    for command in COMMANDS:
        app.cli.add_command(command)
