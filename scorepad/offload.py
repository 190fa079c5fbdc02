"""Heavy pure work off the worker's loop (issue 33): a game record's check, a backup's, a big
export's encoding, the result card's drawing.

`scorepad run` serves every request of a worker on one thread (gunicorn's gevent worker): CPU-bound
Python in one request holds up every other request of the worker, the tables' entries and the
projectors' pushes, until it ends, and past 30 s without a heartbeat gunicorn kills the worker
(bench/heavy_neighbours.py: a restore of the largest backup took 12 s of CPU; four at once were
killed). `run(fn, *args)` hands such work to a helper process of the worker's own while the
request's greenlet waits cooperatively, so the loop serves the others meanwhile.

Only pure work goes there: a module-level function whose arguments and result are plain data
(they are pickled: bytes, dicts, the rules' dataclasses; its RuleError, RuleErrors or BackupError
comes back as the same exception), no Flask, no database session. At most `SCOREPAD_HEAVY_JOBS`
jobs (1) run at once per worker, one per helper process; the next ones wait in line, holding
nothing but their request: a caller offloads before its request's first query, or ends its
transaction first (a request waiting there must hold no database connection, let alone SQLite's
write lock). Elsewhere (the test client, `scorepad run --dev`'s threads, the command line) `fn`
runs inline, the same limit kept with a thread semaphore.

Why a process and not gevent's hub threadpool (`get_hub().threadpool.apply`): gevent's own docs
call the threadpool for functions that release the GIL, and these hold it. Measured with a
64-table x 500-hand Military record checked three times beside a loop doing a request's worth of
SQLite queries and Python every 10 ms, on one core (bench/offload_choice.py; docs/benchmarks.md):
on the threadpool the loop waited 6.5 ms at the median and 230-330 ms at p99 (max 440-610 ms), the
waits being the GIL's switch interval and, for the long ones, the garbage collector's full passes
over the job's objects, which hold the GIL; in a helper process 1.4 ms and 6-11 ms (max 12-28), at
`nice` 10 1.3-1.4 and 7.5-13 ms (max 18-26). The standard library's ProcessPoolExecutor and multiprocessing.Pool hang under gevent's
monkey-patched threads (gevent's documentation of patch_thread), hence this small pool of its own:
gevent's cooperative subprocess pipes, one pickled request and answer at a time.

The helper runs at `nice` HELPER_NICE: on a machine with one free core it takes what the loop
leaves; with the garbage collector off during a job (the job's objects are freed by reference
counting when it ends; one full pass after it), which halves a big check's time.
"""

from __future__ import annotations

import gc
import os
import pickle
import sys
import threading
import traceback
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from flask import Flask

T = TypeVar("T")
EXTENSION = "scorepad.offload"
HEAVY_JOBS = 1  # SCOREPAD_HEAVY_JOBS: jobs at once per worker (a helper process each)
HELPER_NICE = 10
_LENGTH = 8  # bytes of the length before each pickled message


class HelperFailed(RuntimeError):
    """The helper process ended without answering (killed, out of memory): the job is not done."""


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Offloader(int(app.config.get("SCOREPAD_HEAVY_JOBS", HEAVY_JOBS)))


def run(fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)`, waiting in line for one of this worker's heavy-job places; off the loop under
    gevent (in a helper process), inline elsewhere. Its exception is raised here as it was there."""
    # Flask imported here, not above: the helper process that imports this module never loads it
    from flask import current_app

    offloader: Offloader = current_app.extensions[EXTENSION]
    return offloader.run(fn, *args)


def off_loop() -> bool:
    """Whether this app's heavy jobs run in helper processes (under gevent, or as set): a job may
    then do what the worker's loop must not, as making an app of its own."""
    from flask import current_app

    offloader: Offloader = current_app.extensions[EXTENSION]
    return offloader.processes


def on_gevent() -> bool:
    """Whether this process serves under gevent's monkey-patching (gunicorn's gevent worker)."""
    gevent = sys.modules.get("gevent")
    if gevent is None:
        return False
    from gevent import monkey

    return bool(monkey.is_module_patched("socket"))


class Offloader:
    """A worker's heavy-job places: `limit` at once; off the loop in helper processes under gevent
    (or when `processes` says so), inline otherwise."""

    def __init__(self, limit: int, processes: bool | None = None) -> None:
        if limit < 1:
            raise ValueError(f"SCOREPAD_HEAVY_JOBS must be at least 1, not {limit}")
        self.limit = limit
        self._processes = processes
        self._line: AbstractContextManager[Any] | None = None
        self._idle: list[Helper] = []
        self._pid = os.getpid()

    @property
    def processes(self) -> bool:
        return on_gevent() if self._processes is None else self._processes

    def line(self) -> AbstractContextManager[Any]:
        """The semaphore every job passes (made on first use: gevent's under gevent, a thread's
        elsewhere); made again in a process forked since."""
        if self._line is None or self._pid != os.getpid():
            self._pid, self._idle = os.getpid(), []
            if on_gevent():
                from gevent.lock import BoundedSemaphore

                self._line = BoundedSemaphore(self.limit)
            else:
                self._line = threading.BoundedSemaphore(self.limit)
        return self._line

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        with self.line():
            if not self.processes:
                return fn(*args)
            helper: Helper | None = self._idle.pop() if self._idle else Helper()
            assert helper is not None
            try:
                return helper.call(fn, args)  # the job's own exception too: the helper goes on
            except HelperFailed:
                helper.close()
                helper = None
                raise
            finally:
                if helper is not None:
                    self._idle.append(helper)

    def close(self) -> None:
        while self._idle:
            self._idle.pop().close()


class Helper:
    """One helper process (`python -m scorepad.offload`): a job at a time, asked and answered as
    pickles on its standard input and output. It ends when its input closes (this worker gone)."""

    def __init__(self) -> None:
        checkout = str(Path(__file__).resolve().parent.parent)  # the helper runs this worker's code
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [checkout, os.environ.get("PYTHONPATH")]))}
        if on_gevent():
            from gevent import subprocess
        else:
            import subprocess
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scorepad.offload"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            close_fds=True,
        )

    def call(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            _send(stdin, (fn, args))
            ok, value = _receive(stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as e:
            raise HelperFailed(
                f"the helper process stopped before answering ({e!r}, exit status {self.process.poll()})"
            ) from None
        if ok:
            return value
        raise value

    def close(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:
                    pass
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def _send(pipe: IO[bytes], message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(len(data).to_bytes(_LENGTH, "big") + data)
    pipe.flush()


def _read(pipe: IO[bytes], size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = pipe.read(left)
        if not chunk:
            raise EOFError("the pipe closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(pipe: IO[bytes]) -> Any:
    return pickle.loads(_read(pipe, int.from_bytes(_read(pipe, _LENGTH), "big")))


# --------------------------------------------------------------------------- the helper's side


def _answer(fn: Callable[..., object], args: tuple[Any, ...]) -> tuple[bool, object]:
    """(True, fn's result) or (False, its exception, the helper's traceback added as a note, shown
    in the worker's log when it is not handled there); an exception that cannot be pickled comes
    back as a RuntimeError with its words."""
    gc.disable()  # what the job makes is freed when it ends; one full pass after it (see the docstring)
    try:
        answer: tuple[bool, object] = (True, fn(*args))
    except Exception as e:
        e.add_note("in the helper process (scorepad.offload):\n" + traceback.format_exc())
        answer = (False, e)
    finally:
        gc.enable()
    try:
        pickle.dumps(answer[1], protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:
        answer = (False, RuntimeError(f"{answer[1]!r} (its answer could not be sent back: {e!r})"))
    return answer


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """Answer jobs until the input closes."""
    from scorepad.rules.base import forget_derivations

    while True:
        try:
            fn, args = _receive(stdin)
        except EOFError:
            return
        _send(stdout, _answer(fn, args))
        forget_derivations()  # nothing a job derived is asked for again here
        gc.collect()


if __name__ == "__main__":
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a print() in a job goes to the log, never into the answers
    if hasattr(os, "nice"):  # not on Windows (scorepad run serves there with gevent's own server)
        os.nice(HELPER_NICE)
    gc.freeze()  # the modules imported so far: out of the full passes
    serve(sys.stdin.buffer, answers)
