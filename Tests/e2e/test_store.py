"""The durable store against real gauged processes, each with its own data dir.

Restarts (widgets, revisions, and removals reported to resuming subscribers),
kill -9 under a stream of acknowledged writes, a locked data dir, files that
cannot be opened, and a disk that fills up.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import grpc
import pytest

from conftest import REPO, STOP_TIMEOUT_S, Server
from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from gauge.v1 import widget_service_pb2_grpc as sgrpc
from helpers import TIMEOUT, delete, get, put, rpc_error, same_content, widget
from test_subscribe import Subscription, kind

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="starts gauged processes of its own"
)

DB = "gauged.sqlite3"


@pytest.fixture
def data_dir():
    path = Path(tempfile.mkdtemp(prefix="gauged-store-e2e-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


class Running:
    """A gauged on a data dir, with a stub; stopped on exit from the `with`."""

    def __init__(self, data_dir: Path, *flags: str, launcher=()):
        self.server = Server(args=["--data-dir", str(data_dir), *flags], launcher=launcher)

    def __enter__(self):
        self.server.start()
        self.channel = grpc.insecure_channel(self.server.address)
        self.stub = sgrpc.WidgetServiceStub(self.channel)
        return self

    def __exit__(self, *exc):
        self.channel.close()
        if self.server.proc.poll() is None:
            self.server.proc.kill()
            self.server.proc.wait()

    def stop(self) -> int:
        """SIGTERM; the exit status."""
        self.channel.close()
        self.server.proc.send_signal(signal.SIGTERM)
        return self.server.proc.wait(timeout=STOP_TIMEOUT_S + 10)

    def crash(self) -> None:
        self.server.proc.kill()
        self.server.proc.wait()
        self.channel.close()


def gauged(*args: str, timeout: float = 10) -> subprocess.CompletedProcess:
    """gauged run to completion (for the ways it refuses to start)."""
    binary = os.environ.get("GAUGED_BIN", str(REPO / ".build/debug/gauged"))
    return subprocess.run(
        [binary, "--listen", "127.0.0.1:0", *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
    )


def assert_refused_at_start(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode == 1, f"exit {result.returncode}; stderr {result.stderr!r}"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {result.stderr!r}"
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
    assert "listening" not in result.stdout


def plain_value(wid: str, value: float, name: str = "e2e") -> wpb.Widget:
    return widget(wid, name=name, content=wpb.Content(value=wpb.Value(value=value)))


def listed(stub) -> dict[str, wpb.Widget]:
    page = stub.ListWidgets(spb.ListWidgetsRequest(page_size=1000), timeout=TIMEOUT)
    assert not page.next_page_token
    return {w.id: w for w in page.widgets}


# --------------------------------------------------------------------------- restart


def test_restart_keeps_widgets_and_revisions_continue(data_dir):
    with Running(data_dir) as first:
        put(first.stub, widget("a", accent_color="orange", unit="%"))
        put(first.stub, widget("b"))
        put(first.stub, plain_value("c", 3.5))
        first.stub.UpdateWidget(spb.UpdateWidgetRequest(id="a", name="renamed"), timeout=TIMEOUT)
        delete(first.stub, "b")
        last = put(first.stub, plain_value("d", -1)).widget.revision
        before = listed(first.stub)
        assert first.stop() == 0, first.server.describe()

    with Running(data_dir) as second:
        after = listed(second.stub)
        assert sorted(after) == ["a", "c", "d"]
        for wid, stored in before.items():
            got = after[wid]
            assert (got.name, got.revision, got.created_at_ms, got.updated_at_ms) == (
                stored.name, stored.revision, stored.created_at_ms, stored.updated_at_ms
            )
            assert same_content(got.content, stored.content)
        assert rpc_error(get, second.stub, "b").code() == grpc.StatusCode.NOT_FOUND
        assert put(second.stub, widget("e")).widget.revision == last + 1
        assert second.stop() == 0


def resume(stub, since: int, prefix: str):
    """The catch-up a subscriber resuming from `since` gets, up to `synced`."""
    sub = Subscription(stub, id_prefix=prefix, since_revision=since)
    try:
        events, _ = sub.until_synced()
        return events
    finally:
        sub.cancel()


def test_a_subscriber_resumes_across_a_restart_with_removals_reported(data_dir):
    with Running(data_dir) as first:
        for wid in ("s-keep", "s-change", "s-remove"):
            put(first.stub, plain_value(wid, 1))
        sub = Subscription(first.stub, id_prefix="s-")
        _, synced = sub.until_synced()
        sub.cancel()
        put(first.stub, plain_value("s-change", 2))
        delete(first.stub, "s-remove")
        assert first.stop() == 0

    with Running(data_dir) as second:
        events = resume(second.stub, synced.revision, "s-")
        assert [kind(e) for e in events].count("reset") == 0, events
        assert {e.upsert.id: e.upsert.content.value.value for e in events if kind(e) == "upsert"} \
            == {"s-change": 2}
        assert [e.removed for e in events if kind(e) == "removed"] == ["s-remove"]
        second.crash()

    # After a crash the lost process may have handed out revisions the file never
    # saw: resuming from before it must start over.
    with Running(data_dir) as third:
        events = resume(third.stub, synced.revision, "s-")
        assert kind(events[0]) == "reset", events
        assert sorted(e.upsert.id for e in events[1:]) == ["s-change", "s-keep"]
        assert third.stop() == 0


def test_memory_mode_resets_subscribers_from_an_earlier_run(data_dir):
    memory = Server(args=["--memory"])
    memory.start()
    with grpc.insecure_channel(memory.address) as channel:
        stub = sgrpc.WidgetServiceStub(channel)
        put(stub, plain_value("m-a", 1))
        sub = Subscription(stub, id_prefix="m-")
        _, synced = sub.until_synced()
        sub.cancel()
    assert memory.stop() == 0
    memory.start()
    try:
        with grpc.insecure_channel(memory.address) as channel:
            stub = sgrpc.WidgetServiceStub(channel)
            for value in range(3):
                put(stub, plain_value("m-b", value))
            events = resume(stub, synced.revision, "m-")
            assert kind(events[0]) == "reset", events
            assert [e.upsert.id for e in events[1:]] == ["m-b"]
    finally:
        memory.stop()


# --------------------------------------------------------------------------- crashes


class Producers:
    """Threads that each update their own widgets with increasing values and
    note every acknowledged write: id -> [(value, revision, monotonic ack time)]."""

    def __init__(self, stub, prefix: str, threads: int = 4, widgets_each: int = 5,
                 value_only: bool = False):
        self.stub = stub
        self.prefix = prefix
        # Each widget put once, then only its value sent (UpdateWidget), which the store
        # logs in its value log rather than as widget rows.
        self.value_only = value_only
        self.acked: dict[str, list[tuple[float, int, float]]] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self._run, args=(n, widgets_each), daemon=True)
            for n in range(threads)
        ]

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=10)

    def _run(self, n: int, widgets_each: int) -> None:
        value = 0
        if self.value_only:
            for slot in range(widgets_each):
                self.stub.PutWidget(spb.PutWidgetRequest(
                    widget=plain_value(f"{self.prefix}-{n}-{slot}", 0)), timeout=TIMEOUT)
        while not self.stopping.is_set():
            value += 1
            wid = f"{self.prefix}-{n}-{value % widgets_each}"
            try:
                if self.value_only:
                    reply = self.stub.UpdateWidget(spb.UpdateWidgetRequest(
                        id=wid, content=wpb.Content(value=wpb.Value(value=value))),
                        timeout=TIMEOUT)
                else:
                    reply = self.stub.PutWidget(
                        spb.PutWidgetRequest(widget=plain_value(wid, value)), timeout=TIMEOUT
                    )
            except (grpc.RpcError, ValueError):  # ValueError: the channel is closed
                if self.stopping.is_set():
                    return
                continue  # the server is going away; the call was not acknowledged
            revision = reply.revision if self.value_only else reply.widget.revision
            with self.lock:
                self.acked.setdefault(wid, []).append((value, revision, time.monotonic()))

    def latest(self, before: float = float("inf")) -> dict[str, tuple[float, int, float]]:
        """The last write of each widget acknowledged before `before`."""
        with self.lock:
            found = {}
            for wid, writes in self.acked.items():
                earlier = [w for w in writes if w[2] < before]
                if earlier:
                    found[wid] = earlier[-1]
            return found


def check_present(stub, acked: dict[str, tuple[float, int, float]]) -> list[str]:
    """Every acknowledged write is there, or a later one of the same producer."""
    stored = listed(stub)
    missing = []
    for wid, (value, revision, _) in acked.items():
        got = stored.get(wid)
        if got is None or got.content.value.value < value:
            missing.append(f"{wid}: acknowledged {value} (r{revision}), stored "
                           f"{None if got is None else got.content.value.value}")
    return missing


def test_kill_9_loses_no_acknowledged_strict_write(data_dir):
    highest_acked = 0
    for round_ in range(3):
        with Running(data_dir, "--durability", "strict") as running:
            if round_:
                # The revisions a killed server handed out are never reused.
                first = put(running.stub, plain_value(f"probe-{round_}", 0)).widget.revision
                assert first > highest_acked
            with Producers(running.stub, f"r{round_}") as producers:
                time.sleep(0.6)
                running.crash()
                acked = producers.latest()
            assert len(acked) >= 10, "too few writes were acknowledged to test anything"
            highest_acked = max(r for _, r, _ in acked.values())
        with Running(data_dir, "--durability", "strict") as restarted:
            missing = check_present(restarted.stub, acked)
            assert not missing, f"round {round_}: lost acknowledged writes: {missing[:5]}"
            restarted.crash()


def test_kill_9_loses_no_acknowledged_value_only_update(data_dir):
    """A value-only UpdateWidget is logged like a published value (the value log, replayed
    at start), not as a widget row: a strict acknowledgement still means it is on disk."""
    with Running(data_dir, "--durability", "strict") as running:
        with Producers(running.stub, "values", value_only=True) as producers:
            time.sleep(0.8)
            running.crash()
            acked = producers.latest()
    assert len(acked) >= 10, "too few updates were acknowledged to test anything"
    assert all(value > 0 for value, _, _ in acked.values())
    with Running(data_dir) as restarted:
        missing = check_present(restarted.stub, acked)
        assert not missing, f"lost acknowledged value-only updates: {missing[:5]}"


def test_kill_9_in_relaxed_mode_loses_at_most_the_flush_window(data_dir):
    flush_ms = 100
    # A commit lands within the flush interval plus the commit itself; allow a
    # loaded CI machine a generous second for the latter.
    allowance_s = flush_ms / 1000 + 1.0
    flags = ["--durability", "relaxed", "--flush-interval-ms", str(flush_ms)]
    with Running(data_dir, *flags) as running:
        with Producers(running.stub, "relaxed") as producers:
            time.sleep(2.0)
            killed_at = time.monotonic()
            running.crash()
            acked = producers.latest()
            old_enough = producers.latest(before=killed_at - allowance_s)
    assert old_enough, "no write was acknowledged early enough to check"
    with Running(data_dir) as restarted:
        # The latest write of each widget acknowledged before the window must be
        # there (or a later one).
        stored = listed(restarted.stub)
        for wid in acked:
            assert wid in stored, f"{wid} was acknowledged but is missing entirely"
        missing = check_present(restarted.stub, old_enough)
        assert not missing, f"lost writes older than the flush window: {missing[:5]}"


def test_kill_9_loses_no_acknowledged_published_value(data_dir):
    """PublishValues takes the value log (one packed row per commit, folded
    into the widget rows later): a crash before any fold must lose nothing
    a summary acknowledged, and the restart must read the log back."""
    ids = [f"pv-{n}" for n in range(20)]
    acked: dict[str, float] = {}
    stop = threading.Event()

    def publish(stub) -> None:
        value = 0
        while not stop.is_set():
            batch = []
            for _ in range(200):
                value += 1
                batch.append((ids[value % len(ids)], float(value)))
            try:
                summary = stub.PublishValues(
                    iter([spb.ValueUpdate(id=i, value=v) for i, v in batch]), timeout=TIMEOUT)
            except (grpc.RpcError, ValueError):
                return
            assert summary.accepted == len(batch), summary
            for wid, v in batch:
                acked[wid] = v

    with Running(data_dir, "--durability", "strict") as running:
        for wid in ids:
            put(running.stub, plain_value(wid, 0))
        producer = threading.Thread(target=publish, args=(running.stub,), daemon=True)
        producer.start()
        time.sleep(0.8)
        snapshot = dict(acked)
        running.crash()
        stop.set()
        producer.join(timeout=10)
    assert len(snapshot) == len(ids), "too few values were acknowledged to test anything"
    for _ in range(2):
        # Twice: the first restart folds the log it replayed, the second
        # reads the folded rows.
        with Running(data_dir, "--durability", "strict") as restarted:
            stored = listed(restarted.stub)
            lost = [f"{wid}: acknowledged {v}, stored {stored[wid].content.value.value}"
                    for wid, v in snapshot.items() if stored[wid].content.value.value < v]
            assert not lost, f"lost acknowledged values: {lost[:5]}"


# --------------------------------------------------------------------------- refusing to start


def test_a_second_gauged_on_the_same_data_dir_exits_at_start(data_dir):
    with Running(data_dir) as first:
        result = gauged("--data-dir", str(data_dir))
        assert_refused_at_start(result, "in use by another gauged", str(data_dir / "gauged.lock"))
        put(first.stub, widget("still-serving"))
        assert first.stop() == 0


def test_a_deleted_lock_file_does_not_let_a_second_gauged_in(data_dir):
    with Running(data_dir) as first:
        (data_dir / "gauged.lock").unlink()
        result = gauged("--data-dir", str(data_dir))
        assert_refused_at_start(result, "in use by another gauged", "the directory is locked")
        put(first.stub, widget("still-serving"))
        assert first.stop() == 0


def test_a_data_dir_named_like_a_sqlite_uri_is_a_plain_directory():
    """SQLite reads a file name beginning with `file:` as a URI: `file:x`
    would open `x/gauged.sqlite3`, past the lock taken on `file:x`."""
    with Running(Path("file:x")) as running:
        put(running.stub, widget("kept"))
        cwd = running.server._logdir
        assert running.stop() == 0
    assert (cwd / "file:x" / DB).is_file()
    assert not (cwd / "x").exists()


@pytest.mark.parametrize("kind", ["corrupt-header", "directory-in-its-place", "chmod-000"])
def test_a_data_file_that_cannot_be_opened_exits_at_start(data_dir, kind):
    db = data_dir / DB
    if kind == "corrupt-header":
        # What a file damaged by something else looks like: not SQLite at all.
        garbage = b"not an SQLite file " * 512
        db.write_bytes(garbage)
        assert_refused_at_start(gauged("--data-dir", str(data_dir)), str(db), "not a database")
        assert db.read_bytes() == garbage, "gauged changed a file it could not read"
    elif kind == "directory-in-its-place":
        db.mkdir()
        assert_refused_at_start(gauged("--data-dir", str(data_dir)), f"cannot open {db}")
    else:
        if os.geteuid() == 0:
            pytest.skip("root reads through chmod 000; the other kinds cover an unreadable file")
        db.write_bytes(b"")
        db.chmod(0)
        assert_refused_at_start(gauged("--data-dir", str(data_dir)), f"cannot open {db}")


def test_a_data_dir_that_cannot_be_created_exits_at_start(data_dir):
    (data_dir / "plain").write_text("a file, not a directory")
    target = data_dir / "plain" / "data"
    assert_refused_at_start(gauged("--data-dir", str(target)), f"cannot create data dir {target}")


def test_bad_store_flags_are_refused(data_dir):
    for args, fragment in [
        (["--durability", "eventually"], '--durability: "eventually" is not strict or relaxed'),
        (["--tombstone-retention", "24"], '--tombstone-retention: "24" is not a duration'),
        (["--flush-interval-ms", "-1"], '--flush-interval-ms: "-1" is not 0...60000'),
        (["--memory", "--data-dir", str(data_dir)], "--data-dir has no effect with --memory"),
        (["--durability", "strict", "--flush-interval-ms", "5"],
         "--flush-interval-ms has no effect with --durability strict"),
        (["--flush-interval-ms=5", "--durability=strict"],
         "--flush-interval-ms has no effect with --durability strict"),
    ]:
        result = gauged(*args)
        assert result.returncode == 2, (args, result)
        assert fragment in result.stderr, (args, result.stderr)


def test_a_bare_zero_tombstone_retention_is_taken_like_0s(data_dir):
    with Running(data_dir, "--tombstone-retention", "0") as running:
        put(running.stub, widget("kept"))
        assert running.stop() == 0


# --------------------------------------------------------------------------- a failing disk


def write_until_unavailable(stub, prefix: str, limit=2000) -> tuple[list[str], str, grpc.RpcError]:
    """Puts big widgets (strict mode: each waits for its commit) until one
    fails; the acknowledged ids, the failed one and its error. That write was
    in the commit that failed: it is applied and visible, but not durable."""
    acked = []
    for n in range(limit):
        wid = f"{prefix}-{n}"
        try:
            put(stub, widget(wid, name="n" * 256, label="l" * 256, subtitle="s" * 256))
            acked.append(wid)
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.UNAVAILABLE, (err.code(), err.details())
            assert err.details().startswith("applied but not yet durable: "), err.details()
            assert get(stub, wid).id == wid
            return acked, wid, err
    pytest.fail(f"{limit} writes succeeded on a disk that should be full")


def assert_reads_work_and_writes_are_refused(stub, acked: list[str]) -> None:
    assert get(stub, acked[0]).id == acked[0]
    assert len(listed(stub)) >= len(acked)
    err = rpc_error(put, stub, widget("refused-while-full"))
    assert err.code() == grpc.StatusCode.UNAVAILABLE
    assert err.details().startswith("not applied: "), err.details()
    assert DB in err.details()
    assert rpc_error(get, stub, "refused-while-full").code() == grpc.StatusCode.NOT_FOUND


def test_a_full_disk_refuses_writes_keeps_reads_and_recovers(data_dir):
    mount = data_dir / "tmpfs"
    mount.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
        capture_output=True, text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip()}); "
                    "test_a_file_size_limit_* covers the I/O error path")
    try:
        store_dir = mount / "data"
        with Running(store_dir, "--durability", "strict") as running:
            put(running.stub, widget("before-full"))
            filler = mount / "filler"
            with open(filler, "wb") as f:
                try:
                    while True:
                        f.write(b"\0" * 65536)
                        f.flush()
                except OSError:
                    pass  # ENOSPC: the disk is full
            acked, applied, err = write_until_unavailable(running.stub, "full")
            assert "full" in err.details(), err.details()
            assert_reads_work_and_writes_are_refused(running.stub, ["before-full", *acked])
            assert running.server.alive()

            filler.unlink()
            deadline = time.monotonic() + 10
            while True:  # the writer retries about once a second
                try:
                    put(running.stub, widget("after-full"))
                    break
                except grpc.RpcError as err:
                    assert err.code() == grpc.StatusCode.UNAVAILABLE
                    assert time.monotonic() < deadline, "writes were not accepted again"
                    time.sleep(0.1)
            assert running.stop() == 0, running.server.describe()

        with Running(store_dir) as restarted:
            stored = listed(restarted.stub)
            for wid in ["before-full", *acked, "after-full"]:
                assert wid in stored, f"{wid} was acknowledged but is missing"
            # Kept queued through the failure, it reached the file with the retry.
            assert applied in stored
            assert "refused-while-full" not in stored
            assert restarted.stop() == 0
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_file_size_limit_refuses_writes_and_never_corrupts_the_file(data_dir):
    """RLIMIT_FSIZE needs no mount: writes past it fail with EFBIG (gauged ignores
    SIGXFSZ), which SQLite reports as an I/O error."""
    limit = 256 * 1024
    launcher = ["prlimit", f"--fsize={limit}", "--"]
    with Running(data_dir, "--durability", "strict", launcher=launcher) as running:
        acked, _, err = write_until_unavailable(running.stub, "limited")
        assert acked, "nothing was written before the limit"
        assert "I/O error" in err.details() or "full" in err.details(), err.details()
        assert_reads_work_and_writes_are_refused(running.stub, acked)
        # The write applied but not durable cannot be flushed at exit either:
        # a clear failure, not 0.
        assert running.stop() == 1
        assert "could not write the last" in running.server.stderr_path.read_text()

    with sqlite3.connect(data_dir / DB) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with Running(data_dir) as restarted:
        stored = listed(restarted.stub)
        missing = [wid for wid in acked if wid not in stored]
        assert not missing, f"acknowledged but lost: {missing[:5]}"
        assert restarted.stop() == 0
