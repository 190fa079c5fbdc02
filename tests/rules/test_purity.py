"""The rules and formats packages import only the standard library and each other."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE = [ROOT / "scorepad" / "rules", ROOT / "scorepad" / "formats"]
ALLOWED_PREFIXES = ("scorepad.rules", "scorepad.formats", "__future__")


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_pure_packages_import_only_stdlib_and_themselves() -> None:
    bad = []
    for folder in PURE:
        for path in folder.rglob("*.py"):
            for name in _imports(path):
                top = name.split(".")[0]
                if name.startswith(ALLOWED_PREFIXES):
                    continue
                if top not in sys.stdlib_module_names:
                    bad.append(f"{path.relative_to(ROOT)}: {name}")
    assert bad == []


def test_importing_every_variant_loads_no_web_or_database_code() -> None:
    code = (
        "import sys; from scorepad.rules import all_variants; import scorepad.rules.record;"
        "all_variants();"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlalchemy', 'werkzeug', 'jinja2')"
        " or m in ('scorepad.models', 'scorepad.views', 'scorepad.services', 'scorepad.extensions')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_rules_pass_mypy_strict() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "scorepad/rules", "scorepad/formats"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout
