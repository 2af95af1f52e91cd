"""GET /widgets/events (Server-Sent Events) through httpx-sse and curl: snapshot, synced,
live events with ids, filters, Last-Event-ID resume and reset, coalescing, slow readers,
bad requests and shutdown."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time

import httpx
import pytest

from conftest import Server
from helpers import TIMEOUT, SSEReader, base_url, etag_revision, problem, rest_gauge

CURL = shutil.which("curl")
MERGE = {"content-type": "application/merge-patch+json"}


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=base_url(server), timeout=TIMEOUT) as client:
        yield client


@pytest.fixture
def spawn():
    """spawn() -> a private gauged (in memory), stopped afterwards."""
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts gauged processes of its own")
    started = []

    def make() -> Server:
        srv = Server()
        started.append(srv)
        srv.start()
        return srv

    yield make
    for srv in started:
        srv.stop()


def events_url(server, query: str = "") -> str:
    return f"{base_url(server)}/widgets/events" + (f"?{query}" if query else "")


def create(http, wid: str, value: float = 2.0) -> int:
    resp = http.put(f"/widgets/{wid}", json=rest_gauge(value=value))
    assert resp.status_code in (200, 201), resp.text
    return etag_revision(resp)


def set_value(http, wid: str, value: float) -> int:
    resp = http.patch(f"/widgets/{wid}", json={"content": {"value": value}}, headers=MERGE)
    assert resp.status_code == 200, resp.text
    return etag_revision(resp)


def data(event) -> dict:
    return json.loads(event.data)


# --------------------------------------------------------------------------- the stream


def test_snapshot_synced_then_live_events_with_ids(server, http, new_id):
    a, b = new_id(), new_id()
    create(http, a, 1)
    revision_b = create(http, b, 2)
    with SSEReader(events_url(server, f"ids={a},{b}")) as sse:
        assert sse.response.status_code == 200
        assert sse.response.headers["content-type"].startswith("text/event-stream")
        assert sse.response.headers["cache-control"] == "no-store"
        snapshot, synced = sse.until_synced()
        assert all(e.event == "upsert" for e in snapshot)
        assert sorted((data(e)["id"], data(e)["content"]["value"]) for e in snapshot) == sorted(
            [(a, 1), (b, 2)])
        assert data(synced)["revision"] == int(synced.id) >= revision_b

        revision = set_value(http, a, 4)
        live = sse.next()
        assert live.event == "upsert" and int(live.id) == revision
        assert data(live)["id"] == a and data(live)["content"]["value"] == 4
        assert data(live)["revision"] == revision

        gone = http.delete(f"/widgets/{b}")
        assert gone.status_code == 204
        removed = sse.next()
        assert removed.event == "removed" and data(removed)["id"] == b
        assert int(removed.id) == data(removed)["revision"] > revision


def test_ids_filter(server, http, new_id):
    a, b, c = new_id(), new_id(), new_id()
    for wid in (a, b, c):
        create(http, wid)
    with SSEReader(events_url(server, f"ids={a},{b}")) as sse:
        snapshot, _ = sse.until_synced()
        assert sorted(data(e)["id"] for e in snapshot) == sorted([a, b])
        set_value(http, c, 3)  # not watched
        set_value(http, b, 4)
        event = sse.next()
        assert data(event)["id"] == b and data(event)["content"]["value"] == 4
        assert sse.quiet_for(0.3) == []


def test_prefix_filter(server, http, new_id):
    prefix = new_id("-p-")
    inside, outside = prefix + "1", new_id("-q")
    create(http, inside)
    create(http, outside)
    with SSEReader(events_url(server, f"prefix={prefix}")) as sse:
        snapshot, _ = sse.until_synced()
        assert [data(e)["id"] for e in snapshot] == [inside]
        set_value(http, outside, 1)
        create(http, prefix + "2", 3)
        event = sse.next()
        assert data(event)["id"] == prefix + "2" and data(event)["content"]["value"] == 3
        assert sse.quiet_for(0.3) == []


@pytest.mark.parametrize("h2c", [
    pytest.param(False, id="http1.1"), pytest.param(True, id="h2c", marks=pytest.mark.h2c_rest)])
def test_curl_reads_the_stream(server, http, new_id, h2c):
    if CURL is None:
        pytest.fail("curl is not installed (apt-get install curl)")
    wid = new_id()
    create(http, wid, 3)
    proc = subprocess.Popen(
        [CURL, "-sN", "--max-time", "10",
         "--http2-prior-knowledge" if h2c else "--http1.1", events_url(server, f"ids={wid}")],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )
    lines = []

    def read_until(done):
        while not done():
            line = proc.stdout.readline()
            assert line, f"curl ended early (exit {proc.poll()}); read {lines}"
            lines.append(line.rstrip("\n"))

    try:
        read_until(lambda: len(lines) >= 2 and lines[-2] == "event: synced")
        assert lines[0] == "event: upsert", lines
        assert json.loads(lines[1].removeprefix("data: "))["content"]["value"] == 3
        assert lines[-3].startswith("id: "), lines
        assert lines[-1].startswith('data: {"revision":'), lines
        snapshot_end = len(lines)
        revision = set_value(http, wid, 4)  # live: id, event, data
        read_until(lambda: len(lines) >= snapshot_end + 4 and lines[-1].startswith("data: "))
    finally:
        proc.terminate()
        proc.wait(timeout=5)
    live = [line for line in lines[snapshot_end:] if line]
    assert live[:2] == [f"id: {revision}", "event: upsert"], live
    assert json.loads(live[2].removeprefix("data: "))["content"]["value"] == 4


# --------------------------------------------------------------------------- resume


def test_last_event_id_resumes_with_only_the_changes(server, http, new_id):
    a, b, c = new_id(), new_id(), new_id()
    for wid in (a, b, c):
        create(http, wid)
    query = f"ids={a},{b},{c}"
    with SSEReader(events_url(server, query)) as sse:
        _, synced = sse.until_synced()
    last_id = synced.id

    changed = set_value(http, a, 5)
    assert http.delete(f"/widgets/{b}").status_code == 204
    with SSEReader(events_url(server, query), headers={"last-event-id": last_id}) as sse:
        caught_up, synced = sse.until_synced()
    assert [e.event for e in caught_up] == ["upsert", "removed"], [
        (e.event, e.data) for e in caught_up]
    assert data(caught_up[0])["id"] == a and data(caught_up[0])["revision"] == changed
    assert data(caught_up[1])["id"] == b
    assert int(synced.id) >= data(caught_up[1])["revision"]

    # Resuming from the newest id: nothing to catch up.
    with SSEReader(events_url(server, query), headers={"last-event-id": synced.id}) as sse:
        nothing, again = sse.until_synced()
    assert nothing == [] and again.id == synced.id


def test_unknown_revision_on_a_fresh_server_resets(spawn):
    old = spawn()
    with httpx.Client(base_url=base_url(old), timeout=TIMEOUT) as http:
        create(http, "w", 1)
        with SSEReader(events_url(old)) as sse:
            _, synced = sse.until_synced()
    old.stop()

    fresh = spawn()  # in memory: nothing of the old run is known
    with httpx.Client(base_url=base_url(fresh), timeout=TIMEOUT) as http:
        create(http, "v", 4)
        for last_id in (synced.id, "1"):
            with SSEReader(events_url(fresh), headers={"last-event-id": last_id}) as sse:
                events, done = sse.until_synced()
            assert events[0].event == "reset", [(e.event, e.data) for e in events]
            assert [(e.event, data(e)["id"]) for e in events[1:]] == [("upsert", "v")]
            assert int(done.id) > int(synced.id)


# --------------------------------------------------------------------------- pace


def test_min_interval_coalesces_and_delivers_the_last_value(server, http, new_id):
    wid = new_id()
    create(http, wid, 0)
    with SSEReader(events_url(server, f"ids={wid}&min_interval_ms=400")) as sse:
        sse.until_synced()
        values = [v / 10 for v in range(1, 21)]
        started = time.monotonic()
        for value in values:
            set_value(http, wid, value)
            time.sleep(0.03)  # spread 20 writes over about 0.6 s
        events = sse.until(lambda e: data(e)["content"]["value"] == values[-1], timeout=3)
        elapsed = time.monotonic() - started
        events += sse.quiet_for(0.5)
    got = [data(e)["content"]["value"] for e in events]
    assert got[-1] == values[-1], got
    assert got == sorted(got), got
    assert len(got) <= 1 + elapsed / 0.4 + 1, (got, elapsed)
    assert len(got) < len(values)


def test_slow_reader_gets_the_latest_and_the_stream_stays_usable(server, http, new_id):
    wid = new_id()
    create(http, wid, 0)
    rss_before = _rss(server)
    with httpx.Client(timeout=httpx.Timeout(10.0)) as client, client.stream(
        "GET", events_url(server, f"ids={wid}")
    ) as resp:
        import httpx_sse

        source = httpx_sse.EventSource(resp)
        events = source.iter_sse()
        assert next(events).event == "upsert"
        assert next(events).event == "synced"
        # 2,000 updates while this reader reads nothing.
        for batch in range(40):
            body = "".join(f"{wid} {(batch * 50 + i) % 5 + 0.5}\n" for i in range(50))
            out = http.post("/values", content=body.encode(),
                            headers={"content-type": "text/plain"}).json()
            assert out["accepted"] == 50, out
        final = set_value(http, wid, 1.25)
        count = 0
        for event in events:
            count += 1
            if data(event).get("revision") == final:
                break
            assert count < 2100, "the stream never reached the final value"
        assert data(event)["content"]["value"] == 1.25
        # Still live.
        newer = set_value(http, wid, 3.75)
        event = next(events)
        assert int(event.id) == newer and data(event)["content"]["value"] == 3.75
    if rss_before is not None:
        assert _rss(server) - rss_before < 64 * 1024, "gauged grew by more than 64 MiB"


def _rss(server) -> int | None:
    if server.proc is None:
        return None
    from helpers import rss_kib

    return rss_kib(server.proc.pid)


# --------------------------------------------------------------------------- refusals


def test_bad_query_is_422(http):
    err = problem(http.get("/widgets/events?min_interval_ms=-1"), 422, "min_interval_ms")
    assert "-1" in err["detail"]
    problem(http.get("/widgets/events?colour=red"), 422, "colour")
    problem(http.get("/widgets/events", headers={"last-event-id": "abc"}), 422, "Last-Event-ID")


def test_post_is_405(http):
    resp = http.post("/widgets/events", content=b"")
    problem(resp, 405)
    assert resp.headers["allow"] == "GET, HEAD"


def test_accept_json_is_406(http):
    problem(http.get("/widgets/events", headers={"accept": "application/json"}), 406)


def test_sigterm_ends_the_stream_cleanly(spawn):
    srv = spawn()
    with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT) as http:
        create(http, "w", 1)
    sse = SSEReader(events_url(srv))
    try:
        sse.until_synced()
        started = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        end = sse.next(timeout=5)  # None: the body ended properly, no error
        assert end is None, end
        assert time.monotonic() - started < 3
        assert srv.proc.wait(timeout=10) == 0
    finally:
        sse.close()
