#!/bin/sh
# Start Scorepad as the container does (Dockerfile's ENTRYPOINT); CI runs this same script directly
# (tests/test_deploy.py). Everything is read from the environment:
#   SCOREPAD_DATA     the data folder (the image's volume, /data)
#   SCOREPAD_PORT     the port inside the container (5000)
#   SCOREPAD_WORKERS  gunicorn workers (several need DATABASE_URL=postgresql://...)
#   SCOREPAD_PROXY_HOPS=1 behind Caddy or another reverse proxy (compose.yaml sets it)
#   DATABASE_URL, SECRET_KEY, SCOREPAD_DEMO ... as for `scorepad run` (docs/operations.md)
# Arguments are passed on to `scorepad run` (e.g. --workers 4).
set -eu
: "${SCOREPAD_DATA:=/data}"
export SCOREPAD_DATA
# every address of the container: the port is published, or reached by the proxy beside it
exec scorepad run --host "${SCOREPAD_LISTEN:-0.0.0.0}" --port "${SCOREPAD_PORT:-5000}" "$@"
