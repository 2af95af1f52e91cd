"""gRPC and HTTP/2 behaviour: unknown routes, bad payloads, content types, abandoned
streams, trailers. Some tests speak raw HTTP/2 (the h2 package) on their own socket."""

from __future__ import annotations

import re
import struct
import time
from urllib.parse import unquote_to_bytes

import grpc
import pytest

from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import TIMEOUT, RawH2, get, grpc_frame, grpc_messages, put, rpc_error, widget
from rawh2 import PROTOCOL_ERROR, RawPeer

SERVICE = "/gauge.v1.WidgetService"
GET = f"{SERVICE}/GetWidget"
PUT = f"{SERVICE}/PutWidget"


def raw_method(channel, path):
    """A unary method that sends and returns bytes as they are."""
    return channel.unary_unary(path, request_serializer=None, response_deserializer=None)


# --------------------------------------------------------------------------- routing


@pytest.mark.parametrize(
    "path",
    [f"{SERVICE}/Nope", "/gauge.v1.Nope/GetWidget", "/grpc.testing.TestService/EmptyCall"],
    ids=["unknown-method", "unknown-service", "other-service"],
)
def test_unknown_route_is_unimplemented(channel, path):
    err = rpc_error(raw_method(channel, path), b"", timeout=TIMEOUT)
    assert err.code() == grpc.StatusCode.UNIMPLEMENTED, (err.code(), err.details())


def test_unparseable_request_is_internal_and_channel_survives(channel, stub, new_id):
    wid = new_id()
    put(stub, widget(wid))
    err = rpc_error(raw_method(channel, PUT), b"\xff\xff\xff", timeout=TIMEOUT)
    assert err.code() == grpc.StatusCode.INTERNAL, (err.code(), err.details())
    assert err.details() and len(err.details()) > 8, f"unclear message {err.details()!r}"
    # The same channel (and connection) still serves good calls.
    assert get(stub, wid).id == wid
    ok = raw_method(channel, GET)(spb.GetWidgetRequest(id=wid).SerializeToString(), timeout=TIMEOUT)
    assert wpb.Widget.FromString(ok).id == wid


# --------------------------------------------------------------------------- content types


def test_text_plain_content_type_is_415(server):
    with RawH2(server.port) as raw:
        resp = raw.call(GET, spb.GetWidgetRequest(id="x").SerializeToString(), "text/plain")
    assert resp.status == 415, resp


def test_grpc_proto_content_type_accepted(server, stub, new_id):
    wid = new_id()
    stored = put(stub, widget(wid)).widget
    with RawH2(server.port) as raw:
        resp = raw.call(
            GET, spb.GetWidgetRequest(id=wid).SerializeToString(), "application/grpc+proto"
        )
    assert resp.status == 200, resp
    assert resp.headers.get(b"content-type", b"").startswith(b"application/grpc"), resp.headers
    assert resp.grpc_fields.get(b"grpc-status") == b"0", resp
    messages = grpc_messages(resp.data)
    assert len(messages) == 1 and wpb.Widget.FromString(messages[0]) == stored


# --------------------------------------------------------------------------- trailers


def test_trailers_carry_grpc_status(server, stub, new_id):
    wid = new_id()
    put(stub, widget(wid))
    with RawH2(server.port) as raw:
        ok = raw.call(GET, spb.GetWidgetRequest(id=wid).SerializeToString())
        missing = raw.call(GET, spb.GetWidgetRequest(id=new_id("-missing")).SerializeToString())
    assert ok.status == 200 and ok.trailers.get(b"grpc-status") == b"0", ok
    assert missing.status == 200, missing
    assert missing.grpc_fields.get(b"grpc-status") == b"5", missing
    assert missing.grpc_fields.get(b"grpc-message"), missing


def _message_candidates(new_id):
    """Invalid requests whose error message may echo non-ASCII and '%' input."""
    odd = "\u00e9t\u00e9%20%"
    yield PUT, spb.PutWidgetRequest(widget=widget(odd))
    yield GET, spb.GetWidgetRequest(id=odd)
    yield PUT, spb.PutWidgetRequest(widget=widget(new_id(), accent_color=odd))


def test_grpc_message_is_percent_encoded(server, channel, new_id):
    seen = []
    with RawH2(server.port) as raw:
        for path, request in _message_candidates(new_id):
            body = request.SerializeToString()
            resp = raw.call(path, body)
            fields = resp.grpc_fields
            assert fields.get(b"grpc-status") not in (None, b"0"), resp
            wire = fields.get(b"grpc-message", b"")
            # On the wire: printable ASCII only, '%' only as the start of %XX.
            assert all(0x20 <= b <= 0x7E for b in wire), wire
            assert re.fullmatch(rb"([^%]|%[0-9A-Fa-f]{2})*", wire), wire
            decoded = unquote_to_bytes(wire).decode("utf-8")
            # A stock client decodes it to the same text.
            err = rpc_error(raw_method(channel, path), body, timeout=TIMEOUT)
            assert err.details() == decoded, (err.details(), decoded)
            seen.append(decoded)
            if any(ord(ch) > 0x7E for ch in decoded) and "%" in decoded:
                return  # this message exercised the encoding of both
    pytest.fail(
        "no error message echoed the non-ASCII/'%' input, so percent-encoding could not be "
        f"checked; messages were: {seen}"
    )


# --------------------------------------------------------------------------- abandoned streams


def test_half_sent_message_then_close_keeps_server_serving(server, stub, new_id):
    wid = new_id()
    put(stub, widget(wid))
    request = spb.GetWidgetRequest(id=wid).SerializeToString()

    raw = RawH2(server.port)
    sid = raw.start(GET)
    raw.send(sid, struct.pack(">BI", 0, 1000) + request[:4])  # 1000 bytes announced
    # While that stream waits for the rest of its message, others are served,
    # on other connections and on the same one.
    assert get(stub, wid).id == wid
    other = raw.call(GET, request)
    assert other.trailers.get(b"grpc-status") == b"0", other
    raw.close()

    # An HTTP/2 frame cut in the middle, then the socket closed.
    raw = RawH2(server.port)
    sid = raw.start(GET)
    raw.conn.send_data(sid, grpc_frame(request), end_stream=True)
    pending = raw.conn.data_to_send()
    raw.sock.sendall(pending[: max(1, len(pending) // 2)])
    raw.close()

    # Many abandoned connections in a row.
    for _ in range(20):
        raw = RawH2(server.port)
        raw.send(raw.start(GET), struct.pack(">BI", 0, 50))
        raw.close()

    time.sleep(0.2)
    assert get(stub, wid).id == wid
    with RawH2(server.port) as raw:
        assert raw.call(GET, request).trailers.get(b"grpc-status") == b"0"


# --------------------------------------------------------------------------- malformed requests


@pytest.mark.parametrize(
    "extra, declared",
    [
        ([("connection", "keep-alive")], None),
        ([("transfer-encoding", "chunked")], None),
        ([("X-Upper", "case")], None),
        ([("te", "gzip")], None),
        ([(":protocol", "websocket")], None),
        ([], +1),
        ([], -1),
    ],
    ids=["connection", "transfer-encoding", "uppercase-name", "te-gzip", "protocol-pseudo",
         "less-content-than-declared", "more-content-than-declared"],
)
def test_malformed_request_is_reset_and_the_connection_serves_on(server, stub, new_id, extra,
                                                                  declared):
    """RFC 9113 section 8.1.1: a malformed request's stream is reset with PROTOCOL_ERROR, no
    handler sees it, and the connection goes on serving."""
    wid = new_id()
    put(stub, widget(wid))
    request = spb.GetWidgetRequest(id=wid).SerializeToString()
    if declared is not None:
        extra = [("content-length", str(len(grpc_frame(request)) + declared))]
    with RawPeer(server.port) as peer:
        bad, frames = peer.request_frames(GET, request, extra=extra)
        assert peer.send(*frames)
        assert peer.read(lambda p: p.reset_code(bad) is not None), "no RST_STREAM"
        assert peer.reset_code(bad) == PROTOCOL_ERROR
        assert not any(f.stream_id == bad and type(f).__name__ == "HeadersFrame"
                       for f in peer.frames), "the malformed request was answered"
        good, frames = peer.request_frames(GET, request)
        assert peer.send(*frames)
        assert peer.read(lambda p: any(f.stream_id == good and "END_STREAM" in f.flags
                                       for f in p.frames))
        assert peer.reset_code(good) is None
        assert not peer.closed
