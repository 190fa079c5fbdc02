# Scorepad in a container: one image for a laptop, a Pi (arm64) or a hosted server.
#   docker build -t scorepad .
#   docker run -p 5000:5000 -v scorepad-data:/data scorepad
# compose.yaml runs it with PostgreSQL, 4 workers and Caddy (HTTPS). docs/install.md says more.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SCOREPAD_DATA=/data \
    SCOREPAD_PORT=5000 \
    GUNICORN_CMD_ARGS="--worker-tmp-dir /dev/shm"
# (gunicorn's workers keep a heartbeat file: in memory, so a read-only or slow root file system is no matter)

WORKDIR /src
# the versions the tests pass with (constraints.txt), installed as a plain package: no build tools needed
COPY pyproject.toml constraints.txt README.md LICENSE ./
COPY scorepad ./scorepad
COPY templates ./templates
COPY static ./static
COPY docs/examples ./docs/examples
RUN pip install -c constraints.txt . \
    && rm -rf /src \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin scorepad \
    && mkdir -p /data \
    && chown scorepad:scorepad /data
COPY deploy/entrypoint.sh /usr/local/bin/scorepad-entrypoint

WORKDIR /data
USER 10001:10001
# the SQLite database and the secret key (with PostgreSQL, the secret key only): keep this volume
VOLUME ["/data"]
EXPOSE 5000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('SCOREPAD_PORT', '5000') + '/healthz', timeout=4)"]
ENTRYPOINT ["scorepad-entrypoint"]
