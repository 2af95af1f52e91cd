"""Connection life with a stock client: ping policing (too_many_pings), server keepalive,
the idle timeout, and the graceful shutdown on SIGTERM (health NOT_SERVING first). Short
timers via flags."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from conftest import Server
from gauge.v1 import widget_service_pb2 as spb
from helpers import widget
from hyperframe.frame import GoAwayFrame, SettingsFrame
from rawh2 import ENHANCE_YOUR_CALM, NO_ERROR, RawPeer

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="starts gauged processes of its own"
)

GET = "/gauge.v1.WidgetService/GetWidget"


@pytest.fixture
def spawn():
    """spawn(*flags) -> a started gauged of the test's own, stopped afterwards."""
    started = []

    def make(*flags: str) -> Server:
        srv = Server(extra_args=flags)
        started.append(srv)
        srv.start()
        return srv

    yield make
    for srv in started:
        srv.stop()


class States:
    """A channel's connectivity states as they come."""

    def __init__(self, channel: grpc.Channel):
        self.seen: list[grpc.ChannelConnectivity] = []
        self._changed = threading.Condition()
        channel.subscribe(self._on, try_to_connect=True)

    def _on(self, state) -> None:
        with self._changed:
            self.seen.append(state)
            self._changed.notify_all()

    def wait_for(self, predicate, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self.seen), timeout)


def went_idle_after_ready(seen) -> bool:
    ready = grpc.ChannelConnectivity.READY
    return ready in seen and grpc.ChannelConnectivity.IDLE in seen[seen.index(ready):]


def get_absent(channel) -> grpc.StatusCode:
    method = channel.unary_unary(GET, request_serializer=None, response_deserializer=None)
    try:
        method(spb.GetWidgetRequest(id="absent").SerializeToString(), timeout=5)
        return grpc.StatusCode.OK
    except grpc.RpcError as err:
        return err.code()


# --------------------------------------------------------------------------- pings


def test_client_pinging_too_often_is_sent_away_with_too_many_pings(server, capfd):
    """grpcio pings an idle connection every second (its floor); without calls grpc-core's
    policy allows one ping per two hours, so the fourth ping is the third strike."""
    options = [
        ("grpc.keepalive_time_ms", 100),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
    ]
    with grpc.insecure_channel(server.address, options=options) as channel:
        states = States(channel)
        assert get_absent(channel) == grpc.StatusCode.NOT_FOUND
        assert states.wait_for(went_idle_after_ready, timeout=8), states.seen
    # grpc-core logs the GOAWAY it received.
    err = capfd.readouterr().err
    assert "ENHANCE_YOUR_CALM" in err and "too_many_pings" in err, err[-2000:]


def test_server_keepalive_closes_a_peer_that_never_answers(spawn):
    srv = spawn("--keepalive-interval", "300ms", "--keepalive-timeout", "300ms")
    # A peer that says hello and then nothing, answering no ping.
    silent = RawPeer(srv.port)
    started = time.monotonic()
    assert silent.read_until_closed(timeout=5), "the silent peer was kept"
    assert time.monotonic() - started < 3
    assert any(type(f).__name__ == "PingFrame" and "ACK" not in f.flags for f in silent.frames)

    # A stock client answers the pings and keeps its connection.
    with grpc.insecure_channel(srv.address) as channel:
        states = States(channel)
        for _ in range(3):
            assert get_absent(channel) == grpc.StatusCode.NOT_FOUND
            time.sleep(0.7)
        assert get_absent(channel) == grpc.StatusCode.NOT_FOUND
        assert not went_idle_after_ready(states.seen), states.seen


# --------------------------------------------------------------------------- idle


def test_idle_connection_is_closed_with_max_idle(spawn):
    srv = spawn("--idle-timeout", "500ms")
    peer = RawPeer(srv.port)
    assert peer.read_until_closed(timeout=5)
    assert peer.goaway is not None
    assert (peer.goaway.error_code, peer.goaway.additional_data) == (NO_ERROR, b"max_idle")

    with grpc.insecure_channel(srv.address) as channel:
        states = States(channel)
        assert get_absent(channel) == grpc.StatusCode.NOT_FOUND
        assert states.wait_for(went_idle_after_ready, timeout=5), states.seen
        # The client reconnects on its next call.
        assert get_absent(channel) == grpc.StatusCode.NOT_FOUND


def test_connection_idle_past_the_memory_sweep_serves_calls_again(spawn):
    """After a couple of idle seconds gauged gives an idle connection's spare memory back
    (nghttp2's stream map page, its tables); the same connection must then serve unary and
    streaming calls as before."""
    from gauge.v1 import widget_service_pb2_grpc

    srv = spawn()
    with grpc.insecure_channel(srv.address) as channel:
        stub = widget_service_pb2_grpc.WidgetServiceStub(channel)
        states = States(channel)
        stub.PutWidget(spb.PutWidgetRequest(widget=widget("swept")), timeout=5)
        time.sleep(2.5)
        assert stub.GetWidget(spb.GetWidgetRequest(id="swept"), timeout=5).id == "swept"
        time.sleep(2.5)
        events = stub.Subscribe(spb.SubscribeRequest(ids=["swept"]), timeout=5)
        first = next(events)
        assert first.upsert.id == "swept"
        assert next(events).HasField("synced")
        events.cancel()
        # One connection throughout: it was never closed and reopened.
        ready = grpc.ChannelConnectivity.READY
        assert states.seen.count(ready) == 1, states.seen


# --------------------------------------------------------------------------- ending


def test_bytes_sent_after_the_peers_goaway_meet_end_of_file_not_a_reset(server):
    """The client's GOAWAY ends the session, and the frames it sent after it (extension
    frames, which must be ignored) are still arriving. Closing with them unread would make
    the kernel reset the connection, which may destroy the server's last bytes before the
    client reads them; the server shuts its side instead and reads what still comes."""
    unknown_type = 0xEE
    extension_frame = (16_000).to_bytes(3, "big") + bytes([unknown_type, 0]) + bytes(4)
    extension_frame += bytes(16_000)
    with RawPeer(server.port) as peer:
        assert peer.read(until=lambda p: any(isinstance(f, SettingsFrame) for f in p.frames))
        goaway = GoAwayFrame(0, last_stream_id=0, error_code=0xFF).serialize()
        peer.sock.sendall(goaway + extension_frame * 64)  # a reset raises here or below
        received = b""
        while chunk := peer.sock.recv(1 << 16):
            received += chunk


def test_http1_request_refused_before_its_body_is_read_still_gets_its_answer(server):
    """413 for a declared body beyond the limit: the server answers and closes without
    reading the body. A client still sending it must get end of file after the answer,
    not a reset that can destroy the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        head = (
            b"PUT /widgets/w HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 4000000\r\n\r\n"
        )
        try:
            sock.sendall(head + b"x" * 100_000)
        except (BrokenPipeError, ConnectionResetError):
            pass
        time.sleep(0.2)
        received = b""
        while chunk := sock.recv(1 << 16):
            received += chunk
        assert received.startswith(b"HTTP/1.1 413 ")


# --------------------------------------------------------------------------- shutdown


class HeldPut:
    """A PutWidget whose request stream stays open until release(): a call in flight."""

    def __init__(self, channel, wid: str):
        self._release = threading.Event()
        self._sent = threading.Event()
        method = channel.stream_unary(
            "/gauge.v1.WidgetService/PutWidget",
            request_serializer=spb.PutWidgetRequest.SerializeToString,
            response_deserializer=spb.PutWidgetResponse.FromString,
        )
        self.future = method.future(self._requests(wid), timeout=15)
        assert self._sent.wait(5), "the request was never taken"

    def _requests(self, wid):
        yield spb.PutWidgetRequest(widget=widget(wid))
        self._sent.set()
        self._release.wait(20)

    def release(self) -> None:
        self._release.set()


def test_sigterm_drains_calls_in_flight_then_exits_0(spawn, new_id):
    srv = spawn("--shutdown-grace", "2s")
    with grpc.insecure_channel(srv.address) as channel:
        finishing = HeldPut(channel, new_id("-finishing"))
        lingering = HeldPut(channel, new_id("-lingering"))
        watch = health_pb2_grpc.HealthStub(channel).Watch(
            health_pb2.HealthCheckRequest(service=""), timeout=15
        )
        serving = health_pb2.HealthCheckResponse.SERVING
        assert next(watch).status == serving
        time.sleep(0.3)  # the PutWidget streams reach the server

        stopping = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        # Health says so first, on the watch already open.
        assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
        time.sleep(0.3)
        # New calls are refused, on a new connection as on the old one.
        with grpc.insecure_channel(srv.address) as fresh:
            assert get_absent(fresh) == grpc.StatusCode.UNAVAILABLE
        assert get_absent(channel) == grpc.StatusCode.UNAVAILABLE

        # A call that finishes within the grace period is answered normally.
        finishing.release()
        assert finishing.future.result(timeout=5).created

        # One still running when the grace period ends gets UNAVAILABLE.
        with pytest.raises(grpc.RpcError) as info:
            lingering.future.result(timeout=10)
        ended = time.monotonic() - stopping
        lingering.release()
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE, info.value
        assert "shutting down" in info.value.details()
        assert 1.5 < ended < 4, f"ended {ended:.2f}s after SIGTERM with a 2 s grace"
        # The watch, a call in flight like any other, ends the same way.
        with pytest.raises(grpc.RpcError) as info:
            next(watch)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE, info.value

    assert srv.proc.wait(timeout=5) == 0, srv.describe()
    assert time.monotonic() - stopping < 4
    assert "refusing new calls" in srv.stderr_path.read_text()
