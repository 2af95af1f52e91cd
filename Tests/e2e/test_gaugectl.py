"""gaugectl, the real binary, against a real gauged (and once against a stock
grpcio server): every command, JSON in and out, exit codes, publish from a
pipe, watch as events, as a rendered frame, and across server restarts.

Environment: GAUGECTL_BIN (default: gaugectl beside GAUGED_BIN, else
.build/debug/gaugectl).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from concurrent import futures
from datetime import datetime, timezone
from pathlib import Path

import grpc
import httpx
import pytest

from conftest import REPO, Server, _free_port
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import TIMEOUT, base_url, get, put, rpc_error, update, widget

E2E_DIR = Path(__file__).resolve().parent
EXPECTED = E2E_DIR / "expected"
WAIT = 5.0


def gaugectl_binary() -> Path:
    if "GAUGECTL_BIN" in os.environ:
        return Path(os.environ["GAUGECTL_BIN"])
    if "GAUGED_BIN" in os.environ:
        return Path(os.environ["GAUGED_BIN"]).with_name("gaugectl")
    return REPO / ".build/debug/gaugectl"


def clean_env(address: str, **extra: str) -> dict[str, str]:
    """The caller's environment without what would change gaugectl's output."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "COLUMNS", "LINES", "GAUGED_SERVER", "COLORTERM",
                     "GAUGECTL_NOW_MS")
    }
    env["GAUGED_SERVER"] = address
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def binary() -> Path:
    path = gaugectl_binary()
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(f"gaugectl not found at {path}: run `make build`", pytrace=False)
    return path


@pytest.fixture
def gaugectl(binary, server):
    """gaugectl(*args, stdin=None, env=None) -> CompletedProcess (text)."""

    def run(*args: str, stdin: str | None = None, address: str | None = None,
            timeout: float = 20, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(binary), *args],
            input=stdin if stdin is not None else "",
            capture_output=True, text=True, timeout=timeout,
            env=clean_env(address or server.address, **env),
        )

    return run


def rfc3339(unix_ms: int) -> str:
    """The REST face's time format: UTC, milliseconds, a Z."""
    moment = datetime.fromtimestamp(unix_ms // 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{unix_ms % 1000:03d}Z"


def ok(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, (
        f"exit {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    )
    return result


def failed(result: subprocess.CompletedProcess, code: int) -> list[str]:
    """The stderr lines of a run that had to exit with `code`."""
    assert result.returncode == code, (
        f"exit {result.returncode}, wanted {code}\nstdout: {result.stdout}\n"
        f"stderr: {result.stderr}"
    )
    return result.stderr.splitlines()


# --------------------------------------------------------------------------- put, get, set, ls, rm


def test_put_with_flags_stores_every_field(gaugectl, stub, new_id):
    wid = new_id()
    result = ok(gaugectl(
        "put", wid, "--gauge", "42", "--min", "0", "--max", "100", "--unit", "%",
        "--label", "CPU", "--subtitle", "all cores", "--name", "CPU load", "--icon", "cpu",
        "--accent", "orange", "--trend", "up", "--style", "accessory_circular_capacity",
        "--mark", "80:hot", "--mark", "20", "--gradient", "green,red", "--min-label", "idle",
        "--max-label", "busy", "--value-label", "42!",
    ))
    assert result.stdout.startswith(f"created {wid}: gauge 42 % in 0 … 100 (revision ")
    stored = get(stub, wid)
    assert stored.name == "CPU load"
    c = stored.content
    assert (c.label, c.subtitle, c.icon, c.unit, c.accent_color) == (
        "CPU", "all cores", "cpu", "%", "orange")
    assert c.trend == wpb.UP
    g = c.gauge
    assert (g.value, g.min_value, g.max_value) == (42, 0, 100)
    assert g.style == wpb.ACCESSORY_CIRCULAR_CAPACITY
    assert [(m.value, m.label if m.HasField("label") else None) for m in g.marks] == [
        (80, "hot"), (20, None)]
    assert list(g.gradient) == ["green", "red"]
    assert (g.min_label, g.max_label, g.current_value_label) == ("idle", "busy", "42!")

    again = ok(gaugectl("put", wid, "--progress", "0.25"))
    assert again.stdout.startswith(f"replaced {wid}: progress 25 % in 0 … 1")
    assert get(stub, wid).content.WhichOneof("template") == "progress"


def test_get_json_matches_the_server_and_reads_back_with_put_f(gaugectl, server, stub, new_id):
    wid = new_id()
    put(stub, widget(wid, name="Temp", content=wpb.Content(
        value=wpb.Value(value=21.5, min_value=-10), unit="°C", label="living room",
        trend=wpb.DOWN, accent_color="#FF8800")))
    stored = get(stub, wid)
    out = json.loads(ok(gaugectl("get", wid, "--json")).stdout)
    assert out == {
        "id": wid, "name": "Temp",
        "content": {
            "template": "value", "value": 21.5, "min_value": -10,
            "label": "living room", "unit": "°C", "trend": "down", "accent_color": "#FF8800",
        },
        "revision": stored.revision, "created_at": rfc3339(stored.created_at_ms),
        "updated_at": rfc3339(stored.updated_at_ms),
    }
    # The REST face's answer, member for member.
    with httpx.Client(base_url=base_url(server), timeout=TIMEOUT) as http:
        assert http.get(f"/widgets/{wid}").json() == out
    # The same JSON through standard input replaces the widget with itself.
    replaced = ok(gaugectl("put", "-f", "-", "--json", stdin=json.dumps(out)))
    after = json.loads(replaced.stdout)
    assert after["content"] == out["content"] and after["name"] == "Temp"
    assert after["revision"] > stored.revision


def test_put_from_a_json_file_in_every_shape(gaugectl, stub, new_id, tmp_path):
    wid = new_id()
    path = tmp_path / "widget.json"
    path.write_text(json.dumps({
        "template": "gauge", "value": 7, "min_value": 0, "max_value": 10, "unit": "GB",
        "label": "disk", "accent_color": "teal", "style": "linear",
        "marks": [{"value": 9, "label": "full"}],
    }))
    ok(gaugectl("put", wid, "-f", str(path)))
    g = get(stub, wid).content
    assert (g.gauge.value, g.gauge.max_value, g.unit, g.accent_color) == (7, 10, "GB", "teal")
    assert g.gauge.style == wpb.LINEAR
    assert g.gauge.marks[0].label == "full"

    # The README's example, as written there.
    temp = tmp_path / "temp.json"
    temp.write_text('{"template": "value", "value": 21.5, "unit": "°C"}')
    ok(gaugectl("put", wid, "-f", str(temp)))
    t = get(stub, wid).content
    assert (t.WhichOneof("template"), t.value.value, t.unit) == ("value", 21.5, "°C")

    # What `get --json` printed before it printed the REST shape.
    older = tmp_path / "older.json"
    older.write_text(json.dumps({
        "id": wid, "name": "Disk", "content": {
            "progress": {"value": 0.25}, "label": "/var", "trend": "UP"},
        "revision": 3, "created_at_ms": 1, "updated_at_ms": 2,
    }))
    ok(gaugectl("put", "-f", str(older)))
    o = get(stub, wid)
    assert (o.name, o.content.progress.value, o.content.label, o.content.trend) == (
        "Disk", 0.25, "/var", wpb.UP)


def test_table_output_of_get_and_ls(gaugectl, stub, new_id):
    prefix = new_id("-")
    put(stub, widget(prefix + "a", name="Alpha", content=wpb.Content(
        gauge=wpb.Gauge(value=5, min_value=0, max_value=10), unit="%")))
    put(stub, widget(prefix + "b", name="", content=wpb.Content(
        progress=wpb.Progress(value=0.5))))
    listed = ok(gaugectl("ls", prefix)).stdout.splitlines()
    assert listed[0].split() == ["ID", "TEMPLATE", "VALUE", "RANGE", "NAME", "REVISION",
                                 "UPDATED"]
    assert [line.split()[:3] for line in listed[1:]] == [
        [prefix + "a", "gauge", "5"], [prefix + "b", "progress", "50"]]
    assert "Alpha" in listed[1]

    details = ok(gaugectl("get", prefix + "a")).stdout
    assert f"id        {prefix}a\n" in details
    assert "value     5 %\n" in details
    assert "range     0 … 10\n" in details

    as_json = json.loads(ok(gaugectl("ls", prefix, "--json")).stdout)
    assert [w["id"] for w in as_json] == [prefix + "a", prefix + "b"]
    assert as_json[1]["content"] == {"template": "progress", "value": 0.5}


def test_ls_pages_through_more_than_one_page(gaugectl, stub, new_id):
    prefix = new_id("-")
    for i in range(1005):
        put(stub, widget(f"{prefix}{i:04d}"))
    ids = [w["id"] for w in json.loads(ok(gaugectl("ls", prefix, "--json")).stdout)]
    assert ids == [f"{prefix}{i:04d}" for i in range(1005)]


def test_set_changes_only_the_value_of_each_template(gaugectl, stub, new_id):
    g, p, v = new_id(), new_id(), new_id()
    put(stub, widget(g, content=wpb.Content(
        gauge=wpb.Gauge(value=1, min_value=0, max_value=10), unit="%", label="keep")))
    put(stub, widget(p, content=wpb.Content(progress=wpb.Progress(value=0.1))))
    put(stub, widget(v, content=wpb.Content(value=wpb.Value(value=1, max_value=2))))
    assert ok(gaugectl("set", g, "7.5")).stdout.startswith(f"{g} = 7.5 % (revision ")
    ok(gaugectl("set", p, "0.75"))
    ok(gaugectl("set", v, "-3"))
    after = get(stub, g).content
    assert (after.gauge.value, after.gauge.max_value, after.unit, after.label) == (
        7.5, 10, "%", "keep")
    assert get(stub, p).content.progress.value == 0.75
    assert (get(stub, v).content.value.value, get(stub, v).content.value.max_value) == (-3, 2)
    out = json.loads(ok(gaugectl("set", g, "8", "--json")).stdout)
    assert out["content"]["value"] == 8


def test_rm_removes_and_a_second_rm_is_rejected(gaugectl, stub, new_id):
    a, b = new_id(), new_id()
    put(stub, widget(a))
    put(stub, widget(b))
    assert ok(gaugectl("rm", a, b)).stdout == f"removed {a}\nremoved {b}\n"
    for wid in (a, b):
        assert rpc_error(get, stub, wid).code() == grpc.StatusCode.NOT_FOUND
    lines = failed(gaugectl("rm", a, "--json"), 1)
    assert lines == [f'gaugectl: rm {a}: NOT_FOUND: widget "{a}" not found']
    c = new_id()
    put(stub, widget(c))
    assert json.loads(ok(gaugectl("rm", c, "--json")).stdout) == {"removed": [c]}
    # Stopped by a failure: what went before it is still reported, in JSON too.
    d = new_id()
    put(stub, widget(d))
    partial = gaugectl("rm", d, a, "--json")
    failed(partial, 1)
    assert json.loads(partial.stdout) == {"removed": [d]}


# --------------------------------------------------------------------------- errors and exit codes


def test_rejected_put_exits_1_naming_every_field_and_rule(gaugectl, stub, new_id):
    wid = new_id()
    lines = failed(gaugectl(
        "put", wid, "--gauge", "170", "--min", "0", "--max", "100", "--accent", "nope",
        "--mark", "500"), 1)
    assert lines[0] == f"gaugectl: put {wid}: INVALID_ARGUMENT"
    assert lines[1:] == [
        "  content.gauge.value: 170 is outside [0, 100]",
        "  content.gauge.marks[0].value: 500 is outside [0, 100]",
        '  content.accent_color: "nope" is not a colour: use red, orange, yellow, green, '
        "blue, purple, pink, indigo, teal, cyan, mint, brown, or hex RRGGBB / RRGGBBAA",
    ]
    # A rejected write changes nothing.
    assert rpc_error(get, stub, wid).code() == grpc.StatusCode.NOT_FOUND

    # NaN is not caught locally: the server's rule names it.
    nan = failed(gaugectl("put", new_id(), "--gauge", "nan", "--min", "0", "--max", "1"), 1)
    assert nan[1:] == ["  content.gauge.value: must be finite, got NaN"]


def test_unusable_input_exits_1_and_usage_mistakes_exit_2(gaugectl, new_id, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"template": "gauge",\n  "value": }')
    assert failed(gaugectl("put", new_id(), "-f", str(broken)), 1) == [
        f"gaugectl: {broken}: not JSON: line 2, column 12: expected a value, found \"}}\""]
    unknown = tmp_path / "unknown.json"
    unknown.write_text('{"template": "gauge", "colour": "red", "value": "high"}')
    assert failed(gaugectl("put", new_id(), "-f", str(unknown)), 1) == [
        "gaugectl: the widget JSON is not usable:",
        "  colour: is not a field of a gauge widget",
        "  value: must be a number, got a string",
    ]
    rest = tmp_path / "rest.json"
    rest.write_text('{"content": {"template": "gauge", "value": 1, "marks": [{"value": "x"}]}}')
    assert failed(gaugectl("put", new_id(), "-f", str(rest)), 1) == [
        "gaugectl: the widget JSON is not usable:",
        "  content.marks[0].value: must be a number, got a string",
    ]
    assert failed(gaugectl("put", new_id(), "-f", str(tmp_path / "absent.json")), 1)[0] \
        .startswith("gaugectl: cannot read ")

    for args, message in [
        (["frob"], 'gaugectl: unknown command "frob"'),
        (["put", "x"], "gaugectl: put needs one of --gauge VALUE, --progress FRACTION, "
                       "--value VALUE, or -f FILE"),
        (["get"], "gaugectl: get needs ID"),
        (["set", "x", "fast"], 'gaugectl: set: "fast" is not a number'),
        (["ls", "--bogus"], "gaugectl: unknown option --bogus"),
        (["--timeout", "soon", "ls"],
         'gaugectl: --timeout: "soon" is not a duration like 500ms, 5s or 2m'),
        (["--server", "nowhere", "ls"],
         'gaugectl: --server: "nowhere" is not HOST:PORT or unix:PATH (missing \':port\')'),
        (["watch", "a", "--prefix", "b"], "gaugectl: watch takes IDs or --prefix, not both"),
    ]:
        lines = failed(gaugectl(*args), 2)
        assert lines[0] == message, args
        assert lines[1] == '  run "gaugectl --help" for usage'


def test_unreachable_server_exits_3(gaugectl):
    address = f"127.0.0.1:{_free_port()}"
    for args in (["ls"], ["get", "x"], ["publish"], ["watch", "--once"]):
        lines = failed(gaugectl(*args, address=address), 3)
        assert lines[0].startswith("gaugectl: "), lines
        assert "Connection refused" in lines[0], lines


def test_help_and_version(gaugectl):
    top = ok(gaugectl("--help")).stdout
    for command in ("put", "set", "get", "ls", "rm", "publish", "watch"):
        assert f"\n  {command} " in top
    assert "Exit codes: 0 ok, 1 rejected input, 2 usage error, 3 server unreachable." in top
    assert "--prefix P" in ok(gaugectl("watch", "--help")).stdout
    assert ok(gaugectl("--version")).stdout.startswith("gaugectl ")


# --------------------------------------------------------------------------- a stock server


class RecordingServer:
    """A grpcio server with GetWidget (records request metadata) and a
    ListWidgets that answers too late."""

    def __init__(self, compression=None, address="127.0.0.1:0"):
        self.metadata: list[tuple[str, str]] = []
        self.requested: list[str] = []
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=4),
                                  compression=compression)
        handlers = {
            "GetWidget": grpc.unary_unary_rpc_method_handler(
                self._get, request_deserializer=spb.GetWidgetRequest.FromString,
                response_serializer=wpb.Widget.SerializeToString),
            "ListWidgets": grpc.unary_unary_rpc_method_handler(
                self._list, request_deserializer=spb.ListWidgetsRequest.FromString,
                response_serializer=spb.ListWidgetsResponse.SerializeToString),
        }
        self.server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("gauge.v1.WidgetService", handlers),))
        self.port = self.server.add_insecure_port(address)
        self.server.start()

    def _get(self, request, context):
        self.metadata = list(context.invocation_metadata())
        self.requested.append(request.id)
        return wpb.Widget(id=request.id, name="from grpcio", revision=3, content=wpb.Content(
            gauge=wpb.Gauge(value=1, min_value=0, max_value=2)))

    def _list(self, request, context):
        time.sleep(3)
        return spb.ListWidgetsResponse()


def test_token_and_deadline_with_a_stock_grpc_server(gaugectl):
    stock = RecordingServer()
    try:
        address = f"127.0.0.1:{stock.port}"
        out = ok(gaugectl("--token", "s3cret", "get", "w", address=address)).stdout
        assert "name      from grpcio\n" in out
        sent = dict(stock.metadata)
        assert sent["authorization"] == "Bearer s3cret"
        assert sent["user-agent"].startswith("gauge-grpc-client/")

        started = time.monotonic()
        lines = failed(gaugectl("--timeout", "300ms", "ls", address=address), 3)
        assert time.monotonic() - started < 2.5
        assert lines[0].startswith(f"gaugectl: ls: gauged at {address} did not answer: ")
    finally:
        stock.server.stop(0)


def test_gaugectl_over_a_unix_socket(gaugectl, unix_server, new_id):
    wid = new_id()
    address = unix_server.address
    ok(gaugectl("put", wid, "--gauge", "0.5", "--min", "0", "--max", "1", address=address))
    out = ok(gaugectl("get", wid, address=address)).stdout
    assert "value     0.5\n" in out


def test_a_stock_grpc_server_on_a_unix_socket_takes_gaugectl_calls(gaugectl, tmp_path):
    """grpcio checks each request's :authority; gaugectl names a Unix socket
    server `localhost`, as grpc's own clients do."""
    address = f"unix:{tmp_path / 'stock.sock'}"
    stock = RecordingServer(address=address)
    try:
        out = ok(gaugectl("get", "w-unix", address=address)).stdout
        assert "name      from grpcio\n" in out
        assert stock.requested == ["w-unix"]
    finally:
        stock.server.stop(0)


def test_gzip_both_ways_with_a_stock_grpc_server(gaugectl):
    """--gzip: grpcio reads the compressed request, and its gzipped answer,
    sent because gaugectl accepts gzip, reads back whole. Without the flag
    the same server answers uncompressed."""
    stock = RecordingServer(compression=grpc.Compression.Gzip)
    try:
        address = f"127.0.0.1:{stock.port}"
        for flags in (["--gzip"], []):
            out = ok(gaugectl(*flags, "get", "w-gz", address=address)).stdout
            assert "name      from grpcio\n" in out
        assert stock.requested == ["w-gz", "w-gz"]
    finally:
        stock.server.stop(0)


def test_gzip_requests_to_gauged(gaugectl, stub, new_id):
    wid = new_id()
    ok(gaugectl("--gzip", "put", wid, "--gauge", "7", "--min", "0", "--max", "10"))
    assert get(stub, wid).content.gauge.value == 7
    ok(gaugectl("--gzip", "set", wid, "8"))
    out = ok(gaugectl("--gzip", "--json", "get", wid)).stdout
    assert json.loads(out)["content"]["value"] == 8


# --------------------------------------------------------------------------- publish


def test_publish_from_a_pipe_with_good_and_bad_lines(gaugectl, stub, new_id):
    cpu, disk = new_id(), new_id()
    put(stub, widget(cpu, content=wpb.Content(gauge=wpb.Gauge(value=0, min_value=0, max_value=100))))
    put(stub, widget(disk, content=wpb.Content(progress=wpb.Progress(value=0))))
    lines = [
        f"{cpu} 10",                              # 1 accepted
        "",                                       # 2 skipped
        "# a comment",                            # 3 skipped
        f"{new_id()} 5",                          # 4 unknown widget
        f"{cpu} 500",                             # 5 out of bounds
        json.dumps({"id": disk, "value": 0.5}),   # 6 accepted
        "garbage",                                # 7 unreadable
        f"{cpu}\t77",                             # 8 accepted
        json.dumps({"id": disk, "value": "x"}),   # 9 unreadable
    ]
    unknown = lines[3].split()[0]
    result = gaugectl("publish", stdin="\n".join(lines) + "\n")
    assert result.stdout == "published 5 values from 9 lines: 3 accepted, 4 rejected\n"
    assert failed(result, 1) == [
        "gaugectl: publish: 4 lines were rejected",
        f'  line 4: {unknown}: NOT_FOUND: widget "{unknown}" not found',
        f"  line 5: {cpu}: INVALID_ARGUMENT: content.gauge.value: 500 is outside [0, 100]",
        '  line 7: garbage: UNREADABLE: expected "ID VALUE" or a JSON object, got 1 field',
        f"  line 9: {disk}: UNREADABLE: value: must be a number, got a string",
    ]
    assert get(stub, cpu).content.gauge.value == 77
    assert get(stub, disk).content.progress.value == 0.5


def test_publish_json_summary_and_a_clean_stream(gaugectl, stub, new_id):
    wid = new_id()
    put(stub, widget(wid, content=wpb.Content(value=wpb.Value(value=0))))
    values = "".join(f"{wid} {i}\n" for i in range(5000))
    summary = json.loads(ok(gaugectl("publish", "--json", stdin=values)).stdout)
    assert summary == {"lines": 5000, "sent": 5000, "accepted": 5000, "rejected": 0,
                       "rejections": []}
    assert get(stub, wid).content.value.value == 4999

    bad = gaugectl("publish", "--json", stdin=f"{wid} 1\nnope 2\n")
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["rejections"] == [
        {"line": 2, "id": "nope", "code": "NOT_FOUND", "message": 'widget "nope" not found'}]


def test_publish_rejects_a_huge_id_and_keeps_the_stream(gaugectl, stub, new_id):
    """A 10 MB id would pass the server's message limit and end the stream
    for every line after it; it is refused on its own line instead."""
    wid = new_id()
    put(stub, widget(wid, content=wpb.Content(value=wpb.Value(value=0))))
    huge = "a" * 10_000_000
    result = gaugectl("publish", stdin=f"{wid} 1\n{huge} 2\n{wid} 3\n")
    assert result.stdout == "published 2 values from 3 lines: 2 accepted, 1 rejected\n"
    assert failed(result, 1) == [
        "gaugectl: publish: 1 line was rejected",
        f"  line 2: {'a' * 32}... (10000000 bytes): INVALID_ARGUMENT: "
        "id: must be at most 128 characters, got 10000000",
    ]
    assert get(stub, wid).content.value.value == 3


# --------------------------------------------------------------------------- watch


class Watch:
    """`gaugectl watch --events` running in the background, its lines queued."""

    def __init__(self, binary: Path, address: str, *args: str):
        self.proc = subprocess.Popen(
            [str(binary), "watch", "--events", *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=clean_env(address),
        )
        self.lines: queue.Queue = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put),
                         daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.errors.append),
                         daemon=True).start()

    @staticmethod
    def _pump(stream, sink):
        for line in stream:
            sink(line.rstrip("\n"))

    def next(self, timeout: float = WAIT) -> str:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"no event within {timeout}s; stderr: {self.errors}", pytrace=False)

    def until(self, prefix: str, timeout: float = WAIT) -> list[str]:
        """Every line up to and including the first that starts with `prefix`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.next(max(0.05, deadline - time.monotonic()))
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout=WAIT)


def test_watch_events_see_a_change_made_by_another_client(binary, server, stub, new_id):
    wid = new_id()
    put(stub, widget(wid, content=wpb.Content(gauge=wpb.Gauge(value=1, min_value=0, max_value=10))))
    watch = Watch(binary, server.address, wid)
    try:
        snapshot = watch.until("synced")
        assert [line.split()[0] for line in snapshot] == ["upsert", "synced"]
        assert snapshot[0].startswith(f"upsert id={wid} revision=")
        assert snapshot[0].endswith(" value=1")

        changed = update(stub, wid, content=wpb.Content(gauge=wpb.Gauge(value=6)))
        assert watch.next() == f"upsert id={wid} revision={changed.revision} value=6"
        stub.DeleteWidget(spb.DeleteWidgetRequest(id=wid), timeout=TIMEOUT)
        assert watch.next().startswith(f"removed id={wid} revision=")
    finally:
        assert watch.stop() == 0


def test_watch_events_with_deltas_show_values_alone(binary, server, stub, new_id):
    wid = new_id()
    put(stub, widget(wid, content=wpb.Content(gauge=wpb.Gauge(value=1, min_value=0, max_value=10))))
    watch = Watch(binary, server.address, wid, "--deltas")
    try:
        watch.until("synced")
        # The first change after synced is whole, the next a value alone.
        first = update(stub, wid, content=wpb.Content(gauge=wpb.Gauge(value=5)))
        assert watch.next() == f"upsert id={wid} revision={first.revision} value=5"
        second = update(stub, wid, content=wpb.Content(gauge=wpb.Gauge(value=6)))
        assert watch.next() == f"value id={wid} revision={second.revision} value=6"
    finally:
        assert watch.stop() == 0


def test_watch_events_as_json_and_once(gaugectl, stub, new_id):
    prefix = new_id("-")
    put(stub, widget(prefix + "a", name="A"))
    put(stub, widget(prefix + "b", name="B"))
    out = ok(gaugectl("watch", "--prefix", prefix, "--events", "--json", "--once")).stdout
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["event"] for e in events] == ["upsert", "upsert", "synced"]
    assert [e["widget"]["id"] for e in events[:2]] == [prefix + "a", prefix + "b"]
    assert events[0]["widget"]["content"] == {
        "template": "gauge", "value": 2, "min_value": 0, "max_value": 5, "style": "automatic"}
    assert events[2]["revision"] >= max(e["revision"] for e in events[:2])


def test_watch_rejects_a_bad_id_without_retrying(gaugectl):
    lines = failed(gaugectl("watch", "not an id!", "--events", timeout=10), 1)
    assert lines[0] == "gaugectl: watch: INVALID_ARGUMENT"
    assert lines[1:] == [
        '  ids: must start with a letter or digit and contain only letters, digits, "_" and "-"']


FRAME_PREFIX = "gaugectl-frame-"


def put_frame_widgets(stub) -> int:
    """Three known widgets; returns the newest updated_at_ms."""
    made = [
        put(stub, widget(FRAME_PREFIX + "cpu", name="CPU load", content=wpb.Content(
            gauge=wpb.Gauge(value=42, min_value=0, max_value=100, style=wpb.LINEAR_CAPACITY,
                            marks=[wpb.Mark(value=80)]),
            unit="%", label="all cores", subtitle="8 threads", trend=wpb.UP,
            accent_color="orange"))),
        put(stub, widget(FRAME_PREFIX + "disk", name="Disk", content=wpb.Content(
            progress=wpb.Progress(value=0.625), label="/var"))),
        put(stub, widget(FRAME_PREFIX + "ring", name="Battery", content=wpb.Content(
            gauge=wpb.Gauge(value=30, min_value=0, max_value=100,
                            style=wpb.ACCESSORY_CIRCULAR_CAPACITY),
            unit="%", label="phone", trend=wpb.DOWN, accent_color="green"))),
        put(stub, widget(FRAME_PREFIX + "temp", name="", content=wpb.Content(
            value=wpb.Value(value=21.5, min_value=0, max_value=40), unit="°C",
            subtitle="living room"))),
    ]
    return max(m.widget.updated_at_ms for m in made)


def test_watch_once_renders_the_expected_frame(gaugectl, stub):
    newest = put_frame_widgets(stub)
    # 42.5 s after the newest update: every widget (put within half a second)
    # reads "updated 42s ago".
    now = newest + 42_500
    result = ok(gaugectl("watch", "--prefix", FRAME_PREFIX, "--once",
                         COLUMNS="60", LINES="30", GAUGECTL_NOW_MS=str(now)))
    expected = (EXPECTED / "watch_once.txt").read_text()
    assert result.stdout == expected, (
        "frame differs from Tests/e2e/expected/watch_once.txt:\n" + result.stdout)
    assert "\x1b" not in result.stdout


def test_watch_once_in_colour_only_when_asked(gaugectl, stub):
    put_frame_widgets(stub)
    args = ("watch", FRAME_PREFIX + "cpu", "--once")
    coloured = ok(gaugectl(*args, "--color", "always", COLORTERM="truecolor")).stdout
    assert "\x1b[1;38;2;255;149;0m42 %\x1b[0m" in coloured  # the orange accent
    cube = ok(gaugectl(*args, "--color", "always")).stdout
    assert "\x1b[1;38;5;208m42 %\x1b[0m" in cube
    plain = ok(gaugectl(*args, "--color", "always", NO_COLOR="1")).stdout
    assert "\x1b[" in plain  # --color always overrides NO_COLOR
    assert "\x1b" not in ok(gaugectl(*args, COLORTERM="truecolor")).stdout  # not a terminal


# --------------------------------------------------------------------------- reconnecting


@pytest.fixture
def restartable():
    """A gauged of this test's own, at an address that survives restarts."""
    data_dir = Path(tempfile.mkdtemp(prefix="gaugectl-e2e-"))
    made: list[Server] = []

    def start(*store_args: str, port: int | None = None) -> Server:
        srv = Server(args=[a.replace("{data}", str(data_dir)) for a in store_args])
        srv.start(port=port)
        made.append(srv)
        return srv

    yield start
    for srv in made:
        srv.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


def put_value(address: str, wid: str, value: float) -> wpb.Widget:
    from gauge.v1 import widget_service_pb2_grpc as sgrpc
    with grpc.insecure_channel(address) as channel:
        return put(sgrpc.WidgetServiceStub(channel), widget(
            wid, content=wpb.Content(value=wpb.Value(value=value)))).widget


needs_own_server = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="restarts gauged processes of its own")


@needs_own_server
def test_watch_resumes_after_a_durable_restart_without_a_snapshot(binary, restartable):
    first = restartable("--data-dir", "{data}")
    for wid in ("r-keep", "r-change"):
        put_value(first.address, wid, 1)
    watch = Watch(binary, first.address, "--prefix", "r-")
    try:
        snapshot = watch.until("synced")
        assert [line.split()[1] for line in snapshot[:-1]] == ["id=r-change", "id=r-keep"]
        assert first.stop() == 0
        second = restartable("--data-dir", "{data}", port=first.port)
        # Resumed from the last synced revision with nothing changed since:
        # no reset, no widget resent, just synced.
        catch_up = watch.until("synced", timeout=15)
        assert len(catch_up) == 1, catch_up
        changed = put_value(second.address, "r-change", 2)
        assert watch.next() == f"upsert id=r-change revision={changed.revision} value=2"
        assert any(e.endswith("; reconnecting") for e in watch.errors), watch.errors
    finally:
        assert watch.stop() == 0


@needs_own_server
def test_watch_after_a_memory_restart_gets_a_reset_and_a_new_snapshot(binary, restartable):
    first = restartable("--memory")
    put_value(first.address, "m-gone", 1)
    put_value(first.address, "m-kept", 1)
    watch = Watch(binary, first.address, "--prefix", "m-")
    try:
        watch.until("synced")
        assert first.stop() == 0
        second = restartable("--memory", port=first.port)
        changed = put_value(second.address, "m-kept", 5)
        # The new server cannot resume the old one's revisions: reset, then
        # its own snapshot. m-kept arrives in it or right after it.
        after = watch.until("synced", timeout=15)
        assert after[0].startswith("reset "), after
        if not any(line.startswith("upsert id=m-kept") for line in after):
            after.append(watch.next())
        assert f"upsert id=m-kept revision={changed.revision} value=5" in after, after
        assert not any("m-gone" in line for line in after), after
    finally:
        assert watch.stop() == 0


# --------------------------------------------------------------------------- hostile widget text


def test_widget_text_reaches_the_terminal_escaped(gaugectl, stub, new_id):
    # Whoever writes a widget must not get to drive its readers' terminals.
    wid = new_id()
    put(stub, widget(wid, name="N\x1b]0;pwned\x07", content=wpb.Content(
        gauge=wpb.Gauge(value=5, min_value=0, max_value=10), label="L\x1b[2J\x1b[31mRED",
        subtitle="S\r", unit="\u009b5m%")))
    for args in (("get", wid), ("ls", wid), ("watch", "--once", "--color", "never", wid)):
        out = ok(gaugectl(*args)).stdout
        assert not any(c in out for c in "\x1b\x07\r\u009b"), (args, out)
    details = ok(gaugectl("get", wid)).stdout
    assert "L\\x1B[2J\\x1B[31mRED" in details
    assert "N\\x1B]0;pwned\\x07" in details
    # JSON escapes them its own way and stays JSON.
    as_json = ok(gaugectl("get", wid, "--json")).stdout
    assert not any(c in as_json for c in "\x1b\x07\r\u009b"), as_json
    assert json.loads(as_json)["content"]["unit"] == "\u009b5m%"


def test_nul_in_json_input_is_refused_not_cut(gaugectl, stub, new_id):
    # protobuf-c would send "pc\0xyz" as "pc": another widget would be written.
    wid = new_id()
    put(stub, widget(wid, content=wpb.Content(gauge=wpb.Gauge(value=1, min_value=0, max_value=9))))
    line = '{"id": "%s\\u0000x", "template": "gauge", "value": 7, "min_value": 0, "max_value": 9}'
    errors = failed(gaugectl("put", "-f", "-", stdin=line % wid), 1)
    assert "cannot hold NUL" in errors[0]
    failed(gaugectl("publish", stdin='{"id": "%s\\u0000x", "value": 7}\n' % wid), 1)
    assert get(stub, wid).content.gauge.value == 1


def test_publish_refuses_a_directory_or_a_closed_standard_input(binary, server, tmp_path):
    env = clean_env(server.address)
    directory = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        from_directory = subprocess.run([str(binary), "publish"], stdin=directory,
                                        capture_output=True, text=True, timeout=20, env=env)
    finally:
        os.close(directory)
    assert from_directory.returncode == 2, from_directory.stderr
    assert "standard input is a directory" in from_directory.stderr
    closed = subprocess.run(["sh", "-c", f"exec '{binary}' publish <&-"],
                            capture_output=True, text=True, timeout=20, env=env)
    assert closed.returncode == 2, closed.stderr
    assert "standard input is closed" in closed.stderr


def test_output_that_cannot_be_written_is_a_failure(binary, server, stub, new_id):
    # A full disk or a closed stdout loses the answer: exit 1, not 0.
    wid = new_id()
    put(stub, widget(wid))
    env = clean_env(server.address)
    with open("/dev/full", "w") as full:
        result = subprocess.run([str(binary), "get", wid], stdout=full, stderr=subprocess.PIPE,
                                text=True, timeout=20, env=env)
    assert result.returncode == 1, result.stderr
    assert "cannot write standard output" in result.stderr
    closed = subprocess.run(["sh", "-c", f"exec '{binary}' ls >&-"], capture_output=True,
                            text=True, timeout=20, env=env)
    assert closed.returncode == 1, closed.stderr


def test_watch_gives_up_on_a_peer_that_never_answers_and_says_so(binary):
    # TCP is accepted, HTTP/2 never spoken: --timeout bounds the wait for the first event,
    # then watch reports it and tries again, as for any lost connection.
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    address = "127.0.0.1:%d" % listener.getsockname()[1]
    try:
        watch = subprocess.Popen([str(binary), "--timeout", "500ms", "watch", "--events"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=clean_env(address))
        try:
            time.sleep(2.5)
        finally:
            watch.terminate()
            _, errors = watch.communicate(timeout=10)
        assert "no answer within 0.5 seconds; reconnecting" in errors, errors
    finally:
        listener.close()


def test_watch_ends_when_its_reader_goes_away(binary, server, stub, new_id):
    # `watch --events | head -1` must end with head, not at the next change (which may be
    # hours away).
    wid = new_id()
    put(stub, widget(wid))
    started = time.monotonic()
    result = subprocess.run(
        ["bash", "-c", f"set -o pipefail; '{binary}' watch --events '{wid}' | head -1"],
        capture_output=True, text=True, timeout=20, env=clean_env(server.address))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("upsert id=" + wid)
    assert time.monotonic() - started < 5
