"""The README keeps exactly two set-up commands, and CI runs the README's test command verbatim
(after installing PostgreSQL, which the tests also run on). Windows gets its own clearly labelled
block, the same steps in PowerShell: not a third command. The README is for users and short; the
rest is in docs/, and every link between them leads somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", quick)


def test_readme_has_exactly_two_one_line_commands() -> None:
    commands = _commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    assert "scorepad run" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert _commands()[1] in ci


def test_ci_installs_postgresql_when_its_binaries_are_missing() -> None:
    """Debian's package keeps initdb off PATH: the check must look where tests/postgres.py looks."""
    ci = (ROOT / ".ci" / "run").read_text()
    line = next(x for x in ci.splitlines() if "apt-get install" in x and "postgresql" in x)
    assert "command -v initdb" in line and "/usr/lib/postgresql/*/bin/initdb" in line
    assert ci.index(line) < ci.index(_commands()[1])


def test_ci_installs_the_reverse_proxies_of_the_https_tests() -> None:
    """tests/browser/test_https.py runs docs/https.md's nginx and Caddy blocks; under CI it fails
    rather than skips without them (tests/proxies.py)."""
    ci = (ROOT / ".ci" / "run").read_text()
    line = next(x for x in ci.splitlines() if "apt-get install" in x and "nginx" in x)
    assert "caddy" in line and "openssl" in line and "/usr/sbin/nginx" in line
    assert ci.index(line) < ci.index(_commands()[1])


def test_both_commands_install_the_tested_versions() -> None:
    """Issue 29, item 6: constraints.txt pins what the tests pass with; the README's commands (and so
    CI) install from it, and it pins only packages from PyPI, never the app itself."""
    for command in _commands():
        assert "pip install -q -c constraints.txt -e " in command
    pins = [line for line in (ROOT / "constraints.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert pins and all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[A-Za-z0-9_.!+\-]+", pin) for pin in pins), pins
    names = {pin.split("==")[0].lower().replace("_", "-") for pin in pins}
    assert "scorepad" not in names and {"gunicorn", "gevent", "flask", "pytest", "platformdirs"} <= names


def test_windows_gets_the_run_command_in_powershell() -> None:
    """Issue 29, item 1: the same three steps as the first command, as Windows spells them."""
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```powershell\n(.+?)\n```", quick, re.S)
    assert len(blocks) == 1 and "**Windows**" in quick
    assert blocks[0].splitlines() == [
        "py -m venv .venv",
        ".venv\\Scripts\\pip install -q -c constraints.txt -e .",
        ".venv\\Scripts\\scorepad run",
    ]
    install = (ROOT / "docs" / "install.md").read_text()
    assert f"```powershell\n{blocks[0]}\n```" in install and f"```sh\n{_commands()[0]}\n```" in install


def test_the_readme_is_short_and_every_link_leads_somewhere() -> None:
    readme = ROOT / "README.md"
    assert len(readme.read_text().splitlines()) <= 150
    for page in [readme, *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)|src=\"([^\"]+)\"", page.read_text()):
            path = next(t for t in target if t)
            if "://" in path:
                continue
            assert (page.parent / path).exists(), f"{page.relative_to(ROOT)} links to {path}, which does not exist"
