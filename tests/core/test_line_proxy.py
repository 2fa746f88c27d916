"""bench/line.py, the simulated thin venue line: what goes through it arrives whole, no
faster than its rate and no sooner than its delay; cut, it lets nothing through, and
restored it does again; a dropped connection fails on the client, even when the server
has done the work. A tiny threaded HTTP server stands behind it; no database."""

from __future__ import annotations

import http.client
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.processes import bench_module

BODY = bytes(range(256)) * 800  # 200 KB, every byte value
FAILED = (ConnectionError, http.client.RemoteDisconnected, urllib.error.URLError)


line_module = bench_module("line")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.server.requests += 1
        body = BODY if self.path == "/big" else b"ok"
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    requests = 0

    def handle_error(self, request, client_address):
        pass  # a connection the line cut: expected here


@pytest.fixture(scope="module")
def server():
    """The server behind the line, on a free port (bound to port 0)."""
    httpd = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


def upstream(server) -> str:
    return f"127.0.0.1:{server.server_address[1]}"


def get(line, path: str, timeout: float = 5.0) -> bytes:
    with urllib.request.urlopen(line.url + path, timeout=timeout) as response:
        return response.read()


@pytest.fixture(scope="module")
def line(server):
    """2 Mbit/s each way, 50 ms one way, nothing dropped; its ports free ones (port 0,
    bound by the line itself and read back from its start line)."""
    with line_module.Line(to=upstream(server), rate_kbit=2000, delay_ms=50, drop=0) as line:
        yield line


def test_a_body_arrives_whole_at_the_lines_rate(line):
    started = time.monotonic()
    body = get(line, "/big")
    took = time.monotonic() - started
    assert body == BODY
    assert took >= 0.6  # 200 KB at 2,000 kbit/s: about 0.8 s
    assert line.stats()["bytes_down"] >= len(BODY)


def test_the_delay_shows_on_a_tiny_request(line):
    started = time.monotonic()
    assert get(line, "/small") == b"ok"
    assert time.monotonic() - started >= 0.1  # 50 ms each way


def test_down_cuts_the_line_and_up_restores_it(line, server):
    failure = []

    def reading():
        try:
            get(line, "/big")
        except (*FAILED, http.client.IncompleteRead) as error:  # cut mid-body: incomplete
            failure.append(error)

    reader = threading.Thread(target=reading)
    reader.start()
    time.sleep(0.3)  # the body is on its way (about 0.8 s)
    assert line.down()["state"] == "down"
    reader.join(5)
    assert failure, "a transfer open when the line went down was not cut"

    with pytest.raises(FAILED):
        get(line, "/small")
    stats = line.stats()
    assert stats["state"] == "down"
    assert stats["cut_down"] >= 1 and stats["refused_down"] >= 1

    assert line.up()["state"] == "up"
    assert get(line, "/small") == b"ok"


def test_every_dropped_connection_fails(server):
    with line_module.Line(
        to=upstream(server), rate_kbit=2000, delay_ms=20, drop=1.0, seed=3
    ) as line:
        served = server.requests
        for _ in range(8):
            with pytest.raises(FAILED):
                get(line, "/small")
        stats = line.stats()
    assert stats["accepted"] == stats["dropped"] == 8
    assert stats["dropped_closed"] + stats["dropped_cut"] == 8
    assert 0 < stats["dropped_cut"] < 8  # seed 3: some of each
    # A connection cut as the answer starts was served all the same: resending repeats it.
    assert server.requests - served == stats["dropped_cut"]
    assert stats["bytes_down"] == 0
