"""HTTPS where it can be had (issue 13, item 5): `scorepad run --behind-proxy` behind a real reverse
proxy that terminates TLS, configured from the very blocks docs/https.md gives (nginx, and Caddy),
opened in Chromium at https://scorepad.lan:PORT (the name mapped to this machine, the throwaway
certificate accepted): a secure context, so the service worker registers and controls the page,
Chromium finds the app installable, links say https and the proxy's host, HSTS is sent, live
updates come through the proxy as they happen, and a reload with no connection shows the last copy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, BrowserType, expect

from tests.browser.conftest import PHONE
from tests.browser.test_outbox import cached_copy_holds, fill_hand, new_whist
from tests.proxies import HOST, Proxy, spki_hash
from tests.serving import ScorepadRun


@pytest.fixture(params=["nginx", "caddy"])
def proxied(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Proxy]:
    """`scorepad run --behind-proxy` and the proxy in front of it."""
    app = ScorepadRun(tmp_path, "--behind-proxy", SCOREPAD_DEMO="0")
    proxy = Proxy(request.param, tmp_path, upstream=app.port)  # skipped here (not under CI) without the proxy
    try:
        app.start()
        proxy.start()
        yield proxy
    finally:
        proxy.stop()
        app.stop()


@pytest.fixture
def phone(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], tmp_path: Path, proxied: Proxy
) -> Iterator[BrowserContext]:
    """A phone's browser with a real profile (Chromium offers to install only from one) that reaches
    the proxy by its name and trusts its self-signed certificate (by its key: as a phone trusts a
    real certificate, so the page counts as secure for installing too)."""
    args = [
        *browser_type_launch_args["args"],
        f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
        f"--ignore-certificate-errors-spki-list={spki_hash(proxied.cert)}",
    ]
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"), **{**browser_type_launch_args, "args": args}, **PHONE
    )
    yield context
    context.close()


def test_behind_an_https_proxy_the_app_is_secure_installable_and_live(
    proxied: Proxy, phone: BrowserContext, screenshot_dir: Path
) -> None:
    base = proxied.url
    page = phone.new_page()
    first = page.goto(base + "/")
    assert first is not None and first.status == 200
    assert first.headers["strict-transport-security"] == "max-age=31536000"
    assert page.evaluate("window.isSecureContext") is True  # over plain HTTP at a LAN name it is False
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    cdp = phone.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].startswith(f"{base}/manifest.webmanifest")

    token = new_whist(page, base)
    page.goto(f"{base}/g/{token}/share")
    link = page.locator("figure.qr figcaption a")  # the short link other phones open, under the QR code
    expect(link).to_have_text(re.compile(rf"^{re.escape(base)}/s/[\w-]+$"))
    page.screenshot(path=str(screenshot_dir / f"https-share-{proxied.kind}.png"))
    short = link.inner_text()

    watcher = phone.new_page()  # a spectator's page, following the game live through the proxy
    with watcher.expect_response(re.compile(r"/events\?since=\d+$")):  # its live stream is open (through the proxy)
        watcher.goto(short)
    expect(watcher.locator("#hand-1")).to_have_count(0)
    page.goto(f"{base}/g/{token}")
    fill_hand(page, "C", 10)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    expect(watcher.locator("#hand-1 td.num .total")).to_have_text(["4", "0"])  # pushed, not reloaded
    cached_copy_holds(page, 'id="hand-1"')

    phone.set_offline(True)
    page.reload()  # the service worker's copy of the page as last seen
    expect(page.locator("#hand-1 td.num .total")).to_have_text(["4", "0"])
    expect(page.locator(".outbox-bar")).to_contain_text(
        re.compile(r"^Offline since \d\d:\d\d\. This page is as it was last seen")
    )
    watcher.reload()  # the spectators' page too: the copy sent after the live update
    expect(watcher.locator("#hand-1 td.num .total")).to_have_text(["4", "0"])
    expect(watcher.locator(".site-footer")).to_be_visible()
    phone.set_offline(False)
    page.goto(f"{base}/g/{token}")
    expect(page.locator("#hand-panel h2")).to_have_text("Hand 2")
    expect(page.locator(".outbox-bar")).to_be_hidden()  # the server's page again
