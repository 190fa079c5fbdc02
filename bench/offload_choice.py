"""Why scorepad/offload.py hands heavy work to a helper process and not to gevent's hub threadpool
(not a test): the loop's waits while a heavy pure job runs, each way.

Under gevent's monkey-patching, a greenlet does a table's request every 10 ms (ten SQLite queries
and some Python) and notes how late each one finished after it was due (its wait for the loop
included), while the largest game record bench/heavy_neighbours.py imports (a Military game of
64 tables x 500 hands) is checked three times, one way:

- inline: on the loop itself (what the import did before: the loop waits the whole check);
- thread: on gevent's hub threadpool (`get_hub().threadpool.apply`), a real thread that shares the
  GIL with the loop;
- process: in a child process (a new one per check here; offload.py keeps one), nice 0;
- process10: the same at nice 10, as offload.py runs its helper.

`--heap N` keeps N small objects alive beside (a worker's kept derivations: every full pass of the
garbage collector walks them); `--no-gc` turns the collector off, to tell its pauses from the GIL's
switch interval. Run it on one core, as `--server-cpus 0` runs the server:

    taskset -c 0 .venv/bin/python bench/offload_choice.py thread
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse
import gc
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gevent

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heavy_neighbours import largest_record

from scorepad.rules.record import read_json, score_record

CHILD = (
    "import os, sys; os.nice(int(sys.argv[1])); from scorepad.rules.record import read_json, score_record; "
    "print(len(score_record(read_json(sys.stdin.buffer.read())).lines))"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("inline", "thread", "process", "process10"))
    parser.add_argument("--heap", type=int, default=300_000)
    parser.add_argument("--no-gc", action="store_true")
    args = parser.parse_args()
    if args.no_gc:
        gc.disable()
    kept = [{"k": i, "v": [i]} for i in range(args.heap)]  # noqa: F841 - alive beside the job
    raw = json.dumps(largest_record()).encode()
    root = str(Path(__file__).resolve().parents[1])

    def check() -> int:
        return len(score_record(read_json(raw)).lines)

    def heavy() -> int:
        if args.mode == "inline":
            return check()
        if args.mode == "thread":
            return int(gevent.get_hub().threadpool.apply(check))
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, "10" if args.mode == "process10" else "0"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": root},
        )
        out, _ = child.communicate(raw)
        return int(out)

    late: list[float] = []
    stop = [False]

    def table() -> None:
        db = sqlite3.connect(Path(tempfile.mkdtemp()) / "probe.db")
        db.execute("create table t (x)")
        due = time.perf_counter()
        while not stop[0]:
            for _ in range(10):
                db.execute("select count(*) from t").fetchone()
            sum(range(30_000))
            late.append(time.perf_counter() - due)
            due = time.perf_counter() + 0.01
            gevent.sleep(0.01)

    prober = gevent.spawn(table)
    gevent.sleep(1)
    alone = sorted(late)
    late.clear()
    start = time.perf_counter()
    for _ in range(3):
        heavy()
    took = time.perf_counter() - start
    gevent.sleep(0.05)  # the request held up by the last check (inline: by all three) is noted
    stop[0] = True
    prober.join()
    during = sorted(late)

    def at(values: list[float], p: float) -> float:
        return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))] * 1000 if values else float("nan")

    print(
        f"{args.mode:9} 3 checks in {took:.1f} s; a table's request, from when it was due: alone p50 "
        f"{at(alone, 50):.1f} p99 {at(alone, 99):.1f} ms; during the checks ({len(during)} requests) p50 "
        f"{at(during, 50):.1f} p99 {at(during, 99):.1f} max {at(during, 100):.0f} ms"
    )


if __name__ == "__main__":
    main()
