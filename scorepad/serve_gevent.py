"""`scorepad run` where gunicorn cannot run (Windows), or with `--server gevent`: gevent's own WSGI
server (`gevent.pywsgi`) in one process, which holds the live streams (server-sent events) as
gunicorn's gevent worker does: a greenlet each, up to `serve.WORKER_CONNECTIONS` connections.

`scorepad run` migrates the database and prints nothing yet, then starts this module in a process
of its own (`python -m scorepad.serve_gevent HOST PORT`, `serve.replace_process`): gevent patches
the standard library first, then the app is imported and built in this same process, as gunicorn's
worker does, since patching a process that already loaded the app is what gevent warns against.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

# (imported after the patch, on purpose)
import os  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402

GRACE_SECONDS = 3  # as gunicorn's --graceful-timeout: open streams are closed after this


def main(argv: list[str]) -> int:
    import gevent
    from gevent.pool import Pool
    from gevent.pywsgi import WSGIServer

    from scorepad import create_app
    from scorepad.serve import BANNER, WORKER_CONNECTIONS

    host, port = argv[0], int(argv[1])
    app = create_app()
    server = WSGIServer((host, port), app, spawn=Pool(WORKER_CONNECTIONS), log=None)
    server.start()  # listening: the port is ours before the banner says so
    relay = app.extensions.get("scorepad.relay")
    if relay is not None:  # hear the live updates before the first stream is served
        relay.start()
    print(os.environ.get(BANNER, "Scorepad is running."), flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    if os.name != "nt":  # Ctrl+C, and systemd's or a container's stop
        for number in (signal.SIGINT, signal.SIGTERM):
            gevent.signal_handler(number, server.close)
    else:  # Windows: Ctrl+C is a KeyboardInterrupt, which the hub need not print as an error
        hub = gevent.get_hub()
        hub.NOT_ERROR = (*hub.NOT_ERROR, KeyboardInterrupt)
    try:  # until Ctrl+C or SIGTERM; then the open streams get GRACE_SECONDS to finish
        server.serve_forever(stop_timeout=GRACE_SECONDS)
    except KeyboardInterrupt:
        pass
    if relay is not None:
        relay.stop()
    print("Stopped.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
