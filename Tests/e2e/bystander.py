"""A well-behaved grpcio client that keeps calling while a bad peer misbehaves, and the
server's resident memory, to show that a bad peer costs only its own connection."""

from __future__ import annotations

import threading
import time

import grpc

from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc
from helpers import widget


class Bystander:
    """Calls GetWidget and PutWidget back to back on its own channel from start() until
    stop(), and at least `min_calls` times; records each call's latency."""

    def __init__(self, address: str, wid: str, min_calls: int = 100):
        self.address = address
        self.wid = wid
        self.min_calls = min_calls
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._channel = grpc.insecure_channel(self.address)
        self._stub = widget_service_pb2_grpc.WidgetServiceStub(self._channel)
        # Connected and warm before the bad peer starts.
        self._stub.PutWidget(spb.PutWidgetRequest(widget=widget(self.wid)), timeout=5)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=60)
        self._channel.close()

    def _run(self) -> None:
        count = 0
        while not (self._stop.is_set() and count >= self.min_calls):
            started = time.monotonic()
            try:
                if count % 2:
                    self._stub.PutWidget(spb.PutWidgetRequest(widget=widget(self.wid)), timeout=5)
                else:
                    self._stub.GetWidget(spb.GetWidgetRequest(id=self.wid), timeout=5)
            except grpc.RpcError as err:
                self.errors.append(f"{err.code().name}: {err.details()}")
            self.latencies.append(time.monotonic() - started)
            count += 1

    def assert_served(self, bound_s: float = 0.5) -> None:
        assert not self.errors, f"the well-behaved client failed: {self.errors[:5]}"
        assert len(self.latencies) >= self.min_calls
        slowest = max(self.latencies)
        assert slowest < bound_s, (
            f"slowest of {len(self.latencies)} calls took {slowest * 1000:.0f} ms "
            f"(bound {bound_s * 1000:.0f} ms)"
        )
