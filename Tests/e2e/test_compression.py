"""Message compression (grpc's doc/compression.md): gzip requests, the limit after
inflating, unsupported encodings, and gzip responses only when both sides agree."""

from __future__ import annotations

import gzip
import os
import struct

import grpc
import pytest

from conftest import Server
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import TIMEOUT, RawH2, get, grpc_frame, put, rpc_error, widget

PUT = "/gauge.v1.WidgetService/PutWidget"
GET = "/gauge.v1.WidgetService/GetWidget"
SUBSCRIBE = "/gauge.v1.WidgetService/Subscribe"


def flagged_messages(data: bytes) -> list[tuple[bool, bytes]]:
    out, i = [], 0
    while i + 5 <= len(data):
        flag, n = struct.unpack(">BI", data[i : i + 5])
        out.append((flag == 1, data[i + 5 : i + 5 + n]))
        i += 5 + n
    return out


def raw_call(port: int, path: str, body: bytes, compressed: bool, extra=()):
    with RawH2(port) as raw:
        sid = raw.start(path, extra=list(extra))
        raw.send(sid, grpc_frame(body, compressed=compressed), end=True)
        return raw.wait(sid)


def test_grpcio_gzip_calls_work_both_ways(stub, new_id):
    wid = new_id()
    w = widget(wid, name="n" * 200)
    reply = stub.PutWidget(spb.PutWidgetRequest(widget=w), timeout=TIMEOUT,
                           compression=grpc.Compression.Gzip)
    assert reply.created
    assert stub.GetWidget(spb.GetWidgetRequest(id=wid), timeout=TIMEOUT,
                          compression=grpc.Compression.Gzip).name == "n" * 200


def test_a_gzip_request_is_inflated(server, stub, new_id):
    wid = new_id()
    request = spb.PutWidgetRequest(widget=widget(wid)).SerializeToString()
    resp = raw_call(server.port, PUT, gzip.compress(request), compressed=True,
                    extra=[("grpc-encoding", "gzip")])
    assert resp.grpc_fields.get(b"grpc-status") == b"0", resp
    assert get(stub, wid).id == wid


def test_an_unsupported_encoding_is_unimplemented_and_says_what_is_accepted(server):
    resp = raw_call(server.port, GET, b"\x00" * 8, compressed=True,
                    extra=[("grpc-encoding", "snappy")])
    fields = resp.grpc_fields
    assert fields.get(b"grpc-status") == b"12", resp
    assert b"snappy" in fields.get(b"grpc-message", b"")
    accepted = {e.strip() for e in fields.get(b"grpc-accept-encoding", b"").split(b",")}
    assert {b"gzip", b"identity"} <= accepted, resp


def test_the_compressed_flag_without_an_encoding_is_internal(server):
    body = gzip.compress(spb.GetWidgetRequest(id="x").SerializeToString())
    resp = raw_call(server.port, GET, body, compressed=True)
    assert resp.grpc_fields.get(b"grpc-status") == b"13", resp


def test_a_zip_bomb_is_resource_exhausted_and_the_server_lives_on(server, stub, new_id):
    # 5 MiB of zeros squeeze into about 5 KiB: under the 4 MiB limit on the
    # wire, over it once inflated.
    bomb = gzip.compress(b"\x00" * (5 << 20))
    assert len(bomb) < 64 << 10
    resp = raw_call(server.port, PUT, bomb, compressed=True, extra=[("grpc-encoding", "gzip")])
    fields = resp.grpc_fields
    assert fields.get(b"grpc-status") == b"8", resp
    assert b"4194304" in fields.get(b"grpc-message", b""), resp
    wid = new_id()
    assert put(stub, widget(wid)).created


def test_grpcio_gets_resource_exhausted_for_a_request_too_large_once_inflated(stub, new_id):
    # A name of 5 MiB compresses to a few KiB; the limit still applies to it.
    w = widget(new_id(), name="x" * (5 << 20))
    err = rpc_error(stub.PutWidget, spb.PutWidgetRequest(widget=w), timeout=TIMEOUT,
                    compression=grpc.Compression.Gzip)
    assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, (err.code(), err.details())


# --------------------------------------------------------------------------- responses


@pytest.fixture(scope="module")
def compressing_server():
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("needs a gauged binary to start with --compress-responses")
    srv = Server(extra_args=["--compress-responses"])
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


def test_responses_are_gzipped_when_configured_and_accepted(compressing_server, new_id):
    wid = new_id()
    with grpc.insecure_channel(compressing_server.address) as ch:
        from gauge.v1 import widget_service_pb2_grpc

        stub = widget_service_pb2_grpc.WidgetServiceStub(ch)
        put(stub, widget(wid, name="z" * 250))
        assert get(stub, wid).name == "z" * 250  # grpcio inflates transparently

    request = spb.GetWidgetRequest(id=wid).SerializeToString()
    resp = raw_call(compressing_server.port, GET, request, compressed=False,
                    extra=[("grpc-accept-encoding", "identity,gzip")])
    assert resp.headers.get(b"grpc-encoding") == b"gzip", resp
    [(compressed, body)] = flagged_messages(resp.data)
    assert compressed
    assert len(body) < 250
    assert wpb.Widget.FromString(gzip.decompress(body)).name == "z" * 250


def test_responses_stay_plain_unless_both_sides_agree(compressing_server, server, new_id):
    # The compressing server, to a client that accepts only identity.
    request = spb.PutWidgetRequest(widget=widget(new_id())).SerializeToString()
    not_accepted = raw_call(compressing_server.port, PUT, request, compressed=False,
                            extra=[("grpc-accept-encoding", "identity")])
    # The session server, not configured to compress, to a client accepting gzip.
    request = spb.PutWidgetRequest(widget=widget(new_id())).SerializeToString()
    not_configured = raw_call(server.port, PUT, request, compressed=False,
                              extra=[("grpc-accept-encoding", "gzip")])
    for resp in (not_accepted, not_configured):
        assert b"grpc-encoding" not in resp.headers, resp
        [(compressed, body)] = flagged_messages(resp.data)
        assert not compressed
        assert spb.PutWidgetResponse.FromString(body).created


def test_subscribers_get_one_event_compressed_or_plain_as_each_agreed(compressing_server, new_id):
    """A live event is framed once for every subscriber of a loop; one that
    accepts gzip still gets it compressed, and one that does not, plain."""
    from gauge.v1 import widget_service_pb2_grpc

    wid = new_id()
    request = grpc_frame(spb.SubscribeRequest(ids=[wid]).SerializeToString())
    with grpc.insecure_channel(compressing_server.address) as ch, \
            RawH2(compressing_server.port) as raw:
        stub = widget_service_pb2_grpc.WidgetServiceStub(ch)
        put(stub, widget(wid, name="z" * 250))
        zipped = raw.start(SUBSCRIBE, extra=[("grpc-accept-encoding", "gzip")])
        raw.send(zipped, request, end=True)
        plain = raw.start(SUBSCRIBE, extra=[("grpc-accept-encoding", "identity")])
        raw.send(plain, request, end=True)

        def has(count):
            return lambda resp: len(flagged_messages(resp.data)) >= count

        for sid in (zipped, plain):  # the snapshot's upsert, then synced
            raw.read_until(sid, has(2))
        changed = stub.UpdateWidget(spb.UpdateWidgetRequest(id=wid, name="y" * 250),
                                    timeout=TIMEOUT)
        for sid in (zipped, plain):
            raw.read_until(sid, has(3))
            compressed, body = flagged_messages(raw.responses[sid].data)[2]
            assert compressed == (sid == zipped)
            event = spb.WidgetEvent.FromString(gzip.decompress(body) if compressed else body)
            assert event.upsert.name == "y" * 250
            assert event.revision == changed.revision
