"""TLS on gauged's TCP listeners (`--tls-cert`, `--tls-key`, `--tls-client-ca`), reached by
stock clients: grpcio with a CA made here by the openssl command, curl over HTTP/1.1 and
HTTP/2, `openssl s_client` for ALPN, headless Chromium for the dashboard, raw sockets for
what a broken client sends, and the project's own gaugectl and gauge-bench."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
from pathlib import Path

import grpc
import httpx
import pytest

from conftest import REPO, Server, _free_port
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc
from helpers import TIMEOUT, gauge, get, put, rest_gauge, widget

# Hang guards only: CI runs gauged under ASan on a loaded machine.
HANG_S = 30
# gauged's handshake timeout is 10 s; a stalled client must be gone well within this.
STALL_GUARD_S = 40

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="runs gauged servers of its own"
)


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=HANG_S)


def _issue(directory: Path, name: str, subject: str, ca: str = "ca", days: str = "30",
           extensions: str = "subjectAltName=DNS:localhost,IP:127.0.0.1") -> None:
    """NAME.key and NAME.pem, signed by CA.pem/CA.key."""
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject, cwd=directory)
    (directory / f"{name}.ext").write_text(extensions + "\n")
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key",
             "-CAcreateserial", "-out", f"{name}.pem", "-days", days,
             "-extfile", f"{name}.ext", cwd=directory)


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Path:
    """A CA, two server certificates for localhost and 127.0.0.1 (the second for reloads), an
    expired one, and a client CA with one client certificate."""
    directory = tmp_path_factory.mktemp("pki")
    for ca in ("ca", "client-ca"):
        _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                 "-nodes", "-keyout", f"{ca}.key", "-out", f"{ca}.pem", "-days", "30",
                 "-subj", f"/CN=gauged e2e {ca}", cwd=directory)
    _issue(directory, "server", "/CN=first")
    _issue(directory, "server2", "/CN=second")
    # notAfter is the moment of issue: expired a second later.
    _issue(directory, "expired", "/CN=expired", days="0")
    _issue(directory, "client", "/CN=e2e client", ca="client-ca",
           extensions="extendedKeyUsage=clientAuth")
    time.sleep(1.1)
    return directory


class TLSServer(Server):
    """A gauged whose first listener speaks TLS: ready once it says where it listens."""

    def _wait_until_serving(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"gauged exited with {self.proc.returncode}\n{self.describe()}",
                            pytrace=False)
            if "listening on" in self.stdout_path.read_text(errors="replace"):
                return
            time.sleep(0.05)
        self.stop()
        pytest.fail(f"gauged did not start\n{self.describe()}", pytrace=False)


def _start(pki: Path, *extra: str, cert: str = "server") -> TLSServer:
    srv = TLSServer(extra_args=["--tls-cert", str(pki / f"{cert}.pem"),
                                "--tls-key", str(pki / f"{cert}.key"), *extra])
    srv.start()
    return srv


@pytest.fixture(scope="module")
def tls_server(pki):
    """TLS on one port, and cleartext on a second one marked --plaintext."""
    plain = f"127.0.0.1:{_free_port()}"
    srv = _start(pki, "--listen", plain, "--plaintext")
    srv.plaintext_address = plain
    try:
        yield srv
    finally:
        srv.stop()


def _secure_stub(address: str, pki: Path, client: str | None = None):
    credentials = grpc.ssl_channel_credentials(
        root_certificates=(pki / "ca.pem").read_bytes(),
        private_key=(pki / f"{client}.key").read_bytes() if client else None,
        certificate_chain=(pki / f"{client}.pem").read_bytes() if client else None,
    )
    channel = grpc.secure_channel(address, credentials,
                                  options=[("grpc.use_local_subchannel_pool", 1)])
    return channel, widget_service_pb2_grpc.WidgetServiceStub(channel)


def _curl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["curl", "-sS", "--max-time", str(HANG_S), *args],
                          capture_output=True, text=True, timeout=HANG_S + 5)


def _s_client(address: str, *args: str) -> str:
    result = subprocess.run(
        ["openssl", "s_client", "-connect", address, "-servername", "localhost", *args],
        input=b"", capture_output=True, timeout=HANG_S)
    # With h2, the server's SETTINGS frame is printed too.
    return (result.stdout + result.stderr).decode(errors="replace")


def _still_serves(srv: TLSServer, pki: Path, new_id) -> None:
    channel, stub = _secure_stub(srv.address, pki)
    with channel:
        put(stub, widget(new_id()))


def test_grpc_put_get_and_subscribe_over_tls(tls_server, pki, new_id):
    channel, stub = _secure_stub(tls_server.address, pki)
    with channel:
        wid = new_id()
        created = put(stub, widget(wid, content=wpb.Content(gauge=gauge(value=1.5))))
        assert get(stub, wid).revision == created.widget.revision
        events = stub.Subscribe(spb.SubscribeRequest(ids=[wid]), timeout=HANG_S)
        assert next(events).upsert.id == wid
        assert next(events).WhichOneof("event") == "synced"
        stub.PublishValues(iter([spb.ValueUpdate(id=wid, value=4.0)]), timeout=TIMEOUT)
        live = next(events)
        assert (live.upsert.id, live.upsert.content.gauge.value) == (wid, 4.0)
        events.cancel()


@pytest.mark.parametrize("flag, version", [("--http1.1", "1.1"), ("--http2", "2")])
def test_rest_over_tls_with_curl(tls_server, pki, new_id, flag, version):
    channel, stub = _secure_stub(tls_server.address, pki)
    with channel:
        wid = new_id()
        put(stub, widget(wid))
    url = f"https://localhost:{tls_server.port}/widgets/{wid}"
    result = _curl(flag, "--cacert", str(pki / "ca.pem"), "-w", "\n%{http_version} %{http_code}",
                   url)
    assert result.returncode == 0, result.stderr
    body, status_line = result.stdout.rsplit("\n", 1)
    assert status_line == f"{version} 200"
    assert json.loads(body)["id"] == wid


def test_the_cleartext_listener_marked_plaintext_serves_h2c(tls_server, new_id):
    with grpc.insecure_channel(tls_server.plaintext_address) as channel:
        stub = widget_service_pb2_grpc.WidgetServiceStub(channel)
        put(stub, widget(new_id()))
    line = tls_server.stdout_path.read_text()
    assert f"listening on {tls_server.address} (TLS) and {tls_server.plaintext_address} " \
           "(cleartext)" in line


@pytest.mark.parametrize("alpn", ["h2", "http/1.1"])
def test_alpn_picks_the_protocol(tls_server, pki, alpn):
    out = _s_client(tls_server.address, "-alpn", alpn, "-CAfile", str(pki / "ca.pem"))
    assert f"ALPN protocol: {alpn}" in out, out
    assert "Verify return code: 0 (ok)" in out, out


def test_without_alpn_the_first_decrypted_bytes_pick_http1(tls_server, pki):
    context = ssl.create_default_context(cafile=str(pki / "ca.pem"))
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=HANG_S) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.selected_alpn_protocol() is None
            assert tls.version() in ("TLSv1.2", "TLSv1.3")
            tls.sendall(b"GET /widgets HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
            answer = b""
            while chunk := tls.recv(65536):
                answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


def test_tls_1_1_is_refused(tls_server):
    out = _s_client(tls_server.address, "-tls1_1")
    assert "ALPN protocol" not in out and "Cipher is (NONE)" in out, out


def test_a_cleartext_client_gets_a_readable_refusal_and_gauged_serves_on(
        tls_server, pki, new_id):
    result = _curl("-i", f"http://127.0.0.1:{tls_server.port}/widgets")
    assert result.returncode == 0, result.stderr
    head, body = result.stdout.split("\n\n", 1)  # text mode turned CRLF into LF
    assert head.startswith("HTTP/1.1 400")
    assert "content-type: application/problem+json" in head
    assert "speaks TLS only" in json.loads(body)["detail"]
    with grpc.insecure_channel(tls_server.address) as channel:
        stub = widget_service_pb2_grpc.WidgetServiceStub(channel)
        with pytest.raises(grpc.RpcError) as err:
            stub.GetWidget(spb.GetWidgetRequest(id="x"), timeout=TIMEOUT)
        assert err.value.code() == grpc.StatusCode.UNAVAILABLE
    _still_serves(tls_server, pki, new_id)


def test_a_client_that_stops_mid_handshake_costs_only_its_connection(tls_server, pki, new_id):
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=STALL_GUARD_S) as raw:
        # The start of a ClientHello record, and then nothing.
        raw.sendall(bytes([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]))
        _still_serves(tls_server, pki, new_id)
        # The handshake timeout closes it; recv returns b"" (or the guard fails the test).
        assert raw.recv(4096) == b""
    _still_serves(tls_server, pki, new_id)


def test_a_garbage_client_hello_gets_an_alert_and_the_close(tls_server, pki, new_id):
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=HANG_S) as raw:
        raw.sendall(bytes([0x16, 0x03, 0x01, 0x00, 0x05, 0xde, 0xad, 0xbe, 0xef, 0x00]))
        answer = b""
        while chunk := raw.recv(4096):
            answer += chunk
    assert answer[:1] == b"\x15", answer  # an alert record
    _still_serves(tls_server, pki, new_id)


def test_unix_sockets_stay_cleartext(pki, tmp_path, new_id):
    path = tmp_path / "gauged.sock"
    srv = _start(pki, "--listen", f"unix:{path}")
    try:
        with grpc.insecure_channel(f"unix:{path}") as channel:
            put(widget_service_pb2_grpc.WidgetServiceStub(channel), widget(new_id()))
        assert f"and unix:{path} (cleartext)" in srv.stdout_path.read_text()
    finally:
        assert srv.stop() == 0


def _served_subject(srv: TLSServer) -> str:
    out = _s_client(srv.address, "-alpn", "h2")
    line = next((l for l in out.splitlines() if l.startswith("subject=")), "")
    return line


def test_sighup_reloads_the_pair_and_a_broken_key_keeps_the_old_one(pki, tmp_path, new_id):
    cert, key = tmp_path / "live.pem", tmp_path / "live.key"
    cert.write_bytes((pki / "server.pem").read_bytes())
    key.write_bytes((pki / "server.key").read_bytes())
    srv = TLSServer(extra_args=["--tls-cert", str(cert), "--tls-key", str(key)])
    srv.start()
    try:
        assert "CN = first" in _served_subject(srv)
        channel, stub = _secure_stub(srv.address, pki)
        with channel:
            put(stub, widget(new_id()))  # a connection made with the first pair

            cert.write_bytes((pki / "server2.pem").read_bytes())
            key.write_bytes((pki / "server2.key").read_bytes())
            srv.proc.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + HANG_S
            while "CN = second" not in _served_subject(srv):
                assert time.monotonic() < deadline, srv.describe()
                time.sleep(0.1)
            put(stub, widget(new_id()))  # the open connection goes on

            key.write_text("-----BEGIN PRIVATE KEY-----\nbroken\n-----END PRIVATE KEY-----\n")
            srv.proc.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + HANG_S
            while "keeping the previous certificate and key" not in srv.stderr_path.read_text():
                assert time.monotonic() < deadline, srv.describe()
                time.sleep(0.1)
            assert "CN = second" in _served_subject(srv)
            put(stub, widget(new_id()))
        _still_serves(srv, pki, new_id)
    finally:
        assert srv.stop() == 0


def test_client_certificates_are_required_with_tls_client_ca(pki, new_id):
    srv = _start(pki, "--tls-client-ca", str(pki / "client-ca.pem"))
    try:
        channel, stub = _secure_stub(srv.address, pki, client="client")
        with channel:
            put(stub, widget(new_id()))
        channel, stub = _secure_stub(srv.address, pki)
        with channel:
            with pytest.raises(grpc.RpcError) as err:
                stub.GetWidget(spb.GetWidgetRequest(id="x"), timeout=TIMEOUT)
            assert err.value.code() == grpc.StatusCode.UNAVAILABLE
        url = f"https://localhost:{srv.port}/widgets"
        refused = _curl("--cacert", str(pki / "ca.pem"), url)
        assert refused.returncode != 0
        # At debug level, gauged says which peer failed and why.
        deadline = time.monotonic() + HANG_S
        while "peer did not return a certificate" not in srv.stderr_path.read_text():
            assert time.monotonic() < deadline, srv.describe()
            time.sleep(0.1)
        assert '"level":"warn","event":"tls_failed"' in srv.stderr_path.read_text()
        allowed = _curl("--cacert", str(pki / "ca.pem"), "--cert", str(pki / "client.pem"),
                        "--key", str(pki / "client.key"), "-w", "%{http_code}", "-o",
                        os.devnull, url)
        assert (allowed.returncode, allowed.stdout) == (0, "200"), allowed.stderr
    finally:
        assert srv.stop() == 0


def test_an_expired_certificate_is_served_with_a_warning_and_clients_refuse_it(pki):
    srv = _start(pki, cert="expired")
    try:
        assert "has expired" in srv.stderr_path.read_text()
        url = f"https://localhost:{srv.port}/widgets"
        refused = _curl("--cacert", str(pki / "ca.pem"), url)
        assert refused.returncode == 60, refused.stderr
        assert "expired" in refused.stderr
        insecure = _curl("-k", "-w", "%{http_code}", "-o", os.devnull, url)
        assert insecure.stdout == "200", insecure.stderr
    finally:
        assert srv.stop() == 0


@pytest.mark.parametrize("args, message", [
    (["--tls-cert", "a.pem"], "--tls-cert and --tls-key go together"),
    (["--tls-client-ca", "ca.pem"], "--tls-client-ca needs --tls-cert and --tls-key"),
    (["--listen", "127.0.0.1:0", "--plaintext"], "--plaintext has no effect without --tls-cert"),
    (["--plaintext"], "--plaintext must follow the --listen it marks"),
])
def test_inconsistent_tls_flags_are_refused(args, message):
    binary = os.environ.get("GAUGED_BIN", str(REPO / ".build/debug/gauged"))
    result = subprocess.run([binary, "--memory", *args], capture_output=True, text=True,
                            timeout=HANG_S)
    assert result.returncode == 2
    assert message in result.stderr


def test_an_unreadable_key_stops_the_start_and_says_which_file(pki, tmp_path):
    binary = os.environ.get("GAUGED_BIN", str(REPO / ".build/debug/gauged"))
    result = subprocess.run(
        [binary, "--memory", "--listen", "127.0.0.1:0", "--tls-cert", str(pki / "server.pem"),
         "--tls-key", str(tmp_path / "missing.key")],
        capture_output=True, text=True, timeout=HANG_S)
    assert result.returncode == 1
    assert "missing.key" in result.stderr


def _gaugectl(*args: str) -> subprocess.CompletedProcess:
    from test_gaugectl import gaugectl_binary

    return subprocess.run([str(gaugectl_binary()), *args], capture_output=True, text=True,
                          timeout=HANG_S, stdin=subprocess.DEVNULL)


def test_gaugectl_over_tls(tls_server, pki, new_id):
    wid = new_id()
    server = ["--server", f"localhost:{tls_server.port}"]
    put_ = _gaugectl(*server, "--cacert", str(pki / "ca.pem"), "put", wid, "--gauge", "42",
                     "--min", "0", "--max", "100")
    assert put_.returncode == 0, put_.stderr
    got = _gaugectl(*server, "--tls", "--cacert", str(pki / "ca.pem"), "get", wid, "--json")
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["id"] == wid
    # The system does not trust the test's CA.
    untrusted = _gaugectl(*server, "--tls", "get", wid)
    assert untrusted.returncode == 3, untrusted.stderr
    assert "certificate verify failed" in untrusted.stderr
    # Cleartext against the TLS port.
    cleartext = _gaugectl(*server, "get", wid)
    assert cleartext.returncode == 3, cleartext.stderr


def test_gauge_bench_over_tls(tls_server, pki):
    from test_bench import bench_binary

    def run(*args: str) -> dict:
        result = subprocess.run(
            [str(bench_binary()), "unary", "--target", f"localhost:{tls_server.port}",
             "--duration", "0.5", "--warmup", "0", "--connections", "1", "--streams", "2",
             *args], capture_output=True, text=True, timeout=HANG_S * 2)
        return {"status": result.returncode, "stderr": result.stderr,
                "line": json.loads(result.stdout) if result.returncode == 0 else None}

    secured = run("--tls", "on", "--cacert", str(pki / "ca.pem"))
    assert secured["status"] == 0, secured["stderr"]
    assert secured["line"]["requests"] > 0 and secured["line"]["failed"] == 0
    cleartext = run()
    assert cleartext["status"] != 0


def test_handshakes_in_progress_are_capped_per_loop(pki, new_id):
    """256 per loop: with one loop, the 257th connection that has not finished its handshake
    is closed at once, the ones before it wait for their timeout, and once they are gone
    handshakes are taken again."""
    srv = _start(pki, "--threads", "1")
    stalled = []
    try:
        for _ in range(256):
            stalled.append(socket.create_connection(("127.0.0.1", srv.port), timeout=HANG_S))
        # Each connection is adopted in turn: once this one is closed, all before it counted.
        with socket.create_connection(("127.0.0.1", srv.port), timeout=HANG_S) as over:
            try:
                assert over.recv(1) == b""
            except ConnectionResetError:
                pass
        stalled[0].setblocking(False)
        with pytest.raises(BlockingIOError):
            stalled[0].recv(1)  # still open, waiting for its handshake
        for connection in stalled:
            connection.close()
        stalled = []
        deadline = time.monotonic() + HANG_S
        while True:
            try:
                _still_serves(srv, pki, new_id)
                break
            except grpc.RpcError:
                assert time.monotonic() < deadline, srv.describe()
                time.sleep(0.2)
    finally:
        for connection in stalled:
            connection.close()
        assert srv.stop() == 0


def test_the_dashboard_in_chromium_over_https_speaks_h2(tls_server, pki, new_id):
    """Headless Chromium trusting the server's key (by its SPKI hash, so no system store is
    touched): the page loads over HTTP/2, goes live on its event stream, and draws a widget
    written over TLS afterwards."""
    chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or chromedriver is None:
        pytest.skip("needs Debian's chromium and chromium-driver (scripts/install-deps)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    der = subprocess.run(
        "openssl x509 -pubkey -noout -in server.pem | openssl pkey -pubin -outform der",
        shell=True, cwd=pki, check=True, capture_output=True, timeout=HANG_S).stdout
    spki = base64.b64encode(hashlib.sha256(der).digest()).decode()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--ignore-certificate-errors-spki-list={spki}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    try:
        driver.set_page_load_timeout(HANG_S)
        driver.get(f"https://localhost:{tls_server.port}/")
        WebDriverWait(driver, HANG_S).until(
            lambda d: d.execute_script("return document.body.dataset.connection") == "live",
            message="the page never went live")
        assert driver.execute_script(
            "return performance.getEntriesByType('navigation')[0].nextHopProtocol") == "h2"
        wid = new_id()
        trust = ssl.create_default_context(cafile=str(pki / "ca.pem"))
        with httpx.Client(verify=trust, timeout=HANG_S) as http:
            resp = http.put(f"https://localhost:{tls_server.port}/widgets/{wid}",
                            json=rest_gauge())
            assert resp.status_code in (200, 201), resp.text
        WebDriverWait(driver, HANG_S).until(
            lambda d: d.execute_script(
                "return !!document.querySelector(`[data-widget-id=\"${arguments[0]}\"]`)", wid),
            message="the widget written over TLS was never drawn")
    finally:
        driver.quit()
