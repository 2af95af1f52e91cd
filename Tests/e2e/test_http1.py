"""HTTP/1.1 on gauged's port, byte by byte over a plain socket (stock clients hide
this): keep-alive, pipelining, chunked bodies, 100-continue, closing, limits,
request smuggling shapes, gRPC over HTTP/1.1, and the head timeout."""

from __future__ import annotations

import json
import socket
import time

import grpc
import httpx
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from helpers import TIMEOUT, base_url, etag_revision, rest_gauge


class H1:
    """One raw HTTP/1.1 connection with a response reader."""

    def __init__(self, server, timeout: float = TIMEOUT):
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
        self.host = f"127.0.0.1:{server.port}"
        self.buf = b""

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request(self, method: str, target: str, body: bytes = b"", headers=(),
                version: str = "HTTP/1.1") -> bytes:
        lines = [f"{method} {target} {version}", f"Host: {self.host}", *headers]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        self.buf += chunk
        return bool(chunk)

    def _line(self) -> bytes:
        while b"\r\n" not in self.buf:
            if not self._fill():
                raise ConnectionError(f"closed mid-line; have {self.buf!r}")
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _take(self, n: int) -> bytes:
        while len(self.buf) < n:
            if not self._fill():
                raise ConnectionError(f"closed with {len(self.buf)} of {n} bytes")
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def response(self, head_only: bool = False) -> tuple[int, dict, bytes]:
        """The next response: status, headers (lower-case names), body."""
        status_line = self._line()
        version, status, *_ = status_line.decode().split(" ", 2)
        assert version == "HTTP/1.1", status_line
        headers = {}
        while (line := self._line()) != b"":
            name, _, value = line.decode().partition(":")
            assert name.lower() not in headers, f"repeated {name}"
            headers[name.lower()] = value.strip()
        status = int(status)
        if head_only or status in (100, 204, 304):
            return status, headers, b""
        if headers.get("transfer-encoding") == "chunked":
            body = b""
            while (size := int(self._line().split(b";")[0], 16)) > 0:
                body += self._take(size)
                assert self._take(2) == b"\r\n"
            assert self._line() == b""
            return status, headers, body
        if "content-length" in headers:
            return status, headers, self._take(int(headers["content-length"]))
        while self._fill():  # until close
            pass
        body, self.buf = self.buf, b""
        return status, headers, body

    def closed_by_peer(self, timeout: float = TIMEOUT) -> bool:
        """True when the server closes (EOF, or a reset) with no more bytes."""
        self.sock.settimeout(timeout)
        try:
            extra = self.sock.recv(1)
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False
        assert not extra, f"unexpected bytes {extra + self.buf!r}"
        return True


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=base_url(server), timeout=TIMEOUT) as client:
        yield client


def create(http, wid: str, value: float = 2.0) -> int:
    resp = http.put(f"/widgets/{wid}", json=rest_gauge(value=value))
    assert resp.status_code in (200, 201), resp.text
    return etag_revision(resp)


def problem_body(status_headers_body, status: int) -> dict:
    got, headers, body = status_headers_body
    assert got == status, (got, body)
    assert headers["content-type"] == "application/problem+json", headers
    doc = json.loads(body)
    assert doc["status"] == status
    return doc


def patch_bytes(conn: H1, wid: str, body: bytes, extra=()) -> bytes:
    return conn.request("PATCH", f"/widgets/{wid}", body,
                        ["Content-Type: application/merge-patch+json", *extra])


# --------------------------------------------------------------------------- connections


def test_keep_alive_two_requests_one_connection(server, http, new_id):
    wid = new_id()
    create(http, wid)
    with H1(server) as conn:
        conn.send(conn.request("GET", f"/widgets/{wid}"))
        status, headers, body = conn.response()
        assert status == 200 and json.loads(body)["id"] == wid
        assert "connection" not in headers  # kept alive
        conn.send(patch_bytes(conn, wid, b'{"content": {"value": 3}}'))
        status, _, body = conn.response()
        assert status == 200 and json.loads(body)["content"]["value"] == 3


def test_pipelined_requests_are_answered_in_order(server, http, new_id):
    a, b = new_id(), new_id()
    create(http, a, 1)
    create(http, b, 4)
    with H1(server) as conn:
        conn.send(conn.request("GET", f"/widgets/{a}")
                  + patch_bytes(conn, new_id("-absent"), b'{"content": {"value": 1}}')
                  + conn.request("GET", f"/widgets/{b}"))
        first, second, third = conn.response(), conn.response(), conn.response()
    assert first[0] == 200 and json.loads(first[2])["id"] == a
    assert second[0] == 422  # an absent widget and no template: cannot be created
    assert third[0] == 200 and json.loads(third[2])["id"] == b


def test_chunked_request_bodies(server, http, new_id):
    wid = new_id()
    create(http, wid)
    with H1(server) as conn:
        conn.send(conn.request("PATCH", f"/widgets/{wid}", headers=[
            "Content-Type: application/merge-patch+json", "Transfer-Encoding: chunked"]))
        for piece in (b'{"content": ', b'{"value": 4.5', b"}}"):
            conn.send(b"%x\r\n%s\r\n" % (len(piece), piece))
        conn.send(b"0\r\n\r\n")
        status, _, body = conn.response()
        assert status == 200, body
        assert json.loads(body)["content"]["value"] == 4.5

        line = f"{wid} 1.5\n".encode()
        conn.send(conn.request("POST", "/values", headers=[
            "Content-Type: text/plain", "Transfer-Encoding: chunked"])
            + b"%x\r\n%s\r\n0\r\n\r\n" % (len(line), line))
        status, _, body = conn.response()
        assert status == 200 and json.loads(body)["accepted"] == 1, body
    assert http.get(f"/widgets/{wid}").json()["content"]["value"] == 1.5


def test_truncated_chunked_body_applies_nothing(server, http, new_id):
    wid = new_id()
    revision = create(http, wid)
    with H1(server) as conn:
        piece = b'{"content": {"value": 4}}'  # whole JSON, but the body never ends
        conn.send(conn.request("PATCH", f"/widgets/{wid}", headers=[
            "Content-Type: application/merge-patch+json", "Transfer-Encoding: chunked"])
            + b"%x\r\n%s\r\n" % (len(piece), piece))
        conn.sock.shutdown(socket.SHUT_WR)
        assert conn.closed_by_peer(), "the server kept the half-closed connection"
    got = http.get(f"/widgets/{wid}")
    assert etag_revision(got) == revision and got.json()["content"]["value"] == 2


def test_expect_100_continue(server, http, new_id):
    wid = new_id()
    create(http, wid)
    body = b'{"content": {"value": 1}}'
    with H1(server) as conn:
        conn.send(conn.request("PATCH", f"/widgets/{wid}", headers=[
            "Content-Type: application/merge-patch+json", f"Content-Length: {len(body)}",
            "Expect: 100-continue"]))
        status, _, _ = conn.response()
        assert status == 100
        conn.send(body)
        status, _, answer = conn.response()
        assert status == 200 and json.loads(answer)["content"]["value"] == 1


def test_connection_close_is_honoured(server, http, new_id):
    wid = new_id()
    create(http, wid)
    with H1(server) as conn:
        conn.send(conn.request("GET", f"/widgets/{wid}", headers=["Connection: close"]))
        status, headers, _ = conn.response()
        assert status == 200 and headers.get("connection") == "close"
        assert conn.closed_by_peer()


def test_http_1_0_request(server, http, new_id):
    wid = new_id()
    create(http, wid)
    with H1(server) as conn:
        conn.send(f"GET /widgets/{wid} HTTP/1.0\r\n\r\n".encode())
        status, headers, body = conn.response()
        assert status == 200 and json.loads(body)["id"] == wid
        assert conn.closed_by_peer()  # no keep-alive asked for


# --------------------------------------------------------------------------- limits


def test_head_over_16_kib_is_431(server):
    with H1(server) as conn:
        conn.send(conn.request("GET", "/widgets", headers=[f"X-Pad: {'a' * 17_000}"]))
        problem_body(conn.response(), 431)
        assert conn.closed_by_peer()


def test_body_over_1_mib_is_413(server):
    with H1(server) as conn:
        conn.send(conn.request("POST", "/values", headers=[
            "Content-Type: text/plain", f"Content-Length: {(1 << 20) + 1}"]))
        problem_body(conn.response(), 413)
        assert conn.closed_by_peer()


SMUGGLING = {
    "content-length-and-chunked": (
        "POST /values HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\n"
        "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
    "two-content-lengths": (
        "POST /values HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\n"
        "Content-Length: 6\r\nContent-Length: 7\r\n\r\nx 1\nyy"),
    "obs-fold": (
        "GET /widgets HTTP/1.1\r\nHost: h\r\nX-Folded: a\r\n b\r\n\r\n"),
    "bare-cr": (
        "GET /widgets HTTP/1.1\r\nHost: h\r\nX-Bare: a\rb\r\n\r\n"),
}


@pytest.mark.parametrize("raw", SMUGGLING.values(), ids=SMUGGLING.keys())
def test_smuggling_shapes_are_400_and_closed(server, raw):
    with H1(server) as conn:
        # A second request after it must never be answered.
        conn.send(raw.encode() + b"GET /widgets HTTP/1.1\r\nHost: h\r\n\r\n")
        problem_body(conn.response(), 400)
        assert conn.closed_by_peer()


def test_whitespace_before_colon_is_400_and_closed(server):
    with H1(server) as conn:
        conn.send(b"POST /values HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\n"
                  b"Content-Length : 4\r\n\r\nx 1\n")
        problem_body(conn.response(), 400)
        assert conn.closed_by_peer()


@pytest.mark.parametrize("hosts", [[], ["Host: a", "Host: b"]], ids=["none", "two"])
def test_host_missing_or_repeated_is_400(server, hosts):
    with H1(server) as conn:
        head = "\r\n".join(["GET /widgets HTTP/1.1", *hosts, "Connection: close"]) + "\r\n\r\n"
        conn.send(head.encode())
        problem_body(conn.response(), 400)


@pytest.mark.parametrize("version", ["HTTP/2.0", "HTTP/3.0"])
def test_other_major_versions_are_505(server, version):
    with H1(server) as conn:
        conn.send(f"GET /widgets {version}\r\nHost: h\r\nConnection: close\r\n\r\n".encode())
        problem_body(conn.response(), 505)


def test_absolute_form_target_is_served(server, http, new_id):
    wid = new_id()
    create(http, wid)
    with H1(server) as conn:
        conn.send(conn.request("GET", f"http://{conn.host}/widgets/{wid}"))
        status, _, body = conn.response()
        assert status == 200 and json.loads(body)["id"] == wid, body


def test_head_on_events_completes_and_the_connection_serves_on(server):
    with H1(server, timeout=3) as conn:
        conn.send(conn.request("HEAD", "/widgets/events") + conn.request("GET", "/widgets?page_size=1"))
        status, headers, _ = conn.response(head_only=True)
        assert status == 200 and headers["content-type"].startswith("text/event-stream")
        status, _, _ = conn.response()
        assert status == 200


# --------------------------------------------------------------------------- gRPC


def test_grpc_over_http1_is_505_while_grpcio_is_served(server, http, new_id):
    wid = new_id()
    create(http, wid)
    with H1(server) as conn:
        conn.send(conn.request("POST", "/gauge.v1.WidgetService/GetWidget", b"\0\0\0\0\0",
                               ["Content-Type: application/grpc", "TE: trailers"]))
        doc = problem_body(conn.response(), 505)
        assert "HTTP/2" in doc["detail"], doc

    with H1(server) as conn, grpc.insecure_channel(server.address) as channel:
        conn.send(conn.request("GET", f"/widgets/{wid}"))
        assert conn.response()[0] == 200
        health = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=""), timeout=TIMEOUT)
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        conn.send(conn.request("GET", f"/widgets/{wid}"))  # the HTTP/1.1 one still serves
        assert conn.response()[0] == 200


# --------------------------------------------------------------------------- timers


def test_partial_head_gets_408_after_10_s(server):
    with H1(server, timeout=15) as conn:
        started = time.monotonic()
        conn.send(b"GET /widgets HTTP/1.1\r\nHost: h\r\n")  # no blank line
        problem_body(conn.response(), 408)
        waited = time.monotonic() - started
        assert 9.0 <= waited <= 13.0, waited
        assert conn.closed_by_peer()
