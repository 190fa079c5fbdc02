"""Real-browser fixtures: the app served from a thread, Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserType, Locator, Page, expect
from werkzeug.serving import make_server

from tests.slowness import scaled_ms

# The suite runs in four processes on a 2-core machine (pytest-xdist, pyproject.toml): a push, a
# refresh or a page can take longer than Playwright's 5 s default while other processes drive
# their own browsers. Each `expect` waits for a real thing, so a longer bound costs nothing when it passes.
expect.set_options(timeout=scaled_ms(12_000))

# Debian's Chromium in two packages built from the same source: `chromium`, the whole browser, and
# `chromium-headless-shell`, the same engine without the desktop browser around it (what Playwright
# itself runs headless). The shell draws the same pages for about 40% less CPU, which the suite's
# 15 minutes need (docs/development.md); the tests of what only the whole browser has (the Screen
# Wake Lock API) launch FULL_CHROMIUM. SCOREPAD_TEST_CHROMIUM names another for every test.
FULL_CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("SCOREPAD_TEST_CHROMIUM") or (
    HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else FULL_CHROMIUM
)
OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def _in_css_pixels(shoot: Callable[..., bytes]) -> Callable[..., bytes]:
    """A screenshot one image pixel per CSS pixel (`scale="css"`) unless a test asks otherwise. The
    phones draw at a device scale of 2 as real ones do (what a page looks like), but a PNG of four
    times the pixels cost the browser tests a tenth of their time (228 s against 204 s, measured
    both ways in one session), and a 390 px image shows what a reviewer needs."""

    def shot(self: Any, *args: Any, **kwargs: Any) -> bytes:
        return shoot(self, *args, **{"scale": "css", **kwargs})

    return shot


Page.screenshot = _in_css_pixels(Page.screenshot)  # type: ignore[method-assign]
Locator.screenshot = _in_css_pixels(Locator.screenshot)  # type: ignore[method-assign]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
NARROW_PHONE = {**PHONE, "viewport": {"width": 320, "height": 640}}
PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}
LAN = "scorepad.lan"  # a name on the club's network: the app seen as a phone there sees it (not a secure context)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def quick_tap_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The apps a browser test makes ignore a repeat tap for 50 ms, not 600: the tests tap the same
    number for one player after another far faster than a hand can, and each such tap would wait out
    the guard (a whole Australian game, 46 s → 129 s). tests/browser/test_double_tap.py sets it back."""
    monkeypatch.setenv("SCOREPAD_TAP_GUARD_MS", "50")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium, its headless shell where installed (Playwright cannot download its own browsers here)."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, **PHONE}


@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """Serve `app` on a free loopback port; threaded, or one open live stream blocks the rest.

    CSRF protection is on, as in production: the pages must send their tokens (htmx in a header)."""
    app.config["WTF_CSRF_ENABLED"] = True
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def full_chromium_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """The whole browser, for what the headless shell lacks (a module's `browser` launches it)."""
    return {**browser_type_launch_args, "executable_path": os.environ.get("SCOREPAD_TEST_CHROMIUM") or FULL_CHROMIUM}


@pytest.fixture
def lan_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """What `lan_browser` launches (a module that needs the whole browser overrides this)."""
    return browser_type_launch_args


@pytest.fixture
def lan_browser(browser_type: BrowserType, lan_launch_args: dict[str, Any]) -> Iterator[Browser]:
    """Chromium reaching the served app by the name LAN: plain HTTP at a name that is not localhost."""
    args = [*lan_launch_args["args"], f"--host-resolver-rules=MAP {LAN} 127.0.0.1"]
    browser = browser_type.launch(**{**lan_launch_args, "args": args})
    yield browser
    browser.close()


@pytest.fixture
def screenshot_dir() -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT


AXE = next((Path(__file__).parent / "vendor").glob("axe-core-*.min.js"))


def axe_violations(page: Any) -> list[str]:
    """Run axe-core on the page; one line per violation (rule, impact, first offending element)."""
    page.evaluate(AXE.read_text())  # evaluated, not a <script> tag: the page's CSP allows no inline script
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes'][0]['target']}" for v in result["violations"]]


@pytest.fixture
def no_axe_violations() -> Any:
    """Call with a page: fails the test with every axe-core violation found on it."""

    def check(page: Any) -> None:
        found = axe_violations(page)
        assert found == [], "\n".join(found)

    return check
