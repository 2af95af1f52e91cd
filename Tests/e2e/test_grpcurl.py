"""A smoke test with grpcurl, when it is installed (it is not a Debian package)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import REPO

GRPCURL = shutil.which("grpcurl")


def grpcurl(address: str, method: str, request: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            GRPCURL,
            "-plaintext",
            "-import-path", str(REPO / "proto"),
            "-proto", "gauge/v1/widget_service.proto",
            "-d", json.dumps(request),
            address,
            f"gauge.v1.WidgetService/{method}",
        ],
        capture_output=True,
        text=True,
        timeout=20,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.skipif(GRPCURL is None, reason="grpcurl is not installed")
def test_grpcurl_put_get_and_error(server, new_id):
    wid = new_id()
    widget = {"id": wid, "name": "grpcurl", "content": {"gauge": {"value": 1, "minValue": 0, "maxValue": 2}}}
    out = grpcurl(server.address, "PutWidget", {"widget": widget})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["created"] is True

    out = grpcurl(server.address, "GetWidget", {"id": wid})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["content"]["gauge"]["value"] == 1

    widget["content"]["gauge"]["value"] = 7
    out = grpcurl(server.address, "PutWidget", {"widget": widget})
    assert out.returncode != 0
    assert "InvalidArgument" in out.stderr and "content.gauge.value" in out.stderr, out.stderr
