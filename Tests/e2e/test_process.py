"""The gauged process itself: --help, and a clean stop on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import time

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
