"""The container, compose and systemd files (issue 29, item 3), tested as far as this machine can:
no container engine runs here (docs/install.md says what was tried), so the Dockerfile is linted
(hadolint), the Caddyfile validated by Caddy, the unit by systemd-analyze, and the image's own
entrypoint script and healthcheck are run directly, as the container would run them. Under CI the
linters must be there (.ci/run installs them); elsewhere a missing one skips its test."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.postgres import under_ci
from tests.serving import CHECKOUT, free_port
from tests.slowness import scaled

DOCKERFILE = CHECKOUT / "Dockerfile"
COMPOSE = CHECKOUT / "compose.yaml"
ENTRYPOINT = CHECKOUT / "deploy" / "entrypoint.sh"
UNIT = CHECKOUT / "deploy" / "scorepad.service"
CADDYFILE = CHECKOUT / "deploy" / "Caddyfile"
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(BIN))
    if found is None:
        if under_ci():
            pytest.fail(f"{name} is not installed, and CI is set: .ci/run installs it", pytrace=False)
        pytest.skip(f"{name} is not installed")
    return found


def test_the_dockerfile_passes_hadolint_and_copies_what_exists() -> None:
    result = subprocess.run([tool("hadolint"), str(DOCKERFILE)], capture_output=True, text=True, timeout=scaled(60))
    assert result.returncode == 0, result.stdout + result.stderr
    text = DOCKERFILE.read_text()
    assert re.search(r"^FROM python:3\.\d+-slim", text, re.M)  # a slim Python base
    assert re.search(r"^USER 10001", text, re.M) and 'VOLUME ["/data"]' in text  # not root; the data a volume
    assert "/healthz" in text and "SCOREPAD_DATA=/data" in text
    for line in re.findall(r"^COPY (.+)$", text, re.M):
        for source in line.split()[:-1]:
            assert (CHECKOUT / source).exists(), f"COPY {source}: no such file in the repository"
    assert os.access(ENTRYPOINT, os.X_OK)


def test_compose_runs_scorepad_with_4_workers_postgresql_and_caddy() -> None:
    text = COMPOSE.read_text()
    services = re.findall(r"^  (\w+):$", text.split("\nvolumes:")[0], re.M)
    assert services == ["scorepad", "db", "caddy"]
    assert 'SCOREPAD_WORKERS: "4"' in text and 'SCOREPAD_PROXY_HOPS: "1"' in text
    assert "postgresql://scorepad:${POSTGRES_PASSWORD" in text and "@db/scorepad" in text
    assert "condition: service_healthy" in text and "pg_isready" in text
    assert "- ./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in text and '- "443:443"' in text
    assert "- scorepad-data:/data" in text


def test_the_caddyfile_is_valid_for_caddy() -> None:
    result = subprocess.run(
        [tool("caddy"), "validate", "--adapter", "caddyfile", "--config", str(CADDYFILE)],
        env={**os.environ, "SCOREPAD_DOMAIN": "whist.club.example"},
        capture_output=True,
        text=True,
        timeout=scaled(60),
    )
    assert result.returncode == 0 and "Valid configuration" in result.stdout + result.stderr, result.stderr


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    unit = tmp_path / "scorepad.service"  # ExecStart where this checkout's command is (verify wants it to exist)
    unit.write_text(UNIT.read_text().replace("/opt/scorepad/.venv/bin/scorepad", str(BIN / "scorepad")))
    result = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=scaled(60))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Environment=SCOREPAD_DATA=/var/lib/scorepad" in UNIT.read_text()


def test_the_images_entrypoint_serves_and_its_healthcheck_passes(tmp_path: Path) -> None:
    """deploy/entrypoint.sh as the container runs it: the data in SCOREPAD_DATA, then the
    Dockerfile's own HEALTHCHECK command, then the stop a container gets (SIGTERM)."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREPAD_DATA": str(tmp_path / "data"),
        "SCOREPAD_PORT": str(port),
        "SCOREPAD_LISTEN": "127.0.0.1",
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(CHECKOUT),
    }
    env.pop("DATABASE_URL", None)
    log = tmp_path / "entrypoint.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            ["/bin/sh", str(ENTRYPOINT)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=tmp_path,
        )
    try:
        deadline = time.monotonic() + scaled(60)
        while "Press Ctrl+C" not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        assert f"Data: {tmp_path / 'data' / 'scorepad.sqlite3'}" in log.read_text()
        health = json.loads(re.search(r"^ *CMD (\[.+\])$", DOCKERFILE.read_text(), re.M).group(1))
        assert health[0] == "python"
        # as Docker runs it: a failure within --start-period does not count (the worker may still be
        # loading the app when the banner is printed), so it is tried again until the period is over
        start_period = int(re.search(r"--start-period=(\d+)s", DOCKERFILE.read_text()).group(1))
        until = time.monotonic() + scaled(start_period)
        while True:
            check = subprocess.run(
                [sys.executable, *health[1:]], env=env, capture_output=True, text=True, timeout=scaled(30)
            )
            if check.returncode == 0 or time.monotonic() > until:
                break
            time.sleep(1)
        assert check.returncode == 0, check.stderr
        process.send_signal(signal.SIGTERM)  # `docker stop`
        assert process.wait(timeout=scaled(20)) == 0
        assert log.read_text().rstrip().endswith("Stopped.")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
