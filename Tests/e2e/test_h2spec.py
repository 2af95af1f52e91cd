"""HTTP/2 conformance: h2spec 2.6.0 (the shared tools beside the repository, ../shared/tools)
runs all of its cases against a gauged of this module's own, in cleartext (h2c) and over TLS
(`-t -k`, ALPN h2, with a self-signed certificate made here), and every one must pass."""

from __future__ import annotations

import os
import re
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import REPO, Server

H2SPEC = REPO.parent / "shared" / "tools" / "h2spec"
# Every case h2spec 2.6.0 runs without --strict.
CASES = 146
# Cases gauged is known to fail, by h2spec's id, each with the reason: none.
KNOWN_FAILURES: dict[str, str] = {}
# Seconds h2spec waits for each answer; generous, since the cores are shared.
ANSWER_TIMEOUT_S = 5
RUN_TIMEOUT_S = 600

pytestmark = [
    pytest.mark.skipif(not H2SPEC.is_file(), reason=f"h2spec not found at {H2SPEC}"),
    pytest.mark.skipif(
        bool(os.environ.get("GAUGED_TARGET")), reason="runs against a gauged of its own"
    ),
]


class _TLSServer(Server):
    """Ready once it says where it listens: the gRPC probe speaks cleartext."""

    def _wait_until_serving(self, deadline: float) -> None:
        while time.monotonic() < deadline and self.proc.poll() is None:
            if "listening on" in self.stdout_path.read_text(errors="replace"):
                return
            time.sleep(0.05)
        pytest.fail(f"gauged did not start\n{self.describe()}", pytrace=False)


@pytest.fixture(scope="module", params=["h2c", "tls"])
def target(request, tmp_path_factory):
    if request.param == "h2c":
        srv = Server(extra_args=("--threads", "2"))
    else:
        directory = tmp_path_factory.mktemp("h2spec-tls")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
             "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "2",
             "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
            cwd=directory, check=True, capture_output=True, timeout=60)
        srv = _TLSServer(extra_args=("--threads", "2", "--tls-cert", str(directory / "cert.pem"),
                                     "--tls-key", str(directory / "key.pem")))
    srv.start()
    srv.tls = request.param == "tls"
    try:
        yield srv
    finally:
        srv.stop()


def _cases(report: Path) -> list[tuple[str, str, str | None]]:
    """(id, title, what went wrong or None) for each case in h2spec's JUnit report; the id is
    the section and the case's number in it, as h2spec prints them ("http2/5.1.1/2")."""
    # h2spec puts what it read into the report as it is: control bytes would
    # make the XML unreadable.
    text = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "?", report.read_text(errors="replace"))
    cases = []
    for suite in ET.fromstring(text).iter("testsuite"):
        for number, case in enumerate(suite.iter("testcase"), start=1):
            case_id = f"{case.get('package', suite.get('package', '?'))}/{number}"
            problems = [child for child in case if child.tag in ("failure", "error", "skipped")]
            message = None
            if problems:
                text = problems[0].get("message") or problems[0].text or ""
                message = f"{problems[0].tag}: " + " / ".join(text.split("\n"))
            cases.append((case_id, case.get("classname", ""), message))
    return cases


def test_every_h2spec_case_passes(target, tmp_path):
    report = tmp_path / "h2spec.xml"
    run = subprocess.run(
        [
            str(H2SPEC), "-h", "127.0.0.1", "-p", str(target.port),
            "-o", str(ANSWER_TIMEOUT_S), "-j", str(report),
            *(["-t", "-k"] if target.tls else []),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
    )
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "<no output>"
    assert report.is_file(), f"h2spec wrote no report (exit {run.returncode}): {run.stderr}"
    try:
        cases = _cases(report)
    except ET.ParseError as err:
        pytest.fail(f"h2spec's report is unreadable ({err}): {summary}\n{run.stdout[-6000:]}")
    failed = {case_id: (title, message) for case_id, title, message in cases if message}
    unexpected = {case_id: failed[case_id] for case_id in failed.keys() - KNOWN_FAILURES.keys()}
    listed = "\n".join(
        f"{case_id} {title}: {message}" for case_id, (title, message) in sorted(unexpected.items())
    )
    assert not unexpected, (
        f"{summary}\n{listed}\n--- h2spec ---\n{run.stdout[-6000:]}\n{target.describe()}"
    )
    assert len(cases) == CASES, f"h2spec ran {len(cases)} cases, not {CASES}: {summary}"
    assert failed.keys() == KNOWN_FAILURES.keys(), f"known failures now pass: {summary}"
    assert target.alive(), f"gauged did not survive h2spec\n{target.describe()}"
