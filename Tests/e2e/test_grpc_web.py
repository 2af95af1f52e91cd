"""gRPC-Web on gauged's port (grpc's PROTOCOL-WEB.md): sonora's client for the unary
methods, Subscribe, errors with their google.rpc.Status and deadlines; then raw requests
over HTTP/1.1 and HTTP/2 (prior knowledge) for what clients hide: the trailer frame, the
base64 -text mode, PublishValues refused, grpc-timeout."""

from __future__ import annotations

import base64
import time
from urllib.parse import unquote

import grpc
import httpx
import pytest

from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import TIMEOUT, base_url, gauge, get, put, widget
from webfaces import (
    GRPC_WEB,
    GRPC_WEB_PROTO,
    GRPC_WEB_TEXT,
    GRPC_WEB_TEXT_PROTO,
    TRAILER_FLAG,
    WebStub,
    WebSubscription,
    complete_frames,
    frame,
    frames,
    grpc_web_reply,
    grpc_web_text_decode,
    kind,
    rpc_path,
    server_sockets,
    status_from_details_bin,
    trailer_block,
    upsert_of,
    violation_pairs,
    wait_for,
    web_call,
    web_status,
)

try:
    import sonora.client
except ImportError as err:  # pragma: no cover - a venv without the pinned packages
    raise ImportError(f"{err}: the gRPC-Web tests need sonora from Tests/e2e/requirements.txt "
                      "(make venv)") from err

INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT
NOT_FOUND = grpc.StatusCode.NOT_FOUND


@pytest.fixture(scope="module")
def web_channel(server):
    """sonora's sync gRPC-Web channel (urllib3, HTTP/1.1)."""
    with sonora.client.insecure_web_channel(base_url(server)) as ch:
        yield ch


@pytest.fixture(scope="module")
def web(web_channel):
    return WebStub(web_channel)


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=base_url(server), timeout=TIMEOUT) as c:
        yield c


@pytest.fixture(scope="module")
def h2c(server):
    """httpx over HTTP/2 with prior knowledge (http2 only, on an http:// URL)."""
    with httpx.Client(base_url=base_url(server), timeout=TIMEOUT, http1=False, http2=True) as c:
        yield c


def value_content(value: float, min_value: float = 0, max_value: float = 10) -> wpb.Content:
    return wpb.Content(gauge=gauge(value, min_value, max_value))


# --------------------------------------------------------------------------- sonora: unary


def test_put_widget_creates_then_replaces(web, stub, new_id):
    wid = new_id()
    made = web.PutWidget(spb.PutWidgetRequest(widget=widget(wid, content=value_content(1))))
    assert made.created is True and made.widget.id == wid and made.widget.revision > 0
    again = web.PutWidget(spb.PutWidgetRequest(widget=widget(wid, content=value_content(2))))
    assert again.created is False and again.widget.revision > made.widget.revision
    assert get(stub, wid) == again.widget


def test_get_widget_is_what_grpc_sees(web, stub, new_id):
    wid = new_id()
    put(stub, widget(wid, name="über", content=wpb.Content(
        gauge=gauge(3, 0, 5, style=wpb.LINEAR, marks=[wpb.Mark(value=1, label="one")]),
        trend=wpb.UP, unit="%")))
    assert web.GetWidget(spb.GetWidgetRequest(id=wid)) == get(stub, wid)


def test_update_widget_merges(web, new_id):
    wid = new_id()
    web.PutWidget(spb.PutWidgetRequest(widget=widget(wid, name="keep", content=value_content(1))))
    after = web.UpdateWidget(spb.UpdateWidgetRequest(
        id=wid, content=wpb.Content(gauge=wpb.Gauge(value=6))))
    assert after.name == "keep"
    assert (after.content.gauge.value, after.content.gauge.max_value) == (6, 10)


def test_list_widgets_pages_in_id_order(web, new_id):
    prefix = new_id("-")
    ids = [f"{prefix}{c}" for c in "cab"]
    for wid in ids:
        web.PutWidget(spb.PutWidgetRequest(widget=widget(wid)))
    first = web.ListWidgets(spb.ListWidgetsRequest(id_prefix=prefix, page_size=2))
    assert [w.id for w in first.widgets] == sorted(ids)[:2] and first.next_page_token
    rest = web.ListWidgets(spb.ListWidgetsRequest(id_prefix=prefix, page_size=2,
                                                  page_token=first.next_page_token))
    assert [w.id for w in rest.widgets] == sorted(ids)[2:] and rest.next_page_token == ""


def test_delete_widget(web, new_id):
    wid = new_id()
    web.PutWidget(spb.PutWidgetRequest(widget=widget(wid)))
    assert web.DeleteWidget(spb.DeleteWidgetRequest(id=wid)) == spb.DeleteWidgetResponse()
    with pytest.raises(grpc.RpcError) as info:
        web.GetWidget(spb.GetWidgetRequest(id=wid))
    assert info.value.code() == NOT_FOUND
    with pytest.raises(grpc.RpcError) as info:
        web.DeleteWidget(spb.DeleteWidgetRequest(id=wid))
    assert info.value.code() == NOT_FOUND


def test_unary_with_a_deadline_it_meets(web, new_id):
    """sonora sends grpc-timeout (here "2S"); the call completes well inside it."""
    wid = new_id()
    web.PutWidget(spb.PutWidgetRequest(widget=widget(wid)), timeout=2)
    assert web.GetWidget(spb.GetWidgetRequest(id=wid), timeout=2).id == wid


# --------------------------------------------------------------------------- sonora: errors


def test_violation_in_grpc_status_details_bin(web_channel, stub, new_id):
    wid = new_id()
    request = spb.PutWidgetRequest(widget=widget(wid, content=wpb.Content(gauge=gauge(value=7))))
    result, err, call = web_call(web_channel, "PutWidget", request)
    assert result is None and err is not None
    assert err.code() == INVALID_ARGUMENT, (err.code(), err.details())
    assert err.details() == "content.gauge.value: 7 is outside [0, 5]"
    status = web_status(call)
    assert status.code == INVALID_ARGUMENT.value[0]
    assert violation_pairs(status.details) == [("content.gauge.value", "7 is outside [0, 5]")]
    with pytest.raises(grpc.RpcError) as info:
        get(stub, wid)
    assert info.value.code() == NOT_FOUND


def test_every_violation_is_listed(web_channel):
    request = spb.PutWidgetRequest(widget=widget("_bad", name="n" * 300,
                                                 content=wpb.Content(gauge=gauge(value=7))))
    _, err, call = web_call(web_channel, "PutWidget", request)
    assert err.code() == INVALID_ARGUMENT
    pairs = violation_pairs(web_status(call).details)
    assert sorted(f for f, _ in pairs) == ["content.gauge.value", "id", "name"], pairs
    for f, description in pairs:
        assert f"{f}: {description}" in err.details(), (f, err.details())


def test_not_found_names_the_id(web_channel, new_id):
    wid = new_id("-missing")
    _, err, call = web_call(web_channel, "GetWidget", spb.GetWidgetRequest(id=wid))
    assert err.code() == NOT_FOUND
    assert wid in err.details(), err.details()
    trailers = dict(call.trailing_metadata())
    assert trailers["grpc-status"] == "5"


def test_invalid_subscribe_ends_with_the_violation(web):
    """The stream ends at once, so sonora's sync channel reads it whole."""
    call = web.Subscribe(spb.SubscribeRequest(ids=["ok", "_bad"]), timeout=TIMEOUT)
    with pytest.raises(grpc.RpcError) as info:
        for event in call:
            pytest.fail(f"an event before the error: {event}")
    assert info.value.code() == INVALID_ARGUMENT
    trailers = dict(call.trailing_metadata())
    status = status_from_details_bin(trailers["grpc-status-details-bin"])
    assert [f for f, _ in violation_pairs(status.details)] == ["ids"]


# --------------------------------------------------------------------------- sonora: Subscribe


def test_subscribe_snapshot_synced_then_live(server, stub, new_id):
    base = new_id()
    put(stub, widget(f"{base}-b", content=value_content(1)))
    put(stub, widget(f"{base}-a", content=value_content(2)))
    with WebSubscription(server, id_prefix=f"{base}-") as sub:
        snapshot, synced = sub.until_synced()
        assert [kind(e) for e in snapshot] == ["upsert", "upsert"]
        assert [e.upsert.id for e in snapshot] == [f"{base}-a", f"{base}-b"]
        assert synced.revision >= max(e.revision for e in snapshot)
        changed = stub.UpdateWidget(spb.UpdateWidgetRequest(
            id=f"{base}-a", content=wpb.Content(gauge=wpb.Gauge(value=7))), timeout=TIMEOUT)
        live = sub.next()
        assert upsert_of(f"{base}-a", 7)(live) and live.revision == changed.revision
        stub.DeleteWidget(spb.DeleteWidgetRequest(id=f"{base}-b"), timeout=TIMEOUT)
        removed = sub.next()
        assert kind(removed) == "removed" and removed.removed == f"{base}-b"
        assert removed.revision > live.revision


def test_subscribe_resumes_since_a_revision(server, stub, new_id):
    base = new_id()
    for suffix in ("keep", "change", "remove"):
        put(stub, widget(f"{base}-{suffix}", content=value_content(1)))
    with WebSubscription(server, id_prefix=f"{base}-") as first:
        _, synced = first.until_synced()
    stub.UpdateWidget(spb.UpdateWidgetRequest(
        id=f"{base}-change", content=wpb.Content(gauge=wpb.Gauge(value=9))), timeout=TIMEOUT)
    stub.DeleteWidget(spb.DeleteWidgetRequest(id=f"{base}-remove"), timeout=TIMEOUT)
    put(stub, widget(f"{base}-new", content=value_content(5)))
    with WebSubscription(server, id_prefix=f"{base}-", since_revision=synced.revision) as second:
        caught_up, synced_again = second.until_synced()
        upserts = {e.upsert.id: e.upsert.content.gauge.value
                   for e in caught_up if kind(e) == "upsert"}
        assert upserts == {f"{base}-change": 9, f"{base}-new": 5}
        assert [e.removed for e in caught_up if kind(e) == "removed"] == [f"{base}-remove"]
        assert synced_again.revision > synced.revision


def test_server_ends_subscribe_at_grpc_timeout(web, new_id):
    """grpc-timeout sent as metadata, with no client-side timer: only the server can end
    the stream, with DEADLINE_EXCEEDED after the snapshot (sonora's sync channel reads the
    body to its end)."""
    wid = new_id()
    web.PutWidget(spb.PutWidgetRequest(widget=widget(wid)))
    started = time.monotonic()
    call = web.Subscribe(spb.SubscribeRequest(ids=[wid]), metadata=[("grpc-timeout", "300m")])
    events = []
    with pytest.raises(grpc.RpcError) as info:
        for event in call:
            events.append(event)
    elapsed = time.monotonic() - started
    assert [kind(e) for e in events] == ["upsert", "synced"]
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED, info.value.details()
    assert info.value.details() != "request timed out at the client"
    assert dict(call.trailing_metadata())["grpc-status"] == "4"
    assert 0.25 <= elapsed < 2.0, elapsed


def test_client_timeout_ends_subscribe(server, new_id, web):
    wid = new_id()
    web.PutWidget(spb.PutWidgetRequest(widget=widget(wid)))
    started = time.monotonic()
    sub = WebSubscription(server, timeout=0.5, ids=[wid])
    try:
        sub.until_synced()
        assert sub.error().code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert time.monotonic() - started < 2.0
    finally:
        sub.cancel()


def test_cancelled_subscriptions_are_released(server, web, new_id):
    """Ten gRPC-Web subscriptions cancelled after synced (sonora's asyncio channel closes
    each connection): gauged closes those sockets and goes on serving."""
    wid = new_id()
    web.PutWidget(spb.PutWidgetRequest(widget=widget(wid, content=value_content(1))))
    baseline = server_sockets(server)
    subs = [WebSubscription(server, ids=[wid]) for _ in range(10)]
    try:
        for sub in subs:
            sub.until_synced()
        if baseline is not None:
            assert server_sockets(server) >= baseline + 10
    finally:
        for sub in subs:
            sub.cancel()
    if baseline is not None:
        wait_for(lambda: server_sockets(server) <= baseline, what="sockets released")
    with WebSubscription(server, ids=[wid]) as sub:
        sub.until_synced()
        web.UpdateWidget(spb.UpdateWidgetRequest(id=wid,
                                                 content=wpb.Content(gauge=wpb.Gauge(value=3))))
        assert upsert_of(wid, 3)(sub.next())


# --------------------------------------------------------------------------- raw: unary


def get_body(wid: str) -> bytes:
    return frame(spb.GetWidgetRequest(id=wid).SerializeToString())


@pytest.mark.parametrize("content_type,extra", [
    pytest.param(GRPC_WEB_PROTO, {}, id="grpc-web+proto"),
    pytest.param(GRPC_WEB, {"x-grpc-web": "1"}, id="grpc-web-x-grpc-web"),
])
def test_raw_reply_is_messages_then_one_trailer_frame(http, stub, new_id, content_type, extra):
    """200, application/grpc-web+proto; the body is the Widget's frame (flags 0) and then
    exactly one frame flagged 0x80 whose payload is `name:value` lines, each ending in
    CRLF: grpc-status 0, and no message or an empty one."""
    wid = new_id()
    stored = put(stub, widget(wid)).widget
    resp = http.post(rpc_path("GetWidget"), content=get_body(wid),
                     headers={"content-type": content_type, **extra})
    assert resp.status_code == 200, resp.content
    assert resp.headers["content-type"] == GRPC_WEB_PROTO
    messages, trailers = grpc_web_reply(resp.content)
    assert [wpb.Widget.FromString(m) for m in messages] == [stored]
    assert trailers["grpc-status"] == "0", trailers
    assert trailers.get("grpc-message", "") == "", trailers
    last_flags, last = frames(resp.content)[-1]
    assert last_flags == TRAILER_FLAG and last.startswith(b"grpc-")


def test_raw_error_is_only_the_trailer_frame(http, new_id):
    wid = new_id("-missing")
    resp = http.post(rpc_path("GetWidget"), content=get_body(wid),
                     headers={"content-type": GRPC_WEB_PROTO})
    assert resp.status_code == 200, resp.content
    ((flags, payload),) = frames(resp.content)
    assert flags == TRAILER_FLAG
    trailers = trailer_block(payload)
    assert trailers["grpc-status"] == "5"
    assert unquote(trailers["grpc-message"]) == f'widget "{wid}" not found', trailers


def test_raw_violation_travels_in_the_trailer_frame(http, new_id):
    body = frame(spb.PutWidgetRequest(widget=widget(
        new_id(), content=wpb.Content(gauge=gauge(value=7)))).SerializeToString())
    resp = http.post(rpc_path("PutWidget"), content=body, headers={"content-type": GRPC_WEB_PROTO})
    assert resp.status_code == 200, resp.content
    messages, trailers = grpc_web_reply(resp.content)
    assert messages == []
    assert trailers["grpc-status"] == "3"
    assert unquote(trailers["grpc-message"]) == "content.gauge.value: 7 is outside [0, 5]"
    status = status_from_details_bin(trailers["grpc-status-details-bin"])
    assert status.code == 3 and status.message == unquote(trailers["grpc-message"])
    assert violation_pairs(status.details) == [("content.gauge.value", "7 is outside [0, 5]")]


@pytest.mark.parametrize("content_type", [GRPC_WEB_TEXT, GRPC_WEB_TEXT_PROTO])
def test_raw_text_mode_both_ways(http, stub, new_id, content_type):
    """A base64 request body; the reply is application/grpc-web-text+proto, base64 of the
    frames (possibly separately padded pieces, decoded here quantum by quantum)."""
    wid = new_id()
    stored = put(stub, widget(wid)).widget
    resp = http.post(rpc_path("GetWidget"), content=base64.b64encode(get_body(wid)),
                     headers={"content-type": content_type, "accept": GRPC_WEB_TEXT})
    assert resp.status_code == 200, resp.content
    assert resp.headers["content-type"] == GRPC_WEB_TEXT_PROTO
    messages, trailers = grpc_web_reply(grpc_web_text_decode(resp.content))
    assert [wpb.Widget.FromString(m) for m in messages] == [stored]
    assert trailers["grpc-status"] == "0"


def test_raw_text_mode_error(http, new_id):
    wid = new_id("-missing")
    resp = http.post(rpc_path("GetWidget"), content=base64.b64encode(get_body(wid)),
                     headers={"content-type": GRPC_WEB_TEXT})
    assert resp.status_code == 200, resp.content
    assert resp.headers["content-type"] == GRPC_WEB_TEXT_PROTO
    ((flags, payload),) = frames(grpc_web_text_decode(resp.content))
    assert flags == TRAILER_FLAG and trailer_block(payload)["grpc-status"] == "5"


@pytest.mark.parametrize("text", [False, True], ids=["binary", "text"])
def test_raw_publish_values_is_unimplemented(http, new_id, text):
    """Client streaming cannot work over gRPC-Web: UNIMPLEMENTED, and the message says
    why (it names gRPC-Web and the streaming)."""
    body = b"".join(frame(spb.ValueUpdate(id=new_id(), value=v).SerializeToString())
                    for v in (1, 2))
    content_type = GRPC_WEB_TEXT if text else GRPC_WEB_PROTO
    resp = http.post(rpc_path("PublishValues"), content=base64.b64encode(body) if text else body,
                     headers={"content-type": content_type})
    assert resp.status_code == 200, resp.content
    data = grpc_web_text_decode(resp.content) if text else resp.content
    ((flags, payload),) = frames(data)
    assert flags == TRAILER_FLAG
    trailers = trailer_block(payload)
    assert trailers["grpc-status"] == "12", trailers
    message = unquote(trailers["grpc-message"]).lower()
    assert "grpc-web" in message and "stream" in message, message


# --------------------------------------------------------------------------- raw: streams


class FrameReader:
    """Frames of a streaming response as they arrive (httpx iter_raw), binary or -text.
    Text arrives as base64; whatever whole quanta have arrived are decoded, which works
    only when each flush was padded on its own."""

    def __init__(self, resp, text: bool = False):
        self.chunks = resp.iter_raw()
        self.text = text
        self.encoded = b""
        self.data = b""
        self.frames: list[tuple[int, bytes]] = []
        self.consumed = 0  # frames already handed out by until()

    def _more(self) -> None:
        chunk = next(self.chunks)
        if not self.text:
            self.data += chunk
            return
        self.encoded += chunk
        whole = len(self.encoded) // 4 * 4
        self.data += grpc_web_text_decode(self.encoded[:whole])
        self.encoded = self.encoded[whole:]

    def until(self, predicate) -> list[tuple[int, bytes]]:
        """Frames up to and including the first matching `predicate(flags, payload)`."""
        first = scan = self.consumed
        while True:
            got, self.data = complete_frames(self.data)
            self.frames += got
            for i in range(scan, len(self.frames)):
                if predicate(*self.frames[i]):
                    self.consumed = i + 1
                    return self.frames[first : i + 1]
            scan = len(self.frames)
            self._more()


def event_frame(flags: int, payload: bytes):
    assert flags == 0, (flags, payload)
    return spb.WidgetEvent.FromString(payload)


@pytest.mark.parametrize("text", [False, True], ids=["binary", "text"])
def test_raw_subscribe_live_and_grpc_timeout(http, stub, new_id, text):
    """Subscribe over HTTP/1.1: the snapshot, synced, a live event as it happens, and at
    grpc-timeout the trailer frame with DEADLINE_EXCEEDED; in -text mode every event can
    be decoded as soon as it has arrived."""
    wid = new_id()
    put(stub, widget(wid, content=value_content(1)))
    body = frame(spb.SubscribeRequest(ids=[wid]).SerializeToString())
    headers = {"content-type": GRPC_WEB_TEXT if text else GRPC_WEB_PROTO, "grpc-timeout": "800m"}
    started = time.monotonic()
    content = base64.b64encode(body) if text else body
    with http.stream("POST", rpc_path("Subscribe"), content=content, headers=headers) as resp:
        assert resp.status_code == 200
        assert resp.headers["content-type"] == (GRPC_WEB_TEXT_PROTO if text else GRPC_WEB_PROTO)
        reader = FrameReader(resp, text=text)
        events = [event_frame(*f) for f in reader.until(lambda fl, p: fl == 0 and kind(
            spb.WidgetEvent.FromString(p)) == "synced")]
        assert [kind(e) for e in events] == ["upsert", "synced"]
        changed = stub.UpdateWidget(spb.UpdateWidgetRequest(
            id=wid, content=wpb.Content(gauge=wpb.Gauge(value=5))), timeout=TIMEOUT)
        (live,) = [event_frame(*f) for f in reader.until(lambda fl, p: True)]
        assert live.revision == changed.revision and live.upsert.content.gauge.value == 5
        (end,) = reader.until(lambda flags, _: flags & TRAILER_FLAG)
        assert end[0] == TRAILER_FLAG
        assert trailer_block(end[1])["grpc-status"] == "4", end
    assert time.monotonic() - started < 2.5


# --------------------------------------------------------------------------- raw: HTTP/2


def test_h2c_unary_and_error(h2c, stub, new_id):
    wid = new_id()
    stored = put(stub, widget(wid)).widget
    resp = h2c.post(rpc_path("GetWidget"), content=get_body(wid),
                    headers={"content-type": GRPC_WEB_PROTO, "x-grpc-web": "1"})
    assert resp.http_version == "HTTP/2"
    assert resp.status_code == 200, resp.content
    assert resp.headers["content-type"] == GRPC_WEB_PROTO
    messages, trailers = grpc_web_reply(resp.content)
    assert [wpb.Widget.FromString(m) for m in messages] == [stored]
    assert trailers["grpc-status"] == "0"

    resp = h2c.post(rpc_path("GetWidget"), content=get_body(wid + "-missing"),
                    headers={"content-type": GRPC_WEB_PROTO})
    assert resp.status_code == 200
    ((flags, payload),) = frames(resp.content)
    assert flags == TRAILER_FLAG and trailer_block(payload)["grpc-status"] == "5"


def test_h2c_text_mode_and_publish_values(h2c, stub, new_id):
    wid = new_id()
    stored = put(stub, widget(wid)).widget
    resp = h2c.post(rpc_path("GetWidget"), content=base64.b64encode(get_body(wid)),
                    headers={"content-type": GRPC_WEB_TEXT})
    assert resp.http_version == "HTTP/2" and resp.status_code == 200
    assert resp.headers["content-type"] == GRPC_WEB_TEXT_PROTO
    messages, _ = grpc_web_reply(grpc_web_text_decode(resp.content))
    assert [wpb.Widget.FromString(m) for m in messages] == [stored]

    resp = h2c.post(rpc_path("PublishValues"),
                    content=frame(spb.ValueUpdate(id=wid, value=1).SerializeToString()),
                    headers={"content-type": GRPC_WEB_PROTO})
    assert resp.status_code == 200
    ((flags, payload),) = frames(resp.content)
    assert flags == TRAILER_FLAG and trailer_block(payload)["grpc-status"] == "12"


def test_h2c_subscribe_until_grpc_timeout(h2c, stub, new_id):
    wid = new_id()
    put(stub, widget(wid, content=value_content(2)))
    started = time.monotonic()
    # httpx's own timeout is short: a stream the server does not end fails the test fast.
    resp = h2c.post(rpc_path("Subscribe"),
                    content=frame(spb.SubscribeRequest(ids=[wid]).SerializeToString()),
                    headers={"content-type": GRPC_WEB_PROTO, "grpc-timeout": "300m"},
                    timeout=2.0)
    assert resp.http_version == "HTTP/2" and resp.status_code == 200
    messages, trailers = grpc_web_reply(resp.content)
    events = [spb.WidgetEvent.FromString(m) for m in messages]
    assert [kind(e) for e in events] == ["upsert", "synced"]
    assert events[0].upsert.content.gauge.value == 2
    assert trailers["grpc-status"] == "4"
    assert 0.25 <= time.monotonic() - started < 2.0
