"""End-to-end fixtures: generated stubs, one real gauged for the session, helpers.

Environment:
  GAUGED_BIN     the server binary (default .build/debug/gauged); other executables
                 (gauged-interop-server) are taken from the same directory
  GAUGED_TARGET  host:port of an already running server; no process is started
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import grpc
import pytest

E2E_DIR = Path(__file__).resolve().parent
REPO = E2E_DIR.parents[1]
GEN_DIR = E2E_DIR / "gen"
PROTOS = [
    "gauge/v1/widget.proto", "gauge/v1/widget_service.proto", "gauge/v1/token_service.proto",
]
# protoc-gen-connectrpc (a Go binary from the PyPI package) lands in the venv's bin,
# beside this Python (or in its scripts directory when sys.executable is resolved).
CONNECT_PLUGIN_CANDIDATES = [
    Path(sys.executable).with_name("protoc-gen-connectrpc"),
    Path(sysconfig.get_path("scripts")) / "protoc-gen-connectrpc",
]

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0


def _generate_stubs() -> None:
    """Python stubs for gauge.v1 only; google.rpc comes from googleapis-common-protos.

    Besides the message and grpcio modules, the Connect client
    (gauge/v1/widget_service_connect.py) comes from the protoc-gen-connectrpc plugin
    installed beside this Python (the e2e requirements pin it). It runs as a second
    protoc call, so a venv without it still generates what the other tests need; the
    Connect tests then fail to import and say why."""
    from grpc_tools import protoc

    GEN_DIR.mkdir(exist_ok=True)
    sources = [str(REPO / "proto" / p) for p in PROTOS]
    args = [
        "grpc_tools.protoc",
        f"-I{REPO / 'proto'}",
        f"--python_out={GEN_DIR}",
        f"--grpc_python_out={GEN_DIR}",
        *sources,
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"grpc_tools.protoc failed: {' '.join(args)}")
    plugin = next((p for p in CONNECT_PLUGIN_CANDIDATES if p.is_file() and os.access(p, os.X_OK)),
                  None)
    if plugin is not None:
        args = [
            "grpc_tools.protoc",
            f"-I{REPO / 'proto'}",
            f"--plugin=protoc-gen-connectrpc={plugin}",
            f"--connectrpc_out={GEN_DIR}",
            *sources,
        ]
        if protoc.main(args) != 0:
            raise RuntimeError(f"grpc_tools.protoc failed: {' '.join(args)}")


_generate_stubs()
sys.path.insert(0, str(GEN_DIR))
sys.path.insert(0, str(E2E_DIR))


# --------------------------------------------------------------------------- server


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path: Path, limit: int = 4000) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "<unreadable>"
    return text[-limit:] if text else "<empty>"


class Server:
    """A running gauged (spawned here, or external via GAUGED_TARGET).

    `extra_args` go after the address; `program` names another executable
    built beside gauged (gauged-interop-server, which takes --port);
    `unix_socket` makes gauged listen on that path instead of a TCP port. `args`
    replaces gauged's default store flags (`--memory` when the binary has it);
    `launcher` goes before the binary (e.g. `prlimit --fsize=N`): a command,
    since Python code run in the forked child (preexec_fn) can deadlock or
    abort when the test process has grpcio threads. gauged's own gauges
    (`gauged-*`, on by default) are turned off unless `self_widgets`: tests
    count widgets and revisions, and those change every second."""

    def __init__(
        self, extra_args=(), program: str = "gauged", args: list[str] | None = None, launcher=(),
        unix_socket: str | None = None, self_widgets: bool = False,
    ) -> None:
        self.extra_args = list(extra_args)
        self.self_widgets = self_widgets
        self.unix_socket = unix_socket
        self.program = program
        self.store_args = args
        self.launcher = list(launcher)
        self.proc: subprocess.Popen | None = None
        self.address = ""
        self.port = 0
        self.argv: list[str] = []
        self._logdir = Path(tempfile.mkdtemp(prefix="gauged-e2e-"))
        self.stdout_path = self._logdir / "stdout"
        self.stderr_path = self._logdir / "stderr"

    # -- lifecycle

    def start(self, port: int | None = None) -> None:
        """Serves on `port` when given (a restart at the same address), else on a free one."""
        external = os.environ.get("GAUGED_TARGET") if self.program == "gauged" else None
        if external and self.store_args is None and not self.extra_args and not self.unix_socket:
            self.address = external
            self.port = int(external.rsplit(":", 1)[1])
            self._wait_until_serving(deadline=time.monotonic() + START_TIMEOUT_S)
            return

        binary = Path(os.environ.get("GAUGED_BIN", REPO / ".build/debug/gauged"))
        if self.program != "gauged":
            binary = binary.with_name(self.program)
        if not binary.is_file() or not os.access(binary, os.X_OK):
            pytest.fail(
                f"{self.program} binary not found at {binary}: run `make build` "
                "(or set GAUGED_BIN)",
                pytrace=False,
            )
        if self.unix_socket:
            self.address = f"unix:{self.unix_socket}"
        else:
            self.port = port or _free_port()
            self.address = f"127.0.0.1:{self.port}"
        if self.program == "gauged":
            self.argv = [str(binary), "--listen", self.address]
            if self.store_args is not None:
                self.argv += self.store_args
            elif self._supports_flag(binary, "--memory"):
                self.argv.append("--memory")
            if not self.self_widgets and self._supports_flag(binary, "--self-widgets"):
                self.argv.append("--self-widgets=off")
        else:
            self.argv = [str(binary), "--host", "127.0.0.1", "--port", str(self.port)]
        self.argv += self.extra_args
        self.proc = subprocess.Popen(
            self.launcher + self.argv,
            stdin=subprocess.DEVNULL,
            stdout=self.stdout_path.open("wb"),
            stderr=self.stderr_path.open("wb"),
            cwd=self._logdir,  # any data a default store writes lands in a temp dir
        )
        self._wait_until_serving(deadline=time.monotonic() + START_TIMEOUT_S)

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def _supports_flag(binary: Path, flag: str) -> bool:
        try:
            out = subprocess.run(
                [str(binary), "--help"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=5,
            )
        except (subprocess.TimeoutExpired, OSError):
            return False
        return flag.encode() in out.stdout + out.stderr

    def _wait_until_serving(self, deadline: float) -> None:
        """Until any gRPC call gets an answer from the server (even NOT_FOUND)."""
        last = "no attempt"
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                pytest.fail(
                    f"gauged exited with status {self.proc.returncode} before serving "
                    f"gRPC on {self.address}\n{self.describe()}",
                    pytrace=False,
                )
            try:
                # A private subchannel pool: no reconnect backoff carried between probes.
                options = [("grpc.use_local_subchannel_pool", 1)]
                with grpc.insecure_channel(self.address, options=options) as channel:
                    probe = channel.unary_unary(
                        "/gauge.v1.WidgetService/GetWidget",
                        request_serializer=None,
                        response_deserializer=None,
                    )
                    probe(b"\x0a\x0fe2e-start-probe", timeout=0.5)
                return
            except grpc.RpcError as err:
                code = err.code()
                if code not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                    return  # an answer from the server, whatever it is
                last = f"{code.name}: {err.details()}"
            time.sleep(0.1)
        self.stop()
        pytest.fail(
            f"gauged did not answer gRPC on {self.address} within {START_TIMEOUT_S:.0f}s "
            f"(last attempt: {last})\n{self.describe()}",
            pytrace=False,
        )

    def stop(self) -> int | None:
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None

    # -- diagnostics

    def alive(self) -> bool:
        return self.proc is None or self.proc.poll() is None

    def describe(self) -> str:
        return (
            f"command: {' '.join(self.argv) or '(external ' + self.address + ')'}\n"
            f"--- gauged stderr ---\n{_tail(self.stderr_path)}\n"
            f"--- gauged stdout ---\n{_tail(self.stdout_path, 1000)}"
        )


@pytest.fixture(scope="session")
def server():
    srv = Server()
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


@pytest.fixture(autouse=True)
def _server_stays_up(request, server):
    """Every test starts and ends with a live server; say so clearly when it died."""
    if not server.alive():
        pytest.fail(
            f"gauged is no longer running (exit {server.proc.returncode})\n{server.describe()}",
            pytrace=False,
        )
    yield
    if not server.alive():
        pytest.fail(
            f"gauged died during this test (exit {server.proc.returncode})\n{server.describe()}",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def unix_server(tmp_path_factory):
    """A second gauged, listening on a Unix domain socket."""
    srv = Server(unix_socket=str(tmp_path_factory.mktemp("unix") / "gauged.sock"))
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def channel(server):
    with grpc.insecure_channel(server.address) as ch:
        yield ch


@pytest.fixture(scope="session")
def stub(channel):
    from gauge.v1 import widget_service_pb2_grpc

    return widget_service_pb2_grpc.WidgetServiceStub(channel)


# --------------------------------------------------------------------------- ids

_RUN = secrets.token_hex(3)
_counter = itertools.count(1)


@pytest.fixture
def new_id(request):
    """new_id() -> a widget id unique to this test and run, e.g. `e2e-1a2b3c-test_put-4`."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", request.node.name).strip("-_")[:80]

    def make(suffix: str = "") -> str:
        return f"e2e-{_RUN}-{stem}-{next(_counter)}{suffix}"

    return make
