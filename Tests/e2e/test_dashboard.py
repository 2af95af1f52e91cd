"""The dashboard at `/`, in headless Chromium (Debian's `chromium` and
`chromium-driver`, driven by Selenium) against a real gauged: what it lists,
how fast it follows a REST write, what it shows while gauged restarts, and
that it raises no console errors and fetches nothing from another origin.
The HTTP side (types, ETag, gzip, CSP) is checked with httpx first."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import time

import httpx
import pytest

from conftest import Server
from helpers import base_url, rest_gauge

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
TIMEOUT = 10.0
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

needs_browser = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="needs Debian's chromium and chromium-driver (scripts/install-deps)",
)


@pytest.fixture(scope="module")
def board():
    """A private gauged (in memory), so the page shows only this module's widgets."""
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("needs a gauged of its own")
    srv = Server()
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def http(board):
    with httpx.Client(base_url=base_url(board), timeout=TIMEOUT) as client:
        yield client


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("needs Debian's chromium and chromium-driver (scripts/install-deps)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,900"):
        options.add_argument(flag)
    # Console messages, and every request the page makes (the performance log).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(TIMEOUT)
    yield driver
    driver.quit()


def put(http, wid: str, body: dict, name: str | None = None) -> dict:
    """PUT `body` (a whole widget, as `rest_gauge` makes, or just its content)."""
    if "content" not in body:
        body = {"name": "e2e widget", "content": body}
    if name:
        body = {**body, "name": name}
    resp = http.put(f"/widgets/{wid}", json=body)
    assert resp.status_code in (200, 201), resp.text
    return resp.json()


def wait(driver, condition, message: str, timeout: float = TIMEOUT, poll: float = 0.02):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=poll).until(
        lambda d: condition(d), message=message)


def card_ids(driver) -> list[str]:
    """The cards' ids in page order, once each card shows its drawing (cards
    are drawn as they come into view)."""
    return driver.execute_script(
        "const cards = [...document.querySelectorAll('[data-widget-id]')];"
        "return cards.every(c => c.querySelector('svg')) ? cards.map(c => c.dataset.widgetId)"
        " : null")


def meter(driver, wid: str) -> dict:
    """The drawing's accessibility attributes and its indicator's place."""
    return driver.execute_script(
        """
        const card = document.querySelector(`[data-widget-id="${arguments[0]}"]`);
        const svg = card && card.querySelector('svg');
        if (!svg) return null;
        const mark = svg.querySelector('.needle, .fill');
        return {
          role: svg.getAttribute('role'), style: svg.dataset.style,
          min: svg.getAttribute('aria-valuemin'), max: svg.getAttribute('aria-valuemax'),
          now: svg.getAttribute('aria-valuenow'), text: svg.getAttribute('aria-valuetext'),
          position: mark && mark.getAttribute('data-position'),
          transform: mark && mark.getAttribute('transform'),
        };
        """,
        wid,
    )


def open_page(driver, server, query: str) -> None:
    driver.get(f"{base_url(server)}/{query}")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.connection") == "live",
         "the page never went live")


# --------------------------------------------------------------------------- HTTP


def test_browsers_get_the_page_and_tools_the_text(http):
    page = http.get("/", headers={"accept": BROWSER_ACCEPT})
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["content-security-policy"] == "default-src 'self'"
    assert '<script type="module" src="/assets/dashboard.mjs">' in page.text
    text = http.get("/", headers={"accept": "*/*"})
    assert text.headers["content-type"].startswith("text/plain")
    assert text.text.startswith("gauged/")
    both = http.get("/index.txt", headers={"accept": BROWSER_ACCEPT})
    assert both.text == text.text


@pytest.mark.parametrize("path,ctype", [
    ("/assets/dashboard.mjs", "text/javascript; charset=utf-8"),
    ("/assets/draw.mjs", "text/javascript; charset=utf-8"),
    ("/assets/dashboard.css", "text/css; charset=utf-8"),
    ("/assets/icon.svg", "image/svg+xml"),
])
def test_assets_types_etags_and_gzip(board, path, ctype):
    # httpx would decode gzip by itself: read the bytes raw.
    with httpx.Client(base_url=base_url(board), timeout=TIMEOUT) as client:
        plain = client.get(path, headers={"accept-encoding": "identity"})
        assert plain.status_code == 200 and plain.headers["content-type"] == ctype
        assert "content-encoding" not in plain.headers
        etag = plain.headers["etag"]
        again = client.get(path, headers={"accept-encoding": "identity", "if-none-match": etag})
        assert again.status_code == 304 and again.content == b""
        with client.stream("GET", path, headers={"accept-encoding": "gzip"}) as zipped:
            raw = b"".join(zipped.iter_raw())
            if zipped.headers.get("content-encoding") == "gzip":
                assert gzip.decompress(raw) == plain.content
                assert len(raw) < len(plain.content)
            else:
                assert raw == plain.content


def test_the_pages_own_assets_are_under_100_kb_gzipped(http):
    page = http.get("/", headers={"accept": BROWSER_ACCEPT}).text
    total = 0
    for path in ["/", "/assets/dashboard.mjs", "/assets/draw.mjs", "/assets/format.mjs",
                 "/assets/board.mjs", "/assets/live.mjs", "/assets/dashboard.css",
                 "/assets/icon.svg"]:
        with http.stream("GET", path, headers={"accept": BROWSER_ACCEPT,
                                               "accept-encoding": "gzip"}) as resp:
            assert resp.status_code == 200, path
            total += len(b"".join(resp.iter_raw()))
    assert "/assets/dashboard.css" in page
    assert total < 100_000, total


# --------------------------------------------------------------------------- browser

STYLE_PARTS = {
    "automatic": ["rect.track", "circle.needle", ".min-label", ".max-label", ".current-label"],
    "linear": ["rect.track", "circle.needle", ".min-label", ".max-label"],
    "linear_capacity": ["rect.track", "rect.fill", ".min-label", ".max-label"],
    "accessory_linear": ["rect.track", "circle.needle"],
    "accessory_linear_capacity": ["rect.track", "rect.fill"],
    "circular": ["path.track", "g.needle", ".min-label", ".max-label", ".current-label"],
    "accessory_circular": ["path.track", "g.needle"],
    "accessory_circular_capacity": ["circle.track", "path.fill", ".current-label"],
}


@needs_browser
def test_page_lists_the_widgets_in_id_order_each_drawn_in_its_style(board, http, browser):
    # Created out of order: the page must sort them as the store does.
    styles = list(STYLE_PARTS)
    for index in reversed(range(len(styles))):
        put(http, f"list-{index}-{styles[index]}",
            rest_gauge(value=2.4, unit="%", label=f"Errors {index}", style=styles[index],
                       marks=[{"value": 1, "label": "SLO"}]))
    put(http, "list-8-progress", {"template": "progress", "value": 0.4, "label": "Upload"})
    put(http, "list-9-value", {"template": "value", "value": 1234, "unit": "rpm"})
    open_page(browser, board, "?prefix=list-")
    expected = sorted([f"list-{i}-{s}" for i, s in enumerate(styles)]
                      + ["list-8-progress", "list-9-value"])
    wait(browser, lambda d: card_ids(d) == expected, f"cards are not {expected}")
    for index, style in enumerate(styles):
        wid = f"list-{index}-{style}"
        for selector in STYLE_PARTS[style]:
            found = browser.execute_script(
                "return document.querySelectorAll(arguments[0]).length",
                f'[data-widget-id="{wid}"] svg {selector}')
            assert found >= 1, f"{wid}: no {selector}"
        state = meter(browser, wid)
        assert state["role"] == "meter" and state["style"] == style, state
        assert (state["min"], state["max"], state["now"]) == ("0", "5", "2.4"), state
        assert state["text"] == f"2.4%, Errors {index}", state
    assert meter(browser, "list-8-progress")["role"] == "progressbar"


@needs_browser
def test_a_rest_patch_moves_the_needle_within_500_ms(board, http, browser):
    put(http, "move-linear", rest_gauge(value=1, style="linear"))
    put(http, "move-circular", rest_gauge(value=1, style="circular"))
    open_page(browser, board, "?ids=move-linear,move-circular")
    wait(browser, lambda d: len(card_ids(d) or []) == 2, "both widgets are drawn")
    for wid, value in [("move-linear", 4), ("move-circular", 3)]:
        before = meter(browser, wid)
        started = time.monotonic()
        resp = http.patch(f"/widgets/{wid}", content=json.dumps({"content": {"value": value}}),
                          headers={"content-type": "application/merge-patch+json"})
        assert resp.status_code == 200, resp.text
        wait(browser, lambda d: meter(d, wid)["now"] == str(value), f"{wid} did not move")
        elapsed = time.monotonic() - started
        after = meter(browser, wid)
        assert elapsed < 0.5, f"{wid} took {elapsed * 1000:.0f} ms"
        assert after["position"] == str(value / 5) and after["position"] != before["position"]
        if wid == "move-circular":
            assert after["transform"] != before["transform"], (before, after)


@needs_browser
def test_families_switch_and_a_click_shows_the_widgets_json(board, http, browser):
    put(http, "json-one", rest_gauge(value=2, style="circular", label="One"), name="Widget one")
    open_page(browser, board, "?ids=json-one")
    wait(browser, lambda d: card_ids(d) == ["json-one"], "the widget is drawn")
    for family in ["large", "accessory_inline", "small"]:
        browser.find_element("css selector", f'button[data-family="{family}"]').click()
        wait(browser, lambda d: d.execute_script(
            "return document.querySelector('[data-widget-id=\"json-one\"] svg').dataset.family")
            == family, f"not drawn as {family}")
    assert f"family=small" in browser.current_url
    card = browser.find_element("css selector", '[data-widget-id="json-one"]')
    assert card.get_attribute("title").startswith("revision ")
    assert "Widget one" in card.text and "updated" in card.text
    card.click()
    shown = wait(browser, lambda d: d.execute_script(
        "const d = document.querySelector('dialog'); return d.open && d.querySelector('pre').textContent"),
        "no JSON shown")
    assert json.loads(shown)["id"] == "json-one"


@needs_browser
def test_updates_within_a_frame_are_drawn_once_with_the_latest_value(board, http, browser):
    put(http, "burst", rest_gauge(value=0, max_value=100, style="linear"))
    open_page(browser, board, "?ids=burst")
    wait(browser, lambda d: card_ids(d) == ["burst"], "the widget is drawn")
    browser.execute_script("""
        window.redraws = 0;
        new MutationObserver(() => window.redraws++).observe(
          document.querySelector('[data-widget-id="burst"] .drawing-slot'), {childList: true});
    """)
    # 50 values in one request: they reach the page within a frame or two.
    lines = "".join(f"burst {value}\n" for value in range(1, 51))
    resp = http.post("/values", content=lines, headers={"content-type": "text/plain"})
    assert resp.status_code == 200, resp.text
    wait(browser, lambda d: meter(d, "burst")["now"] == "50", "the last value is not drawn")
    time.sleep(0.2)
    redraws = browser.execute_script("return window.redraws")
    assert 1 <= redraws < 10, redraws


@needs_browser
def test_dark_and_light_and_a_320_px_screen(board, http, browser):
    put(http, "narrow", rest_gauge(value=2, style="circular", label="A rather long label"))
    backgrounds = {}
    try:
        for scheme in ("light", "dark"):
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": scheme}]})
            open_page(browser, board, "?ids=narrow&family=medium")
            wait(browser, lambda d: card_ids(d) == ["narrow"], "the widget is drawn")
            backgrounds[scheme] = browser.execute_script(
                "return [getComputedStyle(document.body).backgroundColor,"
                " getComputedStyle(document.querySelector('.card-default')).fill]")
        assert backgrounds["light"] != backgrounds["dark"], backgrounds
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": True})
        open_page(browser, board, "?ids=narrow&family=medium")
        wait(browser, lambda d: card_ids(d) == ["narrow"], "the widget is drawn")
        overflow = browser.execute_script(
            "return [document.documentElement.scrollWidth, innerWidth,"
            " document.querySelector('[data-widget-id] svg').getBoundingClientRect().right]")
        assert overflow[0] <= overflow[1] and overflow[2] <= overflow[1], overflow
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@needs_browser
def test_a_deleted_widget_disappears(board, http, browser):
    put(http, "gone-a", rest_gauge(value=1))
    put(http, "gone-b", rest_gauge(value=1))
    open_page(browser, board, "?prefix=gone-")
    wait(browser, lambda d: card_ids(d) == ["gone-a", "gone-b"], "both widgets are drawn")
    assert http.delete("/widgets/gone-a").status_code == 204
    wait(browser, lambda d: card_ids(d) == ["gone-b"], "gone-a is still drawn")


@needs_browser
def test_a_stale_widget_is_dimmed_and_says_so_until_written(board, http, browser):
    body = rest_gauge(value=1)
    body["stale_after_ms"] = 1000
    put(http, "stale-a", body)
    put(http, "stale-b", rest_gauge(value=1))
    open_page(browser, board, "?prefix=stale-")

    def look(d):
        return d.execute_script(
            """
            return [...document.querySelectorAll('[data-widget-id]')].map(card => ({
              id: card.dataset.widgetId, stale: card.classList.contains('stale'),
              age: card.querySelector('.age').textContent,
              opacity: Number(getComputedStyle(card).opacity)}));
            """)

    # Within the dashboard's wide window: marked a quarter second past its
    # deadline, drawn in the next frame, then faded (a 0.3 s transition).
    cards = wait(browser, lambda d: (c := look(d)) and c[0]["stale"] and c[0]["opacity"] < 1 and c,
                 "never dimmed", 30)
    assert cards[0]["age"].startswith("stale · updated"), cards
    assert not cards[1]["stale"] and cards[1]["age"].startswith("updated"), cards
    resp = http.patch("/widgets/stale-a", json={"content": {"value": 2}},
                      headers={"content-type": "application/merge-patch+json"})
    assert resp.status_code == 200, resp.text
    wait(browser, lambda d: not look(d)[0]["stale"], "a write did not clear it")


@needs_browser
def test_no_console_errors_and_no_request_leaves_the_origin(board, http, browser):
    put(http, "clean-1", rest_gauge(value=3, gradient=["green", "red"], accent_color="red"))
    browser.get_log("browser")  # forget what earlier tests left
    browser.get_log("performance")
    open_page(browser, board, "?prefix=clean-")
    wait(browser, lambda d: card_ids(d) == ["clean-1"], "the widget is drawn")
    browser.find_element("css selector", 'button[data-family="medium"]').click()
    time.sleep(0.3)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    origin = base_url(board)
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    assert urls, "the performance log saw no request"
    foreign = [url for url in urls if not url.startswith(origin + "/")]
    assert foreign == []
    assert f"{origin}/widgets/events?prefix=clean-&deltas=1" in urls


@needs_browser
def test_restart_shows_reconnecting_then_catches_up_without_reload(browser, tmp_path):
    """A durable store: after the restart the stream resumes from Last-Event-ID."""
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("needs a gauged of its own")
    srv = Server(args=["--data-dir", str(tmp_path / "data")])
    srv.start()
    try:
        with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT) as client:
            put(client, "restart-a", rest_gauge(value=1))
            put(client, "restart-b", rest_gauge(value=1))
        open_page(browser, srv, "")
        wait(browser, lambda d: card_ids(d) == ["restart-a", "restart-b"], "both drawn")
        browser.execute_script("window.sameDocument = true")
        srv.stop()
        wait(browser, lambda d: d.execute_script("return document.body.dataset.connection")
             == "reconnecting", "no reconnecting state")
        status = browser.find_element("css selector", ".connection").text
        assert "reconnecting" in status
        opacity = browser.execute_script(
            "return getComputedStyle(document.querySelector('.widget')).opacity")
        assert float(opacity) < 1, opacity
        srv.start(port=srv.port)
        with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT) as client:
            resp = client.patch("/widgets/restart-a", content=b'{"content":{"value":4}}',
                                headers={"content-type": "application/merge-patch+json"})
            assert resp.status_code == 200, resp.text
            assert client.delete("/widgets/restart-b").status_code == 204
        wait(browser, lambda d: meter(d, "restart-a") and meter(d, "restart-a")["now"] == "4",
             "the page did not catch up", timeout=20)
        wait(browser, lambda d: card_ids(d) == ["restart-a"], "restart-b is still drawn")
        wait(browser, lambda d: d.execute_script("return document.body.dataset.connection")
             == "live", "not live again")
        assert browser.execute_script("return window.sameDocument") is True
    finally:
        srv.stop()


# --------------------------------------------------------------------------- playground


def stored_value(http, wid: str) -> float:
    return http.get(f"/widgets/{wid}").json()["content"]["value"]


def open_playground(driver, server, wid: str):
    driver.get(f"{base_url(server)}/playground/{wid}")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.connection") == "live",
         "the playground never went live")
    return wait(driver, lambda d: d.execute_script(
        "return document.querySelector('.stored').dataset.state") == "stored"
        and d.find_element("css selector", 'figure[data-family="large"] svg'),
        "the stored widget is not drawn")


def drawn_value(driver) -> str:
    return driver.execute_script(
        "return document.querySelector('figure[data-family=\"large\"] svg')"
        ".getAttribute('aria-valuenow')")


@needs_browser
def test_dragging_the_needle_stores_the_new_value(board, http, browser):
    from selenium.webdriver.common.action_chains import ActionChains

    put(http, "play-drag", rest_gauge(value=1, style="linear"))
    svg = open_playground(browser, board, "play-drag")
    track = browser.execute_script(
        "return arguments[0].querySelector('.track').getBoundingClientRect().toJSON()", svg)
    needle = svg.find_element("css selector", ".needle")
    # From 1 (a fifth of the track) to about 4 (four fifths), in steps, as a hand would.
    chain = ActionChains(browser).move_to_element(needle).click_and_hold()
    for _ in range(6):
        chain = chain.move_by_offset(int(track["width"] * 0.1), 0).pause(0.03)
    chain.release().perform()
    wait(browser, lambda d: abs(stored_value(http, "play-drag") - 4) < 0.1,
         "the dragged value was not stored")
    value = stored_value(http, "play-drag")
    wait(browser, lambda d: drawn_value(d) == format_number(value),
         "the drawing does not show the stored value")


@needs_browser
def test_dragging_past_the_maximum_shows_the_servers_message_and_stores_nothing(
        board, http, browser):
    from selenium.webdriver.common.action_chains import ActionChains

    put(http, "play-over", rest_gauge(value=4, style="linear"))
    svg = open_playground(browser, board, "play-over")
    track = browser.execute_script(
        "return arguments[0].querySelector('.track').getBoundingClientRect().toJSON()", svg)
    needle = svg.find_element("css selector", ".needle")
    ActionChains(browser).move_to_element(needle).click_and_hold() \
        .move_by_offset(int(track["width"] * 0.6), 0).release().perform()
    message = wait(browser, lambda d: d.find_element(
        "css selector", '.field-error[data-field="content.value"]').text,
        "no message beside the value field")
    assert "is outside [0, 5]" in message, message
    assert stored_value(http, "play-over") == 4
    assert drawn_value(browser) == "4"


@needs_browser
def test_arrow_keys_move_the_value_and_draft_mode_writes_nothing(board, http, browser):
    from selenium.webdriver.common.keys import Keys

    put(http, "play-keys", rest_gauge(value=2, style="circular"))
    svg = open_playground(browser, board, "play-keys")
    svg.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda d: stored_value(http, "play-keys") == 2.05, "ArrowRight stored nothing")
    browser.find_element("css selector", 'input[name="draft"]').click()
    browser.find_element("css selector", 'figure[data-family="large"] svg').send_keys(Keys.END)
    wait(browser, lambda d: d.execute_script(
        "return document.querySelector('.stored').dataset.state") == "draft"
        and drawn_value(d) == "5", "the draft is not drawn")
    assert stored_value(http, "play-keys") == 2.05
    commands = browser.find_element("css selector", '.command[data-command="gaugectl"]').text
    assert commands.startswith("printf '%s' '{") and "put 'play-keys' -f -" in commands


def format_number(value: float) -> str:
    """As JavaScript's String(number) writes the values these tests use."""
    return str(int(value)) if value == int(value) else repr(value)
