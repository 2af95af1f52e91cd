"""Plain HTTP/2 answers, as stock gRPC servers give them: the banner for humans at `/`,
405, 400, and REFUSED_STREAM for streams over the concurrency limit."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from conftest import Server
from hyperframe.frame import DataFrame, HeadersFrame, PingFrame, SettingsFrame
from rawh2 import PROTOCOL_ERROR, REFUSED_STREAM, RawPeer, request_headers

GET = "/gauge.v1.WidgetService/GetWidget"


def plain_request(peer: RawPeer, method: str, path: str, content_type=None, body=None,
                  extra=()) -> int:
    sid = peer.next_stream()
    frame = HeadersFrame(
        sid, peer.block(request_headers(peer.port, path, method, content_type, extra))
    )
    frame.flags.add("END_HEADERS")
    frames = [frame]
    if body is None:
        frame.flags.add("END_STREAM")
    else:
        data = DataFrame(sid, body)
        data.flags.add("END_STREAM")
        frames.append(data)
    assert peer.send(*frames)
    assert peer.read(lambda p: p.ended(sid)), f"stream {sid} got no answer"
    return sid


def test_root_answers_with_a_banner(server):
    with RawPeer(server.port) as peer:
        sid = plain_request(peer, "GET", "/")
        head = peer.headers[sid][0]
        assert head[b":status"] == b"200", head
        assert head[b"content-type"].startswith(b"text/plain"), head
        text = peer.body(sid).decode()
    name, _, version = text.splitlines()[0].partition("/")
    assert name == "gauged" and version, text
    assert "gauge.v1.WidgetService" in text


def test_root_is_for_reading_only(server):
    """`/` belongs to the HTTP faces: a POST there that is not gRPC is 405."""
    with RawPeer(server.port) as peer:
        sid = plain_request(peer, "POST", "/", "text/plain", b"hello")
        head = peer.headers[sid][0]
        assert head[b":status"] == b"405", head
        assert head[b"allow"] == b"GET, HEAD", head


@pytest.mark.skipif(shutil.which("curl") is None, reason="no curl here")
def test_curl_sees_the_banner(server):
    out = subprocess.run(
        ["curl", "-sS", "--max-time", "5", "--http2-prior-knowledge", f"http://{server.address}/"],
        capture_output=True, text=True, timeout=10,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("gauged/") and "gauge.v1.WidgetService" in out.stdout


def test_method_other_than_post_is_405(server):
    with RawPeer(server.port) as peer:
        sid = plain_request(peer, "GET", GET, "application/grpc")
        assert peer.headers[sid][0][b":status"] == b"405"
        assert peer.headers[sid][0][b"allow"] == b"POST"


@pytest.mark.parametrize("path,status", [("/", b"200"), (GET, b"405")], ids=["root", "method"])
def test_head_gets_headers_and_no_content(server, path, status):
    """A body in the answer to HEAD is a protocol error to HTTP/2 clients."""
    with RawPeer(server.port) as peer:
        sid = plain_request(peer, "HEAD", path)
        assert peer.headers[sid][0][b":status"] == status
        frames = peer.stream_frames(sid)
        assert not [f for f in frames if isinstance(f, DataFrame)], frames
        assert "END_STREAM" in frames[0].flags, frames


@pytest.mark.skipif(shutil.which("curl") is None, reason="no curl here")
def test_curl_head_sees_the_banners_headers(server):
    out = subprocess.run(
        ["curl", "-sS", "-I", "--max-time", "5", "--http2-prior-knowledge",
         f"http://{server.address}/"],
        capture_output=True, text=True, timeout=10,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("HTTP/2 200"), out.stdout
    assert "content-type: text/plain" in out.stdout


@pytest.mark.parametrize(
    "header", [("grpc-timeout", "12x"), ("grpc-timeout", "123456789S"), ("x-raw-bin", "!!!")],
    ids=["timeout-unit", "timeout-digits", "bin-not-base64"],
)
def test_malformed_timeout_or_binary_header_is_400(server, header):
    with RawPeer(server.port) as peer:
        sid = plain_request(peer, "POST", GET, "application/grpc", b"\0\0\0\0\0", extra=[header])
        assert peer.headers[sid][0][b":status"] == b"400"
        assert header[0].encode() in peer.body(sid)


@pytest.mark.skipif(bool(os.environ.get("GAUGED_TARGET")), reason="needs a gauged binary")
def test_streams_over_the_limit_are_refused():
    srv = Server(extra_args=("--max-concurrent-streams", "2"))
    srv.start()
    try:
        # Three streams sent at once, before this client has seen the server's SETTINGS.
        with RawPeer(srv.port) as peer:
            sids, frames = [], []
            for _ in range(3):
                sid, request = peer.request_frames(GET, None)
                sids.append(sid)
                frames += request
            assert peer.send(*frames)
            assert peer.read(lambda p: p.reset_code(sids[2]) is not None)
            assert peer.reset_code(sids[2]) == REFUSED_STREAM
            assert peer.reset_code(sids[0]) is None and peer.reset_code(sids[1]) is None
            assert not peer.closed

        # A client that has acknowledged the limit and still goes over it breaks the protocol:
        # libnghttp2 ends the connection (RFC 9113 would also allow refusing the stream).
        with RawPeer(srv.port) as peer:
            assert peer.read(lambda p: any(isinstance(f, SettingsFrame) for f in p.frames))
            ack = SettingsFrame(0)
            ack.flags.add("ACK")
            # The PING's answer comes after the server has taken the ACK.
            assert peer.send(ack, PingFrame(0, b"12345678"))
            assert peer.read(lambda p: any(isinstance(f, PingFrame) for f in p.frames))
            frames = []
            for _ in range(3):
                frames += peer.request_frames(GET, None)[1]
            assert peer.send(*frames)
            assert peer.read_until_closed(), "a client over the acknowledged limit was kept"
            assert peer.goaway is not None and peer.goaway.error_code == PROTOCOL_ERROR
    finally:
        srv.stop()
