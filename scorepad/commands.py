"""The commands of the app: `score FILE.json`, `init-db`, `load-demo`.

`create_app` registers them on the Flask CLI (`flask --app scorepad score`); the `scorepad` entry
point (`cli.py`) serves them too, with `run`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NoReturn

import click
from flask import Flask
from flask.cli import with_appcontext

from scorepad.games import sheets
from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.record import parse_record, score_record

EXIT_INVALID = 2
RECORD_MAX_BYTES = 2 * 1024 * 1024  # a 1,000-hand record of seven players is about 300 KB


def _one_line(text: str) -> str:
    """Escape what a terminal would not print as text (newlines, escapes): one problem, one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _fail(lines: list[str]) -> NoReturn:
    for line in lines:
        click.echo(_one_line(line), err=True)
    sys.exit(EXIT_INVALID)


def _load(file: Path) -> object:
    """The file's JSON; every way it can fail exits 2 with one line (never a traceback)."""
    try:
        if file.stat().st_size > RECORD_MAX_BYTES:
            _fail([f"{file}: too large for a game record ({file.stat().st_size // 1024} KB; at most "
                   f"{RECORD_MAX_BYTES // 1024} KB)"])
        return json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        _fail([f"{file}: cannot read the file ({e.strerror or e})"])
    except UnicodeDecodeError:
        _fail([f"{file}: not a UTF-8 text file"])
    except json.JSONDecodeError as e:
        _fail([f"{file}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"])
    except RecursionError:
        _fail([f"{file}: not a usable game record (lists or objects nested too deeply)"])
    except ValueError:  # int() past the digit limit; JSONDecodeError is caught above
        _fail([f"{file}: not a usable game record (a number longer than {sys.get_int_max_str_digits()} "
               f"digits)"])


@click.command("score")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the sheet as JSON instead of a table.")
def score_command(file: Path, as_json: bool) -> None:
    """Validate a game record and print its score sheet (exit status 2 if it is invalid)."""
    data = _load(file)
    try:
        sheet = score_record(data)
        title = parse_record(data).title
    except RuleErrors as e:
        _fail([f"{file}: {err}" for err in e.errors])
    except RuleError as e:
        _fail([f"{file}: {e}"])
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
    click.echo(f"Loaded the demo event: director's link /d/{event.director_token}" if event
               else "Demo event already loaded.")


COMMANDS = (score_command, init_db_command, load_demo_command)


def register(app: Flask) -> None:
    """Add the commands to `flask --app scorepad ...`."""
    for command in COMMANDS:
        app.cli.add_command(command)
