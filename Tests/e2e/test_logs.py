"""gauged's log: --log-format json gives one object per line naming the events
(start, stopping, stop, listen_failed, connection_refused), --log-level filters them,
--access-log writes a line per call or request with the peer (sampled by
--access-log-sample), and no header, metadata or body value (where tokens travel)
reaches the log."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path

import grpc
import httpx
import pytest

from conftest import Server
from helpers import TIMEOUT
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="starts gauged processes of its own"
)

SECRET = "s3cr3t-token-value"


def json_lines(path: Path) -> list[dict]:
    """Every stderr line, each of which must be one JSON object."""
    lines = path.read_text().splitlines()
    return [json.loads(line) for line in lines]


def events(path: Path, name: str) -> list[dict]:
    return [line for line in json_lines(path) if line["event"] == name]


def test_json_lines_name_start_and_stop():
    srv = Server(extra_args=["--log-format", "json"])
    srv.start()
    assert srv.stop() == 0
    lines = json_lines(srv.stderr_path)
    assert [line["event"] for line in lines] == ["start", "stopping", "stop"]
    start = lines[0]
    assert start["level"] == "info" and start["version"]
    assert start["listeners"] == srv.address
    assert start["store"] == "memory" and start["threads"] >= 1
    for line in lines:
        assert line["time"].endswith("Z") and "msg" in line
    assert lines[2]["flushed"] is True


def test_text_lines_by_default_off_a_terminal_is_json():
    srv = Server()
    srv.start()
    srv.stop()
    # stderr is a file here, not a terminal: JSON without being asked.
    assert json_lines(srv.stderr_path)[0]["event"] == "start"
    text = Server(extra_args=["--log-format", "text"])
    text.start()
    text.stop()
    first = text.stderr_path.read_text().splitlines()[0]
    assert " info start " in first and "threads=" in first


def test_log_level_filters():
    srv = Server(extra_args=["--log-format", "json", "--log-level", "warn"])
    srv.start()
    srv.stop()
    assert json_lines(srv.stderr_path) == []


def test_listener_failure_is_one_error_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        binary = os.environ.get("GAUGED_BIN", ".build/debug/gauged")
        done = subprocess.run(
            [binary, "--memory", "--listen", f"127.0.0.1:{port}", "--log-format", "json"],
            capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stderr.splitlines()]
    assert [line["event"] for line in lines] == ["listen_failed"]
    assert lines[0]["level"] == "error" and str(port) in lines[0]["msg"]


def test_access_log_has_a_line_per_call_and_request_and_no_secret():
    srv = Server(extra_args=["--log-format", "json", "--access-log"])
    srv.start()
    try:
        with grpc.insecure_channel(srv.address) as channel:
            stub = widget_service_pb2_grpc.WidgetServiceStub(channel)
            for _ in range(3):
                with pytest.raises(grpc.RpcError):
                    stub.GetWidget(spb.GetWidgetRequest(id=SECRET + "-id"), timeout=TIMEOUT,
                                   metadata=[("authorization", f"Bearer {SECRET}"),
                                             ("x-api-key", SECRET)])
        headers = {"authorization": f"Bearer {SECRET}", "cookie": f"session={SECRET}"}
        with httpx.Client(base_url=f"http://{srv.address}", timeout=TIMEOUT) as client:
            for _ in range(2):
                assert client.get("/widgets/absent", headers=headers).status_code == 404
            resp = client.post("/gauge.v1.WidgetService/GetWidget", json={"id": "absent"},
                               headers={**headers, "connect-protocol-version": "1"})
            assert resp.status_code == 404
    finally:
        srv.stop()
    access = events(srv.stderr_path, "access")
    grpc_lines = [line for line in access if line["face"] == "grpc"]
    # The fixture's probe for a serving gauged is one more GetWidget.
    assert len(grpc_lines) == 3 + 1
    assert {line["status"] for line in grpc_lines} == {"NotFound"}
    assert grpc_lines[0]["method"] == "/gauge.v1.WidgetService/GetWidget"
    assert grpc_lines[0]["duration_ms"] >= 0
    rest = [line for line in access if line["face"] == "rest"]
    assert len(rest) == 2 and rest[0]["route"] == "/widgets/{id}" and rest[0]["status"] == 404
    assert rest[0]["bytes"] > 0
    # A Connect call is one line, for its HTTP request.
    connect = [line for line in access if line["face"] == "connect"]
    assert len(connect) == 1 and connect[0]["status"] == 404
    assert len(access) == 7
    # The client's address, as the server's socket has it.
    assert all(line["peer"].startswith("127.0.0.1:") for line in access), access
    assert SECRET not in srv.stderr_path.read_text()


def test_access_log_sample_logs_a_share():
    srv = Server(extra_args=["--log-format", "json", "--access-log",
                             "--access-log-sample", "0.25"])
    srv.start()
    try:
        with httpx.Client(base_url=f"http://{srv.address}", timeout=TIMEOUT) as client:
            for _ in range(400):
                client.get("/widgets/absent")
    finally:
        srv.stop()
    logged = len(events(srv.stderr_path, "access"))
    # Binomial(400, 0.25): mean 100, standard deviation about 8.7.
    assert 50 <= logged <= 150, logged


@pytest.mark.parametrize("args,says", [
    (["--log-format", "xml"], "text or json"),
    (["--log-level", "loud"], "error, warn, info or debug"),
    (["--access-log-sample", "0.5"], "needs --access-log"),
    (["--access-log", "--access-log-sample", "0"], "above 0"),
    (["--access-log", "--access-log-sample", "1.5"], "above 0"),
])
def test_bad_log_flags_are_refused(args, says):
    binary = os.environ.get("GAUGED_BIN", ".build/debug/gauged")
    done = subprocess.run([binary, "--memory", *args], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2 and says in done.stderr, done.stderr


def test_a_connection_sent_away_is_logged_with_the_reason():
    """Pings on an idle connection past grpc-core's policy: the third strike ends it
    with too_many_pings, and the log says so, once."""
    import h2.config
    import h2.connection
    import h2.events

    srv = Server(extra_args=["--log-format", "json"])
    srv.start()
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=TIMEOUT) as sock:
            conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            conn.initiate_connection()
            for index in range(4):
                conn.ping(bytes([index]) * 8)
            sock.sendall(conn.data_to_send())
            ended = False
            while not ended:
                data = sock.recv(65536)
                if not data:
                    break
                for event in conn.receive_data(data):
                    ended = ended or isinstance(event, h2.events.ConnectionTerminated)
            assert ended
    finally:
        srv.stop()
    refused = events(srv.stderr_path, "connection_refused")
    assert [line["reason"] for line in refused] == ["too_many_pings"]
    assert refused[0]["level"] == "warn"


def test_a_flood_is_logged_with_the_reason():
    """Thousands of SETTINGS frames in one burst, none of their acknowledgements
    read: nghttp2 calls it a flood and the connection ends; the log says why, once."""
    srv = Server(extra_args=["--log-format", "json"])
    srv.start()
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=TIMEOUT) as sock:
            settings = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
            try:
                sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + settings * 20000)
            except OSError:
                pass  # the server may close before it has read everything
            try:
                while sock.recv(65536):
                    pass
            except OSError:
                pass
    finally:
        srv.stop()
    refused = events(srv.stderr_path, "connection_refused")
    assert len(refused) == 1, refused
    assert refused[0]["level"] == "warn" and refused[0]["reason"]
