"""Several gauged on one NATS JetStream bucket (`--nats`): a change made through one is
seen by gRPC and SSE subscribers of the others with the same revision, concurrent merge
patches of different fields through two instances all land, a subscriber whose instance
is killed resumes on another from its last revision without a gap, stale marks and
published values travel the same way, writes fail with UNAVAILABLE while NATS is down
and succeed once it is back, three gauged on a three-node cluster ride out lost nodes,
kill -9 loses no acknowledged write (nor a strict PublishValues value), a full
JetStream refuses writes as RESOURCE_EXHAUSTED, health is NOT_SERVING while NATS is
lost, and gauged export / import move widgets from a data directory into the bucket
and into a fresh data directory; also the start line, health, and the flags that do
not go with --nats.

Each test starts its own nats-server (JetStream, store in a temporary directory) on a
free loopback port, or three routed to each other: `$NATS_SERVER_BIN`, else
`nats-server` on the PATH or in /usr/sbin. Waiting is polling under a 30 s hang guard
(60 s for recoveries after lost nodes), never a timing assertion."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import grpc
import httpx
import pytest

from conftest import REPO, Server, _free_port
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc
from helpers import SSEReader, base_url, gauge_content, get, put, update, widget
from test_store import Producers, check_present
from test_subscribe import Subscription, kind

HANG_GUARD_S = 30.0
# A cluster that lost nodes needs leader elections, and libnats's ordered consumer
# notices a lost watch by missed heartbeats (about 5 s) before it makes it again:
# recoveries get twice the hang guard.
RECOVERY_GUARD_S = 2 * HANG_GUARD_S
MERGE = {"content-type": "application/merge-patch+json"}


def _nats_server_binary() -> str | None:
    if path := os.environ.get("NATS_SERVER_BIN"):
        return path
    return shutil.which("nats-server") or shutil.which("nats-server", path="/usr/sbin")


NATS_SERVER = _nats_server_binary()

pytestmark = [
    pytest.mark.skipif(NATS_SERVER is None, reason="nats-server is not installed"),
    pytest.mark.skipif(
        bool(os.environ.get("GAUGED_TARGET")), reason="starts gauged processes of its own"),
]


def eventually(what: str, predicate, timeout: float = HANG_GUARD_S):
    """Polls `predicate` until it returns something truthy; fails after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result := predicate():
            return result
        time.sleep(0.05)
    pytest.fail(f"{what}: not within {timeout:.0f} s")


class NATSServer:
    """One nats-server with JetStream on a free loopback port, killed at the end;
    `cluster_args` make it a node of a cluster."""

    def __init__(self, name: str = "n1", cluster_args: list[str] | None = None,
                 max_file_store: int | None = None) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix=f"gauged-e2e-nats-{name}-"))
        self.name = name
        self.port = _free_port()
        self.url = f"nats://127.0.0.1:{self.port}"
        self.extra_args = list(cluster_args or [])
        if max_file_store is not None:
            config = self.directory / "nats.conf"
            config.write_text(f"jetstream {{\n  max_file_store: {max_file_store}\n}}\n")
            self.extra_args += ["-c", str(config)]
        self._run()

    def _accepts(self) -> bool:
        assert self.proc.poll() is None, (self.directory / "nats.log").read_text()
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0

    def _run(self) -> None:
        log = (self.directory / "nats.log").open("ab")
        self.proc = subprocess.Popen(
            [NATS_SERVER, "-js", "-sd", str(self.directory / "store"), "-a", "127.0.0.1",
             "-p", str(self.port), "-n", self.name, *self.extra_args],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        eventually("nats-server accepting connections", self._accepts)

    def stop(self) -> None:
        """SIGTERM, and waits for the server to exit; `restart` brings it back on the
        same port with the same store."""
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=HANG_GUARD_S)

    def restart(self) -> None:
        self._run()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture
def nats():
    server = NATSServer()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
def nats_cluster():
    """Three nats-server nodes routed to each other on loopback: one JetStream cluster."""
    cluster_ports = [_free_port() for _ in range(3)]
    routes = ",".join(f"nats://127.0.0.1:{port}" for port in cluster_ports)
    nodes = []
    try:
        for index, port in enumerate(cluster_ports):
            nodes.append(NATSServer(f"n{index + 1}", [
                "--cluster_name", "gauged-e2e", "--cluster", f"nats://127.0.0.1:{port}",
                "--routes", routes]))
        yield nodes
    finally:
        for node in nodes:
            node.kill()


@pytest.fixture
def instances(nats):
    """instances(n) -> n gauged serving the bucket `gauged` on `nats`, stopped afterwards.
    Each is started once the previous one serves (it answers calls only once its
    replica has loaded the bucket)."""
    started: list[Server] = []

    def make(count: int, *extra: str) -> list[Server]:
        made = []
        for _ in range(count):
            srv = Server(args=["--nats", nats.url, *extra])
            started.append(srv)
            srv.start()
            made.append(srv)
        return made

    yield make
    for srv in started:
        srv.stop()


def stub_of(channels: list, srv: Server):
    channel = grpc.insecure_channel(srv.address)
    channels.append(channel)
    return widget_service_pb2_grpc.WidgetServiceStub(channel)


@pytest.fixture
def stubs():
    """stubs(server) -> a WidgetService stub on a channel of its own, closed afterwards."""
    channels: list = []
    yield lambda srv: stub_of(channels, srv)
    for channel in channels:
        channel.close()


class ClusterSubscription(Subscription):
    """A Subscribe stream whose reads wait up to the hang guard."""

    def next(self, timeout=HANG_GUARD_S):
        return super().next(timeout=timeout)


def metric(srv: Server, name: str) -> float:
    """The value of an unlabelled series in `srv`'s /metrics."""
    text = httpx.get(f"{base_url(srv)}/metrics", timeout=HANG_GUARD_S).text
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"no {name} in /metrics")


SERVING, NOT_SERVING = 1, 2


def health_of(srv: Server) -> int:
    """The server's overall health status (grpc.health.v1 numbers)."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    with grpc.insecure_channel(srv.address) as channel:
        return health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=""), timeout=HANG_GUARD_S).status


def sse_data(event) -> dict:
    return json.loads(event.data)


# --------------------------------------------------------------------------- start


@pytest.mark.parametrize(
    "args, message",
    [
        (["--data-dir", "{tmp}"], "--nats and --data-dir are exclusive"),
        (["--flush-interval-ms", "5"], "--nats and --flush-interval-ms are exclusive"),
        (["--memory"], "--nats and --memory are exclusive"),
        (["--self-widgets", "on"], "--self-widgets on is not available with --nats"),
        (["--nats-replicas", "2"], "--nats-replicas: \"2\" is not 1, 3 or 5"),
        (["--nats-bucket", "a.b"], "--nats-bucket: \"a.b\" is not a bucket name"),
    ],
)
def test_flags_that_do_not_go_with_nats_exit_2(nats, tmp_path, args, message):
    binary = os.environ.get("GAUGED_BIN", str(REPO / ".build/debug/gauged"))
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    run = subprocess.run(
        [binary, "--nats", nats.url, *args],
        stdin=subprocess.DEVNULL, capture_output=True, timeout=HANG_GUARD_S)
    assert run.returncode == 2, run.stderr
    assert message.encode() in run.stderr


def test_nats_companions_need_nats():
    binary = os.environ.get("GAUGED_BIN", str(REPO / ".build/debug/gauged"))
    run = subprocess.run(
        [binary, "--memory", "--nats-bucket", "b"],
        stdin=subprocess.DEVNULL, capture_output=True, timeout=HANG_GUARD_S)
    assert run.returncode == 2
    assert b"--nats-bucket needs --nats" in run.stderr


def test_each_instance_says_how_it_found_the_bucket_and_serves_once_loaded(instances):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    first, second = instances(2)
    third, = instances(1, "--nats-replicas", "3")
    assert "created with 1 replica" in first.stdout_path.read_text()
    assert "existing, 1 replica" in second.stdout_path.read_text()
    assert "existing with other settings" in third.stdout_path.read_text()
    for srv in (first, second, third):
        with grpc.insecure_channel(srv.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            for service in ("", "gauge.v1.WidgetService"):
                answer = health.Check(
                    health_pb2.HealthCheckRequest(service=service), timeout=HANG_GUARD_S)
                assert answer.status == health_pb2.HealthCheckResponse.SERVING


# --------------------------------------------------------------------------- fan-out


def test_a_write_through_one_reaches_grpc_and_sse_subscribers_of_the_others(instances, stubs):
    writer, grpc_side, sse_side = instances(3)
    wid = "cluster-cpu"
    grpc_sub = ClusterSubscription(stubs(grpc_side), ids=[wid])
    sse = SSEReader(f"{base_url(sse_side)}/widgets/events?ids={wid}", timeout=HANG_GUARD_S)
    try:
        grpc_sub.until_synced()
        sse.until_synced(timeout=HANG_GUARD_S)

        written = put(stubs(writer), widget(wid, content=gauge_content(label="cpu"))).widget
        seen = grpc_sub.until(lambda e: kind(e) == "upsert", timeout=HANG_GUARD_S)[-1]
        assert seen.revision == seen.upsert.revision == written.revision
        assert seen.upsert.content.label == "cpu"
        live = sse.until(lambda e: e.event == "upsert", timeout=HANG_GUARD_S)[-1]
        assert int(live.id) == sse_data(live)["revision"] == written.revision

        stubs(writer).DeleteWidget(spb.DeleteWidgetRequest(id=wid), timeout=HANG_GUARD_S)
        gone = grpc_sub.until(lambda e: kind(e) == "removed", timeout=HANG_GUARD_S)[-1]
        assert gone.removed == wid and gone.revision > written.revision
        removed = sse.until(lambda e: e.event == "removed", timeout=HANG_GUARD_S)[-1]
        assert int(removed.id) == gone.revision
        # Every instance answers reads with the same state.
        for srv in (writer, grpc_side, sse_side):
            with pytest.raises(grpc.RpcError) as missing:
                stubs(srv).GetWidget(spb.GetWidgetRequest(id=wid), timeout=HANG_GUARD_S)
            assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    finally:
        grpc_sub.cancel()
        sse.close()


# --------------------------------------------------------------------------- merges


def test_concurrent_merge_patches_of_different_fields_all_land(instances, stubs):
    """Each round, one thread patches the label through the first instance (gRPC
    UpdateWidget) and another the subtitle through the second (REST merge patch), let
    go together; once both have answered, the widget must come to hold both values (a
    lost update never would)."""
    first, second = instances(2)
    wid = "cluster-merge"
    put(stubs(first), widget(wid))
    rounds = 100
    failures: list = []

    def both_landed(n: int):
        def check():
            got = stubs(first).GetWidget(spb.GetWidgetRequest(id=wid), timeout=HANG_GUARD_S)
            return (got.content.label, got.content.subtitle) == (f"label {n}", f"subtitle {n}")
        return check

    checked = []

    def after_round():
        n = len(checked)
        eventually(f"round {n}: both fields", both_landed(n))
        checked.append(n)

    go = threading.Barrier(2, timeout=HANG_GUARD_S)
    done = threading.Barrier(2, action=after_round, timeout=HANG_GUARD_S * 2)

    def label_writer(stub):
        for n in range(rounds):
            go.wait()
            try:
                update(stub, wid, content=wpb.Content(label=f"label {n}"))
            except grpc.RpcError as err:
                failures.append(f"label {n}: {err.code().name} {err.details()}")
            done.wait()

    def subtitle_writer(http):
        for n in range(rounds):
            go.wait()
            resp = http.patch(
                f"/widgets/{wid}", json={"content": {"subtitle": f"subtitle {n}"}}, headers=MERGE)
            if resp.status_code != 200:
                failures.append(f"subtitle {n}: {resp.status_code} {resp.text}")
            done.wait()

    with httpx.Client(base_url=base_url(second), timeout=HANG_GUARD_S) as http:
        threads = [
            threading.Thread(target=label_writer, args=(stubs(first),), daemon=True),
            threading.Thread(target=subtitle_writer, args=(http,), daemon=True),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=HANG_GUARD_S * rounds)
            assert not thread.is_alive(), "a writer hung"
    assert failures == []
    assert checked == list(range(rounds))


# --------------------------------------------------------------------------- resume


def test_a_subscriber_resumes_on_another_instance_after_a_kill(instances, stubs):
    """kill -9 the instance a client subscribes through; the changes made while the
    client is away, and after, reach it through another instance from its last
    revision, with no reset and no gap: over gRPC (since_revision) and SSE
    (Last-Event-ID)."""
    doomed, survivor = instances(2)
    prefix = "cluster-resume-"
    ids = [f"{prefix}{n}" for n in range(6)]
    writer = stubs(survivor)
    for wid in ids:
        put(writer, widget(wid))
    sub = ClusterSubscription(stubs(doomed), id_prefix=prefix)
    try:
        sub.until_synced()
        update(writer, ids[0], content=wpb.Content(label="seen before the kill"))
        before = sub.until(lambda e: kind(e) == "upsert", timeout=HANG_GUARD_S)[-1]
        assert before.upsert.id == ids[0]
        last = before.revision
    finally:
        sub.cancel()
    doomed.proc.kill()
    doomed.proc.wait()

    # While the client is away: every widget but one changes, the last goes.
    away = {}
    for wid in ids[:-1]:
        away[wid] = update(writer, wid, content=wpb.Content(label="while away")).revision
    writer.DeleteWidget(spb.DeleteWidgetRequest(id=ids[-1]), timeout=HANG_GUARD_S)

    resumed = ClusterSubscription(stubs(survivor), id_prefix=prefix, since_revision=last)
    sse = SSEReader(
        f"{base_url(survivor)}/widgets/events?prefix={prefix}",
        headers={"last-event-id": str(last)}, timeout=HANG_GUARD_S)
    try:
        caught_up, synced = resumed.until_synced()
        assert [kind(e) for e in caught_up] == ["upsert"] * 5 + ["removed"]
        assert {e.upsert.id: e.upsert.revision for e in caught_up[:5]} == away
        assert caught_up[-1].removed == ids[-1]
        assert all(e.revision > last for e in caught_up)

        sse_caught_up, sse_synced = sse.until_synced(timeout=HANG_GUARD_S)
        assert [e.event for e in sse_caught_up] == ["upsert"] * 5 + ["removed"]
        assert {sse_data(e)["id"]: sse_data(e)["revision"] for e in sse_caught_up[:5]} == away
        assert int(sse_synced.id) == synced.revision

        # And what comes after is live on both.
        after = update(writer, ids[0], content=wpb.Content(label="after")).revision
        live = resumed.until(lambda e: kind(e) == "upsert", timeout=HANG_GUARD_S)[-1]
        assert (live.upsert.id, live.revision) == (ids[0], after)
        sse_live = sse.until(lambda e: e.event == "upsert", timeout=HANG_GUARD_S)[-1]
        assert int(sse_live.id) == after
    finally:
        resumed.cancel()
        sse.close()


# --------------------------------------------------------------------------- staleness


def test_a_widget_goes_stale_once_for_every_instance(instances, stubs):
    """Every instance watches the deadline; the mark is written once, through one of
    them, and subscribers of each see the same stale upsert with the same revision."""
    writer, other = instances(2)
    wid = "cluster-stale"
    subs = [ClusterSubscription(stubs(srv), ids=[wid]) for srv in (writer, other)]
    try:
        for sub in subs:
            sub.until_synced()
        watched = widget(wid)
        watched.stale_after_ms = 1000
        written = put(stubs(writer), watched).widget
        marks = [
            sub.until(lambda e: kind(e) == "upsert" and e.upsert.stale, timeout=HANG_GUARD_S)
            for sub in subs
        ]
        assert {seen[-1].revision for seen in marks} == {marks[0][-1].revision}
        assert marks[0][-1].revision > written.revision
        # Only one instance wrote the mark: nothing else arrives before a new write.
        fresh = update(stubs(other), wid, content=wpb.Content(label="fresh"))
        for sub in subs:
            after = sub.until(lambda e: kind(e) == "upsert" and not e.upsert.stale,
                              timeout=HANG_GUARD_S)
            assert [e.revision for e in after] == [fresh.revision]
    finally:
        for sub in subs:
            sub.cancel()


# --------------------------------------------------------------------------- values


def test_values_published_through_one_reach_a_subscriber_of_another(instances, stubs):
    publisher, reader = instances(2)
    wid = "cluster-values"
    put(stubs(publisher), widget(wid))
    sub = ClusterSubscription(stubs(reader), ids=[wid])
    try:
        sub.until_synced()
        values = [0.5, 1.5, 2.5, 3.5, 4.5]
        summary = stubs(publisher).PublishValues(
            iter([spb.ValueUpdate(id=wid, value=v) for v in values]
                 + [spb.ValueUpdate(id="cluster-absent", value=1)]),
            timeout=HANG_GUARD_S)
        assert (summary.accepted, summary.rejected) == (len(values), 1)
        # Coalescing may skip values in between; the last arrives, in order.
        seen = sub.until(lambda e: kind(e) == "upsert" and e.upsert.content.gauge.value == 4.5,
                         timeout=HANG_GUARD_S)
        revisions = [e.revision for e in seen]
        assert revisions == sorted(revisions)
        assert stubs(reader).GetWidget(
            spb.GetWidgetRequest(id=wid), timeout=HANG_GUARD_S).revision == revisions[-1]
    finally:
        sub.cancel()


def test_strict_values_acknowledged_survive_kill_9(instances, stubs):
    """--durability strict: a PublishValues summary comes once JetStream stored every
    value it counts (coalesced per widget, the latest winning); kill -9 of the
    instance right after it loses none. A value over its widget's bounds is rejected
    on its own."""
    doomed, survivor = instances(2, "--durability", "strict", "--rate-limit-writes", "off")
    ids = [f"cluster-strict-{n}" for n in range(20)]
    for wid in ids:
        put(stubs(doomed), widget(wid))
    updates = [spb.ValueUpdate(id=wid, value=(step + n) / 100)
               for step in range(1, 251) for n, wid in enumerate(ids)]
    updates.insert(100, spb.ValueUpdate(id=ids[0], value=99))
    summary = stubs(doomed).PublishValues(iter(updates), timeout=HANG_GUARD_S)
    assert (summary.accepted, summary.rejected) == (len(updates) - 1, 1)
    assert [r.index for r in summary.rejections] == [100]
    doomed.proc.kill()
    doomed.proc.wait()
    expected = {wid: (250 + n) / 100 for n, wid in enumerate(ids)}

    def survivor_values():
        return {wid: get(stubs(survivor), wid).content.gauge.value for wid in ids}

    eventually("every acknowledged last value on the survivor",
               lambda: survivor_values() == expected)


def test_bench_fanout_subscribes_through_other_instances(instances):
    """gauge-bench fanout --subscribe-targets (the bench's cluster scenario): the
    producer publishes through one instance, the subscribers read through the
    others, and every event they time came through the bucket."""
    producer, *readers = instances(3)
    bench = Path(os.environ.get("GAUGED_BIN", str(REPO / ".build/debug/gauged"))).with_name(
        "gauge-bench")
    run = subprocess.run(
        [str(bench), "fanout", "--target", producer.address, "--loops", "2",
         "--subscribe-targets", ",".join(r.address for r in readers), "--subscribers", "20",
         "--per-connection", "5", "--rate", "200", "--duration", "0.5"],
        capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout.strip().splitlines()[-1])
    assert (record["subscribers"], record["subscriber_failures"]) == (20, 0)
    assert 0 < record["delivered"] <= record["published"] * 20


# --------------------------------------------------------------------------- export and import


def gauged_command(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    binary = os.environ.get("GAUGED_BIN", str(REPO / ".build/debug/gauged"))
    return subprocess.run([binary, *args], input=stdin, capture_output=True,
                          timeout=HANG_GUARD_S)


def without_revisions(lines: list[str]) -> list[dict]:
    """Exported widgets as a store imported into serves them: revisions are its own."""
    widgets = [json.loads(line) for line in lines]
    for w in widgets:
        del w["revision"]
    return widgets


def test_export_from_sqlite_import_into_nats_and_a_fresh_data_dir(nats, instances, tmp_path):
    """gauged export reads a data directory; gauged import loads it into the bucket,
    where instances serve exactly the exported widgets (ids, content, timestamps),
    and into a fresh data directory, which exports the same again."""
    source = tmp_path / "source"
    srv = Server(args=["--data-dir", str(source)])
    srv.start()
    try:
        with httpx.Client(base_url=base_url(srv), timeout=HANG_GUARD_S) as http:
            for n in range(30):
                body = {"name": f"moved {n}", "content": {
                    "template": "gauge", "value": n / 10, "min_value": 0, "max_value": 5,
                    "label": f"label {n}", "marks": [{"value": 1, "label": "one"}]}}
                if n % 3 == 0:
                    body = {"content": {"template": "value", "value": n, "unit": "ms"},
                            "stale_after_ms": 600_000}
                assert http.put(f"/widgets/moved-{n}", json=body).status_code in (200, 201)
            assert http.delete("/widgets/moved-29").status_code in (200, 204)
    finally:
        srv.stop()

    exported = gauged_command("export", "--data-dir", str(source))
    assert exported.returncode == 0, exported.stderr
    lines = exported.stdout.decode().splitlines()
    assert sorted(json.loads(line)["id"] for line in lines) == sorted(
        f"moved-{n}" for n in range(29))
    expected = without_revisions(lines)

    imported = gauged_command("import", "--nats", nats.url, stdin=exported.stdout)
    assert imported.returncode == 0, imported.stderr
    assert b"29 widgets" in imported.stderr
    first, second = instances(2)
    for srv in (first, second):
        with httpx.Client(base_url=base_url(srv), timeout=HANG_GUARD_S) as http:
            served = [http.get(f"/widgets/{w['id']}").json() for w in expected]
        for w in served:
            del w["revision"]
        assert served == expected
    from_nats = gauged_command("export", "--nats", nats.url)
    assert from_nats.returncode == 0, from_nats.stderr
    assert without_revisions(from_nats.stdout.decode().splitlines()) == expected

    fresh = tmp_path / "fresh"
    into_fresh = gauged_command("import", "--data-dir", str(fresh), stdin=exported.stdout)
    assert into_fresh.returncode == 0, into_fresh.stderr
    again = gauged_command("export", "--data-dir", str(fresh))
    assert again.returncode == 0, again.stderr
    assert without_revisions(again.stdout.decode().splitlines()) == expected


def test_import_refuses_a_bad_line_and_writes_nothing(tmp_path):
    """A line that is not a valid widget stops the import before anything is written."""
    good = ('{"id":"a","name":"a","content":{"template":"value","value":1},'
            '"created_at":"2026-01-02T03:04:05.006Z","updated_at":"2026-01-02T03:04:05.007Z"}')
    bad = good.replace('"value":1', '"value":"one"').replace('"a"', '"b"')
    run = gauged_command("import", "--data-dir", str(tmp_path / "d"),
                         stdin=f"{good}\n{bad}\n".encode())
    assert run.returncode == 1
    assert b"line 2" in run.stderr and b"nothing imported" in run.stderr
    # Not even the directory was made; export says there is no store there.
    assert not (tmp_path / "d").exists()
    exported = gauged_command("export", "--data-dir", str(tmp_path / "d"))
    assert exported.returncode == 1
    assert b"there is no" in exported.stderr


# --------------------------------------------------------------------------- faults


def test_writes_fail_while_nats_is_down_and_resume_after(nats, instances, stubs):
    """With NATS stopped, writes fail with UNAVAILABLE naming NATS and change nothing;
    reads and subscribers stay; once it is back, writes succeed again and subscribers
    get them, without restarting gauged."""
    first, second = instances(2)
    wid = "cluster-fault"
    before = put(stubs(first), widget(wid)).widget
    sub = ClusterSubscription(stubs(second), ids=[wid])
    try:
        sub.until_synced()
        assert metric(first, "gauged_nats_connected") == 1
        assert metric(first, "gauged_nats_write_conflicts_total") == 0
        # The put above took one JetStream round trip, timed.
        assert metric(first, "gauged_nats_put_seconds_count") >= 1
        assert metric(first, "gauged_nats_put_seconds_sum") > 0
        assert health_of(first) == SERVING
        nats.stop()
        eventually("gauged_nats_connected 0", lambda: metric(first, "gauged_nats_connected") == 0)
        eventually("health NOT_SERVING while NATS is lost",
                   lambda: health_of(first) == NOT_SERVING)
        with pytest.raises(grpc.RpcError) as refused:
            update(stubs(first), wid, content=wpb.Content(label="while down"))
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        assert "NATS" in refused.value.details()
        published = stubs(first).PublishValues(
            iter([spb.ValueUpdate(id=wid, value=4.0)]), timeout=HANG_GUARD_S)
        assert (published.accepted, published.rejected) == (0, 1)
        assert published.rejections[0].code == grpc.StatusCode.UNAVAILABLE.value[0]
        assert "NATS" in published.rejections[0].message
        assert stubs(first).GetWidget(
            spb.GetWidgetRequest(id=wid), timeout=HANG_GUARD_S).revision == before.revision

        nats.restart()

        def written():
            try:
                return update(stubs(first), wid, content=wpb.Content(label="back"))
            except grpc.RpcError as err:
                assert err.code() == grpc.StatusCode.UNAVAILABLE, err
                return None

        after = eventually("a write after NATS is back", written, timeout=RECOVERY_GUARD_S)
        seen = sub.until(lambda e: kind(e) == "upsert", timeout=RECOVERY_GUARD_S)[-1]
        assert (seen.revision, seen.upsert.content.label) == (after.revision, "back")
        assert metric(first, "gauged_nats_connected") == 1
        eventually("health SERVING again", lambda: health_of(first) == SERVING)

        def logged():
            lines = first.stderr_path.read_text().splitlines()
            return [json.loads(line)["event"] for line in lines if line.endswith("}")]

        # The log line is written on libnats's thread, maybe after the write went through.
        events = eventually("nats_reconnected logged", lambda: "nats_reconnected" in logged()
                            and logged())
        assert events.index("nats_disconnected") < events.index("nats_reconnected")
    finally:
        sub.cancel()


def test_three_instances_on_a_three_node_cluster_ride_out_lost_nodes(nats_cluster, stubs):
    """Replicas 3 on three nodes, each gauged on its own node first: writes go on with
    one node killed, fail with UNAVAILABLE with two stopped, and succeed again once they
    are back, with every acknowledged write there, gauged not restarted. A refused
    write whose request timed out may still have landed, so every attempt writes an id
    of its own and only acknowledged ones must be there with their revision."""
    urls = [node.url for node in nats_cluster]
    gauged = []
    try:
        for index in range(3):
            servers = ",".join(urls[index:] + urls[:index])
            srv = Server(args=["--nats", servers, "--nats-replicas", "3"])
            gauged.append(srv)
            srv.start()
        acknowledged: dict[str, int] = {}
        attempted: set[str] = set()
        attempts = itertools.count()

        def write_through(srv: Server, name: str):
            """The revision of a put through `srv`, or None when it was refused."""
            wid = f"cluster-{name}-{next(attempts)}"
            attempted.add(wid)
            try:
                written = stubs(srv).PutWidget(
                    spb.PutWidgetRequest(widget=widget(wid)), timeout=HANG_GUARD_S).widget
            except grpc.RpcError as err:
                assert err.code() == grpc.StatusCode.UNAVAILABLE, err
                assert "NATS" in err.details()
                return None
            acknowledged[wid] = written.revision
            return written.revision

        for index, srv in enumerate(gauged):
            assert write_through(srv, f"all-up-{index}")

        nats_cluster[0].proc.kill()
        nats_cluster[0].proc.wait()
        for index, srv in enumerate(gauged):
            eventually(f"a write through gauged {index} with one node down",
                       lambda srv=srv, index=index: write_through(srv, f"one-down-{index}"),
                       timeout=RECOVERY_GUARD_S)

        nats_cluster[1].stop()
        eventually("a write refused with two nodes down",
                   lambda: write_through(gauged[2], "two-down") is None, timeout=RECOVERY_GUARD_S)

        nats_cluster[0].restart()
        nats_cluster[1].restart()
        for index, srv in enumerate(gauged):
            eventually(f"a write through gauged {index} with the nodes back",
                       lambda srv=srv, index=index: write_through(srv, f"back-{index}"),
                       timeout=RECOVERY_GUARD_S)
        for index, srv in enumerate(gauged):
            def holds_every_acknowledged_write(srv=srv):
                stored = {w.id: w.revision for w in stubs(srv).ListWidgets(
                    spb.ListWidgetsRequest(id_prefix="cluster-", page_size=1000),
                    timeout=HANG_GUARD_S).widgets}
                assert set(stored) <= attempted, set(stored) - attempted
                return all(stored.get(wid) == rev for wid, rev in acknowledged.items())
            eventually(f"gauged {index} holding every acknowledged write",
                       holds_every_acknowledged_write, timeout=RECOVERY_GUARD_S)
    finally:
        for srv in gauged:
            srv.stop()


def test_kill_9_loses_no_acknowledged_write(instances, stubs):
    """The durability check of the SQLite store, against NATS: producers write through
    one instance, which is killed with SIGKILL; every write it acknowledged is on the
    other instance and on one started afterwards (or a later write of the same
    producer, which an unacknowledged call may have made)."""
    doomed, survivor = instances(2)
    with Producers(stubs(doomed), "durable") as producers:
        eventually("a write acknowledged on every producer's widgets",
                   lambda: len(producers.latest()) >= 20)
        doomed.proc.kill()
        doomed.proc.wait()
        acked = producers.latest()
    eventually("every acknowledged write on the surviving instance",
               lambda: not check_present(stubs(survivor), acked))
    fresh, = instances(1)
    missing = check_present(stubs(fresh), acked)
    assert not missing, f"lost acknowledged writes: {missing[:5]}"


def test_a_full_jetstream_refuses_writes_as_resource_exhausted(stubs):
    """JetStream's storage limit reached: writes are refused with RESOURCE_EXHAUSTED
    (REST 507) naming NATS and change nothing; what was stored stays readable."""
    small = NATSServer(max_file_store=64 * 1024)
    srv = Server(args=["--nats", small.url, "--rate-limit-writes", "off"])
    try:
        srv.start()
        stub = stubs(srv)
        stored = []
        refused = None
        long_label = "x" * 200
        for n in range(5_000):
            wid = f"cluster-full-{n}"
            try:
                put(stub, widget(wid, content=gauge_content(label=long_label)))
            except grpc.RpcError as err:
                refused = (wid, err)
                break
            stored.append(wid)
        assert refused is not None, "64 KiB of JetStream storage took 5,000 widgets"
        assert stored, "not even one widget was stored"
        wid, err = refused
        assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, err
        assert "NATS" in err.details()
        with pytest.raises(grpc.RpcError) as missing:
            stub.GetWidget(spb.GetWidgetRequest(id=wid), timeout=HANG_GUARD_S)
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND
        assert stub.GetWidget(
            spb.GetWidgetRequest(id=stored[-1]), timeout=HANG_GUARD_S).content.label == long_label

        with httpx.Client(base_url=base_url(srv), timeout=HANG_GUARD_S) as http:
            resp = http.put(f"/widgets/{wid}", json={
                "content": {"template": "gauge", "value": 1, "min_value": 0, "max_value": 5,
                            "label": long_label}})
            assert resp.status_code == 507, resp.text
    finally:
        srv.stop()
        small.kill()
