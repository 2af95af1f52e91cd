"""grpc's interop test cases (doc/interop-test-descriptions.md), every non-cloud
client case, with grpcio as the stock client against gauged-interop-server.

Message classes come from our proto/grpc/testing files through a descriptor pool
(Python stubs generated into a `grpc.testing` package would shadow grpcio's own
`grpc`). Where grpcio cannot express a step (it sees no per-message compressed
flags, and compresses every message of a call or none), the step is also run
over raw HTTP/2 with the h2 package, which can; each such place says so.
"""

from __future__ import annotations

import gzip
import os
import queue
import struct
import subprocess
import time

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from conftest import GEN_DIR, REPO, Server
from helpers import TIMEOUT, RawH2, grpc_frame, rpc_error

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="needs the gauged-interop-server binary"
)

SERVICE = "grpc.testing.TestService"
ECHO_INITIAL = "x-grpc-test-echo-initial"
ECHO_TRAILING = "x-grpc-test-echo-trailing-bin"


def _load_messages():
    from grpc_tools import protoc

    GEN_DIR.mkdir(exist_ok=True)
    out = GEN_DIR / "grpc_testing.pb"
    args = ["grpc_tools.protoc", f"-I{REPO / 'proto'}", f"--descriptor_set_out={out}",
            "--include_imports", "grpc/testing/test.proto"]
    if protoc.main(args) != 0:
        raise RuntimeError(f"grpc_tools.protoc failed: {' '.join(args)}")
    files = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    pool = descriptor_pool.DescriptorPool()
    for file in files:
        pool.Add(file)
    return pool, message_factory.GetMessages(files, pool=pool)


POOL, _CLASSES = _load_messages()
Empty = _CLASSES["grpc.testing.Empty"]
BoolValue = _CLASSES["grpc.testing.BoolValue"]
Payload = _CLASSES["grpc.testing.Payload"]
EchoStatus = _CLASSES["grpc.testing.EchoStatus"]
SimpleRequest = _CLASSES["grpc.testing.SimpleRequest"]
StreamingInputCallRequest = _CLASSES["grpc.testing.StreamingInputCallRequest"]
StreamingInputCallResponse = _CLASSES["grpc.testing.StreamingInputCallResponse"]
ResponseParameters = _CLASSES["grpc.testing.ResponseParameters"]
StreamingOutputCallRequest = _CLASSES["grpc.testing.StreamingOutputCallRequest"]
StreamingOutputCallResponse = _CLASSES["grpc.testing.StreamingOutputCallResponse"]


class InteropStub:
    """What grpc_tools would generate, built from the service descriptor."""

    def __init__(self, channel: grpc.Channel):
        service = POOL.FindServiceByName(SERVICE)
        for method in service.methods:
            kind = {
                (False, False): channel.unary_unary,
                (False, True): channel.unary_stream,
                (True, False): channel.stream_unary,
                (True, True): channel.stream_stream,
            }[(method.client_streaming, method.server_streaming)]
            setattr(self, method.name, kind(
                f"/{SERVICE}/{method.name}",
                request_serializer=_CLASSES[method.input_type.full_name].SerializeToString,
                response_deserializer=_CLASSES[method.output_type.full_name].FromString,
            ))


@pytest.fixture(scope="module")
def interop_server():
    srv = Server(program="gauged-interop-server")
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def stub(interop_server):
    with grpc.insecure_channel(interop_server.address) as channel:
        yield InteropStub(channel)


def zeros(n: int) -> Payload:
    return Payload(body=b"\0" * n)


def assert_zeros(payload, size: int) -> None:
    assert len(payload.body) == size
    assert payload.body == b"\0" * size


class Requests:
    """A request iterator fed one message at a time, for ping-pong and cancellation."""

    _END = object()

    def __init__(self):
        self._queue: queue.Queue = queue.Queue()

    def send(self, request) -> None:
        self._queue.put(request)

    def close(self) -> None:
        self._queue.put(self._END)

    def __iter__(self):
        while (item := self._queue.get()) is not self._END:
            yield item


# --------------------------------------------------------------------------- raw HTTP/2


def flagged_messages(data: bytes) -> list[tuple[bool, bytes]]:
    out, i = [], 0
    while i + 5 <= len(data):
        flag, n = struct.unpack(">BI", data[i : i + 5])
        out.append((flag == 1, data[i + 5 : i + 5 + n]))
        i += 5 + n
    return out


def send_all(raw: RawH2, sid: int, data: bytes) -> None:
    """Sends `data` and ends the stream, in frames the server's settings allow and
    no faster than its flow-control windows open."""
    while data:
        room = min(raw.conn.local_flow_control_window(sid), raw.conn.max_outbound_frame_size)
        if room == 0:
            for event in raw.conn.receive_data(raw.sock.recv(65536)):
                raw._on(event)
            raw.flush()
            continue
        raw.send(sid, data[:room])
        data = data[room:]
    raw.send(sid, b"", end=True)


def raw_call(port: int, method: str, frames: bytes, extra=()):
    """One call over raw HTTP/2 that accepts gzip responses; returns the response
    with its messages as (compressed flag, inflated bytes)."""
    with RawH2(port) as raw:
        sid = raw.start(f"/{SERVICE}/{method}",
                        extra=[("grpc-accept-encoding", "identity,gzip"), *extra])
        send_all(raw, sid, frames)
        resp = raw.wait(sid)
    messages = [(c, gzip.decompress(b) if c else b) for c, b in flagged_messages(resp.data)]
    return resp, messages


# --------------------------------------------------------------------------- cases


def test_empty_unary(stub):
    reply = stub.EmptyCall(Empty(), timeout=TIMEOUT)
    assert reply is not None
    assert reply.ByteSize() == 0


def test_large_unary(stub):
    reply = stub.UnaryCall(SimpleRequest(response_size=314159, payload=zeros(271828)),
                           timeout=TIMEOUT)
    assert_zeros(reply.payload, 314159)


def test_client_compressed_unary(stub):
    def request(expect: bool):
        return SimpleRequest(expect_compressed=BoolValue(value=expect), response_size=314159,
                             payload=zeros(271828))

    # The feature probe: an uncompressed message that claims to be compressed.
    probe = rpc_error(stub.UnaryCall, request(True), timeout=TIMEOUT)
    assert probe.code() == grpc.StatusCode.INVALID_ARGUMENT, (probe.code(), probe.details())

    compressed = stub.UnaryCall(request(True), timeout=TIMEOUT,
                                compression=grpc.Compression.Gzip)
    assert_zeros(compressed.payload, 314159)
    plain = stub.UnaryCall(request(False), timeout=TIMEOUT)
    assert_zeros(plain.payload, 314159)


def test_server_compressed_unary(stub, interop_server):
    for compressed in (True, False):
        reply = stub.UnaryCall(
            SimpleRequest(response_compressed=BoolValue(value=compressed), response_size=314159,
                          payload=zeros(271828)),
            timeout=TIMEOUT)
        assert_zeros(reply.payload, 314159)

    # grpcio hides the compressed flag of a response; raw HTTP/2 shows it.
    for compressed in (True, False):
        request = SimpleRequest(response_compressed=BoolValue(value=compressed),
                                response_size=314159, payload=zeros(271828))
        resp, messages = raw_call(interop_server.port, "UnaryCall",
                                  grpc_frame(request.SerializeToString()))
        assert resp.grpc_fields.get(b"grpc-status") == b"0", resp
        [(flag, body)] = messages
        assert flag is compressed
        assert_zeros(_CLASSES["grpc.testing.SimpleResponse"].FromString(body).payload, 314159)


def test_client_streaming(stub):
    sizes = [27182, 8, 1828, 45904]
    reply = stub.StreamingInputCall(
        iter([StreamingInputCallRequest(payload=zeros(n)) for n in sizes]), timeout=TIMEOUT)
    assert reply.aggregated_payload_size == 74922


def test_client_compressed_streaming(stub, interop_server):
    first = StreamingInputCallRequest(expect_compressed=BoolValue(value=True),
                                      payload=zeros(27182))
    second = StreamingInputCallRequest(expect_compressed=BoolValue(value=False),
                                       payload=zeros(45904))

    # The feature probe: an uncompressed first message that claims to be compressed.
    probe = rpc_error(stub.StreamingInputCall, iter([first]), timeout=TIMEOUT)
    assert probe.code() == grpc.StatusCode.INVALID_ARGUMENT, (probe.code(), probe.details())

    # grpcio compresses every message of a call or none: it cannot send the second
    # message uncompressed. Through grpcio, the second message leaves
    # expect_compressed unset (nothing to check) ...
    unchecked = StreamingInputCallRequest(payload=zeros(45904))
    reply = stub.StreamingInputCall(iter([first, unchecked]), timeout=TIMEOUT,
                                    compression=grpc.Compression.Gzip)
    assert reply.aggregated_payload_size == 73086
    # ... and grpcio's all-compressed stream is refused when the second message
    # claims to be uncompressed, as the server must check it.
    err = rpc_error(stub.StreamingInputCall, iter([first, second]), timeout=TIMEOUT,
                    compression=grpc.Compression.Gzip)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())

    # The exact procedure, per-message flags and all, over raw HTTP/2.
    frames = (grpc_frame(gzip.compress(first.SerializeToString()), compressed=True)
              + grpc_frame(second.SerializeToString()))
    resp, messages = raw_call(interop_server.port, "StreamingInputCall", frames,
                              extra=[("grpc-encoding", "gzip")])
    assert resp.grpc_fields.get(b"grpc-status") == b"0", resp
    [(_, body)] = messages
    assert StreamingInputCallResponse.FromString(body).aggregated_payload_size == 73086


def test_server_streaming(stub):
    sizes = [31415, 9, 2653, 58979]
    request = StreamingOutputCallRequest(
        response_parameters=[ResponseParameters(size=n) for n in sizes])
    replies = list(stub.StreamingOutputCall(request, timeout=TIMEOUT))
    assert [len(r.payload.body) for r in replies] == sizes
    for reply, size in zip(replies, sizes):
        assert_zeros(reply.payload, size)


def test_server_compressed_streaming(stub, interop_server):
    request = StreamingOutputCallRequest(response_parameters=[
        ResponseParameters(compressed=BoolValue(value=True), size=31415),
        ResponseParameters(compressed=BoolValue(value=False), size=92653),
    ])
    replies = list(stub.StreamingOutputCall(request, timeout=TIMEOUT))
    assert [len(r.payload.body) for r in replies] == [31415, 92653]

    # grpcio hides the per-message flags; raw HTTP/2 shows them.
    resp, messages = raw_call(interop_server.port, "StreamingOutputCall",
                              grpc_frame(request.SerializeToString()))
    assert resp.grpc_fields.get(b"grpc-status") == b"0", resp
    assert [flag for flag, _ in messages] == [True, False]
    sizes = [len(StreamingOutputCallResponse.FromString(b).payload.body) for _, b in messages]
    assert sizes == [31415, 92653]


def test_ping_pong(stub):
    requests = Requests()
    replies = stub.FullDuplexCall(iter(requests), timeout=TIMEOUT)
    for request_size, response_size in [(27182, 31415), (8, 9), (1828, 2653), (45904, 58979)]:
        requests.send(StreamingOutputCallRequest(
            response_parameters=[ResponseParameters(size=response_size)],
            payload=zeros(request_size)))
        assert_zeros(next(replies).payload, response_size)
    requests.close()
    assert list(replies) == []
    assert replies.code() == grpc.StatusCode.OK


def test_empty_stream(stub):
    replies = stub.FullDuplexCall(iter([]), timeout=TIMEOUT)
    assert list(replies) == []
    assert replies.code() == grpc.StatusCode.OK


def test_cancel_after_begin(stub):
    requests = Requests()
    call = stub.StreamingInputCall.future(iter(requests), timeout=TIMEOUT)
    call.cancel()
    requests.close()
    assert call.cancelled()
    assert call.code() == grpc.StatusCode.CANCELLED


def test_cancel_after_first_response(stub):
    requests = Requests()
    replies = stub.FullDuplexCall(iter(requests), timeout=TIMEOUT)
    requests.send(StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=31415)],
                                             payload=zeros(27182)))
    assert_zeros(next(replies).payload, 31415)
    replies.cancel()
    requests.close()
    assert replies.code() == grpc.StatusCode.CANCELLED
    # The server noticed nothing wrong with the connection: it serves on.
    assert stub.EmptyCall(Empty(), timeout=TIMEOUT) is not None


def test_timeout_on_sleeping_server(stub):
    requests = Requests()
    replies = stub.FullDuplexCall(iter(requests), timeout=0.001)
    requests.send(StreamingOutputCallRequest(payload=zeros(27182)))
    with pytest.raises(grpc.RpcError) as info:
        list(replies)
    requests.close()
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_custom_metadata(stub):
    metadata = [(ECHO_INITIAL, "test_initial_metadata_value"), (ECHO_TRAILING, b"\xab\xab\xab")]

    def check(initial, trailing):
        assert (ECHO_INITIAL, "test_initial_metadata_value") in list(initial)
        assert (ECHO_TRAILING, b"\xab\xab\xab") in list(trailing)

    reply, call = stub.UnaryCall.with_call(
        SimpleRequest(response_size=314159, payload=zeros(271828)), metadata=metadata,
        timeout=TIMEOUT)
    assert_zeros(reply.payload, 314159)
    check(call.initial_metadata(), call.trailing_metadata())

    replies = stub.FullDuplexCall(
        iter([StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=314159)],
                                         payload=zeros(271828))]),
        metadata=metadata, timeout=TIMEOUT)
    assert [len(r.payload.body) for r in replies] == [314159]
    check(replies.initial_metadata(), replies.trailing_metadata())


@pytest.mark.parametrize("message", [
    "test status message",
    "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n",
], ids=["status_code_and_message", "special_status_message"])
def test_status_code_and_message(stub, message):
    status = EchoStatus(code=2, message=message)
    err = rpc_error(stub.UnaryCall, SimpleRequest(response_status=status), timeout=TIMEOUT)
    assert err.code() == grpc.StatusCode.UNKNOWN
    assert err.details() == message
    if message == "test status message":  # special_status_message covers UnaryCall only
        replies = stub.FullDuplexCall(iter([StreamingOutputCallRequest(response_status=status)]),
                                      timeout=TIMEOUT)
        with pytest.raises(grpc.RpcError) as info:
            list(replies)
        assert info.value.code() == grpc.StatusCode.UNKNOWN
        assert info.value.details() == message


@pytest.mark.parametrize("path", [
    "/grpc.testing.TestService/UnimplementedCall",
    "/grpc.testing.UnimplementedService/UnimplementedCall",
], ids=["unimplemented_method", "unimplemented_service"])
def test_unimplemented(interop_server, path):
    with grpc.insecure_channel(interop_server.address) as channel:
        call = channel.unary_unary(path, request_serializer=Empty.SerializeToString,
                                   response_deserializer=Empty.FromString)
        err = rpc_error(call, Empty(), timeout=TIMEOUT)
    assert err.code() == grpc.StatusCode.UNIMPLEMENTED


# --------------------------------------------------------------------------- server features


def test_response_intervals_are_observed_in_order(stub):
    """Observe ResponseParameters.interval_us: three responses 20 ms apart arrive
    in order and the call is not answered all at once."""
    request = StreamingOutputCallRequest(response_parameters=[
        ResponseParameters(size=n, interval_us=20_000) for n in (1, 2, 3)])
    started = time.monotonic()
    replies = list(stub.StreamingOutputCall(request, timeout=TIMEOUT))
    assert [len(r.payload.body) for r in replies] == [1, 2, 3]
    assert time.monotonic() - started >= 0.06


def test_half_duplex_answers_after_the_half_close(stub):
    requests = [StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=n)])
                for n in (5, 6)]
    replies = list(stub.HalfDuplexCall(iter(requests), timeout=TIMEOUT))
    assert [len(r.payload.body) for r in replies] == [5, 6]


def test_oversized_response_requests_are_invalid_argument(stub):
    err = rpc_error(stub.UnaryCall, SimpleRequest(response_size=1 << 30), timeout=TIMEOUT)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "response_size" in err.details()


def test_use_tls_is_refused_with_status_2(interop_server):
    out = subprocess.run([interop_server.argv[0], "--port", "0", "--use_tls=true"],
                         capture_output=True, text=True, timeout=5, stdin=subprocess.DEVNULL)
    assert out.returncode == 2
    assert "TLS" in out.stderr
