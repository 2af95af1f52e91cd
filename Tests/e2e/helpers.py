"""Builders, error assertions and a raw HTTP/2 client for the e2e tests."""

from __future__ import annotations

import math
import os
import socket
import struct
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import h2.config
import h2.connection
import h2.events
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb

TIMEOUT = 5.0
NAN = math.nan
INF = math.inf

# --------------------------------------------------------------------------- builders


def rss_kib(pid: int) -> int:
    """A process's resident memory, from /proc/PID/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS in /proc/{pid}/status")


def process_cpu_seconds(pid: int) -> float:
    """User plus system time a process has used, from /proc/PID/stat."""
    # Split after the command name, which may hold spaces: utime and stime follow as 12 and 13.
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def gauge(value=2.0, min_value=0.0, max_value=5.0, **fields) -> wpb.Gauge:
    """A Gauge; pass None to leave value/min_value/max_value absent."""
    g = wpb.Gauge(**fields)
    for name, v in (("value", value), ("min_value", min_value), ("max_value", max_value)):
        if v is not None:
            setattr(g, name, v)
    return g


def gauge_content(**fields) -> wpb.Content:
    """A valid gauge Content (value 2 in [0, 5]); keyword args set Content fields."""
    return wpb.Content(gauge=gauge(), **fields)


def widget(wid: str, name: str | None = "e2e widget", content=None, **content_fields) -> wpb.Widget:
    w = wpb.Widget(id=wid)
    if name is not None:
        w.name = name
    w.content.CopyFrom(content if content is not None else gauge_content(**content_fields))
    return w


def same_content(a: wpb.Content, b: wpb.Content) -> bool:
    """Content equality where an absent enum (trend, gauge.style) equals its zero value:
    the proto2 default, which a server may echo as present."""
    return _enums_explicit(a) == _enums_explicit(b)


def _enums_explicit(c: wpb.Content) -> wpb.Content:
    out = wpb.Content()
    out.CopyFrom(c)
    out.trend = c.trend
    if out.HasField("gauge"):
        out.gauge.style = c.gauge.style
    return out


def put(stub, w: wpb.Widget) -> spb.PutWidgetResponse:
    return stub.PutWidget(spb.PutWidgetRequest(widget=w), timeout=TIMEOUT)


def get(stub, wid: str) -> wpb.Widget:
    return stub.GetWidget(spb.GetWidgetRequest(id=wid), timeout=TIMEOUT)


def update(stub, wid: str, name=None, content=None, clear=()) -> wpb.Widget:
    req = spb.UpdateWidgetRequest(id=wid, clear_fields=list(clear))
    if name is not None:
        req.name = name
    if content is not None:
        req.content.CopyFrom(content)
    return stub.UpdateWidget(req, timeout=TIMEOUT)


def delete(stub, wid: str) -> spb.DeleteWidgetResponse:
    return stub.DeleteWidget(spb.DeleteWidgetRequest(id=wid), timeout=TIMEOUT)


# --------------------------------------------------------------------------- errors


def rpc_error(fn, *args, **kwargs) -> grpc.RpcError:
    """The grpc.RpcError fn raises; fails the test when it succeeds."""
    with pytest.raises(grpc.RpcError) as info:
        result = fn(*args, **kwargs)
        pytest.fail(f"expected an error, got success: {result!r}")
    return info.value


def violations(err: grpc.RpcError) -> list:
    """Every google.rpc.BadRequest field violation in the call's google.rpc.Status."""
    status = rpc_status.from_call(err)  # also checks code/message agree with the trailers
    assert status is not None, (
        f"no grpc-status-details-bin trailer on {err.code().name}: {err.details()!r}"
    )
    found = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            found.extend(bad.field_violations)
    return found


def _field_matches(expected: str, got: str) -> bool:
    return got == expected or got.startswith(expected + "[") or got.startswith(expected + ".")


def assert_invalid(err: grpc.RpcError, *fields) -> list:
    """INVALID_ARGUMENT whose BadRequest names each of `fields` (a field, or a tuple of
    acceptable alternatives; `a.b` also matches `a.b[3]` and `a.b.c`), and whose
    grpc-message lists every violation as `field: description`."""
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (
        f"expected INVALID_ARGUMENT, got {err.code().name}: {err.details()!r}"
    )
    found = violations(err)
    got = [v.field for v in found]
    assert found, f"BadRequest lists no field violations; message {err.details()!r}"
    for want in fields:
        options = want if isinstance(want, tuple) else (want,)
        assert any(_field_matches(o, g) for o in options for g in got), (
            f"no violation for {want!r}; got {[(v.field, v.description) for v in found]}"
        )
    for v in found:
        assert v.field and v.description, f"violation with an empty part: {v}"
        assert f"{v.field}: {v.description}" in err.details(), (
            f"grpc-message {err.details()!r} does not list {v.field}: {v.description}"
        )
    return found


# --------------------------------------------------------------------------- raw HTTP/2


def grpc_frame(payload: bytes, compressed: bool = False) -> bytes:
    return struct.pack(">BI", 1 if compressed else 0, len(payload)) + payload


def grpc_messages(data: bytes) -> list[bytes]:
    out, i = [], 0
    while i + 5 <= len(data):
        _flag, n = struct.unpack(">BI", data[i : i + 5])
        if i + 5 + n > len(data):
            break  # the rest of this message has not arrived yet
        out.append(data[i + 5 : i + 5 + n])
        i += 5 + n
    return out


@dataclass
class RawResponse:
    headers: dict = field(default_factory=dict)  # bytes -> bytes
    trailers: dict = field(default_factory=dict)
    data: bytes = b""
    ended: bool = False
    reset_code: int | None = None

    @property
    def status(self) -> int | None:
        value = self.headers.get(b":status")
        return int(value) if value is not None else None

    @property
    def grpc_fields(self) -> dict:
        """grpc-status and friends: in the trailers, or in the headers (trailers-only)."""
        return self.trailers or self.headers


class RawH2:
    """A bare HTTP/2 client (prior knowledge, no TLS) on its own socket."""

    def __init__(self, port: int, timeout: float = TIMEOUT):
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.conn = h2.connection.H2Connection(
            h2.config.H2Configuration(client_side=True, header_encoding=None)
        )
        self.conn.initiate_connection()
        self.flush()
        self.responses: dict[int, RawResponse] = {}

    def flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def close(self) -> None:
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self, path: str, content_type: str = "application/grpc", extra=()) -> int:
        sid = self.conn.get_next_available_stream_id()
        headers = [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", path),
            (":authority", f"127.0.0.1:{self.port}"),
            ("content-type", content_type),
            ("te", "trailers"),
            *extra,
        ]
        self.conn.send_headers(sid, headers)
        self.flush()
        self.responses[sid] = RawResponse()
        return sid

    def send(self, sid: int, data: bytes, end: bool = False) -> None:
        self.conn.send_data(sid, data, end_stream=end)
        self.flush()

    def call(self, path: str, body: bytes, content_type: str = "application/grpc") -> RawResponse:
        sid = self.start(path, content_type)
        self.send(sid, grpc_frame(body), end=True)
        return self.wait(sid)

    def wait(self, sid: int) -> RawResponse:
        return self.read_until(sid, lambda resp: resp.ended)

    def read_until(self, sid: int, done) -> RawResponse:
        """Reads until `done(response)` holds (a stream that does not end,
        like Subscribe, is read this way)."""
        resp = self.responses[sid]
        while not done(resp):
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection mid-response")
            for event in self.conn.receive_data(chunk):
                self._on(event)
            self.flush()
        return resp

    def _on(self, event) -> None:
        sid = getattr(event, "stream_id", None)
        resp = self.responses.get(sid)
        if isinstance(event, h2.events.ResponseReceived) and resp:
            resp.headers = dict(event.headers)
        elif isinstance(event, h2.events.TrailersReceived) and resp:
            resp.trailers = dict(event.headers)
        elif isinstance(event, h2.events.DataReceived):
            if resp:
                resp.data += event.data
            self.conn.acknowledge_received_data(event.flow_controlled_length, sid)
        elif isinstance(event, h2.events.StreamEnded) and resp:
            resp.ended = True
        elif isinstance(event, h2.events.StreamReset) and resp:
            resp.reset_code = event.error_code
            resp.ended = True
        elif isinstance(event, h2.events.ConnectionTerminated):
            raise ConnectionError(f"server sent GOAWAY: {event}")


# --------------------------------------------------------------------------- REST and SSE

PROBLEM_JSON = "application/problem+json"


def base_url(server) -> str:
    return f"http://{server.address}"


def rest_gauge(value=2.0, min_value=0.0, max_value=5.0, **fields) -> dict:
    """A REST widget body holding a gauge (value 2 in [0, 5] by default)."""
    content = {"template": "gauge", "value": value, "min_value": min_value, "max_value": max_value}
    content.update(fields)
    return {"name": "e2e widget", "content": content}


def problem(resp, status: int, *fields: str) -> dict:
    """Checks `resp` is an RFC 9457 problem with `status` naming each of `fields` in
    `errors`; returns its body."""
    assert resp.status_code == status, f"expected {status}, got {resp.status_code}: {resp.text}"
    ctype = resp.headers.get("content-type", "")
    assert ctype.split(";")[0].strip() == PROBLEM_JSON, f"content-type {ctype!r}: {resp.text}"
    body = resp.json()
    assert body["status"] == status, body
    assert isinstance(body.get("title"), str) and body["title"], body
    assert isinstance(body.get("detail"), str) and body["detail"], body
    named = [e["field"] for e in body.get("errors", [])]
    for want in fields:
        assert want in named, f"no error for {want!r}; errors {body.get('errors')}"
    for err in body.get("errors", []):
        assert err["field"] and err["detail"], body
    return body


def etag_revision(resp) -> int:
    """The revision in a strong ETag `"N"`."""
    tag = resp.headers.get("etag")
    assert tag and tag.startswith('"') and tag.endswith('"'), f"etag {tag!r}"
    return int(tag[1:-1])


class SSEReader:
    """Reads a text/event-stream with httpx-sse on a thread; events arrive in a queue
    (each an httpx_sse.ServerSentEvent, or the exception that ended the read, or
    None once the stream ended cleanly)."""

    def __init__(self, url: str, headers: dict | None = None, timeout: float = 30.0):
        import queue
        import threading

        import httpx
        import httpx_sse

        self._queue: queue.Queue = queue.Queue()
        self.client = httpx.Client(timeout=httpx.Timeout(timeout, connect=TIMEOUT))
        self._ctx = httpx_sse.connect_sse(self.client, "GET", url, headers=headers or {})
        self.source = self._ctx.__enter__()
        self.response = self.source.response
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for event in self.source.iter_sse():
                self._queue.put(event)
            self._queue.put(None)
        except Exception as err:  # noqa: BLE001 - handed to the test
            self._queue.put(err)

    def next(self, timeout: float = TIMEOUT):
        import queue

        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no event within {timeout}s") from None
        if isinstance(item, Exception):
            raise item
        return item

    def until(self, predicate, timeout: float = TIMEOUT) -> list:
        """Events up to and including the first matching `predicate`."""
        import time

        seen = []
        deadline = time.monotonic() + timeout
        while True:
            event = self.next(timeout=max(0.01, deadline - time.monotonic()))
            assert event is not None, f"stream ended before the awaited event; saw {seen}"
            seen.append(event)
            if predicate(event):
                return seen

    def until_synced(self, timeout: float = TIMEOUT) -> tuple[list, object]:
        seen = self.until(lambda e: e.event == "synced", timeout)
        return seen[:-1], seen[-1]

    def quiet_for(self, seconds: float) -> list:
        """Every event that arrives within `seconds`."""
        import queue
        import time

        seen = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                item = self._queue.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(item, Exception):
                raise item
            if item is None:
                break
            seen.append(item)
        return seen

    def close(self) -> None:
        try:
            self._ctx.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - the reader thread may be mid-read
            pass
        self.client.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
