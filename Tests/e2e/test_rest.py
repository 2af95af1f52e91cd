"""The REST/JSON face (/widgets, /values) through stock clients: httpx, and curl over
HTTP/1.1 and HTTP/2 with prior knowledge; changes seen across REST, gRPC and SSE."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading

import grpc
import httpx
import pytest

from conftest import Server
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import (
    TIMEOUT,
    RawH2,
    SSEReader,
    base_url,
    etag_revision,
    gauge,
    get,
    problem,
    put,
    rest_gauge,
    update,
    widget,
)

CURL = shutil.which("curl")
JSON = {"content-type": "application/json"}
MERGE = {"content-type": "application/merge-patch+json"}

# The seed page's example, byte for byte as a reader would paste it.
SEED_PATCH_BODY = """{
  "content": {
    "template": "gauge",
    "value": 2.4,
    "min_value": 0,
    "max_value": 5,
    "unit": "%",
    "label": "Errors",
    "subtitle": "api-gateway · last 5m · SLO 1.0%",
    "icon": "chart.line.uptrend.xyaxis",
    "accent_color": "red"
  }
}
"""


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=base_url(server), timeout=TIMEOUT) as client:
        yield client


@pytest.fixture
def fresh():
    """A private, empty gauged (in memory), stopped afterwards."""
    if os.environ.get("GAUGED_TARGET"):
        pytest.skip("needs a gauged of its own")
    srv = Server()
    srv.start()
    yield srv
    srv.stop()


def create(http, wid: str, body: dict | None = None) -> httpx.Response:
    resp = http.put(f"/widgets/{wid}", json=body or rest_gauge())
    assert resp.status_code == 201, resp.text
    return resp


# --------------------------------------------------------------------------- curl


class CurlAnswer:
    def __init__(self, status: int, version: str, headers: dict, body: bytes):
        self.status, self.version, self.headers, self.body = status, version, headers, body

    def json(self):
        return json.loads(self.body)


def curl(tmp_path, url: str, *args: str, h2c: bool = False) -> CurlAnswer:
    """One request with the stock curl; `h2c` speaks HTTP/2 with prior knowledge."""
    if CURL is None:
        pytest.fail("curl is not installed (apt-get install curl)")
    head, body = tmp_path / "curl-head", tmp_path / "curl-body"
    argv = [CURL, "-sS", "--max-time", "10", "-D", str(head), "-o", str(body),
            "-w", "%{http_code} %{http_version}"]
    argv += ["--http2-prior-knowledge"] if h2c else ["--http1.1"]
    out = subprocess.run(argv + list(args) + [url], capture_output=True, text=True, timeout=20,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 0, f"curl exited {out.returncode}: {out.stderr}"
    code, version = out.stdout.split()
    headers = {}
    # The last block of header lines is the final answer (after any 100 Continue).
    block = head.read_text(errors="replace").replace("\r\n", "\n").strip().split("\n\n")[-1]
    for line in block.splitlines()[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return CurlAnswer(int(code), version, headers, body.read_bytes())


# HTTP/1.1 always; h2c is the REST face over HTTP/2 (prior knowledge), which may lag.
PROTOCOLS = [
    pytest.param(False, id="http1.1"),
    pytest.param(True, id="h2c", marks=pytest.mark.h2c_rest),
]


# --------------------------------------------------------------------------- the seed page


def test_seed_patch_example_verbatim_creates_the_widget(fresh):
    with httpx.Client(base_url=base_url(fresh), timeout=TIMEOUT) as http:
        resp = http.patch("/widgets/error-rate", content=SEED_PATCH_BODY.encode(), headers=JSON)
        assert resp.status_code == 201, resp.text
        assert resp.headers["content-type"] == "application/json"
        revision = etag_revision(resp)
        body = resp.json()
        assert body["id"] == "error-rate"
        assert body["revision"] == revision
        assert body["content"] == {
            "template": "gauge", "value": 2.4, "min_value": 0, "max_value": 5,
            "style": "automatic", "unit": "%", "label": "Errors",
            "subtitle": "api-gateway · last 5m · SLO 1.0%",
            "icon": "chart.line.uptrend.xyaxis", "accent_color": "red",
        }
        assert http.get("/widgets/error-rate").json() == body

        # Out of bounds: 422 naming content.value, and nothing changed.
        bad = http.patch("/widgets/error-rate", json={"content": {"value": 7.5}}, headers=MERGE)
        err = problem(bad, 422, "content.value")
        assert "7.5" in err["detail"] and "[0, 5]" in err["detail"], err
        after = http.get("/widgets/error-rate")
        assert after.json() == body and etag_revision(after) == revision


def test_seed_patch_creation_names_what_it_created(fresh):
    """A 201 says where the new widget lives, whichever method created it."""
    with httpx.Client(base_url=base_url(fresh), timeout=TIMEOUT) as http:
        resp = http.patch("/widgets/error-rate", content=SEED_PATCH_BODY.encode(), headers=JSON)
        assert resp.status_code == 201, resp.text
        assert resp.headers["location"] == "/widgets/error-rate", resp.headers


@pytest.mark.parametrize("h2c", PROTOCOLS)
def test_seed_patch_example_with_curl(fresh, tmp_path, h2c):
    url = f"{base_url(fresh)}/widgets/error-rate"
    made = curl(tmp_path, url, "-X", "PATCH", "-H", "content-type: application/merge-patch+json",
                "--data-binary", SEED_PATCH_BODY, h2c=h2c)
    assert made.version == ("2" if h2c else "1.1")
    assert made.status == 201, made.body
    assert made.headers["etag"] == f'"{made.json()["revision"]}"'
    got = curl(tmp_path, url, h2c=h2c)
    assert got.status == 200 and got.json()["content"]["subtitle"] == (
        "api-gateway · last 5m · SLO 1.0%")
    assert got.headers["etag"] == made.headers["etag"]


@pytest.mark.parametrize("h2c", PROTOCOLS)
def test_curl_rejection_is_a_problem(server, tmp_path, new_id, h2c):
    wid = new_id()
    url = f"{base_url(server)}/widgets/{wid}"
    made = curl(tmp_path, url, "-X", "PUT", "-H", "content-type: application/json",
                "--data-binary", json.dumps(rest_gauge()), h2c=h2c)
    assert made.status == 201, made.body
    bad = curl(tmp_path, url, "-X", "PATCH", "-H", "content-type: application/json",
               "--data-binary", '{"content": {"value": -1}}', h2c=h2c)
    assert bad.status == 422, bad.body
    assert bad.headers["content-type"] == "application/problem+json"
    assert [e["field"] for e in bad.json()["errors"]] == ["content.value"]


def test_curl_body_over_1_mib_is_413(server, tmp_path):
    big = tmp_path / "big.ndjson"
    big.write_bytes(b'{"id": "x", "value": 1}\n' * 50_000)  # 1.2 MB
    ans = curl(tmp_path, f"{base_url(server)}/values", "-H", "content-type: application/x-ndjson",
               "--data-binary", f"@{big}")
    assert ans.status == 413, ans.body
    assert ans.headers["content-type"] == "application/problem+json"
    assert ans.json()["status"] == 413


@pytest.mark.h2c_rest
def test_h2c_body_over_1_mib_is_413_then_reset_with_no_error(server):
    """Over HTTP/2 the 413 comes while the body is still being sent: a whole response,
    then at most RST_STREAM(NO_ERROR) (RFC 9113 section 8.1). Debian's curl 7.88 reports
    such an early answer as error 92 most of the time, so this uses the h2 library."""
    body = b'{"id": "x", "value": 1}\n' * 50_000
    with RawH2(server.port) as raw:
        sid = raw.start("/values", content_type="application/x-ndjson")
        resp, sent = raw.responses[sid], 0
        while not resp.ended:
            room = min(raw.conn.local_flow_control_window(sid), raw.conn.max_outbound_frame_size,
                       len(body) - sent)
            if sent < len(body) and room > 0:
                raw.send(sid, body[sent:sent + room], end=sent + room == len(body))
                sent += room
            else:
                _read_once(raw)
    assert resp.status == 413, resp
    assert resp.headers[b"content-type"] == b"application/problem+json"
    assert json.loads(resp.data)["status"] == 413
    assert resp.reset_code in (None, 0), f"reset with error code {resp.reset_code}"


def _read_once(raw) -> None:
    """Reads and handles one batch of frames (window updates, the answer)."""
    chunk = raw.sock.recv(65536)
    if not chunk:
        raise ConnectionError("server closed the connection")
    for event in raw.conn.receive_data(chunk):
        raw._on(event)
    raw.flush()


# --------------------------------------------------------------------------- CRUD


def test_post_creates_with_location_then_409(http, new_id):
    wid = new_id()
    resp = http.post("/widgets", json={"id": wid, **rest_gauge(value=1)})
    assert resp.status_code == 201, resp.text
    assert resp.headers["location"] == f"/widgets/{wid}"
    assert resp.json()["content"]["value"] == 1
    revision = etag_revision(resp)

    again = http.post("/widgets", json={"id": wid, **rest_gauge(value=3)})
    problem(again, 409)
    got = http.get(resp.headers["location"])
    assert got.status_code == 200 and got.json()["content"]["value"] == 1
    assert etag_revision(got) == revision


def test_put_creates_then_replaces_whole(http, new_id):
    wid = new_id()
    first = http.put(f"/widgets/{wid}", json=rest_gauge(label="first", unit="%"))
    assert first.status_code == 201, first.text
    second = http.put(f"/widgets/{wid}", json={"content": {"template": "progress", "value": 0.25}})
    assert second.status_code == 200, second.text
    assert etag_revision(second) > etag_revision(first)
    content = http.get(f"/widgets/{wid}").json()["content"]
    assert content == {"template": "progress", "value": 0.25}  # label and unit went with it
    assert second.json()["created_at"] == first.json()["created_at"]


def test_put_id_in_body_must_match_path(http, new_id):
    wid = new_id()
    problem(http.put(f"/widgets/{wid}", json={"id": wid + "x", **rest_gauge()}), 422, "id")
    problem(http.get(f"/widgets/{wid}"), 404)


def test_get_one_and_list_with_prefix_and_paging(http, new_id):
    prefix = new_id("-list-")
    ids = [f"{prefix}{i}" for i in range(5)]
    for wid in reversed(ids):
        create(http, wid)
    create(http, new_id("-other"))

    one = http.get(f"/widgets/{ids[2]}")
    assert one.status_code == 200 and one.json()["id"] == ids[2]

    everything = http.get("/widgets", params={"prefix": prefix}).json()
    assert [w["id"] for w in everything["widgets"]] == ids
    assert everything["next_page_token"] == ""  # always present, empty on the last page

    seen, token, pages = [], None, 0
    while True:
        params = {"prefix": prefix, "page_size": 2}
        if token:
            params["page_token"] = token
        page = http.get("/widgets", params=params)
        assert page.status_code == 200, page.text
        body = page.json()
        assert len(body["widgets"]) <= 2
        seen += [w["id"] for w in body["widgets"]]
        pages += 1
        token = body["next_page_token"]
        if not token:
            break
        assert pages < 10, "paging does not end"
    assert seen == ids and pages == 3

    problem(http.get("/widgets", params={"page_size": "two"}), 422, "page_size")


def test_delete_then_404(http, new_id):
    wid = new_id()
    create(http, wid)
    gone = http.delete(f"/widgets/{wid}")
    assert gone.status_code == 204 and gone.content == b""
    problem(http.get(f"/widgets/{wid}"), 404)
    problem(http.delete(f"/widgets/{wid}"), 404)


def test_204_has_no_content_length(http, new_id):
    wid = new_id()
    create(http, wid)
    gone = http.delete(f"/widgets/{wid}")
    assert gone.status_code == 204
    assert "content-length" not in gone.headers, gone.headers


def test_merge_patch_null_clears_a_field_and_keeps_the_rest(http, new_id):
    wid = new_id()
    create(http, wid, rest_gauge(subtitle="sub", label="lab", min_label="low"))
    resp = http.patch(f"/widgets/{wid}", json={"content": {"subtitle": None, "min_label": None,
                                                           "value": 3}}, headers=MERGE)
    assert resp.status_code == 200, resp.text
    content = http.get(f"/widgets/{wid}").json()["content"]
    assert "subtitle" not in content and "min_label" not in content
    assert content["label"] == "lab" and content["value"] == 3 and content["max_value"] == 5

    # A required field cannot be cleared; nothing changes.
    before = http.get(f"/widgets/{wid}")
    bad = http.patch(f"/widgets/{wid}", json={"content": {"value": None, "label": None}},
                     headers=MERGE)
    problem(bad, 422, "content.value")
    assert http.get(f"/widgets/{wid}").json() == before.json()


def test_template_switch_needs_complete_content(http, new_id):
    wid = new_id()
    create(http, wid, {"content": {"template": "progress", "value": 0.5, "label": "kept"}})
    before = http.get(f"/widgets/{wid}").json()

    partial = http.patch(f"/widgets/{wid}", json={"content": {"template": "gauge", "value": 1}},
                         headers=MERGE)
    problem(partial, 422, "content.min_value", "content.max_value")
    assert http.get(f"/widgets/{wid}").json() == before

    whole = http.patch(f"/widgets/{wid}", json={"content": {
        "template": "gauge", "value": 1, "min_value": 0, "max_value": 2}}, headers=MERGE)
    assert whole.status_code == 200, whole.text
    content = whole.json()["content"]
    assert content["template"] == "gauge" and content["value"] == 1
    assert content["label"] == "kept"


def test_if_match_on_put_patch_delete(http, new_id):
    wid = new_id()
    etag = create(http, wid).headers["etag"]
    stale = '"1"'

    problem(http.put(f"/widgets/{wid}", json=rest_gauge(value=4), headers={"if-match": stale}),
            412)
    problem(http.patch(f"/widgets/{wid}", json={"content": {"value": 4}},
                       headers={**MERGE, "if-match": stale}), 412)
    problem(http.delete(f"/widgets/{wid}", headers={"if-match": stale}), 412)
    got = http.get(f"/widgets/{wid}")
    assert got.headers["etag"] == etag and got.json()["content"]["value"] == 2

    replaced = http.put(f"/widgets/{wid}", json=rest_gauge(value=3), headers={"if-match": etag})
    assert replaced.status_code == 200, replaced.text
    etag = replaced.headers["etag"]
    patched = http.patch(f"/widgets/{wid}", json={"content": {"value": 4}},
                         headers={**MERGE, "if-match": etag})
    assert patched.status_code == 200, patched.text
    problem(http.delete(f"/widgets/{wid}", headers={"if-match": etag}), 412)  # now stale
    deleted = http.delete(f"/widgets/{wid}", headers={"if-match": patched.headers["etag"]})
    assert deleted.status_code == 204
    problem(http.get(f"/widgets/{wid}"), 404)


# --------------------------------------------------------------------------- POST /values


def test_values_ndjson_mixed_lines(http, new_id):
    a, b = new_id(), new_id()
    create(http, a)
    create(http, b)
    body = "\n".join([
        json.dumps({"id": a, "value": 1}),
        json.dumps({"id": new_id("-absent"), "value": 1}),
        json.dumps({"id": a, "value": 99}),
        "{not json",
        json.dumps({"id": b, "value": 4.5}),
        "",
        json.dumps({"id": a, "value": "x"}),
        json.dumps({"id": a, "value": 2, "extra": 1}),
        json.dumps({"id": a, "value": 3}),
    ]) + "\n"
    resp = http.post("/values", content=body.encode(),
                     headers={"content-type": "application/x-ndjson"})
    assert resp.status_code == 200, resp.text
    out = resp.json()
    assert out["accepted"] == 3 and out["rejected"] == 5, out
    assert [(r["line"], r["status"]) for r in out["rejections"]] == [
        (2, 404), (3, 422), (4, 400), (7, 400), (8, 400)]
    assert out["rejections"][1]["id"] == a
    assert "99" in out["rejections"][1]["detail"]
    # The good lines were applied, the last one for `a` last.
    assert http.get(f"/widgets/{a}").json()["content"]["value"] == 3
    assert http.get(f"/widgets/{b}").json()["content"]["value"] == 4.5


def test_values_text_plain_mixed_lines_applied_in_order(http, stub, new_id):
    a = new_id()
    create(http, a)
    events = queue.Queue()
    call = stub.Subscribe(spb.SubscribeRequest(ids=[a]), timeout=30)

    def read():
        try:
            for event in call:
                events.put(event)
        except grpc.RpcError as err:
            events.put(err)

    threading.Thread(target=read, daemon=True).start()
    try:
        while events.get(timeout=TIMEOUT).WhichOneof("event") != "synced":
            pass
        body = f"# a comment\n{a} 1\n{a} 9\n{a} 4\nnope\n\n{a} x\n{a} 0.5\n"
        resp = http.post("/values", content=body.encode(), headers={"content-type": "text/plain"})
        assert resp.status_code == 200, resp.text
        out = resp.json()
        assert out["accepted"] == 3 and out["rejected"] == 3, out
        assert [(r["line"], r["status"]) for r in out["rejections"]] == [
            (3, 422), (5, 400), (7, 400)]
        # Whatever the subscriber is shown comes in line order and ends at the last good line.
        seen = []
        while not seen or seen[-1] != 0.5:
            event = events.get(timeout=TIMEOUT)
            assert not isinstance(event, Exception), event
            seen.append(event.upsert.content.gauge.value)
        assert seen == [v for v in [1, 4, 0.5] if v in seen], seen
        assert get(stub, a).content.gauge.value == 0.5
    finally:
        call.cancel()


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-ndjson"])
def test_values_crlf_line_endings(http, new_id, ctype):
    a = new_id()
    create(http, a)
    if ctype == "text/plain":
        body = f"{a} 1\r\n{a} 9\r\n{a} 3\r\n"
    else:
        body = "".join(json.dumps({"id": a, "value": v}) + "\r\n" for v in (1, 9, 3))
    out = http.post("/values", content=body.encode(), headers={"content-type": ctype}).json()
    assert out["accepted"] == 2 and out["rejected"] == 1, out
    assert [(r["line"], r["status"]) for r in out["rejections"]] == [(2, 422)], out
    assert http.get(f"/widgets/{a}").json()["content"]["value"] == 3


def test_values_all_rejected_changes_nothing(http, new_id):
    a = new_id()
    revision = etag_revision(create(http, a))
    resp = http.post("/values", content=f"{a} 10\n{a} -1\n".encode(),
                     headers={"content-type": "text/plain; charset=utf-8"})
    assert resp.json()["accepted"] == 0 and resp.json()["rejected"] == 2
    assert etag_revision(http.get(f"/widgets/{a}")) == revision


# --------------------------------------------------------------------------- bad requests


def test_malformed_json_names_line_and_column(http, new_id):
    wid = new_id()
    create(http, wid)
    body = b'{\n  "content": {"value": 1,}\n}'
    err = problem(http.patch(f"/widgets/{wid}", content=body, headers=MERGE), 400)
    assert "line 2, column 26" in err["detail"], err


def test_wrong_types_and_unknown_fields_name_the_field(http, new_id):
    wid = new_id()
    create(http, wid)
    before = http.get(f"/widgets/{wid}").json()
    err = problem(
        http.patch(f"/widgets/{wid}", json={"name": 5, "colour": "red",
                                             "content": {"value": "high", "bogus": 1}},
                   headers=MERGE),
        422, "name", "colour", "content.value", "content.bogus")
    assert len(err["errors"]) == 4, err
    problem(http.put(f"/widgets/{wid}", json={"content": {"template": "dial", "value": 1}}),
            422, "content.template")
    problem(http.post("/widgets", json=[1, 2]), 422, "body")
    assert http.get(f"/widgets/{wid}").json() == before


def test_wrong_content_type_is_415(http, new_id):
    wid = new_id()
    problem(http.put(f"/widgets/{wid}", content=json.dumps(rest_gauge()).encode(),
                     headers={"content-type": "text/plain"}), 415)
    problem(http.put(f"/widgets/{wid}", content=json.dumps(rest_gauge()).encode(),
                     headers={"content-type": ""}), 415)
    problem(http.post("/values", content=b"x 1\n", headers={"content-type": "text/csv"}), 415)
    problem(http.get(f"/widgets/{wid}"), 404)


def test_accept_mismatch_is_406(http, new_id):
    wid = new_id()
    create(http, wid)
    problem(http.get(f"/widgets/{wid}", headers={"accept": "text/html"}), 406)
    problem(http.get(f"/widgets/{wid}", headers={"accept": "application/json;q=0"}), 406)
    ok = http.get(f"/widgets/{wid}", headers={"accept": "text/html, application/*;q=0.5"})
    assert ok.status_code == 200


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("POST", "/widgets/x", "GET, HEAD, PUT, PATCH, DELETE, OPTIONS"),
    ("DELETE", "/widgets", "GET, HEAD, POST, OPTIONS"),
    ("GET", "/values", "POST, OPTIONS"),
])
def test_method_not_allowed_names_allow(http, method, path, allow):
    resp = http.request(method, path)
    problem(resp, 405)
    assert resp.headers["allow"] == allow


@pytest.mark.parametrize("h2c", PROTOCOLS)
def test_curl_405_and_204(server, tmp_path, new_id, h2c):
    wid = new_id()
    url = f"{base_url(server)}/widgets/{wid}"
    refused = curl(tmp_path, url, "-X", "POST", h2c=h2c)
    assert refused.status == 405
    assert refused.headers["allow"] == "GET, HEAD, PUT, PATCH, DELETE, OPTIONS"
    made = curl(tmp_path, url, "-X", "PUT", "-H", "content-type: application/json",
                "--data-binary", json.dumps(rest_gauge()), h2c=h2c)
    assert made.status == 201
    gone = curl(tmp_path, url, "-X", "DELETE", h2c=h2c)
    assert gone.status == 204 and gone.body == b""
    assert curl(tmp_path, url, h2c=h2c).status == 404


@pytest.mark.parametrize("path", ["/nope", "/widgets/a/b", "/widgetsx"])
def test_unknown_path_is_404_problem(http, path):
    problem(http.get(path), 404)


# --------------------------------------------------------------------------- across faces


def test_rest_change_reaches_grpc_subscribe(http, stub, new_id):
    wid = new_id()
    create(http, wid)
    call = stub.Subscribe(spb.SubscribeRequest(ids=[wid]), timeout=30)
    try:
        it = iter(call)
        first = next(it)
        assert first.WhichOneof("event") == "upsert" and first.upsert.content.gauge.value == 2
        assert next(it).WhichOneof("event") == "synced"
        resp = http.patch(f"/widgets/{wid}", json={"content": {"value": 4.25, "unit": "rpm"}},
                          headers=MERGE)
        assert resp.status_code == 200, resp.text
        event = next(it)
        assert event.WhichOneof("event") == "upsert"
        w = event.upsert
        assert w.content.gauge.value == 4.25 and w.content.unit == "rpm"
        assert w.revision == etag_revision(resp)
        assert http.delete(f"/widgets/{wid}").status_code == 204
        gone = next(it)
        assert gone.WhichOneof("event") == "removed" and gone.removed == wid
    finally:
        call.cancel()


def test_grpc_update_reaches_rest_and_sse(server, http, stub, new_id):
    wid = new_id()
    put(stub, widget(wid, content=wpb.Content(gauge=gauge(value=1), label="grpc")))
    with SSEReader(f"{base_url(server)}/widgets/events?ids={wid}") as sse:
        snapshot, synced = sse.until_synced()
        assert [json.loads(e.data)["content"]["value"] for e in snapshot] == [1]
        updated = update(stub, wid, content=wpb.Content(gauge=wpb.Gauge(value=3.5)))
        event = sse.until(lambda e: e.event == "upsert")[-1]
        data = json.loads(event.data)
        assert data["content"]["value"] == 3.5 and data["content"]["label"] == "grpc"
        assert int(event.id) == updated.revision == data["revision"]
    got = http.get(f"/widgets/{wid}")
    assert got.json()["content"]["value"] == 3.5
    assert etag_revision(got) == updated.revision
