"""Bearer tokens on every face: each scope (and no token, and an unknown one) against every
WidgetService method over gRPC (grpcio), gRPC-Web (sonora) and Connect (connectrpc), every
REST route, the event stream, metrics, health, reflection and the pages (httpx and curl),
allowed or refused as AccessRequirement's table says; prefix-limited tokens in Get, List,
Subscribe, SSE and writes; POST /login's cookie; expiry; tokens kept across a restart with
no secret in the data directory or the logs; and the listen-address policy."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import grpc
import httpx
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from conftest import Server
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc as sgrpc
from helpers import TIMEOUT, SSEReader, base_url, gauge, rest_gauge, widget
from webfaces import WebStub, connect_client

import sonora.client
from connectrpc.errors import ConnectError

CURL = shutil.which("curl")
RANK = {"read": 1, "write": 2, "admin": 3}
# The callers: no token, a well-formed token the server does not know, and one per scope.
ROLES = ["none", "unknown", "read", "write", "admin"]
# What each WidgetService method needs (AccessRequirement.call).
METHODS = {
    "GetWidget": "read",
    "ListWidgets": "read",
    "Subscribe": "read",
    "PutWidget": "write",
    "UpdateWidget": "write",
    "DeleteWidget": "write",
    "PublishValues": "write",
}
SHARED = "tok-shared"
MISSING = "tok-missing"


def new_secret() -> str:
    return "gd_" + base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()


def sha256_hex(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def expected(required: str | None, role: str) -> str:
    """"allowed", "unauthenticated" or "denied" for `role` calling what needs `required`."""
    if required is None:
        return "allowed"
    if role in ("none", "unknown"):
        return "unauthenticated"
    return "allowed" if RANK[role] >= RANK[required] else "denied"


@pytest.fixture(scope="module")
def tokened(tmp_path_factory):
    """A --memory gauged reading a --tokens-file: one token per scope, and a write token
    limited to the prefix team-a- Yields (server, {role: secret})."""
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    secrets = {role: new_secret() for role in ("read", "write", "admin", "team", "unknown")}
    path = tmp_path_factory.mktemp("tokens") / "tokens"
    path.write_text(
        "# name scope[:prefix] sha256\n"
        f"reader read {sha256_hex(secrets['read'])}\n"
        f"writer write {sha256_hex(secrets['write'])}\n"
        f"ops admin {sha256_hex(secrets['admin'])}\n"
        f"team write:team-a- {sha256_hex(secrets['team'])}\n"
    )
    srv = Server(extra_args=["--tokens-file", str(path)])
    srv.start()
    try:
        admin = [("authorization", f"Bearer {secrets['admin']}")]
        with grpc.insecure_channel(srv.address) as channel:
            stub = sgrpc.WidgetServiceStub(channel)
            for wid in (SHARED, "team-a-one", "team-a-two", "team-b-one"):
                stub.PutWidget(spb.PutWidgetRequest(widget=widget(wid)), metadata=admin,
                               timeout=TIMEOUT)
        yield srv, secrets
    finally:
        srv.stop()


def auth(secrets, role: str) -> dict:
    if role == "none":
        return {}
    return {"authorization": f"Bearer {secrets[role]}"}


def grpc_outcome(err: grpc.RpcError | None, allowed_code=grpc.StatusCode.OK) -> str:
    code = grpc.StatusCode.OK if err is None else err.code()
    if code == grpc.StatusCode.UNAUTHENTICATED:
        return "unauthenticated"
    if code == grpc.StatusCode.PERMISSION_DENIED:
        return "denied"
    assert code == allowed_code, err
    return "allowed"


def run_method(stub, method: str, role: str, metadata, web: bool = False):
    """Calls `method` as `role` would; the status code's outcome."""
    suffix = f"{method.lower()}-{role}-{'web' if web else 'grpc'}"
    try:
        if method == "GetWidget":
            stub.GetWidget(spb.GetWidgetRequest(id=SHARED), metadata=metadata, timeout=TIMEOUT)
        elif method == "ListWidgets":
            stub.ListWidgets(spb.ListWidgetsRequest(), metadata=metadata, timeout=TIMEOUT)
        elif method == "PutWidget":
            stub.PutWidget(spb.PutWidgetRequest(widget=widget(f"tok-{suffix}")),
                           metadata=metadata, timeout=TIMEOUT)
        elif method == "UpdateWidget":
            stub.UpdateWidget(spb.UpdateWidgetRequest(id=SHARED, name=suffix),
                              metadata=metadata, timeout=TIMEOUT)
        elif method == "DeleteWidget":
            try:
                stub.DeleteWidget(spb.DeleteWidgetRequest(id=MISSING), metadata=metadata,
                                  timeout=TIMEOUT)
            except grpc.RpcError as err:
                return grpc_outcome(err, allowed_code=grpc.StatusCode.NOT_FOUND)
            raise AssertionError("deleting a missing widget succeeded")
        elif method == "PublishValues":
            summary = stub.PublishValues(iter([spb.ValueUpdate(id=SHARED, value=1.0)]),
                                         metadata=metadata, timeout=TIMEOUT)
            assert summary.accepted == 1, summary
        elif method == "Subscribe":
            if web:
                # sonora's sync channel hands nothing over before the stream ends: a
                # granted subscription runs until its deadline.
                try:
                    list(stub.Subscribe(spb.SubscribeRequest(ids=[SHARED]), metadata=metadata,
                                        timeout=1))
                except grpc.RpcError as err:
                    return grpc_outcome(err, allowed_code=grpc.StatusCode.DEADLINE_EXCEEDED)
                raise AssertionError("a subscription ended without a status")
            stream = stub.Subscribe(spb.SubscribeRequest(ids=[SHARED]), metadata=metadata,
                                    timeout=30)
            for event in stream:
                if event.WhichOneof("event") == "synced":
                    stream.cancel()
                    break
    except grpc.RpcError as err:
        return grpc_outcome(err)
    return "allowed"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("method", list(METHODS))
def test_grpc_methods_by_scope(tokened, method, role):
    srv, secrets = tokened
    metadata = list(auth(secrets, role).items())
    with grpc.insecure_channel(srv.address) as channel:
        outcome = run_method(sgrpc.WidgetServiceStub(channel), method, role, metadata)
    assert outcome == expected(METHODS[method], role)


@pytest.mark.parametrize("role", ROLES)
# gRPC-Web has no client streams: PublishValues is refused there for every caller.
@pytest.mark.parametrize("method", [m for m in METHODS if m != "PublishValues"])
def test_grpc_web_methods_by_scope(tokened, method, role):
    srv, secrets = tokened
    metadata = list(auth(secrets, role).items())
    with sonora.client.insecure_web_channel(base_url(srv)) as channel:
        outcome = run_method(WebStub(channel), method, role, metadata, web=True)
    assert outcome == expected(METHODS[method], role)


def connect_outcome(call, allowed_code: str = "OK") -> str:
    try:
        call()
    except ConnectError as err:
        name = err.code.name
        if name == "UNAUTHENTICATED":
            return "unauthenticated"
        if name == "PERMISSION_DENIED":
            return "denied"
        assert name == allowed_code, err
        return "allowed"
    assert allowed_code == "OK"
    return "allowed"


@pytest.mark.parametrize("role", ROLES)
def test_connect_methods_by_scope(tokened, role):
    srv, secrets = tokened
    headers = auth(secrets, role)
    with connect_client(srv) as client:
        calls = {
            "GetWidget": (lambda: client.get_widget(spb.GetWidgetRequest(id=SHARED),
                                                    headers=headers), "OK"),
            "ListWidgets": (lambda: client.list_widgets(spb.ListWidgetsRequest(),
                                                        headers=headers), "OK"),
            "PutWidget": (lambda: client.put_widget(
                spb.PutWidgetRequest(widget=widget(f"tok-connect-{role}")), headers=headers),
                "OK"),
            "UpdateWidget": (lambda: client.update_widget(
                spb.UpdateWidgetRequest(id=SHARED, name=f"connect {role}"), headers=headers),
                "OK"),
            "DeleteWidget": (lambda: client.delete_widget(spb.DeleteWidgetRequest(id=MISSING),
                                                          headers=headers), "NOT_FOUND"),
            "Subscribe": (lambda: list(client.subscribe(spb.SubscribeRequest(ids=[SHARED]),
                                                        headers=headers, timeout_ms=1000)),
                          "DEADLINE_EXCEEDED"),
        }
        for method, (call, allowed_code) in calls.items():
            assert connect_outcome(call, allowed_code) == expected(METHODS[method], role), method


@pytest.mark.parametrize("role", ROLES)
def test_health_is_open_and_reflection_needs_read(tokened, role):
    srv, secrets = tokened
    metadata = list(auth(secrets, role).items())
    with grpc.insecure_channel(srv.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        reply = health.Check(health_pb2.HealthCheckRequest(service=""), metadata=metadata,
                             timeout=TIMEOUT)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        try:
            replies = list(reflection.ServerReflectionInfo(iter([request]), metadata=metadata,
                                                           timeout=TIMEOUT))
            assert replies and replies[0].list_services_response.service
            outcome = "allowed"
        except grpc.RpcError as err:
            outcome = grpc_outcome(err)
    assert outcome == expected("read", role)


# The HTTP routes: (method, path, body, what it needs, the status when allowed).
ROUTES = [
    ("GET", "/widgets", None, "read", 200),
    ("GET", f"/widgets/{SHARED}", None, "read", 200),
    ("HEAD", f"/widgets/{SHARED}", None, "read", 200),
    ("POST", "/widgets", "create", "write", 201),
    ("PUT", "/widgets/tok-rest-{role}", "replace", "write", None),
    ("PATCH", f"/widgets/{SHARED}", "patch", "write", 200),
    ("DELETE", f"/widgets/{MISSING}", None, "write", 404),
    ("POST", "/values", "values", "write", 200),
    ("GET", "/metrics", None, "read", 200),
    ("GET", "/tokens", None, "admin", 200),
    ("DELETE", "/tokens/nobody", None, "admin", 404),
    ("GET", "/", None, None, 200),
    ("GET", "/index.txt", None, None, 200),
]


def route_body(kind: str | None, role: str):
    if kind == "create":
        return {"json": {"id": f"tok-post-{role}-{time.monotonic_ns()}", **rest_gauge()}}
    if kind == "replace":
        return {"json": rest_gauge()}
    if kind == "patch":
        return {"json": {"name": f"patched {role}"},
                "headers": {"content-type": "application/merge-patch+json"}}
    if kind == "values":
        return {"content": json.dumps({"id": SHARED, "value": 3.0}).encode(),
                "headers": {"content-type": "application/x-ndjson"}}
    return {}


def http_outcome(resp: httpx.Response, allowed_status: int | None) -> str:
    if resp.status_code == 401:
        assert resp.headers.get("www-authenticate") == "Bearer", resp.headers
        if resp.request.method != "HEAD":
            assert resp.headers["content-type"].startswith("application/problem+json")
            assert resp.json()["status"] == 401
        return "unauthenticated"
    if resp.status_code == 403:
        if resp.request.method != "HEAD":
            assert resp.headers["content-type"].startswith("application/problem+json")
        return "denied"
    if allowed_status is None:
        assert resp.status_code in (200, 201), resp.text
    else:
        assert resp.status_code == allowed_status, resp.text
    return "allowed"


@pytest.mark.parametrize("http2", [False, True], ids=["http1.1", "h2c"])
@pytest.mark.parametrize("role", ROLES)
def test_http_routes_by_scope(tokened, role, http2):
    srv, secrets = tokened
    with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT, http1=not http2,
                      http2=http2) as http:
        for method, path, body, required, allowed_status in ROUTES:
            extra = route_body(body, role)
            headers = {**auth(secrets, role), **extra.pop("headers", {})}
            resp = http.request(method, path.format(role=f"{role}-{int(http2)}"),
                                headers=headers, **extra)
            assert http_outcome(resp, allowed_status) == expected(required, role), (method, path)
        # The event stream: its head says whether it is served.
        with http.stream("GET", "/widgets/events", headers={
            **auth(secrets, role), "accept": "text/event-stream"}) as resp:
            if resp.status_code == 200:
                outcome = "allowed"
            else:
                resp.read()
                outcome = http_outcome(resp, 200)
        assert outcome == expected("read", role)


@pytest.mark.skipif(CURL is None, reason="curl is not installed")
@pytest.mark.parametrize("version", ["--http1.1", "--http2-prior-knowledge"])
def test_curl_sees_401_with_www_authenticate_and_reads_with_a_token(tokened, version):
    srv, secrets = tokened
    url = f"{base_url(srv)}/widgets/{SHARED}"
    refused = subprocess.run([CURL, "-sS", version, "-i", url], capture_output=True,
                             timeout=30, text=True)
    head = refused.stdout.lower()
    assert " 401" in head.splitlines()[0]
    assert "www-authenticate: bearer" in head
    assert "application/problem+json" in head
    allowed = subprocess.run(
        [CURL, "-sS", version, "-H", f"authorization: Bearer {secrets['read']}", url],
        capture_output=True, timeout=30, text=True)
    assert json.loads(allowed.stdout)["id"] == SHARED


def test_login_sets_a_strict_cookie_that_event_source_requests_use(tokened):
    srv, secrets = tokened
    with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT) as http:
        refused = http.post("/login", headers={"authorization": f"Bearer {secrets['unknown']}"})
        assert refused.status_code == 401
        assert "set-cookie" not in refused.headers
        assert http.post("/login").status_code == 401
        resp = http.post("/login", headers=auth(secrets, "read"))
        assert resp.status_code == 204
        cookie = resp.headers["set-cookie"]
        attributes = [part.strip() for part in cookie.split(";")]
        assert attributes[0] == f"gauged_token={secrets['read']}"
        assert {"HttpOnly", "Secure", "SameSite=Strict", "Path=/"} <= set(attributes)
        # httpx keeps a Secure cookie off http://, as browsers do off other origins: sent
        # by hand, as the browser sends it to its own origin.
        cookie_header = {"cookie": f"gauged_token={secrets['read']}"}
        reader = SSEReader(f"{base_url(srv)}/widgets/events?ids={SHARED}",
                           headers=cookie_header)
        try:
            assert reader.response.status_code == 200
            assert reader.next(timeout=30).event == "upsert"
        finally:
            reader.close()
        # The cookie's token keeps its own scope.
        assert http.delete(f"/widgets/{MISSING}", headers=cookie_header).status_code == 403
        cleared = http.delete("/login")
        assert cleared.status_code == 204
        assert "Max-Age=0" in cleared.headers["set-cookie"]


# --------------------------------------------------------------------------- prefixes


def team_stub(channel):
    return sgrpc.WidgetServiceStub(channel)


def test_a_prefix_token_reaches_only_its_prefix_in_get_list_and_writes(tokened):
    srv, secrets = tokened
    team = [("authorization", f"Bearer {secrets['team']}")]
    with grpc.insecure_channel(srv.address) as channel:
        stub = team_stub(channel)
        assert stub.GetWidget(spb.GetWidgetRequest(id="team-a-one"), metadata=team,
                              timeout=TIMEOUT).id == "team-a-one"
        for wid in ("team-b-one", SHARED):
            with pytest.raises(grpc.RpcError) as refused:
                stub.GetWidget(spb.GetWidgetRequest(id=wid), metadata=team, timeout=TIMEOUT)
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert "team-a-" in refused.value.details()
        listed = stub.ListWidgets(spb.ListWidgetsRequest(page_size=1000), metadata=team,
                                  timeout=TIMEOUT)
        assert {w.id for w in listed.widgets} == {"team-a-one", "team-a-two"}
        narrower = stub.ListWidgets(spb.ListWidgetsRequest(id_prefix="team-a-o"),
                                    metadata=team, timeout=TIMEOUT)
        assert [w.id for w in narrower.widgets] == ["team-a-one"]
        with pytest.raises(grpc.RpcError) as beside:
            stub.ListWidgets(spb.ListWidgetsRequest(id_prefix="team-b-"), metadata=team,
                             timeout=TIMEOUT)
        assert beside.value.code() == grpc.StatusCode.PERMISSION_DENIED
        with pytest.raises(grpc.RpcError) as outside:
            stub.PutWidget(spb.PutWidgetRequest(widget=widget("team-b-new")), metadata=team,
                           timeout=TIMEOUT)
        assert outside.value.code() == grpc.StatusCode.PERMISSION_DENIED
        for wid in ("team-b-one", SHARED):
            with pytest.raises(grpc.RpcError) as deleting:
                stub.DeleteWidget(spb.DeleteWidgetRequest(id=wid), metadata=team,
                                  timeout=TIMEOUT)
            assert deleting.value.code() == grpc.StatusCode.PERMISSION_DENIED
        summary = stub.PublishValues(
            iter([spb.ValueUpdate(id="team-b-one", value=1.0),
                  spb.ValueUpdate(id="team-a-one", value=1.5)]),
            metadata=team, timeout=TIMEOUT)
        assert summary.accepted == 1 and summary.rejected == 1
        assert [(r.index, r.id, r.code) for r in summary.rejections] == [
            (0, "team-b-one", grpc.StatusCode.PERMISSION_DENIED.value[0])]
        admin = [("authorization", f"Bearer {secrets['admin']}")]
        assert stub.GetWidget(spb.GetWidgetRequest(id="team-b-one"), metadata=admin,
                              timeout=TIMEOUT).content.gauge.value != 1.0


def test_a_prefix_token_never_sees_another_prefix_in_rest(tokened):
    srv, secrets = tokened
    with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT,
                      headers=auth(secrets, "team")) as http:
        listed = http.get("/widgets", params={"page_size": 1000})
        assert listed.status_code == 200
        assert {w["id"] for w in listed.json()["widgets"]} == {"team-a-one", "team-a-two"}
        refused = http.get("/widgets/team-b-one")
        assert refused.status_code == 403
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert http.put("/widgets/team-b-new", json=rest_gauge()).status_code == 403
        assert http.get("/widgets/team-b-one").status_code == 403


def test_a_prefix_token_subscribes_and_streams_only_its_prefix(tokened):
    srv, secrets = tokened
    team = [("authorization", f"Bearer {secrets['team']}")]
    admin = [("authorization", f"Bearer {secrets['admin']}")]
    reader = SSEReader(f"{base_url(srv)}/widgets/events",
                       headers={"authorization": f"Bearer {secrets['team']}"})
    with grpc.insecure_channel(srv.address) as channel:
        stub = team_stub(channel)
        stream = stub.Subscribe(spb.SubscribeRequest(), metadata=team, timeout=60)
        snapshot = []
        for event in stream:
            if event.WhichOneof("event") == "synced":
                break
            snapshot.append(event.upsert.id)
        assert sorted(snapshot) == ["team-a-one", "team-a-two"]
        # Another prefix changes first, then the token's own: only the latter arrives.
        stub.UpdateWidget(spb.UpdateWidgetRequest(id="team-b-one", name="b moved"),
                          metadata=admin, timeout=TIMEOUT)
        stub.UpdateWidget(spb.UpdateWidgetRequest(id="team-a-two", name="a moved"),
                          metadata=admin, timeout=TIMEOUT)
        live = next(iter(stream))
        assert live.upsert.id == "team-a-two"
        stream.cancel()
        with pytest.raises(grpc.RpcError) as beside:
            list(stub.Subscribe(spb.SubscribeRequest(ids=["team-b-one"]), metadata=team,
                                timeout=TIMEOUT))
        assert beside.value.code() == grpc.StatusCode.PERMISSION_DENIED
    try:
        assert reader.response.status_code == 200
        seen = []
        while True:
            event = reader.next(timeout=30)
            assert event is not None and not isinstance(event, Exception), event
            if event.event == "synced":
                break
            seen.append(json.loads(event.data)["id"])
        assert sorted(seen) == ["team-a-one", "team-a-two"]
        while True:
            event = reader.next(timeout=30)
            assert event is not None and not isinstance(event, Exception), event
            widget_id = json.loads(event.data)["id"]
            assert widget_id.startswith("team-a-"), widget_id
            if widget_id == "team-a-two":
                break
    finally:
        reader.close()
    with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT) as http:
        beside = http.get("/widgets/events", params={"prefix": "team-b-"},
                          headers={**auth(secrets, "team"), "accept": "text/event-stream"})
        assert beside.status_code == 403


# --------------------------------------------------------------------------- data dir


def create_token(data_dir: Path, name: str, scope: str, *extra: str) -> str:
    binary = os.environ.get("GAUGED_BIN", str(Path(__file__).parents[2] / ".build/debug/gauged"))
    out = subprocess.run([binary, "token", "create", name, "--scope", scope, *extra,
                          "--data-dir", str(data_dir)], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0, out.stderr
    secret = out.stdout.strip()
    assert secret.startswith("gd_") and len(secret) == 46
    return secret


def test_tokens_survive_a_restart_expire_and_never_reach_disk_or_logs(tmp_path):
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    data = tmp_path / "data"
    ops = create_token(data, "ops", "admin")
    brief = create_token(data, "brief", "read", "--expires", "1s")
    created = time.monotonic()
    srv = Server(args=["--data-dir", str(data)], extra_args=["--access-log"])
    srv.start()
    try:
        with grpc.insecure_channel(srv.address) as channel:
            stub = sgrpc.WidgetServiceStub(channel)
            stub.PutWidget(spb.PutWidgetRequest(widget=widget("kept")),
                           metadata=[("authorization", f"Bearer {ops}")], timeout=TIMEOUT)
            time.sleep(max(0.0, 1.5 - (time.monotonic() - created)))
            with pytest.raises(grpc.RpcError) as expired:
                stub.GetWidget(spb.GetWidgetRequest(id="kept"),
                               metadata=[("authorization", f"Bearer {brief}")], timeout=TIMEOUT)
            assert expired.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert "expired" in expired.value.details()
    finally:
        assert srv.stop() == 0
    srv.start(port=srv.port)
    try:
        with grpc.insecure_channel(srv.address) as channel:
            stub = sgrpc.WidgetServiceStub(channel)
            assert stub.GetWidget(spb.GetWidgetRequest(id="kept"),
                                  metadata=[("authorization", f"Bearer {ops}")],
                                  timeout=TIMEOUT).id == "kept"
            with pytest.raises(grpc.RpcError) as none:
                stub.GetWidget(spb.GetWidgetRequest(id="kept"), timeout=TIMEOUT)
            assert none.value.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        assert srv.stop() == 0
    files = [p for p in data.rglob("*") if p.is_file()]
    files += [srv.stdout_path, srv.stderr_path]
    assert srv.stderr_path.read_bytes(), "the access log wrote nothing to search"
    # The refusal is logged with its reason (a warn line), never with a secret.
    refusals = [line for line in srv.stderr_path.read_text().splitlines()
                if '"event":"access_refused"' in line]
    assert refusals and all('"level":"warn"' in line for line in refusals)
    for path in files:
        content = path.read_bytes()
        for secret in (ops, brief):
            assert secret.encode() not in content, path
            assert secret[3:].encode() not in content, path


# --------------------------------------------------------------------------- policy


def gauged_binary() -> str:
    return os.environ.get("GAUGED_BIN", str(Path(__file__).parents[2] / ".build/debug/gauged"))


def test_without_tokens_only_loopback_is_served(tmp_path):
    out = subprocess.run([gauged_binary(), "--memory", "--listen", "0.0.0.0:0"],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 2
    assert "0.0.0.0:0" in out.stderr and "--allow-unauthenticated" in out.stderr
    beside = subprocess.run([gauged_binary(), "--memory", "--listen", "127.0.0.1:0",
                             "--listen", "[::]:0"], capture_output=True, text=True, timeout=30)
    assert beside.returncode == 2


@pytest.mark.parametrize("how", ["allow", "tokens"])
def test_other_addresses_need_tokens_or_the_flag(tmp_path, how):
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    if how == "allow":
        extra = ["--listen", "0.0.0.0:0", "--allow-unauthenticated"]
    else:
        path = tmp_path / "tokens"
        path.write_text(f"ops admin {sha256_hex(new_secret())}\n")
        extra = ["--listen", "0.0.0.0:0", "--tokens-file", str(path)]
    srv = Server(extra_args=extra)
    srv.start()
    try:
        banner = srv.stdout_path.read_text()
        assert "gauged access:" in banner
        if how == "allow":
            assert "without authentication" in banner
        else:
            assert "1 token" in banner
    finally:
        assert srv.stop() == 0


def test_a_bad_tokens_file_line_is_named(tmp_path):
    path = tmp_path / "tokens"
    path.write_text("# fine\nops root " + "ab" * 32 + "\n")
    out = subprocess.run([gauged_binary(), "--memory", "--tokens-file", str(path)],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 2
    assert "line 2" in out.stderr and "scope" in out.stderr


# --------------------------------------------------------------------------- TokenService


def token_stub(channel):
    from gauge.v1 import token_service_pb2_grpc as tgrpc

    return tgrpc.TokenServiceStub(channel)


def test_token_service_is_admin_only(tokened):
    from gauge.v1 import token_service_pb2 as tpb

    srv, secrets = tokened
    with grpc.insecure_channel(srv.address) as channel:
        stub = token_stub(channel)
        for role in ROLES:
            metadata = list(auth(secrets, role).items())
            try:
                stub.ListTokens(tpb.ListTokensRequest(), metadata=metadata, timeout=TIMEOUT)
                outcome = "allowed"
            except grpc.RpcError as err:
                outcome = grpc_outcome(err)
            assert outcome == expected("admin", role), role


def test_tokens_made_at_run_time_work_list_without_secrets_and_revoke(tokened):
    from gauge.v1 import token_service_pb2 as tpb

    srv, secrets = tokened
    admin = [("authorization", f"Bearer {secrets['admin']}")]
    with grpc.insecure_channel(srv.address) as channel:
        tokens = token_stub(channel)
        made = tokens.CreateToken(
            tpb.CreateTokenRequest(name="live", scope=tpb.TOKEN_SCOPE_READ,
                                   prefix="team-a-"), metadata=admin, timeout=TIMEOUT)
        assert made.secret.startswith("gd_") and len(made.secret) == 46
        assert (made.token.name, made.token.scope, made.token.prefix) == (
            "live", tpb.TOKEN_SCOPE_READ, "team-a-")
        with pytest.raises(grpc.RpcError) as again:
            tokens.CreateToken(tpb.CreateTokenRequest(name="live", scope=tpb.TOKEN_SCOPE_READ),
                               metadata=admin, timeout=TIMEOUT)
        assert again.value.code() == grpc.StatusCode.ALREADY_EXISTS
        with pytest.raises(grpc.RpcError) as bad:
            tokens.CreateToken(tpb.CreateTokenRequest(name="no/slash"), metadata=admin,
                               timeout=TIMEOUT)
        assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "name" in bad.value.details() and "scope" in bad.value.details()

        listed = tokens.ListTokens(tpb.ListTokensRequest(), metadata=admin, timeout=TIMEOUT)
        names = [t.name for t in listed.tokens]
        assert names == sorted(names) and {"live", "ops", "reader", "team", "writer"} <= set(names)
        assert made.secret.encode() not in listed.SerializeToString()

        live = [("authorization", f"Bearer {made.secret}")]
        widgets = sgrpc.WidgetServiceStub(channel)
        stream = widgets.Subscribe(spb.SubscribeRequest(), metadata=live, timeout=60)
        seen = []
        for event in stream:
            if event.WhichOneof("event") == "synced":
                break
            seen.append(event.upsert.id)
        assert seen and all(wid.startswith("team-a-") for wid in seen)
        sse = SSEReader(f"{base_url(srv)}/widgets/events",
                        headers={"authorization": f"Bearer {made.secret}"})
        try:
            while (event := sse.next(timeout=30)).event != "synced":
                pass
            tokens.RevokeToken(tpb.RevokeTokenRequest(name="live"), metadata=admin,
                               timeout=TIMEOUT)
            # Both streams end by themselves (the bounds only guard against a hang).
            with pytest.raises(grpc.RpcError) as ended:
                for _ in stream:
                    pass
            assert ended.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert "revoked" in ended.value.details()
            while True:
                event = sse.next(timeout=30)
                if event is None:
                    break
                assert not isinstance(event, Exception), event
        finally:
            sse.close()
        with pytest.raises(grpc.RpcError) as refused:
            widgets.GetWidget(spb.GetWidgetRequest(id="team-a-one"), metadata=live,
                              timeout=TIMEOUT)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.RpcError) as gone:
            tokens.RevokeToken(tpb.RevokeTokenRequest(name="live"), metadata=admin,
                               timeout=TIMEOUT)
        assert gone.value.code() == grpc.StatusCode.NOT_FOUND


def test_a_token_made_at_run_time_survives_a_restart(tmp_path):
    from gauge.v1 import token_service_pb2 as tpb

    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    data = tmp_path / "data"
    ops = create_token(data, "ops", "admin")
    srv = Server(args=["--data-dir", str(data)])
    srv.start()
    try:
        with grpc.insecure_channel(srv.address) as channel:
            made = token_stub(channel).CreateToken(
                tpb.CreateTokenRequest(name="ci", scope=tpb.TOKEN_SCOPE_WRITE,
                                       expires_in_ms=3_600_000),
                metadata=[("authorization", f"Bearer {ops}")], timeout=TIMEOUT)
    finally:
        assert srv.stop() == 0
    srv.start(port=srv.port)
    try:
        with grpc.insecure_channel(srv.address) as channel:
            widgets = sgrpc.WidgetServiceStub(channel)
            widgets.PutWidget(spb.PutWidgetRequest(widget=widget("by-ci")),
                              metadata=[("authorization", f"Bearer {made.secret}")],
                              timeout=TIMEOUT)
            token_stub(channel).RevokeToken(tpb.RevokeTokenRequest(name="ci"),
                                            metadata=[("authorization", f"Bearer {ops}")],
                                            timeout=TIMEOUT)
    finally:
        assert srv.stop() == 0
    srv.start(port=srv.port)
    try:
        with grpc.insecure_channel(srv.address) as channel:
            with pytest.raises(grpc.RpcError) as revoked:
                sgrpc.WidgetServiceStub(channel).GetWidget(
                    spb.GetWidgetRequest(id="by-ci"),
                    metadata=[("authorization", f"Bearer {made.secret}")], timeout=TIMEOUT)
            assert revoked.value.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        assert srv.stop() == 0
    for path in [p for p in data.rglob("*") if p.is_file()]:
        assert made.secret.encode() not in path.read_bytes(), path


def test_when_a_token_was_last_used_survives_a_restart(tmp_path):
    from gauge.v1 import token_service_pb2 as tpb

    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    data = tmp_path / "data"
    ops = create_token(data, "ops", "admin")
    auditor = create_token(data, "auditor", "admin")
    srv = Server(args=["--data-dir", str(data)])
    srv.start()
    try:
        with grpc.insecure_channel(srv.address) as channel:
            # Several calls on one connection: checked once, each one a use.
            for _ in range(3):
                listed = token_stub(channel).ListTokens(
                    tpb.ListTokensRequest(), metadata=[("authorization", f"Bearer {ops}")],
                    timeout=TIMEOUT)
            used = {t.name: t.last_used_ms for t in listed.tokens}["ops"]
            assert abs(used - time.time() * 1000) < 60_000
    finally:
        # Written when gauged stops, if the minute's write has not come yet.
        assert srv.stop() == 0
    srv.start(port=srv.port)
    try:
        with grpc.insecure_channel(srv.address) as channel:
            # Read with another token, so that ops is not used again.
            listed = token_stub(channel).ListTokens(
                tpb.ListTokensRequest(), metadata=[("authorization", f"Bearer {auditor}")],
                timeout=TIMEOUT)
            after = {t.name: t for t in listed.tokens}["ops"]
            assert after.HasField("last_used_ms") and after.last_used_ms == used
    finally:
        assert srv.stop() == 0
    # Only the time is kept: the secret is never written.
    for path in [p for p in data.rglob("*") if p.is_file()]:
        assert ops.encode() not in path.read_bytes(), path


# --------------------------------------------------------------------------- gaugectl


def gaugectl(srv, *args: str, token: str | None = None, env_token: str | None = None):
    binary = os.environ.get("GAUGECTL_BIN") or str(Path(gauged_binary()).with_name("gaugectl"))
    env = {k: v for k, v in os.environ.items() if k != "GAUGED_TOKEN"}
    if env_token is not None:
        env["GAUGED_TOKEN"] = env_token
    argv = [binary, "--server", srv.address]
    if token is not None:
        argv += ["--token", token]
    return subprocess.run(argv + list(args), capture_output=True, text=True, timeout=30, env=env)


def test_gaugectl_makes_lists_and_revokes_tokens(tokened):
    srv, secrets = tokened
    made = gaugectl(srv, "token", "create", "ctl", "--scope", "write", "--prefix", "team-a-",
                    "--expires", "30d", env_token=secrets["admin"])
    assert made.returncode == 0, made.stderr
    secret = made.stdout.strip()
    assert secret.startswith("gd_") and len(secret) == 46
    # The new token writes inside its prefix only.
    assert gaugectl(srv, "set", "team-a-one", "2", token=secret).returncode == 0
    outside = gaugectl(srv, "set", "team-b-one", "2", token=secret)
    assert outside.returncode == 1 and "team-a-" in outside.stderr
    listed = gaugectl(srv, "--json", "token", "ls", env_token=secrets["admin"])
    assert listed.returncode == 0, listed.stderr
    rows = {t["name"]: t for t in json.loads(listed.stdout)}
    assert rows["ctl"]["scope"] == "write" and rows["ctl"]["prefix"] == "team-a-"
    assert "expires" in rows["ctl"] and "last_used" in rows["ctl"]
    assert secret not in listed.stdout
    # Not an admin: refused, and the message says why.
    denied = gaugectl(srv, "token", "ls", token=secrets["write"])
    assert denied.returncode == 1 and "admin" in denied.stderr
    missing = gaugectl(srv, "token", "ls")
    assert missing.returncode == 1 and "token" in missing.stderr.lower()
    bad_rate = gaugectl(srv, "token", "create", "ctl2", "--scope", "write", "--rate", "fast",
                        env_token=secrets["admin"])
    assert bad_rate.returncode == 2 and "--rate" in bad_rate.stderr
    rated = gaugectl(srv, "--json", "token", "create", "ctl2", "--scope", "write", "--rate",
                     "100/s", "--burst", "5", env_token=secrets["admin"])
    assert rated.returncode == 0, rated.stderr
    assert json.loads(rated.stdout)["secret"].startswith("gd_")
    listed_rest = httpx.get(f"{base_url(srv)}/tokens", headers=auth(secrets, "admin"),
                            timeout=TIMEOUT).json()["tokens"]
    ctl2 = next(t for t in listed_rest if t["name"] == "ctl2")
    assert (ctl2["write_rate_per_s"], ctl2["write_burst"]) == (100, 5)
    listed_ctl = json.loads(gaugectl(srv, "--json", "token", "ls",
                                     env_token=secrets["admin"]).stdout)
    assert {"name": "ctl2", "write_rate_per_s": 100, "write_burst": 5}.items() <= next(
        t for t in listed_ctl if t["name"] == "ctl2").items()
    revoked = gaugectl(srv, "token", "revoke", "ctl", env_token=secrets["admin"])
    assert revoked.returncode == 0, revoked.stderr
    after = gaugectl(srv, "get", "team-a-one", token=secret)
    assert after.returncode == 1 and "not known" in after.stderr


def test_rest_tokens_make_list_and_revoke(tokened):
    srv, secrets = tokened
    with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT,
                      headers=auth(secrets, "admin")) as http:
        made = http.post("/tokens", json={"name": "rest", "scope": "read",
                                          "expires_in_ms": 3_600_000})
        assert made.status_code == 201, made.text
        body = made.json()
        assert (body["name"], body["scope"], body["prefix"]) == ("rest", "read", "")
        assert body["secret"].startswith("gd_") and "expires" in body
        again = http.post("/tokens", json={"name": "rest", "scope": "read"})
        assert again.status_code == 409
        bad = http.post("/tokens", json={"name": "", "scope": "root", "expires_in_ms": -1})
        assert bad.status_code == 422
        assert {e["field"] for e in bad.json()["errors"]} == {"name", "scope", "expires_in_ms"}
        listed = http.get("/tokens")
        assert listed.status_code == 200
        assert "rest" in [t["name"] for t in listed.json()["tokens"]]
        assert body["secret"] not in listed.text
        reader = {"authorization": f"Bearer {body['secret']}"}
        assert http.get(f"/widgets/{SHARED}", headers=reader).status_code == 200
        assert http.get("/tokens", headers=reader).status_code == 403
        assert http.delete("/tokens/rest").status_code == 204
        assert http.get(f"/widgets/{SHARED}", headers=reader).status_code == 401
        assert http.delete("/tokens/rest").status_code == 404


# --------------------------------------------------------------------------- dashboard


@pytest.mark.skipif(shutil.which("chromium") is None or shutil.which("chromedriver") is None,
                    reason="needs Debian's chromium and chromium-driver")
def test_the_dashboard_asks_for_a_token_and_signs_in_with_post_login(tokened):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    srv, secrets = tokened
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.get(f"{base_url(srv)}/")

        def until(script: str, message: str):
            WebDriverWait(driver, 30, poll_frequency=0.05).until(
                lambda d: d.execute_script(script), message=message)

        until("return document.querySelector('dialog.login[open]') !== null",
              "the page never asked for a token")
        assert driver.execute_script("return document.body.dataset.connection") == "signing-in"
        field = driver.find_element("css selector", "dialog.login input")
        field.send_keys(secrets["unknown"])
        driver.find_element("css selector", "dialog.login button").click()
        until("return document.querySelector('dialog.login .problem').textContent !== ''",
              "a refused token showed no problem")
        assert "not known" in driver.execute_script(
            "return document.querySelector('dialog.login .problem').textContent")
        field.clear()
        field.send_keys(secrets["team"])
        driver.find_element("css selector", "dialog.login button").click()
        until("return document.body.dataset.connection === 'live'", "the page never went live")
        until("return document.querySelectorAll('[data-widget-id]').length >= 2",
              "no widget was drawn")
        shown = driver.execute_script(
            "return [...document.querySelectorAll('[data-widget-id]')]"
            ".map(c => c.dataset.widgetId)")
        # The team token's prefix, and only it.
        assert shown and all(wid.startswith("team-a-") for wid in shown), shown
        assert driver.execute_script("return document.cookie") == "", "the cookie is HttpOnly"
    finally:
        driver.quit()


# --------------------------------------------------------------------------- rate limits


@pytest.fixture
def limited(tmp_path):
    """A gauged whose tokens may make 3 writes at once, then 2 a second."""
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    secrets = {name: new_secret() for name in ("unary", "rest", "publish")}
    path = tmp_path / "tokens"
    path.write_text("".join(f"{name} write {sha256_hex(secret)}\n"
                            for name, secret in secrets.items()))
    srv = Server(extra_args=["--tokens-file", str(path), "--rate-limit-writes", "2/s",
                             "--rate-burst", "3", "--rate-limit-reads", "off"])
    srv.start()
    yield srv, secrets
    srv.stop()


def test_writes_over_the_rate_get_resource_exhausted_with_retry_info(limited):
    from google.rpc import error_details_pb2, status_pb2

    srv, secrets = limited
    metadata = [("authorization", f"Bearer {secrets['unary']}")]
    with grpc.insecure_channel(srv.address) as channel:
        stub = sgrpc.WidgetServiceStub(channel)
        refused = None
        # The burst is 3; at 2 a second, a fourth quick write is refused. More tries
        # only in case the machine is slow enough for the bucket to refill between.
        for attempt in range(50):
            try:
                stub.PutWidget(spb.PutWidgetRequest(widget=widget(f"rate-{attempt}")),
                               metadata=metadata, timeout=TIMEOUT)
            except grpc.RpcError as err:
                refused = err
                break
        assert refused is not None and attempt >= 3
        assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        details = dict(refused.trailing_metadata())["grpc-status-details-bin"]
        status = status_pb2.Status.FromString(details)
        retry = error_details_pb2.RetryInfo()
        assert status.details[0].Unpack(retry)
        delay = retry.retry_delay.seconds + retry.retry_delay.nanos / 1e9
        assert 0 < delay <= 0.5
        # Reads are not limited here, and other tokens have buckets of their own.
        stub.GetWidget(spb.GetWidgetRequest(id="rate-0"), metadata=metadata, timeout=TIMEOUT)


def test_rest_writes_over_the_rate_get_429_with_retry_after(limited):
    srv, secrets = limited
    with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT,
                      headers=auth(secrets, "rest")) as http:
        for attempt in range(50):
            resp = http.put(f"/widgets/rest-rate-{attempt}", json=rest_gauge())
            if resp.status_code != 201:
                break
        assert attempt >= 3 and resp.status_code == 429, resp.text
        assert resp.headers["retry-after"] == "1"
        assert resp.headers["content-type"].startswith("application/problem+json")


def test_published_values_over_the_rate_are_rejected_one_by_one(limited):
    srv, secrets = limited
    metadata = [("authorization", f"Bearer {secrets['publish']}")]
    unary = [("authorization", f"Bearer {secrets['unary']}")]
    with grpc.insecure_channel(srv.address) as channel:
        stub = sgrpc.WidgetServiceStub(channel)
        try:
            stub.PutWidget(spb.PutWidgetRequest(widget=widget("pub-rate")), metadata=unary,
                           timeout=TIMEOUT)
        except grpc.RpcError as err:  # the other test's bucket may be empty: wait for it
            assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            time.sleep(1)
            stub.PutWidget(spb.PutWidgetRequest(widget=widget("pub-rate")),
                           metadata=unary, timeout=TIMEOUT)
        summary = stub.PublishValues(
            iter([spb.ValueUpdate(id="pub-rate", value=1.0 + i / 10) for i in range(40)]),
            metadata=metadata, timeout=TIMEOUT)
    assert summary.accepted >= 3 and summary.rejected >= 1
    assert summary.accepted + summary.rejected == 40
    codes = {r.code for r in summary.rejections}
    assert codes == {grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]}
    # Rejected one by one, in stream order, the stream going on past them.
    indices = [r.index for r in summary.rejections]
    assert indices == sorted(indices) and indices[0] >= 3


def test_a_token_holds_at_most_max_subscriptions(tmp_path):
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    secret = new_secret()
    path = tmp_path / "tokens"
    path.write_text(f"watcher read {sha256_hex(secret)}\n")
    srv = Server(extra_args=["--tokens-file", str(path), "--max-subscriptions", "2"])
    srv.start()
    metadata = [("authorization", f"Bearer {secret}")]

    def subscribe(stub):
        stream = stub.Subscribe(spb.SubscribeRequest(), metadata=metadata, timeout=60)
        for event in stream:
            if event.WhichOneof("event") == "synced":
                return stream
        raise AssertionError("the subscription ended before synced")

    try:
        with grpc.insecure_channel(srv.address) as channel:
            stub = sgrpc.WidgetServiceStub(channel)
            first, second = subscribe(stub), subscribe(stub)
            with pytest.raises(grpc.RpcError) as third:
                subscribe(stub)
            assert third.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT) as http:
                sse = http.get("/widgets/events", headers={
                    "authorization": f"Bearer {secret}", "accept": "text/event-stream"})
                assert sse.status_code == 429
            # A closed one gives its place back (the bound only guards against a hang).
            first.cancel()
            deadline = time.monotonic() + 30
            while True:
                try:
                    subscribe(stub).cancel()
                    break
                except grpc.RpcError as err:
                    assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                    assert time.monotonic() < deadline, "the cancelled subscription kept its place"
                    time.sleep(0.05)
            second.cancel()
    finally:
        srv.stop()


def test_without_tokens_on_an_exposed_address_callers_are_limited_by_address():
    """--allow-unauthenticated on an address other machines reach: each client address
    gets the buckets a token would (here a loopback client, which shares the server)."""
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    srv = Server(extra_args=["--listen", "0.0.0.0:0", "--allow-unauthenticated",
                             "--rate-limit-writes", "2/s", "--rate-burst", "3",
                             "--rate-limit-reads", "off"])
    srv.start()
    try:
        with grpc.insecure_channel(srv.address) as channel:
            stub = sgrpc.WidgetServiceStub(channel)
            refused = None
            for attempt in range(50):
                try:
                    stub.PutWidget(spb.PutWidgetRequest(widget=widget(f"anon-{attempt}")),
                                   timeout=TIMEOUT)
                except grpc.RpcError as err:
                    refused = err
                    break
            assert refused is not None and attempt >= 3
            assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            # Health stays open and unlimited; reads are not limited here.
            health = health_pb2_grpc.HealthStub(channel)
            for _ in range(5):
                health.Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
            stub.GetWidget(spb.GetWidgetRequest(id="anon-0"), timeout=TIMEOUT)
        with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT) as http:
            statuses = [http.put(f"/widgets/anon-rest-{i}", json=rest_gauge()).status_code
                        for i in range(8)]
            assert 429 in statuses, statuses
    finally:
        srv.stop()


def test_an_exposed_server_without_tokens_makes_none_over_the_network():
    """Whoever made the first token there would lock everyone else out: the first is
    made offline."""
    from gauge.v1 import token_service_pb2 as tpb

    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    srv = Server(extra_args=["--listen", "0.0.0.0:0", "--allow-unauthenticated"])
    srv.start()
    try:
        with grpc.insecure_channel(srv.address) as channel:
            with pytest.raises(grpc.RpcError) as refused:
                token_stub(channel).CreateToken(
                    tpb.CreateTokenRequest(name="grab", scope=tpb.TOKEN_SCOPE_ADMIN),
                    timeout=TIMEOUT)
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert "offline" in refused.value.details()
            # Still open for widgets, as the operator asked.
            sgrpc.WidgetServiceStub(channel).PutWidget(
                spb.PutWidgetRequest(widget=widget("open")), timeout=TIMEOUT)
        with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT) as http:
            made = http.post("/tokens", json={"name": "grab", "scope": "admin"})
            assert made.status_code == 403
            assert made.headers["content-type"].startswith("application/problem+json")
    finally:
        srv.stop()


def test_a_token_made_with_its_own_write_rate_spends_it(tokened):
    from gauge.v1 import token_service_pb2 as tpb

    srv, secrets = tokened
    admin = [("authorization", f"Bearer {secrets['admin']}")]
    with grpc.insecure_channel(srv.address) as channel:
        made = token_stub(channel).CreateToken(
            tpb.CreateTokenRequest(name="slow", scope=tpb.TOKEN_SCOPE_WRITE,
                                   write_rate_per_s=1, write_burst=2),
            metadata=admin, timeout=TIMEOUT)
        assert (made.token.write_rate_per_s, made.token.write_burst) == (1, 2)
        slow = [("authorization", f"Bearer {made.secret}")]
        stub = sgrpc.WidgetServiceStub(channel)
        codes = []
        for attempt in range(4):
            try:
                stub.UpdateWidget(spb.UpdateWidgetRequest(id=SHARED, name=f"slow {attempt}"),
                                  metadata=slow, timeout=TIMEOUT)
                codes.append("OK")
            except grpc.RpcError as err:
                codes.append(err.code().name)
        # A burst of 2 at 1 a second: the third and fourth quick writes are refused
        # (unless the machine stalls for a second between them).
        assert codes[:2] == ["OK", "OK"] and "RESOURCE_EXHAUSTED" in codes[2:], codes
        # The server's own limit (1000/s) still holds for the other tokens.
        for _ in range(5):
            stub.GetWidget(spb.GetWidgetRequest(id=SHARED), metadata=admin, timeout=TIMEOUT)
    with httpx.Client(base_url=base_url(srv), timeout=TIMEOUT,
                      headers=auth(secrets, "admin")) as http:
        made = http.post("/tokens", json={"name": "slow-rest", "scope": "write",
                                          "write_rate_per_s": 5})
        assert made.status_code == 201, made.text
        assert (made.json()["write_rate_per_s"], made.json()["write_burst"]) == (5, 10)
        bad = http.post("/tokens", json={"name": "x", "scope": "write", "write_rate_per_s": -1})
        assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "write_rate_per_s"


def test_an_offline_token_keeps_its_write_rate_across_restarts(tmp_path):
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("starts a gauged of its own")
    data = tmp_path / "data"
    slow = create_token(data, "slow", "write", "--rate", "1/s", "--burst", "1")
    for round_ in range(2):
        srv = Server(args=["--data-dir", str(data)])
        srv.start()
        try:
            with grpc.insecure_channel(srv.address) as channel:
                stub = sgrpc.WidgetServiceStub(channel)
                metadata = [("authorization", f"Bearer {slow}")]
                stub.PutWidget(spb.PutWidgetRequest(widget=widget(f"slow-{round_}")),
                               metadata=metadata, timeout=TIMEOUT)
                with pytest.raises(grpc.RpcError) as refused:
                    for attempt in range(3):
                        stub.PutWidget(
                            spb.PutWidgetRequest(widget=widget(f"slow-{round_}-{attempt}")),
                            metadata=metadata, timeout=TIMEOUT)
                assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        finally:
            assert srv.stop() == 0
