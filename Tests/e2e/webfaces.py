"""The browser-facing protocols on gauged's port: gRPC-Web (grpc's PROTOCOL-WEB.md) and
the Connect protocol (connectrpc.com/docs/protocol). Framing helpers for the raw checks,
the stock clients set up the way the tests use them (connectrpc's generated
WidgetServiceClientSync, sonora's gRPC-Web channels), and readers for their streams."""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import queue
import re
import struct
import threading
import time
from urllib.parse import unquote

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from gauge.v1 import widget_service_pb2 as spb
from helpers import TIMEOUT, base_url

SERVICE = "gauge.v1.WidgetService"
WAIT = 5.0

# gRPC-Web message flags: bit 7 marks the trailer frame, bit 0 a compressed message.
TRAILER_FLAG = 0x80
# Connect streaming envelope flags: bit 0 compressed, bit 1 end of stream.
COMPRESSED_FLAG = 0x01
END_STREAM_FLAG = 0x02

GRPC_WEB = "application/grpc-web"
GRPC_WEB_PROTO = "application/grpc-web+proto"
GRPC_WEB_TEXT = "application/grpc-web-text"
GRPC_WEB_TEXT_PROTO = "application/grpc-web-text+proto"


def rpc_path(method: str) -> str:
    return f"/{SERVICE}/{method}"


# --------------------------------------------------------------------------- framing


def frame(payload: bytes, flags: int = 0) -> bytes:
    """A length-prefixed message: gRPC-Web's and Connect's envelopes are the same layout,
    one flags byte, a 4-byte big-endian length, the payload."""
    return struct.pack(">BI", flags, len(payload)) + payload


def frames(data: bytes) -> list[tuple[int, bytes]]:
    """Every (flags, payload) in `data`, which must hold whole frames and nothing else."""
    out, i = [], 0
    while i < len(data):
        assert i + 5 <= len(data), f"{len(data) - i} stray bytes after {out}: {data[i:]!r}"
        flags, n = struct.unpack(">BI", data[i : i + 5])
        assert i + 5 + n <= len(data), (
            f"frame at {i} says {n} bytes, {len(data) - i - 5} follow: {data!r}")
        out.append((flags, data[i + 5 : i + 5 + n]))
        i += 5 + n
    return out


def complete_frames(data: bytes) -> tuple[list[tuple[int, bytes]], bytes]:
    """The whole frames at the start of `data` (a stream still arriving) and the rest."""
    out, i = [], 0
    while i + 5 <= len(data):
        flags, n = struct.unpack(">BI", data[i : i + 5])
        if i + 5 + n > len(data):
            break
        out.append((flags, data[i + 5 : i + 5 + n]))
        i += 5 + n
    return out, data[i:]


_TRAILER_LINE = re.compile(rb"([0-9a-z!#$%&'*+.^_`|~-]+):[ \t]*([^\r\n]*?)[ \t]*")


def trailer_block(payload: bytes) -> dict[str, str]:
    """A gRPC-Web trailer frame's payload: HTTP/1 header lines, each ending in CRLF, with
    lower-case names (PROTOCOL-WEB.md); each name at most once."""
    assert payload.endswith(b"\r\n"), f"trailer block does not end in CRLF: {payload!r}"
    out: dict[str, str] = {}
    for line in payload[:-2].split(b"\r\n"):
        match = _TRAILER_LINE.fullmatch(line)
        assert match, f"not a lower-case `name:value` line: {line!r} in {payload!r}"
        name = match.group(1).decode()
        assert name not in out, f"{name} twice in {payload!r}"
        out[name] = match.group(2).decode("ascii")
    return out


def grpc_web_reply(body: bytes) -> tuple[list[bytes], dict[str, str]]:
    """A whole gRPC-Web response body: its messages and its trailers. The trailer frame
    comes exactly once and last; no message is compressed (nothing asked for that)."""
    parsed = frames(body)
    assert parsed, "empty body: no trailer frame"
    *messages, (last_flags, last) = parsed
    assert last_flags == TRAILER_FLAG, f"last frame has flags {last_flags:#x}, not 0x80: {parsed}"
    for flags, _ in messages:
        assert flags == 0, f"a message frame with flags {flags:#x} before the trailers: {parsed}"
    return [payload for _, payload in messages], trailer_block(last)


def grpc_web_text_decode(body: bytes) -> bytes:
    """A -text body: base64, possibly several separately padded pieces back to back (one
    per flush). Decoded 4 characters at a time, so padding may close any quantum."""
    text = body.strip(b"\r\n")
    assert len(text) % 4 == 0, f"{len(text)} base64 characters is not whole quanta: {body!r}"
    assert re.fullmatch(rb"[A-Za-z0-9+/=]*", text), f"not base64: {body!r}"
    out = bytearray()
    for i in range(0, len(text), 4):
        quantum = text[i : i + 4]
        assert b"=" not in quantum.rstrip(b"="), f"padding inside {quantum!r}"
        out += base64.b64decode(quantum, validate=True)
    return bytes(out)


def b64decode_any(value: str | bytes) -> bytes:
    """Standard or URL-safe base64, padded or not (a -bin header's value, a Connect
    detail's value)."""
    if isinstance(value, str):
        value = value.encode("ascii")
    value = value.replace(b"-", b"+").replace(b"_", b"/")
    try:
        return base64.b64decode(value + b"=" * (-len(value) % 4), validate=True)
    except binascii.Error as err:
        raise AssertionError(f"not base64: {value!r} ({err})") from None


# --------------------------------------------------------------------------- error details


def status_from_details_bin(value: str | bytes) -> status_pb2.Status:
    status = status_pb2.Status()
    status.ParseFromString(b64decode_any(value))
    return status


def field_violations(details) -> list:
    """The google.rpc.BadRequest field violations among `details` (google.protobuf.Any)."""
    found = []
    for detail in details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            assert detail.Unpack(bad)
            found.extend(bad.field_violations)
    return found


def violation_pairs(details) -> list[tuple[str, str]]:
    return [(v.field, v.description) for v in field_violations(details)]


def connect_json_details(body: dict) -> list[any_pb2.Any]:
    """A Connect JSON error's `details`, each `{"type": NAME, "value": BASE64}` (value
    unpadded, as the protocol says; padded accepted), as Any messages."""
    out = []
    for detail in body.get("details", []):
        assert set(detail) >= {"type", "value"}, detail
        assert set(detail) <= {"type", "value", "debug"}, detail
        assert "/" not in detail["type"], f"type is a bare message name: {detail}"
        out.append(any_pb2.Any(type_url=f"type.googleapis.com/{detail['type']}",
                               value=b64decode_any(detail["value"])))
    return out


# --------------------------------------------------------------------------- Connect client


@contextlib.contextmanager
def connect_client(server, codec: str = "proto", http2: bool = False, gzip: bool = False):
    """connectrpc's generated sync client for WidgetService, on a transport of its own
    that is closed (its connections with it) on leaving the `with`. `codec` "proto" or
    "json"; `http2` speaks HTTP/2 with prior knowledge (pyqwest's HTTP2 transport on an
    http:// address), else HTTP/1.1; `gzip` keeps the client's defaults (requests
    gzipped, gzip accepted), else requests go uncompressed (content-encoding: identity)
    and only identity is accepted."""
    from connectrpc.codec import proto_binary_codec, proto_json_codec
    from pyqwest import HTTPVersion, SyncClient, SyncHTTPTransport

    from gauge.v1.widget_service_connect import WidgetServiceClientSync

    options = {}
    if not gzip:
        options.update(send_compression=None, accept_compression=[])
    transport = SyncHTTPTransport(
        http_version=HTTPVersion.HTTP2 if http2 else HTTPVersion.HTTP1,
        enable_gzip=gzip, enable_brotli=False, enable_zstd=False,
    )
    with transport:
        client = WidgetServiceClientSync(
            base_url(server),
            codec={"proto": proto_binary_codec(), "json": proto_json_codec()}[codec],
            http_client=SyncClient(transport),
            **options,
        )
        with client:
            yield client


def connect_error(fn, *args, **kwargs):
    """The ConnectError fn raises; fails the test when it succeeds."""
    import pytest
    from connectrpc.errors import ConnectError

    with pytest.raises(ConnectError) as info:
        result = fn(*args, **kwargs)
        pytest.fail(f"expected an error, got success: {result!r}")
    return info.value


def consume(stream, count: int) -> list:
    """The next `count` messages of a sync stream (a connectrpc server stream)."""
    return [next(stream) for _ in range(count)]


def until_synced(stream) -> tuple[list, object]:
    """WidgetEvents of a sync stream before its synced marker, and the marker."""
    before = []
    for event in stream:
        if event.WhichOneof("event") == "synced":
            return before, event
        before.append(event)
    raise AssertionError(f"stream ended before synced; saw {before}")


# --------------------------------------------------------------------------- gRPC-Web (sonora)


class WebStub:
    """WidgetService's methods on a sonora channel: the calls grpcio's generated stub makes,
    without the `_registered_method` argument sonora's channel does not take."""

    def __init__(self, channel):
        service = spb.DESCRIPTOR.services_by_name["WidgetService"]
        for method in service.methods:
            request = _message_class(method.input_type)
            response = _message_class(method.output_type)
            if method.client_streaming:
                factory = channel.stream_unary
            elif method.server_streaming:
                factory = channel.unary_stream
            else:
                factory = channel.unary_unary
            setattr(self, method.name, factory(
                rpc_path(method.name),
                request_serializer=request.SerializeToString,
                response_deserializer=response.FromString,
            ))


def _message_class(descriptor):
    from google.protobuf import message_factory

    return message_factory.GetMessageClass(descriptor)


def web_call(channel, method: str, request, timeout=None, metadata=None):
    """One unary call through sonora, keeping the call for its trailers: sonora's
    `with_call` raises before it returns the call, so its UnaryUnaryCall is built here as
    `with_call` builds it. Returns (response or None, the WebRpcError or None, call)."""
    import sonora.client

    from sonora import protocol

    multicallable = getattr(WebStub(channel), method)
    call_metadata = multicallable._metadata.copy()
    if metadata is not None:
        call_metadata.extend(protocol.encode_headers(metadata))
    call = sonora.client.UnaryUnaryCall(
        request, timeout, call_metadata, multicallable._rpc_url, multicallable._session,
        multicallable._serializer, multicallable._deserializer,
    )
    try:
        return call(), None, call
    except grpc.RpcError as err:
        return None, err, call


def web_status(call) -> status_pb2.Status:
    """The google.rpc.Status in a finished sonora call's grpc-status-details-bin trailer,
    checked against grpc-status and grpc-message."""
    trailers = dict(call.trailing_metadata() or [])
    assert "grpc-status-details-bin" in trailers, f"no grpc-status-details-bin in {trailers}"
    status = status_from_details_bin(trailers["grpc-status-details-bin"])
    assert status.code == int(trailers["grpc-status"]), (status, trailers)
    assert status.message == unquote(trailers.get("grpc-message", "")), (status, trailers)
    return status


class WebSubscription:
    """Subscribe over gRPC-Web through sonora's asyncio channel, read on a thread of its
    own; events (or the error that ended the stream) arrive in a queue.

    The asyncio channel because sonora's sync channel reads a stream through a 16 KiB
    io.BufferedReader over urllib3: it hands over no message until 16 KiB or the end of
    the body have arrived, so live events would never show up on their own."""

    ENDED = object()

    def __init__(self, server, timeout: float | None = 60, metadata=None, **request):
        self.url = base_url(server)
        self.request = spb.SubscribeRequest(**request)
        self.events: queue.Queue = queue.Queue()
        self.call = None
        self._timeout, self._metadata = timeout, metadata
        self._loop = asyncio.new_event_loop()
        self._task: asyncio.Task | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._loop.run_until_complete(self._main())
        finally:
            self._loop.close()

    async def _main(self) -> None:
        import sonora.aio

        self._task = asyncio.current_task()
        try:
            async with sonora.aio.insecure_web_channel(self.url) as channel:
                method = channel.unary_stream(
                    rpc_path("Subscribe"),
                    request_serializer=spb.SubscribeRequest.SerializeToString,
                    response_deserializer=spb.WidgetEvent.FromString,
                )
                self.call = method(self.request, timeout=self._timeout, metadata=self._metadata)
                async for event in self.call:
                    self.events.put(event)
                self.events.put(self.ENDED)
        except asyncio.CancelledError:
            self.events.put(self.ENDED)
        except Exception as err:  # noqa: BLE001 - handed to the test
            self.events.put(err)

    def next(self, timeout: float = WAIT):
        try:
            item = self.events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no gRPC-Web event within {timeout}s") from None
        if isinstance(item, Exception):
            raise item
        assert item is not self.ENDED, "the gRPC-Web stream ended"
        return item

    def error(self, timeout: float = WAIT) -> grpc.RpcError:
        """The error that ends the stream, after any events."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                item = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the gRPC-Web stream did not end within {timeout}s") from None
            if isinstance(item, grpc.RpcError):
                return item
            if isinstance(item, Exception):
                raise item
            assert item is not self.ENDED, "the gRPC-Web stream ended without an error"

    def until(self, predicate, timeout: float = WAIT) -> list:
        seen, deadline = [], time.monotonic() + timeout
        while True:
            event = self.next(timeout=max(0.01, deadline - time.monotonic()))
            seen.append(event)
            if predicate(event):
                return seen

    def until_synced(self, timeout: float = WAIT) -> tuple[list, object]:
        seen = self.until(lambda e: e.WhichOneof("event") == "synced", timeout)
        return seen[:-1], seen[-1]

    def cancel(self) -> None:
        """Cancels the call (the channel closes its connection) and waits for the thread."""
        task = self._task
        if task is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the loop finished meanwhile
                pass
        self._thread.join(timeout=TIMEOUT)
        assert not self._thread.is_alive(), "the gRPC-Web subscription did not stop"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cancel()


class GrpcSubscription:
    """Subscribe through grpcio, read on a thread; events arrive in a queue."""

    def __init__(self, stub, **request):
        self.call = stub.Subscribe(spb.SubscribeRequest(**request), timeout=60)
        self.events: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for event in self.call:
                self.events.put(event)
        except grpc.RpcError as err:
            self.events.put(err)

    def next(self, timeout: float = WAIT):
        try:
            item = self.events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no gRPC event within {timeout}s") from None
        if isinstance(item, grpc.RpcError):
            raise item
        return item

    def until(self, predicate, timeout: float = WAIT) -> list:
        seen, deadline = [], time.monotonic() + timeout
        while True:
            event = self.next(timeout=max(0.01, deadline - time.monotonic()))
            seen.append(event)
            if predicate(event):
                return seen

    def until_synced(self) -> tuple[list, object]:
        seen = self.until(lambda e: e.WhichOneof("event") == "synced")
        return seen[:-1], seen[-1]

    def cancel(self) -> None:
        self.call.cancel()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cancel()


def kind(event) -> str:
    return event.WhichOneof("event")


def upsert_of(wid: str, value=None):
    def match(event) -> bool:
        if kind(event) != "upsert" or event.upsert.id != wid:
            return False
        return value is None or event.upsert.content.gauge.value == value

    return match


def server_sockets(server) -> int | None:
    """How many sockets the spawned gauged holds open (None for an external one)."""
    import os

    if server.proc is None:
        return None
    fd_dir = f"/proc/{server.proc.pid}/fd"
    count = 0
    for fd in os.listdir(fd_dir):
        try:
            if os.readlink(f"{fd_dir}/{fd}").startswith("socket:"):
                count += 1
        except OSError:  # closed meanwhile
            pass
    return count


def wait_for(predicate, timeout: float = WAIT, what: str = "condition"):
    """Polls `predicate` until it returns a true value; returns that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not hold within {timeout}s")
        time.sleep(0.02)
