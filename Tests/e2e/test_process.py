"""The gauged process itself: --help, and a clean stop on SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time

import grpc
import pytest

from conftest import Server

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("GAUGED_TARGET")), reason="needs a gauged binary, not GAUGED_TARGET"
)


def test_help_lists_listen_flag(server):
    out = subprocess.run(
        [server.argv[0], "--help"], capture_output=True, text=True, timeout=5,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 0, out
    assert "--listen" in out.stdout + out.stderr


def test_sigterm_stops_cleanly(server):
    """A second gauged of its own: serves, then exits 0 soon after SIGTERM."""
    second = Server()
    second.start()
    try:
        started = time.monotonic()
        second.proc.send_signal(signal.SIGTERM)
        code = second.proc.wait(timeout=5)
        assert code == 0, f"exit {code}\n{second.describe()}"
        assert time.monotonic() - started < 5
    finally:
        second.stop()


def test_gauged_raises_its_descriptor_limit_to_the_hard_limit(server):
    """Started with a soft limit of 256 descriptors (hard 4096), as a shell
    may hand out, gauged still holds 400 connections at once."""
    second = Server(launcher=["prlimit", "--nofile=256:4096", "--"])
    second.start()
    channels = []
    try:
        limits = open(f"/proc/{second.proc.pid}/limits").read()
        assert re.search(r"Max open files\s+4096\s+4096", limits), limits
        for _ in range(400):
            channel = grpc.insecure_channel(
                second.address, options=[("grpc.use_local_subchannel_pool", 1)])
            channels.append(channel)
            probe = channel.unary_unary("/gauge.v1.WidgetService/GetWidget",
                                        request_serializer=None, response_deserializer=None)
            with pytest.raises(grpc.RpcError) as err:
                probe(b"\x0a\x07missing", timeout=5)
            assert err.value.code() == grpc.StatusCode.NOT_FOUND
        open_sockets = [fd for fd in os.listdir(f"/proc/{second.proc.pid}/fd")
                        if os.readlink(f"/proc/{second.proc.pid}/fd/{fd}").startswith("socket:")]
        assert len(open_sockets) > 400
    finally:
        for channel in channels:
            channel.close()
        second.stop()
