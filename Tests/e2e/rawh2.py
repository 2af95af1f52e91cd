"""HTTP/2 frames written by hand (hyperframe, hpack) on a bare socket, for what no
well-behaved client sends, and the server's answer read back frame by frame."""

from __future__ import annotations

import socket
import time

from hpack import Decoder, Encoder
from hyperframe.frame import (
    ContinuationFrame,
    DataFrame,
    Frame,
    GoAwayFrame,
    HeadersFrame,
    PingFrame,
    RstStreamFrame,
    SettingsFrame,
)

from helpers import grpc_frame

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

NO_ERROR = 0
PROTOCOL_ERROR = 1
INTERNAL_ERROR = 2
REFUSED_STREAM = 7
CANCEL = 8
ENHANCE_YOUR_CALM = 11


def request_headers(port: int, path: str, method: str = "POST", content_type="application/grpc",
                    extra=()) -> list[tuple[str, str]]:
    headers = [
        (":method", method),
        (":scheme", "http"),
        (":path", path),
        (":authority", f"127.0.0.1:{port}"),
    ]
    if content_type:
        headers.append(("content-type", content_type))
    headers.append(("te", "trailers"))
    return headers + list(extra)


class RawPeer:
    """One connection: preface and SETTINGS are sent on creation."""

    def __init__(self, port: int, settings: dict | None = None, rcvbuf: int | None = None,
                 preface: bool = True):
        self.port = port
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(5)
        self.sock.connect(("127.0.0.1", port))
        self.encoder = Encoder()
        self.decoder = Decoder()
        self.frames: list[Frame] = []
        # Decoded header blocks of the server's HEADERS frames, by stream, in order.
        self.headers: dict[int, list[dict[bytes, bytes]]] = {}
        self.closed = False
        self._buffer = b""
        self._next_stream = 1
        if preface:
            self.send_raw(PREFACE + SettingsFrame(0, settings or {}).serialize())

    def close(self) -> None:
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- sending

    def next_stream(self) -> int:
        sid = self._next_stream
        self._next_stream += 2
        return sid

    def block(self, headers) -> bytes:
        return self.encoder.encode(headers)

    def send_raw(self, data: bytes) -> bool:
        """False once the server has closed the connection."""
        try:
            self.sock.sendall(data)
            return True
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            return False

    def send(self, *frames: Frame) -> bool:
        return self.send_raw(b"".join(f.serialize() for f in frames))

    def request_frames(self, path: str, body: bytes | None, sid: int | None = None,
                       extra=()) -> tuple[int, list[Frame]]:
        """HEADERS (and a DATA with one gRPC message, ending the stream, when body is given)."""
        sid = sid or self.next_stream()
        headers = HeadersFrame(sid, self.block(request_headers(self.port, path, extra=extra)))
        headers.flags.add("END_HEADERS")
        if body is None:
            return sid, [headers]
        data = DataFrame(sid, grpc_frame(body))
        data.flags.add("END_STREAM")
        return sid, [headers, data]

    # -- reading

    def read(self, until=None, timeout: float = 5.0) -> bool:
        """Reads frames until `until(self)` holds (True) or the server closes or the time is up
        (False, with `closed` telling which)."""
        deadline = time.monotonic() + timeout
        while not (until and until(self)):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 16)
            except socket.timeout:
                return False
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self.closed = True
                return bool(until and until(self))
            self._buffer += chunk
            self._parse()
        return True

    def read_until_closed(self, timeout: float = 5.0) -> bool:
        self.read(timeout=timeout)
        return self.closed

    def _parse(self) -> None:
        while len(self._buffer) >= 9:
            frame, length = Frame.parse_frame_header(memoryview(self._buffer[:9]))
            if len(self._buffer) < 9 + length:
                return
            frame.parse_body(memoryview(self._buffer[9 : 9 + length]))
            self._buffer = self._buffer[9 + length :]
            self.frames.append(frame)
            if isinstance(frame, HeadersFrame):
                fields = self.decoder.decode(frame.data, raw=True)
                self.headers.setdefault(frame.stream_id, []).append(dict(fields))

    @property
    def goaway(self) -> GoAwayFrame | None:
        found = [f for f in self.frames if isinstance(f, GoAwayFrame)]
        return found[-1] if found else None

    def reset_code(self, sid: int) -> int | None:
        for f in self.frames:
            if isinstance(f, RstStreamFrame) and f.stream_id == sid:
                return f.error_code
        return None

    def stream_frames(self, sid: int) -> list[Frame]:
        return [f for f in self.frames if f.stream_id == sid]

    def ended(self, sid: int) -> bool:
        return any(
            "END_STREAM" in f.flags or isinstance(f, RstStreamFrame)
            for f in self.stream_frames(sid)
        )

    def body(self, sid: int) -> bytes:
        return b"".join(f.data for f in self.stream_frames(sid) if isinstance(f, DataFrame))


def ping() -> PingFrame:
    return PingFrame(0, b"\0" * 8)


def reset(sid: int, code: int = CANCEL) -> RstStreamFrame:
    return RstStreamFrame(sid, code)


def continuation(sid: int, block: bytes, end: bool = False) -> ContinuationFrame:
    frame = ContinuationFrame(sid, block)
    if end:
        frame.flags.add("END_HEADERS")
    return frame
