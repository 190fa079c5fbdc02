"""Real reverse proxies that terminate HTTPS in front of `scorepad run`, configured from the very
blocks docs/https.md gives (tests/browser/test_https.py): nginx and Caddy from Debian's packages
(`apt-get install nginx caddy`; .ci/run installs them), with a throwaway self-signed certificate
made by the `openssl` command. Each listens on a free loopback port; the browser maps the host
name `scorepad.lan` to 127.0.0.1 and is told to accept the certificate."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.postgres import under_ci
from tests.serving import CHECKOUT, free_port
from tests.slowness import scaled

HOST = "scorepad.lan"
DOC = CHECKOUT / "docs" / "https.md"
PUBLIC = "whist.club.example"  # the host name the documented configurations are written for
BINARIES = {"nginx": "nginx", "caddy": "caddy"}


def binary_or_skip(kind: str) -> str:
    """The proxy's program, else skip; under CI, fail instead: CI must run these tests."""
    import pytest

    found = shutil.which(BINARIES[kind]) or next(
        (p for p in (f"/usr/sbin/{kind}", f"/usr/bin/{kind}") if os.access(p, os.X_OK)), None
    )
    missing = [] if shutil.which("openssl") else ["openssl"]
    if found is None:
        missing.insert(0, BINARIES[kind])
    if missing:
        why = f"{' and '.join(missing)} not installed (apt-get install {' '.join(missing)}; .ci/run does)"
        if under_ci():
            pytest.fail(f"{why}. CI is set, so the HTTPS tests must run, not be skipped.", pytrace=False)
        pytest.skip(why)
    assert found is not None
    return found


def documented(language: str) -> str:
    """The docs' code block in that language (```nginx, ```caddy): there is exactly one."""
    blocks = re.findall(rf"```{language}\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 1, f"docs/https.md should hold one ```{language} block, not {len(blocks)}"
    return blocks[0]


def replaced(text: str, old: str, new: str, *, pattern: bool = False) -> str:
    """`old` replaced by `new`, failing when the docs no longer hold `old` (the test would test nothing)."""
    result, count = re.subn(old if pattern else re.escape(old), lambda _: new, text)
    assert count, f"docs/https.md changed: {old!r} not found; update tests/proxies.py with it"
    return result


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for HOST, good for a day."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            f"/CN={HOST}",
            "-addext",
            f"subjectAltName=DNS:{HOST}",
        ],
        check=True,
        capture_output=True,
        timeout=scaled(60),
    )
    return cert, key


def spki_hash(cert: Path) -> str:
    """The certificate's public key hash as Chromium's --ignore-certificate-errors-spki-list takes it."""
    key = subprocess.run(
        ["openssl", "x509", "-pubkey", "-noout", "-in", str(cert)], check=True, capture_output=True
    ).stdout
    der = subprocess.run(
        ["openssl", "pkey", "-pubin", "-outform", "der"], input=key, check=True, capture_output=True
    ).stdout
    import base64
    import hashlib

    return base64.b64encode(hashlib.sha256(der).digest()).decode()


class Proxy:
    """A reverse proxy on 127.0.0.1:`port` (HTTPS), in front of the app on `upstream`."""

    def __init__(self, kind: str, folder: Path, upstream: int) -> None:
        self.kind, self.upstream = kind, upstream
        self.program = binary_or_skip(kind)
        self.folder = folder / kind
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port, self.plain_port = free_port(), free_port()
        self.cert, self.key = certificate(self.folder)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://{HOST}:{self.port}"

    def nginx_argv(self) -> list[str]:
        site = documented("nginx")
        site = replaced(site, "listen 80;", f"listen 127.0.0.1:{self.plain_port};")
        site = replaced(site, "listen 443 ssl http2;", f"listen 127.0.0.1:{self.port} ssl http2;")
        site = replaced(site, f"server_name {PUBLIC};", f"server_name {HOST};")
        site = replaced(site, r"ssl_certificate /\S+;", f"ssl_certificate {self.cert};", pattern=True)
        site = replaced(site, r"ssl_certificate_key /\S+;", f"ssl_certificate_key {self.key};", pattern=True)
        site = replaced(site, "proxy_pass http://127.0.0.1:5000;", f"proxy_pass http://127.0.0.1:{self.upstream};")
        temp = "\n".join(
            f"    {name}_temp_path {self.folder / name};"
            for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        conf = self.folder / "nginx.conf"
        conf.write_text(
            f"daemon off;\nworker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'} warn;\n"
            + ("user root;\n" if os.geteuid() == 0 else "")
            + "events { worker_connections 1024; }\n"
            f"http {{\n    access_log off;\n{temp}\n{site}}}\n"
        )
        return [self.program, "-p", str(self.folder), "-e", str(self.folder / "error.log"), "-c", str(conf)]

    def caddy_argv(self) -> list[str]:
        site = documented("caddy")
        site = replaced(
            site, f"{PUBLIC} {{", f"https://{HOST}:{self.port} {{\n    bind 127.0.0.1\n    tls {self.cert} {self.key}"
        )
        site = replaced(site, "reverse_proxy 127.0.0.1:5000", f"reverse_proxy 127.0.0.1:{self.upstream}")
        conf = self.folder / "Caddyfile"
        conf.write_text(
            "{\n    admin off\n    auto_https disable_redirects\n"
            f"    storage file_system {self.folder / 'data'}\n}}\n\n{site}"
        )
        return [self.program, "run", "--config", str(conf), "--adapter", "caddyfile"]

    def start(self) -> None:
        argv = self.nginx_argv() if self.kind == "nginx" else self.caddy_argv()
        env = {
            **os.environ,
            "HOME": str(self.folder),
            "XDG_DATA_HOME": str(self.folder / "data"),
            "XDG_CONFIG_HOME": str(self.folder / "config"),
        }
        self.log = self.folder / "run.log"
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                argv, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True, cwd=self.folder
            )
        deadline = time.monotonic() + scaled(30)
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"{self.kind} stopped:\n{self.output()}"
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"{self.kind} did not listen:\n{self.output()}")

    def output(self) -> str:
        errors = self.folder / "error.log"
        return self.log.read_text() + (errors.read_text() if errors.exists() else "")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=scaled(10))
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=scaled(10))
