"""Seeded fuzzing of a private gauged: mutated protobuf requests to every
WidgetService method, and mutated or random HTTP/2 frames on raw sockets.

The oracle: every call ends, within its deadline, with a status that bad input
may get; a write that fails leaves every widget as it was; every OK answer
decodes, and what it says was written reads back; a PublishValues summary
accounts for every item sent; and gauged outlives it all (under `make
sanitize`, with no AddressSanitizer report). A seed reproduces its run:
FUZZ_SEED=N picks one, FUZZ_CASES=N runs more cases."""

from __future__ import annotations

import gzip
import os
import random
import signal
import socket
import struct
import subprocess
import time

import grpc
import pytest
from hpack import Decoder, Encoder

from conftest import Server
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import TIMEOUT

SERVICE = "/gauge.v1.WidgetService/"
SEED = int(os.environ.get("FUZZ_SEED", "20261130"))
CASES = int(os.environ.get("FUZZ_CASES", "600"))
PREFIX = "fz-"

RESPONSES = {
    "PutWidget": spb.PutWidgetResponse,
    "UpdateWidget": wpb.Widget,
    "GetWidget": wpb.Widget,
    "ListWidgets": spb.ListWidgetsResponse,
    "DeleteWidget": spb.DeleteWidgetResponse,
    "PublishValues": spb.PublishSummary,
    "Subscribe": spb.WidgetEvent,
}
WRITES = {"PutWidget", "UpdateWidget", "DeleteWidget", "PublishValues"}
# What malformed or invalid input may get; anything else (UNKNOWN, UNAVAILABLE,
# an expired deadline on a unary call) is a defect.
ALLOWED = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.INTERNAL,  # only for a request that does not parse: checked below
}


@pytest.fixture(scope="module")
def fuzz_server():
    srv = Server()
    srv.start()
    yield srv
    code = srv.stop()
    assert code == 0, f"gauged exited with {code} after the fuzzing\n{srv.describe()}"


@pytest.fixture
def durable_server(tmp_path):
    srv = Server(args=["--data-dir", str(tmp_path), "--durability", "strict"])
    srv.start()
    yield srv
    srv.stop()


class Mutator:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def varint(self, n: int) -> bytes:
        out = bytearray()
        while True:
            byte, n = n & 0x7F, n >> 7
            out.append(byte | 0x80 if n else byte)
            if not n:
                return bytes(out)

    def field(self) -> bytes:
        """A field of a random number and wire type, with an extreme payload."""
        rng = self.rng
        number = rng.choice([1, 2, 3, 4, 5, 7, 15, 16, 100, 536870911])
        wire = rng.randrange(8)
        tag = self.varint(number << 3 | wire)
        if wire == 0:
            return tag + self.varint(rng.choice([0, 1, 2**31, 2**32, 2**63, 2**64 - 1]))
        if wire == 1:
            return tag + struct.pack("<d", rng.choice([float("nan"), float("inf"), -0.0, 1e308]))
        if wire == 2:
            length = rng.choice([0, 1, 5, 2**31, 2**32 + 5, 2**63])
            return tag + self.varint(length) + rng.randbytes(min(length, rng.randrange(10)))
        if wire == 5:
            return tag + rng.randbytes(4)
        return tag

    def mutate(self, data: bytes) -> bytes:
        rng = self.rng
        out = bytearray(data)
        for _ in range(rng.randrange(1, 5)):
            operation = rng.randrange(8)
            position = rng.randrange(len(out) + 1)
            if operation == 0 and out:
                out[position % len(out)] ^= 1 << rng.randrange(8)
            elif operation == 1 and out:
                out[position % len(out)] = rng.randrange(256)
            elif operation == 2:
                out.insert(position, rng.randrange(256))
            elif operation == 3 and out:
                del out[position % len(out)]
            elif operation == 4:
                del out[position:]
            elif operation == 5:
                out[position:position] = self.field()
            elif operation == 6:
                end = rng.randrange(position, len(out) + 1)
                out[position:position] = out[position:end]
            else:
                out[position:position] = b"\xff\xff\xff\xff\x0f"
        return bytes(out)


class Requests:
    """Well-formed requests about a few widgets, the seeds of the mutations."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def widget_id(self) -> str:
        return PREFIX + self.rng.choice(["a", "b", "c", "d", "x" * 125, "x" * 126])

    def content(self) -> wpb.Content:
        rng = self.rng
        content = wpb.Content(label=rng.choice(["", "cpu", "é" * 10]), unit="%")
        template = rng.randrange(3)
        if template == 0:
            content.gauge.CopyFrom(wpb.Gauge(value=rng.uniform(0, 10), min_value=0, max_value=10))
        elif template == 1:
            content.progress.CopyFrom(wpb.Progress(value=rng.uniform(0, 1)))
        else:
            content.value.CopyFrom(wpb.Value(value=rng.uniform(-5, 5)))
        return content

    def make(self, method: str) -> bytes:
        rng = self.rng
        wid = self.widget_id()
        if method == "PutWidget":
            message = spb.PutWidgetRequest(
                widget=wpb.Widget(id=wid, name="fuzz", content=self.content()))
        elif method == "UpdateWidget":
            message = rng.choice([
                spb.UpdateWidgetRequest(id=wid, content=self.content()),
                spb.UpdateWidgetRequest(id=wid, name="z", clear_fields=["content.label", "name"]),
            ])
        elif method in ("GetWidget", "DeleteWidget"):
            message = (spb.GetWidgetRequest if method == "GetWidget" else spb.DeleteWidgetRequest)(
                id=wid)
        elif method == "ListWidgets":
            message = spb.ListWidgetsRequest(
                id_prefix=PREFIX, page_size=rng.choice([0, 2, 1000]), page_token=rng.choice(["", "x"]))
        elif method == "PublishValues":
            message = spb.ValueUpdate(id=wid, value=rng.uniform(0, 10))
        else:
            message = spb.SubscribeRequest(
                ids=[wid], id_prefix=rng.choice(["", PREFIX]),
                since_revision=rng.choice([0, 1, 2**63]), min_interval_ms=rng.choice([0, 5]))
        return message.SerializeToString()


def widgets_now(channel) -> list[bytes]:
    """Every fuzzed widget, serialized: what a failed write must leave as it was."""
    list_widgets = channel.unary_unary(
        SERVICE + "ListWidgets", request_serializer=None, response_deserializer=None)
    page = spb.ListWidgetsResponse.FromString(list_widgets(
        spb.ListWidgetsRequest(id_prefix=PREFIX, page_size=1000).SerializeToString(),
        timeout=TIMEOUT))
    return [w.SerializeToString(deterministic=True) for w in page.widgets]


def call(channel, method: str, payload: bytes, items: list[bytes]):
    """Returns (status, details, decoded answers)."""
    path = SERVICE + method
    try:
        if method == "PublishValues":
            answer = channel.stream_unary(path)(iter(items), timeout=TIMEOUT)
            return grpc.StatusCode.OK, "", [RESPONSES[method].FromString(answer)]
        if method == "Subscribe":
            stream = channel.unary_stream(path)(payload, timeout=0.2)
            events = []
            try:
                for message in stream:
                    events.append(RESPONSES[method].FromString(message))
            except grpc.RpcError as err:
                # The client's deadline ends a subscription that was served.
                if err.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                    raise
            return grpc.StatusCode.OK, "", events
        answer = channel.unary_unary(path)(payload, timeout=TIMEOUT)
        return grpc.StatusCode.OK, "", [RESPONSES[method].FromString(answer)]
    except grpc.RpcError as err:
        return err.code(), err.details() or "", []


def test_mutated_requests_get_a_status_and_never_half_apply(fuzz_server):
    statuses = fuzz_requests(fuzz_server, SEED, CASES)
    # The mutations reached past the parser: each method both served and refused requests.
    for method in ("PutWidget", "UpdateWidget", "GetWidget", "DeleteWidget", "ListWidgets"):
        assert {"OK", "INTERNAL"} <= statuses[method] and len(statuses[method]) >= 3, statuses


def test_what_fuzzed_writes_left_in_the_store_survives_a_restart(durable_server):
    """Odd but valid widgets (any text, extreme numbers, cleared fields) go through
    the store's encoding and come back the same after a restart."""
    fuzz_requests(durable_server, SEED + 2, CASES // 3)
    with grpc.insecure_channel(durable_server.address) as channel:
        before = widgets_now(channel)
    assert durable_server.stop() == 0, durable_server.describe()
    durable_server.start()
    with grpc.insecure_channel(durable_server.address) as channel:
        assert widgets_now(channel) == before
    assert len(before) >= 3


def fuzz_requests(server, seed: int, cases: int) -> dict[str, set[str]]:
    """Runs `cases` mutated requests, checking each answer; returns the statuses
    each method got."""
    rng = random.Random(seed)
    mutator, requests = Mutator(rng), Requests(rng)
    statuses: dict[str, set[str]] = {}
    with grpc.insecure_channel(server.address) as channel:
        for name in "abc":
            widget = wpb.Widget(id=PREFIX + name, name="fuzz", content=requests.content())
            put = spb.PutWidgetRequest(widget=widget).SerializeToString()
            assert call(channel, "PutWidget", put, [])[0] == grpc.StatusCode.OK
        for case in range(cases):
            method = rng.choice(list(RESPONSES))
            payload = requests.make(method)
            if rng.random() < 0.9:
                payload = mutator.mutate(payload)
            items = [mutator.mutate(requests.make(method)) if rng.random() < 0.5
                     else requests.make(method) for _ in range(rng.randrange(1, 12))]
            before = widgets_now(channel) if method in WRITES else None
            status, details, answers = call(channel, method, payload, items)
            where = f"seed {seed} case {case}: {method} {payload.hex()} -> {status.name} {details!r}"
            statuses.setdefault(method, set()).add(status.name)
            assert status in ALLOWED, where
            if status == grpc.StatusCode.INTERNAL:
                assert details.startswith(f"could not parse the {method} request"), where
            if method == "PublishValues" and status == grpc.StatusCode.OK:
                summary = answers[0]
                assert summary.accepted + summary.rejected == len(items), (where, summary)
                if summary.rejected == len(items):
                    assert widgets_now(channel) == before, where
            elif method in WRITES and status != grpc.StatusCode.OK:
                assert widgets_now(channel) == before, where
            elif method in ("PutWidget", "UpdateWidget") and status == grpc.StatusCode.OK:
                written = answers[0].widget if method == "PutWidget" else answers[0]
                got = call(channel, "GetWidget",
                           spb.GetWidgetRequest(id=written.id).SerializeToString(), [])
                assert got[0] == grpc.StatusCode.OK and got[2][0] == written, where
    return statuses


PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
PING_MARK = b"fuzzdone"


def frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return (struct.pack(">I", len(payload))[1:] + bytes([kind, flags])
            + struct.pack(">I", stream & 0xFFFFFFFF) + payload)


def exchange(port: int, data: bytes) -> str:
    """Sends the preface, `data` and a PING; reads until the PING's answer, the
    end of the connection, or a quiet 0.2 s (a frame may rightly wait for bytes
    that never come)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    sock.settimeout(0.2)
    received = b""
    try:
        sock.sendall(PREFACE + data + frame(6, 0, 0, PING_MARK))
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return "closed"
            received += chunk
            if frame(6, 1, 0, PING_MARK) in received:
                return "answered"
    except socket.timeout:
        return "waiting"
    except (ConnectionResetError, BrokenPipeError):
        return "reset"
    finally:
        sock.close()


def test_mutated_http2_frames_leave_gauged_serving(fuzz_server):
    rng = random.Random(SEED + 1)
    mutator = Mutator(rng)
    requests = Requests(rng)
    outcomes: dict[str, int] = {}
    with grpc.insecure_channel(fuzz_server.address) as channel:
        for case in range(CASES // 3):
            encoder = Encoder()
            method = rng.choice(list(RESPONSES))
            headers = [(":method", "POST"), (":scheme", "http"), (":path", SERVICE + method),
                       (":authority", fuzz_server.address), ("content-type", "application/grpc"),
                       ("te", "trailers")]
            if rng.random() < 0.3:
                headers.append(("grpc-timeout", rng.choice(["1S", "99999999H", "x", "0n"])))
            if rng.random() < 0.3:
                headers.append(("grpc-encoding", rng.choice(["gzip", "identity", "br"])))
            frames = [frame(4, 0, 0, b"")]
            for stream in range(1, 2 * rng.randrange(1, 4), 2):
                body = requests.make(method)
                message = bytes([rng.choice([0, 0, 1])]) + struct.pack(">I", len(body)) + body
                frames += [frame(1, 4, stream, encoder.encode(headers)), frame(0, 1, stream, message)]
            shape = rng.randrange(4)
            if shape == 0:
                data = mutator.mutate(b"".join(frames))
            elif shape == 1:
                for _ in range(rng.randrange(1, 6)):
                    junk = frame(rng.randrange(12), rng.randrange(256),
                                 rng.choice([0, 1, 2, 3, 2**31 - 1, 2**31]),
                                 rng.randbytes(rng.choice([0, 1, 4, 5, 8, 9, rng.randrange(64)])))
                    frames.insert(rng.randrange(len(frames) + 1), junk)
                data = b"".join(frames)
            elif shape == 2:
                index = rng.randrange(len(frames))
                header = bytearray(frames[index])
                header[rng.randrange(9)] = rng.randrange(256)
                frames[index] = bytes(header)
                data = b"".join(frames)
            else:
                frames[1:1] = [
                    frame(8, 0, rng.choice([0, 1]),
                          struct.pack(">I", rng.choice([0, 1, 2**31 - 1, 2**31]))),
                    frame(4, 0, 0, struct.pack(">HI", rng.randrange(1, 10),
                                               rng.choice([0, 1, 2**31, 2**32 - 1, 16777216]))),
                ]
                data = b"".join(frames)
            outcome = exchange(fuzz_server.port, data)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            if case % 20 == 19:
                health = channel.unary_unary("/grpc.health.v1.Health/Check")
                assert health(b"", timeout=TIMEOUT) is not None, f"seed {SEED + 1} case {case}"
    assert fuzz_server.alive()
    # Both ends of the range were reached: connections refused and requests served.
    assert outcomes.get("answered", 0) > 0 and outcomes.get("closed", 0) > 0, outcomes


class HostileServer:
    """Answers one gRPC call per connection with mutated frames: a valid answer
    (a widget, or subscription events) with its bytes, lengths, statuses or
    framing broken, then closes."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.mutator = Mutator(rng)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(TIMEOUT)
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"

    def answer(self, events: bool) -> bytes:
        rng = self.rng
        widget = wpb.Widget(id="w1", name="n", revision=5, content=wpb.Content(
            label="x", gauge=wpb.Gauge(value=1, min_value=0, max_value=2)))
        body = (spb.WidgetEvent(revision=5, upsert=widget) if events else widget).SerializeToString()
        if rng.random() < 0.5:
            body = self.mutator.mutate(body)
        length = rng.choice([len(body)] * 5 + [0, 2**31, 2**32 - 1, len(body) + 1])
        message = bytes([rng.choice([0, 0, 1])]) + struct.pack(">I", length) + body
        headers = [(":status", rng.choice(["200"] * 5 + ["500", "abc", "2000", ""])),
                   ("content-type", rng.choice(["application/grpc"] * 4 + ["text/html"]))]
        if rng.random() < 0.3:
            headers.append(("grpc-encoding", rng.choice(["gzip", "zz", "identity"])))
        trailers = [("grpc-status", rng.choice(["0"] * 4 + ["3", "99", "-1", "x", ""])),
                    ("grpc-message", rng.choice(["", "%zz", "ok%20", "é"]))]
        encoder = Encoder()
        frames = ([frame(4, 0, 0, b""), frame(1, 4, 1, encoder.encode(headers))]
                  + [frame(0, 0, 1, message)] * (rng.randrange(1, 4) if events else 1)
                  + [frame(1, 5, 1, encoder.encode(trailers))])
        shape = rng.randrange(4)
        if shape == 0:
            return self.mutator.mutate(b"".join(frames))
        if shape == 1:
            return b"".join(frames) + frame(rng.randrange(12), rng.randrange(256),
                                            rng.choice([0, 1, 3]), rng.randbytes(rng.randrange(20)))
        if shape == 2:
            # The answer stops short, the stream left open until the connection ends.
            return b"".join(frames[:rng.randrange(2, len(frames))])
        return b"".join(frames)

    def serve_one(self, events: bool) -> None:
        connection, _ = self.listener.accept()
        connection.settimeout(TIMEOUT)
        with connection:
            received = b""
            while len(received) < len(PREFACE) + 9:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                received += chunk
            try:
                connection.sendall(self.answer(events))
                # Open until gaugectl hangs up: it acts on what it read first.
                connection.settimeout(2.0)
                while connection.recv(65536):
                    pass
            except OSError:
                pass  # gaugectl hung up at once, or kept the connection


def wait_until_blocking_sigint(pid: int, timeout: float = 5.0) -> None:
    """Until gaugectl watch takes SIGINT itself, or is gone. It blocks the signal
    before starting its loop thread, which inherits the mask, and then waits for it
    in sigwait (during which the kernel shows the main thread's mask without it):
    a thread of the process blocking SIGINT means the wait is set up."""
    deadline = time.monotonic() + timeout
    bit = 1 << (signal.SIGINT - 1)
    while time.monotonic() < deadline:
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/status") as status:
                    for line in status:
                        if line.startswith("State:") and "Z" in line.split()[1]:
                            return
                        if line.startswith("SigBlk:") and int(line.split()[1], 16) & bit:
                            return
        except OSError:
            return
        time.sleep(0.01)


def test_gaugectl_survives_a_server_answering_with_mutated_frames():
    """The client's side of the same: gaugectl reading broken answers ends with
    an exit code and a message (watch: once interrupted), never a crash or a
    hang."""
    from test_gaugectl import clean_env, gaugectl_binary

    rng = random.Random(SEED + 3)
    server = HostileServer(rng)
    binary = str(gaugectl_binary())
    try:
        for case in range(CASES // 6):
            events = case % 2 == 1
            command = ["watch", "--events", "w1"] if events else ["get", "w1"]
            process = subprocess.Popen(
                [binary, "--timeout", "300ms", *command], stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                env=clean_env(server.address))
            server.serve_one(events)
            if events:
                # watch reconnects after a failure; what is checked is that the
                # broken answer did not kill it and that it still stops when told.
                # The connection served may be a stale one left in the backlog by
                # the case before, so the interrupt waits until this watch takes
                # interrupts itself: before that, SIGINT's default would end it.
                wait_until_blocking_sigint(process.pid)
                process.send_signal(signal.SIGINT)
            try:
                _, stderr = process.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                pytest.fail(f"seed {SEED + 3} case {case}: gaugectl {command[0]} hung")
            where = f"seed {SEED + 3} case {case}: gaugectl {command[0]} -> {process.returncode}"
            assert process.returncode in (0, 1, 3), f"{where}\n{stderr}"
            assert process.returncode == 0 or stderr.startswith("gaugectl"), f"{where}\n{stderr}"
    finally:
        server.listener.close()


def test_mutated_standard_service_requests_get_answers_stock_clients_parse(fuzz_server):
    """Health and reflection read their requests with their own code: mutated
    requests must end with a status, and every answer must parse (reflection
    echoes each request in its answer)."""
    from grpc_health.v1 import health_pb2
    from grpc_reflection.v1alpha import reflection_pb2

    rng = random.Random(SEED + 4)
    mutator = Mutator(rng)

    def reflection_request() -> bytes:
        request = rng.choice([
            reflection_pb2.ServerReflectionRequest(host="h", list_services=""),
            reflection_pb2.ServerReflectionRequest(file_by_filename=rng.choice(
                ["gauge/v1/widget.proto", "grpc/health/v1/health.proto", "nope.proto"])),
            reflection_pb2.ServerReflectionRequest(file_containing_symbol=rng.choice(
                ["gauge.v1.WidgetService", "gauge.v1.Widget", "x"])),
            reflection_pb2.ServerReflectionRequest(
                file_containing_extension=reflection_pb2.ExtensionRequest(
                    containing_type="gauge.v1.Widget", extension_number=rng.choice([1, 2**31 - 1]))),
            reflection_pb2.ServerReflectionRequest(all_extension_numbers_of_type="gauge.v1.Widget"),
        ]).SerializeToString()
        return mutator.mutate(request) if rng.random() < 0.7 else request

    allowed = {grpc.StatusCode.OK, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INTERNAL}
    with grpc.insecure_channel(fuzz_server.address) as channel:
        for case in range(CASES // 2):
            kind = rng.randrange(3)
            where = f"seed {SEED + 4} case {case}"
            try:
                if kind == 0:
                    request = mutator.mutate(health_pb2.HealthCheckRequest(
                        service=rng.choice(["", "gauge.v1.WidgetService"])).SerializeToString())
                    answer = channel.unary_unary("/grpc.health.v1.Health/Check")(
                        request, timeout=TIMEOUT)
                    health_pb2.HealthCheckResponse.FromString(answer)
                elif kind == 1:
                    request = mutator.mutate(health_pb2.HealthCheckRequest().SerializeToString())
                    try:
                        for answer in channel.unary_stream("/grpc.health.v1.Health/Watch")(
                                request, timeout=0.1):
                            health_pb2.HealthCheckResponse.FromString(answer)
                    except grpc.RpcError as err:
                        if err.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                            raise
                else:
                    version = rng.choice(["v1", "v1alpha"])
                    path = f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo"
                    requests = [reflection_request() for _ in range(rng.randrange(1, 5))]
                    for answer in channel.stream_stream(path)(iter(requests), timeout=TIMEOUT):
                        reflection_pb2.ServerReflectionResponse.FromString(answer)
            except grpc.RpcError as err:
                assert err.code() in allowed, f"{where}: {err.code().name} {err.details()}"
                if err.code() == grpc.StatusCode.INTERNAL:
                    assert err.details().startswith("could not parse"), f"{where}: {err.details()}"


def answer_status(port: int, data: bytes) -> tuple[str, str] | None:
    """Sends the preface and `data`, and returns stream 1's grpc-status and
    grpc-message, ("RST", code) for a reset, or None when neither came."""
    decoder = Decoder()
    fields: dict[str, str] = {}
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(PREFACE + data)
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                return "no answer", ""
            if not chunk:
                return None
            received += chunk
            while len(received) >= 9:
                length = int.from_bytes(received[:3], "big")
                if len(received) < 9 + length:
                    break
                kind, flags = received[3], received[4]
                stream = int.from_bytes(received[5:9], "big") & 0x7FFFFFFF
                payload, received = received[9:9 + length], received[9 + length:]
                if kind == 1:
                    fields.update(decoder.decode(payload))
                    if stream == 1 and flags & 1:
                        return fields.get("grpc-status", ""), fields.get("grpc-message", "")
                elif kind == 3 and stream == 1:
                    return "RST", str(int.from_bytes(payload, "big"))
                elif kind == 7:
                    return "GOAWAY", ""


def test_mutated_gzip_messages_get_a_status(fuzz_server):
    """Compressed requests whose deflate streams are mutated, truncated or
    inflate past the message limit: zlib's every error path, each ending the
    call with a status that names what went wrong."""
    rng = random.Random(SEED + 5)
    mutator, requests = Mutator(rng), Requests(rng)
    statuses: dict[str, int] = {}
    unary = [method for method in RESPONSES if method != "Subscribe"]
    for case in range(CASES // 4):
        method = rng.choice(unary)
        body = requests.make(method)
        if rng.random() < 0.2:
            body = body * rng.randrange(1, 2000)
        compressed = gzip.compress(body)
        if rng.random() < 0.2:
            compressed = gzip.compress(b"\0" * rng.choice([4 << 20, 64 << 20]))
        if rng.random() < 0.6:
            compressed = mutator.mutate(compressed)
        message = b"\x01" + struct.pack(">I", len(compressed)) + compressed
        headers = [(":method", "POST"), (":scheme", "http"), (":path", SERVICE + method),
                   (":authority", fuzz_server.address), ("content-type", "application/grpc"),
                   ("te", "trailers"), ("grpc-encoding", "gzip")]
        data = (frame(4, 0, 0, b"") + frame(8, 0, 0, struct.pack(">I", 1 << 24))
                + frame(1, 4, 1, Encoder().encode(headers)) + frame(0, 1, 1, message[:16384]))
        status, text = answer_status(fuzz_server.port, data) or ("none", "")
        where = f"seed {SEED + 5} case {case}: {method} -> {status} {text!r}"
        assert status in ("0", "3", "5", "8", "13"), where
        if status == "8":
            assert "inflates past the limit" in text, where
        if status == "13":
            assert text.startswith(("could not inflate", "could not parse",
                                    "request ended inside a message")), where
        statuses[status] = statuses.get(status, 0) + 1
    # Served, refused by zlib, and stopped at the limit: every branch was reached.
    assert {"0", "8", "13"} <= set(statuses), statuses
