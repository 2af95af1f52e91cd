"""CORS (--cors-origin) with httpx over HTTP/1.1 and HTTP/2 (h2c with prior knowledge):
preflights from allowed and other origins, the grant and the exposed fields on REST
answers, problems and the event stream's head, `*` without credentials, and the
origins gauged refuses to start with."""

from __future__ import annotations

import os
import subprocess

import httpx
import pytest

from conftest import Server
from helpers import TIMEOUT, base_url, rest_gauge

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="starts gauged processes of its own"
)

DASH = "https://dash.example.com"
LOCAL = "http://localhost:5173"
EVIL = "https://evil.example"
EXPOSED = {
    "grpc-status", "grpc-message", "grpc-status-details-bin", "grpc-encoding",
    "grpc-accept-encoding", "connect-content-encoding", "connect-accept-encoding",
    "content-encoding", "etag", "location", "retry-after",
}
MERGE = {"content-type": "application/merge-patch+json"}
# The protocol each client was opened for, to check that httpx really used it.
WANTED: dict[httpx.Client, str] = {}


@pytest.fixture(scope="module")
def listed():
    srv = Server(extra_args=["--cors-origin", DASH, "--cors-origin", LOCAL])
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def anyone():
    srv = Server(extra_args=["--cors-origin", "*"])
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(params=["http1", "http2"])
def client(request):
    """client(server) -> an httpx client on that server, over the parameter's protocol."""
    opened = []
    h2 = request.param == "http2"

    def make(srv: Server) -> httpx.Client:
        http = httpx.Client(
            base_url=base_url(srv), timeout=TIMEOUT, http2=h2, http1=not h2)
        opened.append(http)
        WANTED[http] = "HTTP/2" if h2 else "HTTP/1.1"
        return http

    yield make
    for http in opened:
        WANTED.pop(http)
        http.close()


def preflight(http: httpx.Client, origin: str, path: str = "/widgets/cpu", **extra):
    headers = {"origin": origin, "access-control-request-method": "PATCH", **extra}
    return http.options(path, headers=headers)


def expect_protocol(response: httpx.Response, http: httpx.Client) -> None:
    # http1=False over http:// is HTTP/2 with prior knowledge, which gauged speaks.
    assert response.http_version == WANTED[http]


def exposed(response: httpx.Response) -> set[str]:
    value = response.headers.get("access-control-expose-headers", "")
    return {name.strip().lower() for name in value.split(",") if name.strip()}


def no_grant(response: httpx.Response) -> None:
    granted = [name for name in response.headers if name.startswith("access-control-")]
    assert granted == [], response.headers


def test_a_preflight_from_a_listed_origin_is_answered_by_gauged(listed, client):
    http = client(listed)
    # Over HTTP/2 the transport still answers a gRPC method's path itself (405 for
    # anything but POST) until gRPC-Web and Connect hand such requests to the HTTP
    # faces; browsers reach gauged (no TLS) over HTTP/1.1 only.
    path = "/gauge.v1.WidgetService/GetWidget" if WANTED[http] == "HTTP/1.1" else "/widgets/cpu"
    r = preflight(
        http, DASH, path=path,
        **{"access-control-request-headers": "content-type, x-grpc-web, connect-protocol-version"})
    expect_protocol(r, http)
    assert r.status_code == 204
    assert r.content == b""
    assert r.headers["access-control-allow-origin"] == DASH
    assert r.headers["access-control-allow-credentials"] == "true"
    methods = {m.strip() for m in r.headers["access-control-allow-methods"].split(",")}
    assert methods == {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}
    assert r.headers["access-control-allow-headers"] == (
        "content-type, x-grpc-web, connect-protocol-version")
    assert r.headers["access-control-max-age"] == "7200"
    assert r.headers.get_list("vary") == ["origin"]
    # gauged answered, not the REST face (which names its methods in Allow).
    assert "allow" not in r.headers


def test_a_preflight_asking_no_headers_is_allowed_none(listed, client):
    r = preflight(client(listed), LOCAL)
    assert r.status_code == 204
    assert r.headers["access-control-allow-origin"] == LOCAL
    assert "access-control-allow-headers" not in r.headers


def test_a_preflight_from_another_origin_gets_what_options_gets_without_a_grant(
    listed, client
):
    http = client(listed)
    for origin in (EVIL, DASH + ":8443", DASH.upper()):
        r = preflight(http, origin)
        assert r.status_code == 204
        assert r.headers["allow"] == "GET, HEAD, PUT, PATCH, DELETE, OPTIONS"
        no_grant(r)
        assert r.headers.get_list("vary") == ["origin"]


def test_a_plain_options_goes_to_the_face_and_is_granted(listed, client):
    r = client(listed).options("/widgets/cpu", headers={"origin": DASH})
    assert r.status_code == 204
    assert r.headers["allow"] == "GET, HEAD, PUT, PATCH, DELETE, OPTIONS"
    assert r.headers["access-control-allow-origin"] == DASH
    assert "access-control-allow-methods" not in r.headers


def test_rest_answers_carry_the_grant_and_expose_etag_and_location(listed, client, new_id):
    http = client(listed)
    wid = new_id()
    created = http.patch(
        f"/widgets/{wid}", json=rest_gauge(), headers={**MERGE, "origin": DASH})
    expect_protocol(created, http)
    assert created.status_code == 201, created.text
    assert created.headers["access-control-allow-origin"] == DASH
    assert created.headers["access-control-allow-credentials"] == "true"
    assert exposed(created) == EXPOSED
    assert created.headers.get_list("vary") == ["origin"]
    assert "etag" in created.headers

    posted = http.post(
        "/widgets", json={"id": new_id(), **rest_gauge()}, headers={"origin": LOCAL})
    assert posted.status_code == 201, posted.text
    assert "location" in posted.headers
    assert posted.headers["access-control-allow-origin"] == LOCAL
    assert exposed(posted) == EXPOSED

    got = http.get(f"/widgets/{wid}", headers={"origin": DASH})
    assert got.status_code == 200
    assert got.headers["access-control-allow-origin"] == DASH
    assert got.json()["id"] == wid


def test_problems_carry_the_grant(listed, client, new_id):
    http = client(listed)
    missing = http.get(f"/widgets/{new_id()}", headers={"origin": DASH})
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    assert missing.headers["access-control-allow-origin"] == DASH
    rejected = http.patch(
        f"/widgets/{new_id()}", json=rest_gauge(value=9.0), headers={**MERGE, "origin": DASH})
    assert rejected.status_code == 422
    assert rejected.headers["access-control-allow-origin"] == DASH
    assert exposed(rejected) == EXPOSED


def test_a_request_from_no_or_another_origin_gets_only_vary(listed, client, new_id):
    http = client(listed)
    for headers in ({}, {"origin": EVIL}, {"origin": "null"}):
        r = http.get(f"/widgets/{new_id()}", headers=headers)
        assert r.status_code == 404
        no_grant(r)
        assert r.headers.get_list("vary") == ["origin"]


def test_the_event_streams_head_carries_the_grant(listed, client, new_id):
    http = client(listed)
    with http.stream(
        "GET", f"/widgets/events?ids={new_id()}", headers={"origin": DASH}
    ) as stream:
        expect_protocol(stream, http)
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["access-control-allow-origin"] == DASH
        assert stream.headers["access-control-allow-credentials"] == "true"
        assert exposed(stream) == EXPOSED
        # The body still flows: the snapshot of nothing ends with `synced`.
        seen = ""
        for chunk in stream.iter_text():
            seen += chunk
            if "synced" in seen:
                break
        assert "event: synced" in seen


def test_the_wildcard_grants_any_origin_without_credentials(anyone, client, new_id):
    http = client(anyone)
    r = http.get(f"/widgets/{new_id()}", headers={"origin": EVIL})
    assert r.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in r.headers
    assert exposed(r) == EXPOSED
    pre = preflight(http, EVIL, **{"access-control-request-headers": "content-type"})
    assert pre.status_code == 204
    assert pre.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in pre.headers
    assert pre.headers["access-control-allow-headers"] == "content-type"
    no_origin = http.get(f"/widgets/{new_id()}")
    no_grant(no_origin)


def test_without_the_flag_there_are_no_cors_fields(server, client):
    http = client(server)
    r = http.get("/widgets/none", headers={"origin": DASH})
    no_grant(r)
    assert "vary" not in r.headers
    pre = preflight(http, DASH)
    no_grant(pre)
    assert pre.headers["allow"] == "GET, HEAD, PUT, PATCH, DELETE, OPTIONS"


@pytest.mark.parametrize(
    ("origins", "says"),
    [
        (["*", DASH], "cannot be combined with listed origins"),
        (["https://dash.example.com/"], 'leave out "/"'),
        (["dash.example.com"], "not scheme://host[:port]"),
        (["https://dash.example.com:443"], "default port 443"),
    ],
)
def test_gauged_refuses_to_start_with_origins_no_browser_matches(listed, origins, says):
    argv = [listed.argv[0], "--memory", "--listen", "127.0.0.1:0"]
    for origin in origins:
        argv += ["--cors-origin", origin]
    out = subprocess.run(
        argv, capture_output=True, text=True, timeout=5, stdin=subprocess.DEVNULL)
    assert out.returncode == 2, out
    assert out.stderr.startswith("gauged: --cors-origin: "), out.stderr
    assert says in out.stderr
