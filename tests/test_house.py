"""The map of the house (docs/architecture.md) holds in the code: the import graph of `scorepad/`,
read with `ast` (nothing imported or run), has no circle; no view imports the models or the
database session; nothing but the registries branches on an event's format."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorepad"
FORMAT_KEYS = ("military", "bid_whist", "whist_drive", "club")


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.relative_to(PACKAGE).parts:
            continue
        parts = ("scorepad", *path.relative_to(PACKAGE).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def imports_of(name: str, source: str) -> set[str]:
    """The modules of `scorepad` that `source` (module `name`) imports, anywhere in it (in a function,
    under TYPE_CHECKING): `from a import b` counts as importing `a.b` when that is a module, else `a`."""
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name, path.read_text()) for name, path in MODULES.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_finder_sees_a_circle_and_every_kind_of_import() -> None:
    """The checks below can fail: a planted circle is found, and so are imports in a function, under
    TYPE_CHECKING, relative ones and `from package import module`."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from scorepad.models import Game\n"
              "def f():\n    from scorepad.events import core\nfrom . import live\n")
    assert imports_of("scorepad.views.games", source) == {"scorepad.models", "scorepad.events.core",
                                                          "scorepad.views"}


def test_no_import_circle_in_scorepad() -> None:
    assert circles(GRAPH) == []


def _names_from(name: str, module: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == module:
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("scorepad.views")))
def test_views_leave_queries_to_the_services(name: str) -> None:
    """Views parse, call games/ or events/, render: they import no models and no database session."""
    assert "scorepad.models" not in GRAPH[name]
    assert "db" not in _names_from(name, "scorepad.extensions")


DISPATCH = re.compile(r"""\.format\s*[!=]=\s*["']|\{\s*["'](%s)["']\s*:""" % "|".join(FORMAT_KEYS))


def test_only_the_registry_knows_the_formats() -> None:
    """No `if event.format == "..."` and no dict keyed by format outside events/registry.py (a
    format's own module may compare with its own KEY, which is not a literal)."""
    offenders = [str(path.relative_to(PACKAGE.parent)) for name, path in MODULES.items()
                 if name != "scorepad.events.registry" and DISPATCH.search(path.read_text())]
    assert offenders == []


def test_each_format_is_found_in_one_step_from_the_folder_names() -> None:
    """events/<format> holds its service, views/<pages>.py its routes, templates/<pages>/ its pages."""
    from scorepad.events.registry import all_formats

    templates = PACKAGE.parent / "templates"
    for fmt in all_formats():
        assert f"scorepad.views.{fmt.pages}" in MODULES, fmt.key
        for page in ("control.html", "_room.html", "projector.html", "standings.html", "_board.html", "qr.html"):
            assert (templates / fmt.pages / page).is_file(), f"{fmt.pages}/{page}"
