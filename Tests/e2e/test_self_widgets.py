"""gauged's own gauges (--self-widgets, on by default): they appear under `gauged-`,
move under load, and clients' writes to the prefix are refused on gRPC and REST."""

from __future__ import annotations

import os
import subprocess
import threading
import time

import grpc
import httpx
import pytest

from conftest import Server
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc as sgrpc
from helpers import TIMEOUT, base_url, put, rest_gauge, rpc_error, widget

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="starts gauged processes of its own"
)

SELF_IDS = [
    "gauged-connections", "gauged-events-per-second", "gauged-store-queue-depth",
    "gauged-subscriptions", "gauged-unary-p99", "gauged-writes-per-second",
]
# Updated every second; the wait is wide for a loaded machine under ASan.
APPEAR_WITHIN_S = 30.0


@pytest.fixture(scope="module")
def own():
    srv = Server(self_widgets=True)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def own_stub(own):
    with grpc.insecure_channel(own.address) as channel:
        yield sgrpc.WidgetServiceStub(channel)


def self_widgets(stub) -> dict[str, wpb.Widget]:
    page = stub.ListWidgets(spb.ListWidgetsRequest(id_prefix="gauged-"), timeout=TIMEOUT)
    return {w.id: w for w in page.widgets}


def wait_for(stub, condition, message: str) -> dict[str, wpb.Widget]:
    deadline = time.monotonic() + APPEAR_WITHIN_S
    while time.monotonic() < deadline:
        found = self_widgets(stub)
        if condition(found):
            return found
        time.sleep(0.1)
    pytest.fail(f"{message}: {self_widgets(stub)}")


def test_they_appear_as_ordinary_gauges(own_stub):
    found = wait_for(own_stub, lambda f: sorted(f) == SELF_IDS, "not every self widget appeared")
    for w in found.values():
        g = w.content.gauge
        assert w.content.WhichOneof("template") == "gauge", w
        assert g.min_value == 0 and g.min_value <= g.value <= g.max_value, w
        assert w.name and w.content.subtitle == "gauged"
    assert found["gauged-unary-p99"].content.unit == "ms"
    assert [m.value for m in found["gauged-unary-p99"].content.gauge.marks] == [10, 100]
    assert found["gauged-writes-per-second"].content.unit == "/s"


def test_they_move_under_load(own, own_stub):
    wait_for(own_stub, lambda f: sorted(f) == SELF_IDS, "not every self widget appeared")
    for i in range(3):
        put(own_stub, widget(f"load-{i}"))
    # A subscriber, so that writes become events.
    events = own_stub.Subscribe(spb.SubscribeRequest(id_prefix="load-"), timeout=60)

    def drain():
        try:
            for _ in events:
                pass
        except grpc.RpcError:
            pass  # cancelled at the end

    threading.Thread(target=drain, daemon=True).start()
    stop = threading.Event()

    def load():
        value = 0.0
        while not stop.is_set():
            value = (value + 1) % 5
            for i in range(3):
                own_stub.UpdateWidget(
                    spb.UpdateWidgetRequest(id=f"load-{i}", content=wpb.Content(
                        gauge=wpb.Gauge(value=value))), timeout=TIMEOUT)

    writer = threading.Thread(target=load, daemon=True)
    writer.start()
    try:
        def moving(f):
            return (f["gauged-writes-per-second"].content.gauge.value > 0
                    and f["gauged-events-per-second"].content.gauge.value > 0
                    and f["gauged-subscriptions"].content.gauge.value >= 1
                    and f["gauged-connections"].content.gauge.value >= 1
                    and f["gauged-unary-p99"].content.gauge.value > 0)
        found = wait_for(own_stub, moving, "the self widgets did not move under load")
        assert not found["gauged-unary-p99"].content.gauge.current_value_label
    finally:
        stop.set()
        writer.join(timeout=30)
        events.cancel()
    # Once the load stops, the rates go back to zero.
    wait_for(own_stub, lambda f: f["gauged-writes-per-second"].content.gauge.value == 0,
             "writes per second stayed up after the load")


def test_client_writes_to_the_prefix_are_refused_on_grpc(own_stub):
    wait_for(own_stub, lambda f: "gauged-connections" in f, "no self widget appeared")
    for call in (
        lambda: put(own_stub, widget("gauged-connections")),
        lambda: put(own_stub, widget("gauged-mine")),
        lambda: own_stub.UpdateWidget(spb.UpdateWidgetRequest(
            id="gauged-connections", content=wpb.Content(gauge=wpb.Gauge(value=1))),
            timeout=TIMEOUT),
        lambda: own_stub.DeleteWidget(spb.DeleteWidgetRequest(id="gauged-connections"),
                                      timeout=TIMEOUT),
    ):
        err = rpc_error(call)
        assert err.code() == grpc.StatusCode.PERMISSION_DENIED, err
        assert "read-only" in err.details() and '"gauged-"' in err.details(), err.details()
    put(own_stub, widget("ok-widget"))
    summary = own_stub.PublishValues(iter([
        spb.ValueUpdate(id="ok-widget", value=1),
        spb.ValueUpdate(id="gauged-connections", value=1),
        spb.ValueUpdate(id="ok-widget", value=2),
    ]), timeout=TIMEOUT)
    assert (summary.accepted, summary.rejected) == (2, 1), summary
    [rejection] = summary.rejections
    assert rejection.index == 1 and rejection.code == grpc.StatusCode.PERMISSION_DENIED.value[0]
    assert "read-only" in rejection.message
    assert "gauged-connections" in self_widgets(own_stub)


def test_client_writes_to_the_prefix_are_refused_on_rest(own, own_stub):
    wait_for(own_stub, lambda f: "gauged-connections" in f, "no self widget appeared")
    with httpx.Client(base_url=base_url(own), timeout=TIMEOUT) as http:
        assert http.get("/widgets/gauged-connections").status_code == 200
        for resp in (
            http.put("/widgets/gauged-connections", json=rest_gauge()),
            http.patch("/widgets/gauged-connections", json={"content": {"value": 1}},
                       headers={"content-type": "application/merge-patch+json"}),
            http.delete("/widgets/gauged-connections"),
            http.post("/widgets", json={**rest_gauge(), "id": "gauged-new"}),
            http.put("/widgets/gauged-connections?dry_run=true", json=rest_gauge()),
        ):
            assert resp.status_code == 403, resp.text
            assert resp.headers["content-type"].startswith("application/problem+json")
            assert "read-only" in resp.json()["detail"]
        resp = http.post("/values", content=b"gauged-connections 1\n",
                         headers={"content-type": "text/plain"})
        assert resp.status_code == 200 and resp.json()["rejections"][0]["status"] == 403, resp.text


def test_off_keeps_no_widgets_and_leaves_the_prefix_to_clients():
    srv = Server(self_widgets=False)
    srv.start()
    try:
        with grpc.insecure_channel(srv.address) as channel:
            stub = sgrpc.WidgetServiceStub(channel)
            time.sleep(1.5)
            assert self_widgets(stub) == {}
            assert put(stub, widget("gauged-mine")).created
    finally:
        srv.stop()


def test_a_bad_value_is_refused_at_start():
    binary = os.environ.get("GAUGED_BIN", ".build/debug/gauged")
    result = subprocess.run([binary, "--listen", "127.0.0.1:0", "--self-widgets=maybe"],
                            capture_output=True, text=True, timeout=10)
    assert result.returncode == 2
    assert '--self-widgets: "maybe" is not on or off' in result.stderr
