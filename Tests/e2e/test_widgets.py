"""Put, Update, Get, List and Delete through a stock grpcio client."""

from __future__ import annotations

import time

import grpc
import pytest

from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import (
    TIMEOUT,
    assert_invalid,
    delete,
    gauge,
    gauge_content,
    get,
    put,
    rpc_error,
    same_content,
    update,
    widget,
)


def now_ms() -> int:
    return int(time.time() * 1000)


# --------------------------------------------------------------------------- PutWidget


def test_put_creates(stub, new_id):
    wid = new_id()
    before = now_ms()
    resp = put(stub, widget(wid, name="CPU", label="cpu", unit="%"))
    after = now_ms()
    assert resp.HasField("created") and resp.created is True
    w = resp.widget
    assert w.id == wid and w.name == "CPU"
    assert w.revision > 0
    assert before - 1000 <= w.created_at_ms <= after + 1000, (before, w.created_at_ms, after)
    assert w.updated_at_ms >= w.created_at_ms
    assert w.content.WhichOneof("template") == "gauge"
    assert (w.content.gauge.value, w.content.gauge.min_value, w.content.gauge.max_value) == (
        2.0,
        0.0,
        5.0,
    )
    assert w.content.label == "cpu" and w.content.unit == "%"


def test_put_replaces_whole(stub, new_id):
    wid = new_id()
    first = put(
        stub, widget(wid, label="old", subtitle="sub", icon="cpu", accent_color="red")
    ).widget
    time.sleep(0.01)
    replacement = widget(wid, name="new name", content=wpb.Content(progress=wpb.Progress(value=0.5)))
    resp = put(stub, replacement)
    assert resp.created is False
    w = resp.widget
    assert w.created_at_ms == first.created_at_ms
    assert w.updated_at_ms >= first.updated_at_ms
    assert w.revision > first.revision
    assert w.name == "new name"
    # Content is replaced whole: nothing of the first content survives.
    assert same_content(w.content, replacement.content), w.content
    assert not w.content.HasField("label") and not w.content.HasField("subtitle")
    assert not w.content.HasField("icon") and not w.content.HasField("accent_color")
    assert get(stub, wid) == w


# --------------------------------------------------------------------------- GetWidget


def test_get_returns_stored_widget(stub, new_id):
    wid = new_id()
    stored = put(
        stub,
        widget(
            wid,
            content=wpb.Content(
                gauge=gauge(
                    value=3,
                    style=wpb.CIRCULAR,
                    gradient=["green", "#ff0000"],
                    marks=[wpb.Mark(value=1, label="low"), wpb.Mark(value=4)],
                    current_value_label="3 GB",
                    min_label="0",
                    max_label="5",
                ),
                label="Memory",
                subtitle="host-1",
                icon="memorychip",
                unit="GB",
                trend=wpb.UP,
                accent_color="blue",
                background_color="#11223344",
                text_color="FFFFFF",
            ),
        ),
    ).widget
    assert get(stub, wid) == stored


def test_get_unknown_is_not_found(stub, new_id):
    err = rpc_error(get, stub, new_id("-missing"))
    assert err.code() == grpc.StatusCode.NOT_FOUND, (err.code(), err.details())
    assert err.details()


# --------------------------------------------------------------------------- UpdateWidget


def _full(stub, wid):
    return put(
        stub,
        widget(
            wid,
            name="disk",
            content=wpb.Content(
                gauge=gauge(
                    value=2,
                    style=wpb.LINEAR,
                    gradient=["green", "red"],
                    marks=[wpb.Mark(value=4, label="warn")],
                ),
                label="Disk",
                subtitle="sda",
                icon="internaldrive",
                unit="TB",
                trend=wpb.FLAT,
            ),
        ),
    ).widget


def test_update_merge_keeps_absent_fields(stub, new_id):
    wid = new_id()
    before = _full(stub, wid)
    after = update(stub, wid, name="renamed")
    assert after.name == "renamed"
    assert after.content == before.content
    assert after.created_at_ms == before.created_at_ms
    assert after.revision > before.revision


def test_update_only_gauge_value(stub, new_id):
    wid = new_id()
    before = _full(stub, wid)
    after = update(stub, wid, content=wpb.Content(gauge=wpb.Gauge(value=4.5)))
    expected = wpb.Content()
    expected.CopyFrom(before.content)
    expected.gauge.value = 4.5
    assert same_content(after.content, expected), after.content
    assert after.name == before.name


def test_update_clear_fields(stub, new_id):
    wid = new_id()
    before = _full(stub, wid)
    after = update(stub, wid, clear=["content.subtitle", "content.gauge.marks"])
    assert not after.content.HasField("subtitle")
    assert len(after.content.gauge.marks) == 0
    expected = wpb.Content()
    expected.CopyFrom(before.content)
    expected.ClearField("subtitle")
    del expected.gauge.marks[:]
    assert same_content(after.content, expected), after.content
    assert get(stub, wid) == after


def test_update_clear_unknown_path_rejected(stub, new_id):
    wid = new_id()
    before = _full(stub, wid)
    err = rpc_error(update, stub, wid, clear=["content.nope"])
    assert_invalid(err)
    assert get(stub, wid) == before


def test_update_template_switch_needs_new_required_fields(stub, new_id):
    wid = new_id()
    before = _full(stub, wid)
    # gauge -> progress without the progress value
    err = rpc_error(update, stub, wid, content=wpb.Content(progress=wpb.Progress()))
    assert_invalid(err, "content.progress.value")
    # gauge -> value without the value
    err = rpc_error(update, stub, wid, content=wpb.Content(value=wpb.Value(min_value=1)))
    assert_invalid(err, "content.value.value")
    assert get(stub, wid) == before

    # gauge -> progress, complete: the template is swapped, shared fields kept
    switched = update(stub, wid, content=wpb.Content(progress=wpb.Progress(value=0.25)))
    assert switched.content.WhichOneof("template") == "progress"
    assert switched.content.progress.value == 0.25
    assert not switched.content.HasField("gauge")
    assert switched.content.label == "Disk" and switched.content.unit == "TB"

    # progress -> gauge with only a value: min and max are required
    err = rpc_error(update, stub, wid, content=wpb.Content(gauge=wpb.Gauge(value=1)))
    assert_invalid(err, "content.gauge.min_value", "content.gauge.max_value")
    assert get(stub, wid) == switched

    back = update(stub, wid, content=wpb.Content(gauge=gauge(value=1, min_value=0, max_value=2)))
    assert back.content.WhichOneof("template") == "gauge"
    assert (back.content.gauge.value, back.content.gauge.min_value) == (1, 0)
    assert back.content.gauge.max_value == 2


def test_update_without_changes_bumps_revision_and_time(stub, new_id):
    wid = new_id()
    before = _full(stub, wid)
    time.sleep(0.02)
    after = update(stub, wid)
    assert after.revision > before.revision
    assert after.updated_at_ms > before.updated_at_ms
    assert after.created_at_ms == before.created_at_ms
    assert after.content == before.content and after.name == before.name


def test_update_unknown_id_creates_when_complete(stub, new_id):
    wid = new_id()
    w = update(stub, wid, name="made by update", content=gauge_content(label="x"))
    assert w.id == wid and w.revision > 0 and w.created_at_ms > 0
    assert same_content(w.content, gauge_content(label="x")), w.content
    assert get(stub, wid) == w


def test_update_unknown_id_incomplete_is_rejected(stub, new_id):
    wid = new_id()
    err = rpc_error(update, stub, wid, content=wpb.Content(gauge=wpb.Gauge(value=1)))
    assert_invalid(err, "content.gauge.min_value", "content.gauge.max_value")
    err = rpc_error(update, stub, wid, name="no content")
    assert_invalid(err, "content")
    assert rpc_error(get, stub, wid).code() == grpc.StatusCode.NOT_FOUND


# --------------------------------------------------------------------------- ListWidgets


def list_all(stub, prefix: str, page_size: int) -> tuple[list, int]:
    """Every widget under prefix, following next_page_token; also the page count."""
    seen, token, pages = [], "", 0
    while True:
        resp = stub.ListWidgets(
            spb.ListWidgetsRequest(id_prefix=prefix, page_size=page_size, page_token=token),
            timeout=TIMEOUT,
        )
        pages += 1
        assert len(resp.widgets) <= page_size, (len(resp.widgets), page_size)
        seen.extend(resp.widgets)
        token = resp.next_page_token
        if not token:
            return seen, pages
        assert pages < 50, "paging does not end"


def test_list_ordered_by_id_with_prefix(stub, new_id):
    prefix = new_id("-")
    suffixes = ["b", "A", "a-1", "a_1", "a0", "Z", "a", "0"]
    for s in suffixes:
        put(stub, widget(prefix + s, name=s))
    put(stub, widget(new_id("-other"), name="not under the prefix"))
    resp = stub.ListWidgets(spb.ListWidgetsRequest(id_prefix=prefix), timeout=TIMEOUT)
    ids = [w.id for w in resp.widgets]
    assert ids == sorted(prefix + s for s in suffixes)
    assert resp.next_page_token == ""
    assert all(w.HasField("content") and w.revision > 0 for w in resp.widgets)
    assert [w.id for w in stub.ListWidgets(
        spb.ListWidgetsRequest(id_prefix=prefix + "a"), timeout=TIMEOUT
    ).widgets] == sorted(prefix + s for s in suffixes if s.startswith("a"))


def test_list_paging(stub, new_id):
    prefix = new_id("-")
    ids = [f"{prefix}{i:02d}" for i in range(7)]
    for wid in reversed(ids):
        put(stub, widget(wid))
    seen, pages = list_all(stub, prefix, page_size=3)
    assert [w.id for w in seen] == ids
    assert pages in (3, 4), pages  # 3+3+1 (an empty fourth page is tolerated)


def test_list_page_size_above_1000_accepted(stub, new_id):
    prefix = new_id("-")
    for i in range(3):
        put(stub, widget(f"{prefix}{i}"))
    resp = stub.ListWidgets(
        spb.ListWidgetsRequest(id_prefix=prefix, page_size=5000), timeout=TIMEOUT
    )
    assert [w.id for w in resp.widgets] == [f"{prefix}{i}" for i in range(3)]
    assert resp.next_page_token == ""


def test_list_page_size_default_100_and_cap_1000(stub, new_id):
    prefix = new_id("-")
    ids = [f"{prefix}{i:04d}" for i in range(1001)]
    for wid in ids:
        put(stub, widget(wid, name=None))
    default = stub.ListWidgets(spb.ListWidgetsRequest(id_prefix=prefix), timeout=TIMEOUT)
    assert [w.id for w in default.widgets] == ids[:100]
    assert default.next_page_token
    capped = stub.ListWidgets(
        spb.ListWidgetsRequest(id_prefix=prefix, page_size=100000), timeout=TIMEOUT
    )
    assert [w.id for w in capped.widgets] == ids[:1000]
    assert capped.next_page_token
    rest = stub.ListWidgets(
        spb.ListWidgetsRequest(id_prefix=prefix, page_size=100000,
                               page_token=capped.next_page_token),
        timeout=TIMEOUT,
    )
    assert [w.id for w in rest.widgets] == ids[1000:]
    assert rest.next_page_token == ""


def test_list_without_prefix_is_ordered(stub):
    resp = stub.ListWidgets(spb.ListWidgetsRequest(), timeout=TIMEOUT)
    assert len(resp.widgets) <= 100
    ids = [w.id for w in resp.widgets]
    assert ids == sorted(ids)


def test_list_negative_page_size_rejected(stub):
    err = rpc_error(stub.ListWidgets, spb.ListWidgetsRequest(page_size=-1), timeout=TIMEOUT)
    assert_invalid(err, "page_size")


# --------------------------------------------------------------------------- DeleteWidget


def test_delete(stub, new_id):
    wid = new_id()
    put(stub, widget(wid))
    assert delete(stub, wid) == spb.DeleteWidgetResponse()
    err = rpc_error(get, stub, wid)
    assert err.code() == grpc.StatusCode.NOT_FOUND, (err.code(), err.details())
    err = rpc_error(delete, stub, wid)
    assert err.code() == grpc.StatusCode.NOT_FOUND, (err.code(), err.details())
    listed = stub.ListWidgets(spb.ListWidgetsRequest(id_prefix=wid), timeout=TIMEOUT)
    assert wid not in [w.id for w in listed.widgets]


def test_delete_unknown_is_not_found(stub, new_id):
    err = rpc_error(delete, stub, new_id("-missing"))
    assert err.code() == grpc.StatusCode.NOT_FOUND, (err.code(), err.details())


# --------------------------------------------------------------------------- revisions


def test_revisions_strictly_increase_across_widgets(stub, new_id):
    a, b = new_id(), new_id()
    revisions = [
        put(stub, widget(a)).widget.revision,
        put(stub, widget(b)).widget.revision,
        update(stub, a, name="x").revision,
        put(stub, widget(b, name="y")).widget.revision,
        update(stub, b, content=wpb.Content(gauge=wpb.Gauge(value=3))).revision,
    ]
    assert all(x < y for x, y in zip(revisions, revisions[1:])), revisions
    assert get(stub, b).revision == revisions[-1]


def test_rejected_write_changes_nothing_and_takes_no_revision(stub, new_id):
    a, b = new_id(), new_id()
    stored = _full(stub, a)
    # Several kinds of rejected write on the stored widget, each with a valid part too.
    bad_put = widget(a, name="changed", content=wpb.Content(gauge=gauge(value=7)))
    assert_invalid(rpc_error(put, stub, bad_put), "content.gauge.value")
    assert_invalid(
        rpc_error(update, stub, a, name="changed", content=wpb.Content(gauge=wpb.Gauge(value=9))),
        "content.gauge.value",
    )
    assert_invalid(
        rpc_error(update, stub, a, name="n" * 257, content=wpb.Content(label="changed")), "name"
    )
    assert get(stub, a) == stored
    # No revision was taken: the next accepted write is the very next revision
    # (nothing else writes to this server while a test runs).
    nxt = put(stub, widget(b)).widget
    assert nxt.revision == stored.revision + 1, (stored.revision, nxt.revision)
