"""The long fuzz run (not a test): 100,000 generated requests over every route of the app, with the
strategies of `tests/fuzz.py`, against one app on a fresh SQLite file (or, with --postgresql, a
database of a throwaway PostgreSQL server: `tests/postgres.py`). Prints the answers counted by
status, the routes that answered 5xx, and one traceback per distinct crash; exits 1 on any 5xx.

    .venv/bin/python bench/fuzz_routes.py [--requests 100000] [--seed 1] [--postgresql]

Unlike the suite's short run it does not compare every game and event before and after each
request (that costs more than the request): it hunts crashes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from scorepad import create_app
from tests.fuzz import build_world, request_for, routes, send, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgresql", action="store_true", help="run on a throwaway PostgreSQL server")
    args = parser.parse_args()
    if not args.postgresql:
        folder = Path(tempfile.mkdtemp(prefix="scorepad-fuzz-"))
        return fuzz(args, f"sqlite:///{folder / 'fuzz.sqlite3'}")
    from tests.postgres import Cluster, find_binaries

    binaries = find_binaries()
    if binaries is None:
        sys.exit("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin)")
    cluster = Cluster(binaries)
    try:
        cluster.start()
        return fuzz(args, cluster.url(cluster.create_database()))
    finally:
        cluster.stop()


def fuzz(args: argparse.Namespace, database_url: str) -> int:
    from flask_migrate import upgrade

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "fuzz",
            "WTF_CSRF_ENABLED": False,
            "SCOREPAD_DEMO": False,
            "SQLALCHEMY_DATABASE_URI": database_url,
        }
    )
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
    world = build_world(app)
    table = routes(app)
    client = app.test_client()
    statuses: list[int] = []
    crashes: dict[str, tuple[int, str, str]] = {}  # where -> (count, a request, the traceback)
    by_route: dict[str, int] = {}

    @seed(args.seed)
    @settings(
        max_examples=args.requests,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        rule, method = data.draw(st.sampled_from(table))
        request = data.draw(request_for(world, rule, method))
        try:
            response = send(client, request)
            status = response.status_code  # type: ignore[attr-defined]
            response.close()  # type: ignore[attr-defined]
        except Exception:  # the test app propagates what would be a 500
            status = 500
            frames = traceback.extract_tb(sys.exc_info()[2])
            where = next((f for f in reversed(frames) if "/scorepad/" in f.filename), frames[-1])
            error = sys.exc_info()[1]
            key = (
                f"{type(error).__name__} at {where.filename}:{where.lineno}: "
                f"{(str(error).splitlines() or [''])[0][:120]}"
            )
            count, first, text = crashes.get(key, (0, repr(request)[:600], traceback.format_exc()))
            crashes[key] = (count + 1, first, text)
        statuses.append(status)
        if status >= 500:
            name = f"{method} {rule.rule}"
            by_route[name] = by_route.get(name, 0) + 1
        if len(statuses) % 10_000 == 0:
            print(f"  {len(statuses)} requests, {sum(1 for s in statuses if s >= 500)} 5xx", flush=True)

    started = time.perf_counter()
    one()
    seconds = time.perf_counter() - started
    counts = summary(statuses)
    errors = sum(n for s, n in counts.items() if s >= 500)
    print(
        f"fuzz_routes: {len(statuses)} requests over {len(table)} routes in {seconds:.0f} s "
        f"({len(statuses) / seconds:.0f}/s), seed {args.seed}, on {database_url.split(':')[0]}"
    )
    print("answers by status: " + ", ".join(f"{s}: {n}" for s, n in counts.items()))
    print(f"5xx: {errors}")
    for name, n in sorted(by_route.items(), key=lambda kv: -kv[1]):
        print(f"  {n:6d}  {name}")
    for key, (n, first, text) in crashes.items():
        print(f"\n{n} x {key}\n  first request: {first}\n{text}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
