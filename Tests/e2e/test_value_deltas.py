"""Value-only delta events (issue 32): a subscriber that asks for them gets a change that
set only a widget's value as `value` (id, value, updated_at_ms; the event's revision),
over gRPC (grpcio), Server-Sent Events (httpx, `deltas=1`) and Connect JSON; every other
change, and the first event for each widget after `synced`, comes whole. Subscribers that
do not ask see nothing new."""

from __future__ import annotations

import json
import time

import httpx

from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import TIMEOUT, SSEReader, base_url, put
from test_subscribe import Subscription
from webfaces import END_STREAM_FLAG, complete_frames, frame, kind, rpc_path


def rich_gauge(wid: str) -> wpb.Widget:
    """The issue's widget: a gauge with a label, subtitle, unit, four marks and a
    three-stop gradient."""
    return wpb.Widget(
        id=wid, name="Error rate",
        content=wpb.Content(
            label="Errors", subtitle="5-minute window, all regions", unit="%",
            gauge=wpb.Gauge(
                value=1.5, min_value=0, max_value=10, gradient=["green", "orange", "red"],
                marks=[wpb.Mark(value=v, label=f"{v}%") for v in (2.5, 5, 7.5, 9)],
                current_value_label="1.5%", min_label="0", max_label="10")))


def publish(stub, wid: str, *values: float) -> None:
    summary = stub.PublishValues(
        iter([spb.ValueUpdate(id=wid, value=v) for v in values]), timeout=TIMEOUT)
    assert summary.accepted == len(values), summary


def test_values_come_as_deltas_and_other_changes_whole(stub, new_id):
    wid = new_id()
    created = put(stub, rich_gauge(wid)).widget
    sub = Subscription(stub, ids=[wid], value_deltas=True)
    try:
        snapshot, _ = sub.until_synced()
        assert [kind(e) for e in snapshot] == ["upsert"]
        # The first live event for the widget is whole, then values are deltas.
        # One value at a time: values published together may coalesce into
        # that first, whole event.
        publish(stub, wid, 2)
        first = sub.next(timeout=TIMEOUT)
        assert kind(first) == "upsert" and first.upsert.content.gauge.value == 2
        seen = [first]
        for value in (3, 4):
            publish(stub, wid, value)
            event = sub.next(timeout=TIMEOUT)
            assert kind(event) == "value", event
            assert event.value.id == wid and event.value.value == value
            assert event.value.updated_at_ms >= created.updated_at_ms
            seen.append(event)
        revisions = [e.revision for e in seen]
        assert revisions == sorted(revisions) and revisions[0] > created.revision
        # A change beyond the value is whole; the value after it a delta again.
        relabelled = stub.UpdateWidget(spb.UpdateWidgetRequest(
            id=wid, content=wpb.Content(label="Error budget")), timeout=TIMEOUT)
        event = sub.until(lambda e: e.revision == relabelled.revision)[-1]
        assert kind(event) == "upsert" and event.upsert.content.label == "Error budget"
        # An UpdateWidget that sets only the gauge's value is a value change too.
        valued = stub.UpdateWidget(spb.UpdateWidgetRequest(
            id=wid, content=wpb.Content(gauge=wpb.Gauge(value=6))), timeout=TIMEOUT)
        event = sub.until(lambda e: e.revision == valued.revision)[-1]
        assert kind(event) == "value" and event.value.value == 6
        assert event.value.updated_at_ms == valued.updated_at_ms
    finally:
        sub.cancel()


def test_a_delta_is_at_least_three_times_smaller_than_the_widget(stub, new_id):
    # An id of everyday length: the long ids of the other tests would weigh on both.
    wid = f"errors-{abs(hash(new_id())) % 10**6}"
    put(stub, rich_gauge(wid))
    sub = Subscription(stub, ids=[wid], value_deltas=True)
    try:
        sub.until_synced()
        publish(stub, wid, 2)
        whole = sub.until(lambda e: kind(e) == "upsert")[-1]
        publish(stub, wid, 3)
        delta = sub.until(lambda e: kind(e) == "value")[-1]
        assert delta.ByteSize() * 3 <= whole.ByteSize(), (delta.ByteSize(), whole.ByteSize())
    finally:
        sub.cancel()


def test_without_the_option_every_change_stays_whole(stub, new_id):
    wid = new_id()
    put(stub, rich_gauge(wid))
    sub = Subscription(stub, ids=[wid])
    try:
        sub.until_synced()
        publish(stub, wid, 2, 3)
        seen = sub.until(lambda e: kind(e) == "upsert" and e.upsert.content.gauge.value == 3)
        assert {kind(e) for e in seen} == {"upsert"}
    finally:
        sub.cancel()


def test_a_stream_without_snapshot_gets_each_widget_whole_first(stub, new_id):
    wid = new_id()
    put(stub, rich_gauge(wid))
    sub = Subscription(stub, ids=[wid], value_deltas=True, include_snapshot=False)
    try:
        before, _ = sub.until_synced()
        assert before == []
        publish(stub, wid, 7)
        first = sub.until(lambda e: kind(e) != "synced")[-1]
        assert kind(first) == "upsert" and first.upsert.content.label == "Errors"
        publish(stub, wid, 8)
        assert kind(sub.until(lambda e: e.revision > first.revision)[-1]) == "value"
    finally:
        sub.cancel()


def test_server_sent_events_with_deltas(server, stub, new_id):
    wid = new_id()
    put(stub, rich_gauge(wid))
    url = f"{base_url(server)}/widgets/events?ids={wid}&deltas=1"
    with SSEReader(url) as sse:
        snapshot, _ = sse.until_synced()
        assert [e.event for e in snapshot] == ["upsert"]
        publish(stub, wid, 2)
        assert sse.until(lambda e: e.event == "upsert")[-1].event == "upsert"
        publish(stub, wid, 3)
        event = sse.until(lambda e: e.event == "value")[-1]
        data = json.loads(event.data)
        assert sorted(data) == ["id", "revision", "updated_at", "value"], data
        assert data["id"] == wid and data["value"] == 3
        assert event.id == str(data["revision"])
        assert data["updated_at"].endswith("Z")


def test_server_sent_events_refuse_a_bad_deltas_value(server):
    resp = httpx.get(f"{base_url(server)}/widgets/events?deltas=maybe", timeout=TIMEOUT)
    assert resp.status_code == 422
    assert resp.headers["content-type"].startswith("application/problem+json")
    assert "deltas" in resp.text


def test_connect_json_stream_carries_value_events(server, stub, new_id):
    wid = new_id()
    put(stub, rich_gauge(wid))
    request = json.dumps({"ids": [wid], "valueDeltas": True}).encode()
    headers = {"connect-protocol-version": "1", "content-type": "application/connect+json",
               "connect-timeout-ms": "10000"}
    with httpx.Client(base_url=base_url(server), timeout=TIMEOUT) as http, http.stream(
            "POST", rpc_path("Subscribe"), content=frame(request), headers=headers) as resp:
        assert resp.status_code == 200
        chunks = resp.iter_raw()
        seen, pending = [], b""

        def until(predicate):
            nonlocal pending
            deadline = time.monotonic() + TIMEOUT
            while time.monotonic() < deadline:
                got, pending = complete_frames(pending)
                for flags, payload in got:
                    assert not flags & END_STREAM_FLAG, payload
                    seen.append(json.loads(payload))
                if seen and predicate(seen[-1]):
                    return seen[-1]
                pending += next(chunks)
            raise AssertionError(f"not seen: {seen}")

        until(lambda e: "synced" in e)
        publish(stub, wid, 2)
        until(lambda e: "upsert" in e and e["upsert"]["content"]["gauge"]["value"] == 2)
        publish(stub, wid, 5)
        event = until(lambda e: "value" in e)
        assert event["value"]["id"] == wid and event["value"]["value"] == 5
        assert int(event["value"]["updatedAtMs"]) > 0 and int(event["revision"]) > 0
