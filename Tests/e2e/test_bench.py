"""gauge-bench, the real binary, against a real gauged at a tiny scale: each
scenario runs, and what it counts agrees with what a stock grpcio client
reads back from the server. Figures are not judged here; `make bench` does.

Environment: GAUGE_BENCH_BIN (default: gauge-bench beside GAUGED_BIN, else
.build/debug/gauge-bench).
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import grpc
import pytest

from conftest import REPO, Server
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc as sgrpc
from helpers import TIMEOUT, rss_kib

WIDGET = "bench-00000"


def bench_binary() -> Path:
    if "GAUGE_BENCH_BIN" in os.environ:
        return Path(os.environ["GAUGE_BENCH_BIN"])
    if "GAUGED_BIN" in os.environ:
        return Path(os.environ["GAUGED_BIN"]).with_name("gauge-bench")
    return REPO / ".build/debug/gauge-bench"


def existing_bench_binary() -> Path:
    binary = bench_binary()
    if not binary.is_file():
        pytest.fail(f"gauge-bench not found at {binary}: run `make build`", pytrace=False)
    return binary


@pytest.fixture(scope="module")
def bench_server():
    """A gauged of its own: the scenarios create bench-* widgets and measure
    the whole process."""
    server = Server()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def bench_stub(bench_server):
    with grpc.insecure_channel(bench_server.address) as channel:
        yield sgrpc.WidgetServiceStub(channel)


def run(server: Server | str, scenario: str, *options) -> dict:
    """`server` is a gauged, or the address of another server."""
    address = server if isinstance(server, str) else server.address
    command = [str(existing_bench_binary()), scenario, "--target", address, *map(str, options)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"{' '.join(command)}\n{result.stderr}"
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    record = json.loads(lines[0])
    assert record["scenario"] == scenario
    return record


def value_of(stub, widget_id: str = WIDGET) -> float:
    return stub.GetWidget(spb.GetWidgetRequest(id=widget_id), timeout=TIMEOUT).content.value.value


def revision_of(stub, widget_id: str = WIDGET) -> int:
    return stub.GetWidget(spb.GetWidgetRequest(id=widget_id), timeout=TIMEOUT).revision


def test_setup_creates_value_widgets_without_bounds(bench_server, bench_stub):
    run(bench_server, "setup", "--widgets", 3)
    for index in range(3):
        widget = bench_stub.GetWidget(spb.GetWidgetRequest(id=f"bench-{index:05d}"),
                                      timeout=TIMEOUT)
        assert widget.content.WhichOneof("template") == "value"
        assert not widget.content.value.HasField("min_value")
        assert not widget.content.value.HasField("max_value")


def test_unary_counts_only_accepted_updates(bench_server, bench_stub):
    run(bench_server, "setup")
    before = revision_of(bench_stub)
    record = run(bench_server, "unary", "--connections", 2, "--streams", 5, "--duration", 0.5,
                 "--warmup", 0.1)
    after = revision_of(bench_stub)
    assert record["failed"] == 0
    assert record["requests"] > 0
    # Warm-up and drain calls are accepted too but not counted.
    assert after - before >= record["requests"]
    assert 0 < record["p50_us"] <= record["p99_us"] <= record["max_us"]


def test_body_is_one_framed_update_that_gauged_accepts(bench_server, bench_stub, tmp_path):
    run(bench_server, "setup")
    body = tmp_path / "update.grpc"
    record = run(bench_server, "body", "--out", body)
    data = body.read_bytes()
    assert len(data) == record["bytes"]
    assert data[0] == 0 and int.from_bytes(data[1:5], "big") == len(data) - 5
    request = spb.UpdateWidgetRequest.FromString(data[5:])
    assert request.id == WIDGET and request.content.value.value == 1
    assert run(bench_server, "revision")["revision"] == revision_of(bench_stub)


def test_publish_reports_what_the_server_accepted(bench_server, bench_stub):
    record = run(bench_server, "publish", "--streams", 1, "--widgets", 1, "--duration", 0.3)
    assert record["rejected"] == 0
    assert record["accepted"] == record["sent"] > 0
    # One stream to one widget sends the values 1, 2, 3, ...: the last one stays.
    assert value_of(bench_stub) == record["sent"]


def test_publish_spreads_streams_over_their_widget_slices(bench_server, bench_stub):
    record = run(bench_server, "publish", "--streams", 4, "--connections", 2, "--widgets", 8,
                 "--duration", 0.3)
    assert record["accepted"] == record["sent"] > 0
    assert all(value_of(bench_stub, f"bench-{index:05d}") > 0 for index in range(8))


def test_client_publish_goes_through_the_library_and_every_value_is_accepted(bench_server,
                                                                          bench_stub):
    record = run(bench_server, "client-publish", "--widgets", 3, "--duration", 0.3)
    assert record["rejected"] == 0
    assert record["accepted"] == record["sent"] > 3
    # One task sends 0, 1, 2, ... to the widgets in turn: each keeps the last it got.
    sent = record["sent"]
    for index in range(3):
        last = max(n for n in range(sent - 3, sent) if n % 3 == index)
        assert value_of(bench_stub, f"bench-{index:05d}") == last


def test_client_subscribe_counts_what_its_loop_consumed(bench_server, bench_stub):
    record = run(bench_server, "client-subscribe", "--widgets", 4, "--rate", 2000,
                 "--duration", 0.5)
    assert record["published"] > 0
    # Each event consumed in the window is a change published in it; the
    # server may coalesce, never invent.
    assert 0 < record["events"] <= record["published"]
    assert record["events_per_s"] > 0


@pytest.mark.parametrize("scenario", ["fanout", "grpc-web-fanout", "connect-fanout"])
def test_fanout_times_every_delivered_event(bench_server, bench_stub, scenario):
    """gRPC's Subscribe, and the same streams speaking gRPC-Web and Connect
    streaming to gauged's web face over the same HTTP/2 connections."""
    run(bench_server, "setup")
    before = revision_of(bench_stub)
    record = run(bench_server, scenario, "--subscribers", 30, "--per-connection", 10,
                 "--rate", 200, "--duration", 0.5)
    # The scenario's own PutWidget, then every value it says was accepted.
    assert revision_of(bench_stub) - before == 1 + record["published"]
    assert record["subscribers"] == 30
    assert record["connections"] == 3
    assert record["subscriber_failures"] == 0
    assert record["published"] > 0
    assert 0 < record["delivered"] <= record["published"] * 30
    assert 0 < record["p50_us"] <= record["p99_us"] <= record["max_us"] < 10_000_000


SENTINEL = -1.0


def read_live_values(address: str, values: list[float]) -> None:
    """An event-stream reader apart from gauge-bench's: appends the value of
    every upsert after `synced` until the value is SENTINEL."""
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
    connection.request("GET", f"/widgets/events?ids={WIDGET}",
                       headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    assert response.status == 200
    synced, event = False, ""
    while True:
        raw = response.readline()
        if not raw:
            break  # the stream ended: the test sees what was read
        line = raw.decode().rstrip("\r\n")
        if line.startswith("event: "):
            event = line[len("event: "):]
        elif line.startswith("data: ") and event == "synced":
            synced = True
        elif line.startswith("data: ") and event == "upsert" and synced:
            value = json.loads(line[len("data: "):])["content"]["value"]
            if value == SENTINEL:
                break
            values.append(value)
    connection.close()


def patch_value(address: str, value: float) -> None:
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
    connection.request("PATCH", f"/widgets/{WIDGET}",
                       body=json.dumps({"content": {"value": value}}),
                       headers={"Content-Type": "application/merge-patch+json"})
    assert connection.getresponse().status == 200
    connection.close()


def test_sse_fanout_times_every_event_an_independent_reader_sees(bench_server, bench_stub):
    run(bench_server, "setup")
    seen: list[float] = []
    reader = threading.Thread(target=read_live_values, args=(bench_server.address, seen),
                              daemon=True)
    reader.start()
    time.sleep(0.3)
    before = revision_of(bench_stub)
    record = run(bench_server, "sse-fanout", "--subscribers", 30, "--rate", 200,
                 "--duration", 0.5, "--loops", 2)
    # The scenario's own PutWidget, then every value it says was accepted.
    assert revision_of(bench_stub) - before == 1 + record["published"]
    last = value_of(bench_stub)
    patch_value(bench_server.address, SENTINEL)
    reader.join(timeout=TIMEOUT)
    assert not reader.is_alive()
    assert record["connections"] == 30
    assert record["subscriber_failures"] == 0
    assert record["published"] > 0
    # The put's 0, then the producer's clock readings: a reader that falls
    # behind gets fewer (coalesced), never older, and always the last.
    assert seen and seen[-1] == last
    assert seen == sorted(seen) and len(seen) <= 1 + record["published"]
    assert 0 < record["delivered"] <= record["published"] * 30
    assert 0 < record["delivered_fraction"] <= 1
    assert 0 < record["p50_us"] <= record["p99_us"] <= record["max_us"] < 10_000_000


def test_memory_reads_the_server_process(bench_server):
    record = run(bench_server, "memory", "--server-pid", bench_server.proc.pid,
                 "--subscribers", 50, "--per-connection", 25, "--connections", 20)
    assert record["subscription_connections"] == 2
    assert record["subscriber_failures"] == 0
    # Not end >= start: the server gives idle memory back while the
    # scenario waits, so at this tiny scale the end may read a little lower.
    assert record["rss_start_kib"] > 1024
    now_kib = rss_kib(bench_server.proc.pid)
    assert abs(record["rss_end_kib"] - now_kib) <= now_kib // 4


def test_connections_waits_for_every_subscriber(bench_server):
    # More connections per loop than the server lets wait to write while a
    # change goes out (LoopInbox.connectionsWaitingToWrite), so some write early.
    record = run(bench_server, "connections", "--connections", 150, "--rounds", 3)
    assert record["rounds_reaching_all"] == 3
    assert record["delivered"] == record["expected"] == 450
    assert record["subscriber_failures"] == 0


def test_connections_over_a_unix_socket(tmp_path):
    """The scenario's Unix socket row: gauged on a socket file, with two
    loops of subscribers connecting at once (the floor's test is below)."""
    server = Server(unix_socket=str(tmp_path / "gauged.sock"))
    server.start()
    try:
        record = run(server, "connections", "--connections", 150, "--rounds", 3, "--loops", 2)
    finally:
        server.stop()
    assert record["rounds_reaching_all"] == 3
    assert record["delivered"] == record["expected"] == 450
    assert record["subscriber_failures"] == 0


def test_bad_options_exit_with_a_message(bench_server):
    binary = bench_binary()
    result = subprocess.run([str(binary), "fanout", "--rate", "-1"], capture_output=True,
                            text=True, timeout=10)
    assert result.returncode == 2
    assert "--rate" in result.stderr
    result = subprocess.run([str(binary), "memory", "--target", bench_server.address],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "--server-pid" in result.stderr


@pytest.mark.parametrize("message_bytes, transport", [
    (8, "tcp"), (81, "tcp"), (3000, "tcp"), (81, "unix"),
])
def test_socket_floor_times_every_message_it_fans_out(message_bytes, transport, tmp_path):
    """The connections scenario's plain-socket floor: every connection gets one
    message per round, and each is timed from the clock reading it carries
    (a misread stamp would show as an absurd latency)."""
    listen = f"unix:{tmp_path / 'floor.sock'}" if transport == "unix" else "127.0.0.1:0"
    server = subprocess.Popen(
        [str(existing_bench_binary()), "socket-floor-server", "--target", listen, "--loops", "2",
         "--message-bytes", str(message_bytes)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("listening on "), line + server.stderr.read()
        record = run(line.split()[2], "socket-floor", "--connections", 40, "--rounds", 3,
                     "--message-bytes", message_bytes, "--server-pid", server.pid)
    finally:
        server.terminate()
        server.wait(timeout=TIMEOUT)
    assert record["message_bytes"] == message_bytes
    assert record["rounds_reaching_all"] == 3
    assert record["delivered"] == record["expected"] == 120
    assert record["subscriber_failures"] == 0
    assert 0 < record["p50_us"] <= record["p99_us"] <= record["max_us"] < 10_000_000
    assert record["server_cpu_us_per_delivery"] >= 0
