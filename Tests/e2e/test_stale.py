"""Stale widgets: stale_after_ms on every face, the stale upsert subscribers get, the
write that clears it, a restart that keeps it, and the bounds refused by name."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import grpc
import httpx
import pytest

from conftest import Server
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc as sgrpc
from helpers import (
    TIMEOUT, SSEReader, assert_invalid, base_url, get, problem, put, rest_gauge, rpc_error, widget,
)
from test_subscribe import Subscription, kind

# Marked within a quarter second of its deadline; the window is wide for a loaded
# machine running the tests under ASan.
GOES_STALE_WITHIN_S = 30.0
MERGE = {"content-type": "application/merge-patch+json"}


def watched(wid: str, stale_after_ms: int = 1000) -> wpb.Widget:
    w = widget(wid)
    w.stale_after_ms = stale_after_ms
    return w


def wait_stale(stub, wid: str) -> wpb.Widget:
    deadline = time.monotonic() + GOES_STALE_WITHIN_S
    while time.monotonic() < deadline:
        got = get(stub, wid)
        if got.stale:
            return got
        time.sleep(0.05)
    pytest.fail(f"{wid} not stale within {GOES_STALE_WITHIN_S}s")


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=base_url(server), timeout=TIMEOUT) as client:
        yield client


def test_a_widget_goes_stale_and_its_subscriber_sees_it(stub, new_id):
    wid = new_id()
    created = put(stub, watched(wid)).widget
    assert created.stale_after_ms == 1000 and not created.stale
    sub = Subscription(stub, ids=[wid])
    try:
        sub.until_synced()
        # (StalenessTests holds the deadline to the millisecond on a hand-set clock.)
        [event] = sub.until(
            lambda e: kind(e) == "upsert" and e.upsert.stale, timeout=GOES_STALE_WITHIN_S)[-1:]
        assert event.revision == event.upsert.revision > created.revision
        assert event.upsert.updated_at_ms == created.updated_at_ms, "the last write's time stays"
        assert event.upsert.content.gauge.value == created.content.gauge.value

        # The next write clears it, taking a revision of its own.
        cleared = stub.UpdateWidget(
            spb.UpdateWidgetRequest(id=wid, content=wpb.Content(gauge=wpb.Gauge(value=3))),
            timeout=TIMEOUT)
        assert not cleared.stale and cleared.revision > event.revision
        live = sub.until(lambda e: kind(e) == "upsert" and e.revision == cleared.revision)[-1]
        assert not live.upsert.stale
        # And with no write after it, it goes stale again.
        again = sub.until(lambda e: kind(e) == "upsert" and e.upsert.stale,
                          timeout=GOES_STALE_WITHIN_S)[-1]
        assert again.revision > cleared.revision
    finally:
        sub.cancel()


def test_a_widget_without_the_field_never_goes_stale(stub, new_id):
    wid = new_id()
    created = put(stub, widget(wid)).widget
    assert not created.HasField("stale_after_ms") and not created.HasField("stale")
    time.sleep(1.5)
    assert get(stub, wid).revision == created.revision


def test_rest_and_sse_show_staleness(server, http, new_id):
    wid = new_id()
    body = rest_gauge(value=2)
    body["stale_after_ms"] = 1000
    resp = http.put(f"/widgets/{wid}", json=body)
    assert resp.status_code == 201, resp.text
    assert resp.json()["stale_after_ms"] == 1000 and resp.json()["stale"] is False
    with SSEReader(f"{base_url(server)}/widgets/events?ids={wid}") as sse:
        sse.until_synced()
        stale = sse.until(
            lambda e: e.event == "upsert" and json.loads(e.data)["stale"],
            timeout=GOES_STALE_WITHIN_S)[-1]
        data = json.loads(stale.data)
        assert int(stale.id) == data["revision"] > int(resp.headers["etag"].strip('W/"'))
    assert http.get(f"/widgets/{wid}").json()["stale"] is True

    # A merge patch clears the field: no deadline, not stale, nothing more to say.
    patched = http.patch(
        f"/widgets/{wid}", content='{"stale_after_ms": null}', headers=MERGE)
    assert patched.status_code == 200, patched.text
    assert "stale_after_ms" not in patched.json() and "stale" not in patched.json()
    # ... and sets it again; "stale" as a client sends it is the server's to set.
    patched = http.patch(
        f"/widgets/{wid}", json={"stale_after_ms": 60000, "stale": True}, headers=MERGE)
    assert patched.status_code == 200, patched.text
    assert patched.json()["stale_after_ms"] == 60000 and patched.json()["stale"] is False


def test_connect_json_shows_staleness(server, http, stub, new_id):
    wid = new_id()
    put(stub, watched(wid))
    wait_stale(stub, wid)
    resp = http.post(
        "/gauge.v1.WidgetService/GetWidget", json={"id": wid},
        headers={"connect-protocol-version": "1"})
    assert resp.status_code == 200, resp.text
    assert resp.json()["staleAfterMs"] == 1000 and resp.json()["stale"] is True


def test_update_sets_and_clears_stale_after(stub, new_id):
    wid = new_id()
    put(stub, widget(wid))
    set_ = stub.UpdateWidget(spb.UpdateWidgetRequest(id=wid, stale_after_ms=5000), timeout=TIMEOUT)
    assert set_.stale_after_ms == 5000 and set_.name == "e2e widget"
    cleared = stub.UpdateWidget(
        spb.UpdateWidgetRequest(id=wid, clear_fields=["stale_after_ms"]), timeout=TIMEOUT)
    assert not cleared.HasField("stale_after_ms")


@pytest.mark.parametrize("bad", [0, 999, 7 * 24 * 3600 * 1000 + 1])
def test_bounds_are_refused_with_a_field_violation(stub, http, new_id, bad):
    wid = new_id()
    err = rpc_error(put, stub, watched(wid, bad))
    [violation] = assert_invalid(err, "stale_after_ms")
    assert "between 1000" in violation.description and str(bad) in violation.description
    err = rpc_error(
        stub.UpdateWidget, spb.UpdateWidgetRequest(id=wid, stale_after_ms=bad), timeout=TIMEOUT)
    assert_invalid(err, "stale_after_ms")
    body = rest_gauge()
    body["stale_after_ms"] = bad
    problem(http.put(f"/widgets/{wid}", json=body), 422, "stale_after_ms")


def test_rest_refuses_what_is_not_a_whole_number_of_milliseconds(http, new_id):
    for bad in (1500.5, -1, 1e30, "30s"):
        body = rest_gauge()
        body["stale_after_ms"] = bad
        problem(http.put(f"/widgets/{new_id()}", json=body), 422, "stale_after_ms")


@pytest.mark.skipif(bool(os.environ.get("GAUGED_TARGET")), reason="starts gauged of its own")
def test_staleness_survives_a_restart_and_is_reached_while_down():
    data_dir = Path(tempfile.mkdtemp(prefix="gauged-stale-e2e-"))
    try:
        first = Server(args=["--data-dir", str(data_dir)])
        first.start()
        with grpc.insecure_channel(first.address) as channel:
            stub = sgrpc.WidgetServiceStub(channel)
            put(stub, watched("went-stale"))
            stale = wait_stale(stub, "went-stale")
            # This one runs out while gauged is down.
            fresh = put(stub, watched("runs-out-while-down", 5000)).widget
            written = time.monotonic()
            assert not fresh.stale
        assert first.stop() == 0, first.describe()
        time.sleep(max(0.0, written + 5.5 - time.monotonic()))

        second = Server(args=["--data-dir", str(data_dir)])
        second.start()
        try:
            with grpc.insecure_channel(second.address) as channel:
                stub = sgrpc.WidgetServiceStub(channel)
                kept = get(stub, "went-stale")
                assert kept.stale and kept.revision == stale.revision
                reached = get(stub, "runs-out-while-down")
                assert reached.stale and reached.revision > fresh.revision
                assert reached.updated_at_ms == fresh.updated_at_ms
        finally:
            assert second.stop() == 0, second.describe()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def test_gaugectl_puts_stale_after_and_shows_stale_widgets(server, stub, new_id):
    from test_gaugectl import clean_env, gaugectl_binary

    prefix = new_id("-")
    ctl = [str(gaugectl_binary())]
    env = clean_env(server.address)

    def run(*args):
        result = subprocess.run(ctl + list(args), capture_output=True, text=True, env=env,
                                timeout=30)
        assert result.returncode == 0, result.stderr
        return result.stdout

    run("put", prefix + "a", "--gauge", "2", "--min", "0", "--max", "5", "--stale-after", "1s")
    run("put", prefix + "b", "--value", "7", "--stale-after", "1h")
    assert get(stub, prefix + "a").stale_after_ms == 1000
    assert get(stub, prefix + "b").stale_after_ms == 3_600_000
    wait_stale(stub, prefix + "a")

    listed = run("ls", prefix).splitlines()
    assert "(stale, updated" in listed[1] and listed[1].startswith(prefix + "a")
    assert listed[2].startswith(prefix + "b") and "(stale" not in listed[2]
    # Dimmed where colour is wanted (a terminal, or --color always where offered);
    # piped, the words alone say it.
    assert "\x1b[" not in "\n".join(listed)
    assert "stale: updated" in run("get", prefix + "a")
    frame = run("watch", prefix + "a", "--once")
    assert "stale · updated" in frame
    coloured = run("watch", prefix + "a", "--once", "--color", "always")
    assert "\x1b[2mstale · updated" in coloured
    assert "38;5;" not in coloured.split("\n", 1)[1], "a stale card loses its colours"

    refused = subprocess.run(
        ctl + ["put", prefix + "c", "--value", "1", "--stale-after", "500ms"],
        capture_output=True, text=True, env=env, timeout=30)
    assert refused.returncode == 1
    assert "stale_after_ms" in refused.stderr and "between 1000" in refused.stderr
