"""Prometheus metrics: /metrics on every listener (HTTP/1.1 and h2c) and on
--metrics-listen alone; the exposition checked by prometheus_client's parsers and
`promtool check metrics`; counters moved by exactly the calls and rejections a test
makes, over gRPC, gRPC-Web, Connect and REST; histograms cumulative with `_count`
matching the calls."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

import grpc
import httpx
import pytest
from prometheus_client.openmetrics.parser import (
    text_string_to_metric_families as openmetrics_families,
)
from prometheus_client.parser import text_string_to_metric_families

from conftest import Server, _free_port
from helpers import TIMEOUT, grpc_frame, rest_gauge, widget
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="starts gauged processes of its own"
)

SERVICE = "gauge.v1.WidgetService"
TEXT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
OPENMETRICS_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8"


@pytest.fixture(scope="module")
def metered():
    """A private gauged: no other test's calls move its counters. Its scrapes for
    counting go to --metrics-listen, whose own requests are not counted."""
    metrics_port = _free_port()
    srv = Server(extra_args=["--metrics-listen", f"127.0.0.1:{metrics_port}"])
    srv.start()
    srv.metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
    srv.url = f"http://127.0.0.1:{srv.port}"
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def stub(metered):
    with grpc.insecure_channel(metered.address) as channel:
        yield widget_service_pb2_grpc.WidgetServiceStub(channel)


def scrape(url: str, accept: str | None = None, http2: bool = False) -> httpx.Response:
    headers = {"accept": accept} if accept else {}
    with httpx.Client(http1=not http2, http2=http2, timeout=TIMEOUT) as client:
        resp = client.get(url, headers=headers)
    assert resp.status_code == 200, resp.text
    assert resp.http_version == ("HTTP/2" if http2 else "HTTP/1.1")
    return resp


def samples(text: str) -> dict[tuple, float]:
    """Every sample by (name, sorted labels), through prometheus_client's parser."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def value(table: dict, name: str, **labels) -> float:
    return table.get((name, tuple(sorted(labels.items()))), 0.0)


def grpc_labels(method: str, grpc_type: str = "unary") -> dict:
    return {"grpc_type": grpc_type, "grpc_service": SERVICE, "grpc_method": method}


# ------------------------------------------------------------------- the exposition


def test_text_format_parses_on_every_listener(metered):
    for url, http2 in [
        (metered.url + "/metrics", False),
        (metered.url + "/metrics", True),
        (metered.metrics_url, False),
    ]:
        resp = scrape(url, http2=http2)
        assert resp.headers["content-type"] == TEXT_TYPE
        names = {family.name for family in text_string_to_metric_families(resp.text)}
        for expected in [
            "grpc_server_started", "grpc_server_handled", "grpc_server_msg_received",
            "grpc_server_msg_sent", "grpc_server_handling_seconds", "http_requests",
            "http_request_duration_seconds", "process_cpu_seconds", "process_resident_memory_bytes",
            "process_open_fds", "process_max_fds", "process_start_time_seconds", "gauged_widgets",
            "gauged_revision", "gauged_connections", "gauged_subscriptions",
            "gauged_events_sent", "gauged_events_coalesced", "gauged_writes_rejected",
            "gauged_publish_values",
        ]:
            assert expected in names, f"{expected} missing from {url}"


def test_openmetrics_when_asked(metered):
    resp = scrape(metered.metrics_url, accept="application/openmetrics-text; version=1.0.0")
    assert resp.headers["content-type"] == OPENMETRICS_TYPE
    assert resp.text.endswith("# EOF\n")
    families = {family.name: family for family in openmetrics_families(resp.text)}
    assert families["grpc_server_started"].type == "counter"
    assert families["grpc_server_handling_seconds"].type == "histogram"
    assert families["process_open_fds"].type == "gauge"


def test_process_collector_reads_the_process(metered):
    table = samples(scrape(metered.metrics_url).text)
    pid = metered.proc.pid
    assert value(table, "process_max_fds") > 0
    assert value(table, "process_open_fds") == pytest.approx(
        len(os.listdir(f"/proc/{pid}/fd")), abs=4)
    assert value(table, "process_resident_memory_bytes") > 1 << 20
    boot = next(
        float(line.split()[1]) for line in open("/proc/stat") if line.startswith("btime "))
    assert value(table, "process_start_time_seconds") > boot


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool is not installed "
                    "(Debian package prometheus; scripts/install-deps installs it)")
def test_promtool_check_metrics(metered, stub):
    """promtool reads Prometheus' text format (OpenMetrics is held to
    prometheus_client's OpenMetrics parser above)."""
    # Some traffic first, so every family has series to check.
    stub.PutWidget(spb.PutWidgetRequest(widget=widget("promtool")), timeout=TIMEOUT)
    httpx.get(metered.url + "/widgets/promtool", timeout=TIMEOUT)
    text = scrape(metered.metrics_url).text
    done = subprocess.run(
        ["promtool", "check", "metrics"], input=text.encode(), capture_output=True, timeout=30)
    # Parse errors and lint findings (a counter without _total, a missing HELP)
    # both fail its exit status.
    report = (done.stdout + done.stderr).decode()
    assert done.returncode == 0, report
    assert "error" not in report.lower(), report


# ------------------------------------------------------------------- counting


def test_grpc_counters_move_by_exactly_the_calls(metered, stub):
    before = samples(scrape(metered.metrics_url).text)
    for index in range(5):
        stub.PutWidget(spb.PutWidgetRequest(widget=widget(f"count-{index}")), timeout=TIMEOUT)
    for index in range(3):
        with pytest.raises(grpc.RpcError) as err:
            stub.GetWidget(spb.GetWidgetRequest(id=f"missing-{index}"), timeout=TIMEOUT)
        assert err.value.code() == grpc.StatusCode.NOT_FOUND
    for _ in range(2):
        with pytest.raises(grpc.RpcError) as err:
            stub.PutWidget(spb.PutWidgetRequest(widget=widget("")), timeout=TIMEOUT)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    # A client stream of four values: one call, four messages in, one out.
    stub.PublishValues(
        iter([spb.ValueUpdate(id=f"count-{index}", value=1.5) for index in range(4)]),
        timeout=TIMEOUT)
    after = samples(scrape(metered.metrics_url).text)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    put, get = grpc_labels("PutWidget"), grpc_labels("GetWidget")
    publish = grpc_labels("PublishValues", "client_stream")
    assert moved("grpc_server_started_total", **put) == 7
    assert moved("grpc_server_handled_total", **put, grpc_code="OK") == 5
    assert moved("grpc_server_handled_total", **put, grpc_code="InvalidArgument") == 2
    assert moved("grpc_server_msg_received_total", **put) == 7
    assert moved("grpc_server_msg_sent_total", **put) == 5
    assert moved("grpc_server_started_total", **get) == 3
    assert moved("grpc_server_handled_total", **get, grpc_code="NotFound") == 3
    assert moved("grpc_server_msg_sent_total", **get) == 0
    assert moved("grpc_server_started_total", **publish) == 1
    assert moved("grpc_server_handled_total", **publish, grpc_code="OK") == 1
    assert moved("grpc_server_msg_received_total", **publish) == 4
    assert moved("grpc_server_msg_sent_total", **publish) == 1
    assert moved("grpc_server_handling_seconds_count", **put) == 7
    assert moved("grpc_server_handling_seconds_count", **get) == 3
    assert value(after, "gauged_widgets") >= 5
    # The empty id broke the id rule, twice; the four values were accepted.
    assert moved("gauged_writes_rejected_total", rule="id") == 2
    assert moved("gauged_publish_values_total", result="accepted") == 4


def test_publish_values_results_and_rejected_rules(metered, stub):
    before = samples(scrape(metered.metrics_url).text)
    stub.PutWidget(spb.PutWidgetRequest(widget=widget("pub-0")), timeout=TIMEOUT)
    summary = stub.PublishValues(iter([
        spb.ValueUpdate(id="pub-0", value=1.0),
        spb.ValueUpdate(id="pub-absent", value=1.0),
        spb.ValueUpdate(id="pub-0", value=float("nan")),
        spb.ValueUpdate(id="pub-0"),
        spb.ValueUpdate(id="pub-0", value=2.0),
    ]), timeout=TIMEOUT)
    assert (summary.accepted, summary.rejected) == (2, 3)
    after = samples(scrape(metered.metrics_url).text)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("gauged_publish_values_total", result="accepted") == 2
    assert moved("gauged_publish_values_total", result="NotFound") == 1
    assert moved("gauged_publish_values_total", result="InvalidArgument") == 2
    assert moved("gauged_writes_rejected_total", rule="not_found") == 1


def test_web_calls_count_as_grpc_and_as_http(metered):
    before = samples(scrape(metered.metrics_url).text)
    get = f"/{SERVICE}/GetWidget"
    with httpx.Client(base_url=metered.url, timeout=TIMEOUT) as client:
        # Connect unary with JSON: NotFound is HTTP 404.
        for _ in range(2):
            resp = client.post(get, json={"id": "web-missing"},
                               headers={"connect-protocol-version": "1"})
            assert resp.status_code == 404
        # gRPC-Web: the status travels in the trailer frame of a 200.
        body = grpc_frame(spb.GetWidgetRequest(id="web-missing").SerializeToString())
        resp = client.post(get, content=body,
                           headers={"content-type": "application/grpc-web+proto"})
        assert resp.status_code == 200
        # A method no service has: counted under one route label, not as gRPC.
        resp = client.post(f"/{SERVICE}/NoSuchMethod", json={},
                           headers={"connect-protocol-version": "1"})
        assert resp.status_code == 501
    after = samples(scrape(metered.metrics_url).text)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    labels = grpc_labels("GetWidget")
    assert moved("grpc_server_started_total", **labels) == 3
    assert moved("grpc_server_handled_total", **labels, grpc_code="NotFound") == 3
    assert moved("grpc_server_msg_received_total", **labels) == 3
    assert moved("http_requests_total", face="connect", route=get, code="404") == 2
    assert moved("http_requests_total", face="grpc-web", route=get, code="200") == 1
    assert moved("http_requests_total", face="connect", route="unknown method", code="501") == 1
    assert moved("grpc_server_started_total", **grpc_labels("NoSuchMethod")) == 0


def test_rest_requests_and_rejections_counted_by_route(metered):
    before = samples(scrape(metered.metrics_url).text)
    with httpx.Client(base_url=metered.url, timeout=TIMEOUT) as client:
        assert client.put("/widgets/rest-1", json=rest_gauge()).status_code in (200, 201)
        for _ in range(3):
            assert client.get("/widgets/rest-1").status_code == 200
        for _ in range(2):
            assert client.get("/widgets/rest-missing").status_code == 404
        # Refused by validation: min above max.
        resp = client.put("/widgets/rest-bad", json=rest_gauge(min_value=9, max_value=1))
        assert resp.status_code == 422
        bad_fields = {error["field"] for error in resp.json()["errors"]}
        # A write to a widget that is not there: refused for its state.
        assert client.delete("/widgets/rest-missing").status_code == 404
        assert client.get("/widgets").status_code == 200
        assert client.get("/nothing-here").status_code == 404
    with httpx.Client(base_url=metered.url, http1=False, http2=True, timeout=TIMEOUT) as client:
        assert client.get("/widgets/rest-1").status_code == 200
    after = samples(scrape(metered.metrics_url).text)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    one = {"face": "rest", "route": "/widgets/{id}"}
    put_code = "201" if moved("http_requests_total", **one, code="201") else "200"
    assert moved("http_requests_total", **one, code=put_code) == 1
    assert moved("http_requests_total", **one, code="200") == (4 if put_code == "201" else 5)
    assert moved("http_requests_total", **one, code="404") == 3
    assert moved("http_requests_total", **one, code="422") == 1
    assert moved("http_requests_total", face="rest", route="/widgets", code="200") == 1
    assert moved("http_requests_total", face="none", route="unknown path", code="404") == 1
    assert moved("http_request_duration_seconds_count", **one) == 9
    # Refused writes count as gRPC's do, by rule; the reads that found
    # nothing do not.
    assert moved("gauged_writes_rejected_total", rule="not_found") == 1
    rules = {labels for (name, labels) in after if name == "gauged_writes_rejected_total"}
    refused_by_rule = sum(
        moved("gauged_writes_rejected_total", **dict(labels)) for labels in rules
        if dict(labels)["rule"] != "not_found")
    assert refused_by_rule == len(bad_fields) >= 1


def test_scrapes_on_the_main_listener_count_as_requests(metered):
    before = samples(scrape(metered.metrics_url).text)
    scrape(metered.url + "/metrics")
    scrape(metered.url + "/metrics", http2=True)
    after = samples(scrape(metered.metrics_url).text)
    labels = {"face": "metrics", "route": "/metrics", "code": "200"}
    assert value(after, "http_requests_total", **labels) - value(
        before, "http_requests_total", **labels) == 2


def test_histograms_are_cumulative_and_count_matches(metered, stub):
    for index in range(4):
        stub.PutWidget(spb.PutWidgetRequest(widget=widget(f"histo-{index}")), timeout=TIMEOUT)
    text = scrape(metered.metrics_url).text
    table = samples(text)
    for family in text_string_to_metric_families(text):
        if family.type != "histogram":
            continue
        series: dict[tuple, list] = {}
        for sample in family.samples:
            labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
            series.setdefault(labels, []).append(sample)
        for labels, group in series.items():
            buckets = [s for s in group if s.name.endswith("_bucket")]
            bounds = [float(s.labels["le"]) for s in buckets]
            counts = [s.value for s in buckets]
            assert bounds == sorted(bounds) and bounds[-1] == float("inf"), labels
            assert counts == sorted(counts), f"{family.name}{labels} not cumulative"
            count = next(s.value for s in group if s.name.endswith("_count"))
            assert counts[-1] == count, labels
    put = grpc_labels("PutWidget")
    handled = sum(
        v for (name, labels), v in table.items()
        if name == "grpc_server_handled_total" and dict(labels).items() >= put.items())
    assert value(table, "grpc_server_handling_seconds_count", **put) == handled


def test_connections_gauge_follows_open_connections(metered):
    def open_h1() -> int:
        table = samples(scrape(metered.metrics_url).text)
        return value(table, "gauged_connections", protocol="http1")

    base = open_h1()
    sockets = []
    for _ in range(3):
        sock = socket.create_connection(("127.0.0.1", metered.port), timeout=TIMEOUT)
        sock.sendall(b"GET /widgets HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        sockets.append(sock)
    assert open_h1() == base + 3
    for sock in sockets:
        sock.close()
    for _ in range(50):
        if open_h1() == base:
            break
    assert open_h1() == base


def read_until(sock: socket.socket, marker: bytes, received: bytes) -> bytes:
    while marker not in received:
        chunk = sock.recv(65536)
        assert chunk, f"the stream ended before {marker!r}"
        received += chunk
    return received


def test_subscriptions_and_events_by_face(metered, stub):
    table = samples(scrape(metered.metrics_url).text)
    assert value(table, "gauged_subscriptions", face="grpc") == 0
    assert value(table, "gauged_subscriptions", face="events") == 0
    sent_before = {face: value(table, "gauged_events_sent_total", face=face)
                   for face in ("grpc", "events")}
    grpc_stream = stub.Subscribe(spb.SubscribeRequest(id_prefix="subs-"), timeout=30)
    # A raw socket for the event stream: closing it is the client leaving.
    sse = socket.create_connection(("127.0.0.1", metered.port), timeout=TIMEOUT)
    try:
        sse.sendall(b"GET /widgets/events?prefix=subs- HTTP/1.1\r\nHost: x\r\n\r\n")
        assert next(grpc_stream).WhichOneof("event") == "synced"
        received = read_until(sse, b"event: synced", b"")
        table = samples(scrape(metered.metrics_url).text)
        assert value(table, "gauged_subscriptions", face="grpc") == 1
        assert value(table, "gauged_subscriptions", face="events") == 1
        for index in range(3):
            stub.PutWidget(spb.PutWidgetRequest(widget=widget(f"subs-{index}")), timeout=TIMEOUT)
        for _ in range(3):
            assert next(grpc_stream).WhichOneof("event") == "upsert"
        received = read_until(sse, b"subs-2", received)
        assert received.count(b"event: upsert") == 3
        table = samples(scrape(metered.metrics_url).text)
        for face in ("grpc", "events"):
            moved = value(table, "gauged_events_sent_total", face=face) - sent_before[face]
            assert moved == 3, face
    finally:
        grpc_stream.cancel()
        sse.close()
    for _ in range(50):
        table = samples(scrape(metered.metrics_url).text)
        if (value(table, "gauged_subscriptions", face="grpc"),
                value(table, "gauged_subscriptions", face="events")) == (0, 0):
            break
        time.sleep(0.1)
    assert value(table, "gauged_subscriptions", face="grpc") == 0
    assert value(table, "gauged_subscriptions", face="events") == 0


def test_store_gauges_with_a_disk_store(tmp_path):
    metrics_port = _free_port()
    srv = Server(args=["--data-dir", str(tmp_path / "data"), "--durability", "strict"],
                 extra_args=["--metrics-listen", f"127.0.0.1:{metrics_port}"])
    srv.start()
    try:
        url = f"http://127.0.0.1:{metrics_port}/metrics"
        before = samples(scrape(url).text)
        with grpc.insecure_channel(srv.address) as channel:
            stub = widget_service_pb2_grpc.WidgetServiceStub(channel)
            for index in range(3):
                stub.PutWidget(spb.PutWidgetRequest(widget=widget(f"disk-{index}")),
                               timeout=TIMEOUT)
        after = samples(scrape(url).text)
    finally:
        srv.stop()
    # Strict: each acknowledged write has committed, in one transaction or more.
    commits = value(after, "gauged_store_commits_total") - value(
        before, "gauged_store_commits_total")
    assert 1 <= commits <= 3
    assert value(after, "gauged_store_commit_seconds_count") - value(
        before, "gauged_store_commit_seconds_count") == commits
    assert value(after, "gauged_store_failures_total") == 0
    assert value(after, "gauged_store_queue_depth") == 0
    assert value(after, "gauged_widgets") == 3


# ------------------------------------------------------------------- switches


def test_metrics_off_serves_nothing():
    srv = Server(extra_args=["--metrics", "off"])
    srv.start()
    try:
        resp = httpx.get(f"http://127.0.0.1:{srv.port}/metrics", timeout=TIMEOUT)
        assert resp.status_code == 404
    finally:
        srv.stop()


def test_metrics_listen_serves_metrics_only(metered):
    base = metered.metrics_url.rsplit("/", 1)[0]
    assert httpx.get(base + "/widgets", timeout=TIMEOUT).status_code == 404
    assert httpx.post(base + "/metrics", timeout=TIMEOUT).status_code == 405
