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
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from scorepad.models import Game\n"
        "def f():\n    from scorepad.events import core\nfrom . import live\n"
    )
    assert imports_of("scorepad.views.games", source) == {"scorepad.models", "scorepad.events.core", "scorepad.views"}


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


ANNOUNCING = re.compile(r"\b(announce|publish)\s*\(")


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("scorepad.views")))
def test_views_publish_nothing(name: str) -> None:
    """Every write has one exit: the service that commits it announces it (issue 27). A view imports
    neither the broker nor the relay (`scorepad.live`), and calls no announce or publish."""
    assert "scorepad.live" not in GRAPH[name]
    assert ANNOUNCING.findall(MODULES[name].read_text()) == []


def test_relay_handlers_are_registered_by_create_app_alone() -> None:
    """No blueprint registers a relay handler (`record_once(... live.on ...)`): `pushes.init_app`,
    called by create_app, is the one place that says what each kind of change shows."""
    offenders = [
        name
        for name, path in MODULES.items()
        if name != "scorepad.pushes" and re.search(r"\blive\.on\(|\bon\(app,", path.read_text())
    ]
    assert offenders == []


# What may still keep something in app.extensions by itself, and why it is not derived state
NOT_KEPT = {
    "scorepad.kept": "the one mechanism itself",
    "scorepad.views.pwa": "the static files' content hashes, by file and modification time: not rows",
    "scorepad.pushes.boards": "the push engine's schedule and the board each screen shows now: not a cache",
}


def test_derived_state_is_kept_by_one_mechanism() -> None:
    """Issue 27, item 3: every value derived from the rows and kept between requests goes through
    scorepad/kept.py (one staleness rule, one eviction rule, one check against a fresh derivation)."""
    keeping = {name for name, path in MODULES.items() if "extensions.setdefault(" in path.read_text()}
    assert keeping == set(NOT_KEPT)


def test_the_house_checks_see_a_publishing_view() -> None:
    assert ANNOUNCING.findall("    core.announce(event)\n    publish (event)") == ["announce", "publish"]


DISPATCH = re.compile(r"""\.format\s*[!=]=\s*["']|\{{\s*["']({})["']\s*:""".format("|".join(FORMAT_KEYS)))


def test_only_the_registry_knows_the_formats() -> None:
    """No `if event.format == "..."` and no dict keyed by format outside events/registry.py (a
    format's own module may compare with its own KEY, which is not a literal)."""
    offenders = [
        str(path.relative_to(PACKAGE.parent))
        for name, path in MODULES.items()
        if name != "scorepad.events.registry" and DISPATCH.search(path.read_text())
    ]
    assert offenders == []


def test_each_format_is_found_in_one_step_from_the_folder_names() -> None:
    """events/<format> holds its service, views/<pages>.py its routes, templates/<pages>/ its pages."""
    from scorepad.events.registry import all_formats

    templates = PACKAGE.parent / "templates"
    for fmt in all_formats():
        assert f"scorepad.views.{fmt.pages}" in MODULES, fmt.key
        for page in ("control.html", "_room.html", "projector.html", "standings.html", "_board.html", "qr.html"):
            assert (templates / fmt.pages / page).is_file(), f"{fmt.pages}/{page}"


# --------------------------------------------------------------------------- variants behind their registry

VARIANT_REGISTRIES = {
    # module: why it may name variants by their keys
    "scorepad.rules": "the variants' registry: VARIANT_MODULES maps each key to its module",
    "scorepad.games.entry": "the entry adapters' registry: _ADAPTERS maps each home variant to its adapter",
}


def _variant_keys() -> frozenset[str]:
    from scorepad.rules import VARIANT_MODULES

    return frozenset(VARIANT_MODULES)


def _names_a_variant(node: ast.AST, keys: frozenset[str]) -> bool:
    """A variant's key as a literal, or read off a variant module (`whist.VARIANT.key`)."""
    if isinstance(node, ast.Constant):
        return node.value in keys
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "key"
        and (
            isinstance(node.value, ast.Name)
            and node.value.id == "VARIANT"
            or isinstance(node.value, ast.Attribute)
            and node.value.attr == "VARIANT"
        )
    )


def variant_branches(source: str, keys: frozenset[str]) -> list[int]:
    """The lines of `source` that branch on a variant's key: a comparison with one (`==`, `in` a
    tuple or a set of them), a dict keyed by one, a set holding one, a `case` of one."""

    def named(node: ast.AST) -> bool:
        items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
        return any(_names_a_variant(item, keys) for item in items)

    def branches(node: ast.AST) -> bool:
        if isinstance(node, ast.Compare):
            return any(named(side) for side in (node.left, *node.comparators))
        if isinstance(node, ast.Dict):
            return any(k is not None and _names_a_variant(k, keys) for k in node.keys)
        if isinstance(node, ast.MatchValue):
            return _names_a_variant(node.value, keys)
        return isinstance(node, ast.Set) and named(node)

    return sorted(node.lineno for node in ast.walk(ast.parse(source)) if branches(node))


def test_the_finder_sees_every_kind_of_branch_on_a_variant() -> None:
    """What issue 27 found (rules/stats.py's dicts keyed by variant and its Whist branch, club_night's
    set of variants ranked by points, the adapters' copied ranges), and what is not a branch."""
    keys = frozenset({"whist", "bid_whist", "nomination"})
    source = (
        "if game.variant == whist.VARIANT.key:\n    pass\n"  # 1
        "FACTS = {nomination.VARIANT.key: 1}\n"  # 3
        'RANKED = frozenset({"bid_whist"})\n'  # 4
        'ok = variant in ("nomination", "whist")\n'  # 5
        'ADAPTERS = {"nomination": 3}\n'  # 6
        'match v:\n    case "whist":\n        pass\n'  # 8
        "if VARIANT.key != key:\n    pass\n"  # 10
        'KEY = "bid_whist"\nbp = Blueprint("bid_whist")\ng = Game(variant="whist")\n'
        'form = {"variant": DEFAULT}\nif event.format == KEY:\n    pass\n'
    )
    assert variant_branches(source, keys) == [1, 3, 4, 5, 6, 8, 10]


def test_only_the_registries_branch_on_a_variant() -> None:
    """No `if variant == "..."`, no dict or set keyed by variant, outside the registries (each
    listed with its reason, and each still needing it): a variant's facts are its VARIANT's
    (docs/architecture.md, "Adding a sixth variant"), read through `get_variant`. A variant's own
    module may name itself."""
    keys = _variant_keys()
    found = {
        name: variant_branches(path.read_text(), keys)
        for name, path in MODULES.items()
        if name not in {f"scorepad.rules.{key}" for key in keys}
    }
    offenders = {name: lines for name, lines in found.items() if lines and name not in VARIANT_REGISTRIES}
    assert offenders == {}
    assert all(found[name] for name in VARIANT_REGISTRIES), "an exception no longer needed: take it off the list"


def template_branch(keys: frozenset[str]) -> re.Pattern[str]:
    """A template's or a script's comparison with a variant's key (`== 'whist'`, `in ['whist']`,
    `case "whist":`), or an object keyed by one (`{"whist": ...}`)."""
    key = "(" + "|".join(sorted(keys)) + ")"
    return re.compile(
        r"""(==|!=|\bin\b|\bcase\b)\s*[(\[]?\s*["']""" + key + r"""["']|["']""" + key + r"""["']\s*(==|!=|:)"""
    )


def test_the_template_finder_sees_a_branch_on_a_variant() -> None:
    branch = template_branch(frozenset({"whist", "bid_whist"}))
    for found in (
        "{% if gv.game.variant == 'whist' %}",
        "{% if key in ('bid_whist', 'x') %}",
        'case "whist":',
        'const rows = {"bid_whist": 2}',
        "{% if 'whist' != key %}",
    ):
        assert branch.search(found), found
    for fine in ("{{ variant.name }}", '{{ url_for("bid_whist.team") }}', "<p>Whist in a rubber</p>"):
        assert not branch.search(fine), fine


def test_no_template_or_script_branches_on_a_variant() -> None:
    """Templates and scripts format what the variant's rules and facts say; none compares a key."""
    branch = template_branch(_variant_keys())
    root = PACKAGE.parent
    offenders = [
        str(path.relative_to(root))
        for folder, pattern in (("templates", "*.html"), ("static/js", "*.js"))
        for path in sorted((root / folder).rglob(pattern))
        if branch.search(path.read_text())
    ]
    assert offenders == []


# --------------------------------------------------------------------------- the checklists are true


def _protocol_members(protocol: type) -> set[str]:
    return set(protocol.__annotations__) | {
        name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")
    }


def _section(title: str) -> str:
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_the_add_a_variant_checklist_names_every_fact_of_a_variant() -> None:
    from scorepad.rules.base import Variant

    named = set(re.findall(r"`([a-z_]+)`", _section("Adding a sixth variant")))
    assert sorted(_protocol_members(Variant) - named) == []


def test_the_add_a_format_checklist_names_every_fact_of_a_format() -> None:
    from scorepad.events.core import EventFormat

    named = set(re.findall(r"`([a-z_]+)`", _section("Adding a fifth event format")))
    assert sorted(_protocol_members(EventFormat) - named) == []


def test_every_format_supplies_every_fact() -> None:
    """Each registry entry gives each member of `EventFormat`, of the kind the event core reads."""
    from scorepad.events.core import EventFormat
    from scorepad.events.registry import FORMATS

    members = _protocol_members(EventFormat)
    for key, fmt in FORMATS.items():
        assert sorted(m for m in members if not hasattr(fmt, m)) == [], key
        assert fmt.key == key and fmt.title and fmt.pages
        assert isinstance(fmt.keeps_board, bool)
        assert all(callable(getattr(fmt, m)) for m in members - set(EventFormat.__annotations__)), key
