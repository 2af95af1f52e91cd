"""gauged on a Unix domain socket (`--listen unix:PATH`), reached by stock grpcio."""

from __future__ import annotations

import os
import stat
import subprocess

import grpc
import pytest

from conftest import REPO, Server
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc
from helpers import TIMEOUT, gauge, get, put, widget


def _stub(address: str):
    channel = grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
    return channel, widget_service_pb2_grpc.WidgetServiceStub(channel)


def _is_socket(path) -> bool:
    return stat.S_ISSOCK(os.lstat(path).st_mode)


def _refused_start(*addresses: str) -> subprocess.CompletedProcess:
    """gauged with a --listen per address, run to completion."""
    binary = os.environ.get("GAUGED_BIN", str(REPO / ".build/debug/gauged"))
    listen = [arg for address in addresses for arg in ("--listen", address)]
    return subprocess.run([binary, "--memory", *listen], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=10)


def test_unary_calls_over_a_unix_socket(unix_server, new_id):
    channel, stub = _stub(unix_server.address)
    with channel:
        wid = new_id()
        created = put(stub, widget(wid, content=wpb.Content(gauge=gauge(value=3.0))))
        assert get(stub, wid).revision == created.widget.revision
        with pytest.raises(grpc.RpcError) as err:
            put(stub, widget(wid, content=wpb.Content(gauge=gauge(value=9.0, max_value=5.0))))
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_publish_values_over_a_unix_socket(unix_server, new_id):
    channel, stub = _stub(unix_server.address)
    with channel:
        wid = new_id()
        put(stub, widget(wid))
        updates = iter([spb.ValueUpdate(id=wid, value=v) for v in (2.0, 3.0, 4.0)])
        summary = stub.PublishValues(updates, timeout=TIMEOUT)
        assert summary.accepted == 3
        assert get(stub, wid).content.gauge.value == 4.0


def test_the_socket_file_is_removed_at_exit_and_a_killed_servers_file_is_replaced(tmp_path):
    path = tmp_path / "gauged.sock"
    first = Server(unix_socket=str(path))
    first.start()
    assert _is_socket(path)
    assert first.stop() == 0
    assert not path.exists()

    killed = Server(unix_socket=str(path))
    killed.start()
    killed.proc.kill()
    killed.proc.wait()
    assert _is_socket(path), "SIGKILL leaves the file behind"

    restarted = Server(unix_socket=str(path))
    restarted.start()  # fails the test unless it serves gRPC
    try:
        channel, stub = _stub(restarted.address)
        with channel:
            put(stub, widget("after-restart"))
    finally:
        assert restarted.stop() == 0


def test_one_gauged_serves_tcp_and_a_unix_socket_together(tmp_path, new_id):
    """--listen twice: a producer on the socket, a dashboard over TCP, one set of widgets."""
    path = tmp_path / "gauged.sock"
    both = Server(extra_args=["--listen", f"unix:{path}"])
    both.start()
    try:
        assert f"listening on {both.address} and unix:{path} (" in both.stdout_path.read_text()
        tcp_channel, dashboard = _stub(both.address)
        unix_channel, producer = _stub(f"unix:{path}")
        with tcp_channel, unix_channel:
            wid = new_id()
            put(producer, widget(wid))
            events = dashboard.Subscribe(spb.SubscribeRequest(ids=[wid]), timeout=TIMEOUT)
            assert next(events).upsert.id == wid
            assert next(events).WhichOneof("event") == "synced"
            producer.PublishValues(iter([spb.ValueUpdate(id=wid, value=4.5)]), timeout=TIMEOUT)
            live = next(events)
            assert (live.upsert.id, live.upsert.content.gauge.value) == (wid, 4.5)
            events.cancel()
    finally:
        assert both.stop() == 0
    assert not path.exists()


def test_an_address_that_cannot_be_bound_stops_the_start_and_frees_the_others(tmp_path):
    first = tmp_path / "first.sock"
    taken = tmp_path / "notes.txt"
    taken.write_text("not a socket")
    result = _refused_start(f"unix:{first}", f"unix:{taken}")
    assert result.returncode == 1, result.stderr
    assert f"gauged: cannot serve on unix:{taken}: bind: Address already in use" in result.stderr
    assert not first.exists()
    assert taken.read_text() == "not a socket"


def test_a_second_gauged_on_a_live_socket_exits_and_the_first_keeps_serving(unix_server):
    result = _refused_start(unix_server.address)
    assert result.returncode == 1, result.stderr
    assert f"cannot serve on {unix_server.address}: bind: Address already in use" in result.stderr
    channel, stub = _stub(unix_server.address)
    with channel:
        put(stub, widget("first-still-serving"))


def test_a_path_holding_another_file_is_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a socket")
    result = _refused_start(f"unix:{path}")
    assert result.returncode == 1, result.stderr
    assert "bind: Address already in use" in result.stderr
    assert path.read_text() == "not a socket"


@pytest.mark.parametrize("address, reason", [
    ("unix:", "missing the socket's path after unix:"),
    ("unix://relative.sock", "unix:// must be followed by an absolute path"),
    ("unix:/" + "a" * 107, "a socket path has at most 107 bytes"),
])
def test_unusable_socket_paths_are_refused_before_starting(address, reason):
    result = _refused_start(address)
    assert result.returncode == 2, result.stderr
    assert f'gauged: --listen: "{address}" is not HOST:PORT or unix:PATH ({reason}' in result.stderr
