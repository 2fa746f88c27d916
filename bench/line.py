"""A simulated thin internet line: a venue's poor connection, between a client and a server.

A live publisher in a hall (scores sent up as hands end, the leaderboard read back) must
survive the venue's line: little bandwidth shared by everyone in the room, a long round trip,
connections that die now and then (sometimes after the server has done the work, so the
client must resend and the resend must be harmless), and the whole line cut for a while and
restored. This is that line, as a TCP forwarding proxy (asyncio, standard library only, no
Django) to put in front of a real server in tests and benches:

    python bench/line.py --listen 127.0.0.1:9100 --to 127.0.0.1:8000 \\
        [--rate-kbit 1000] [--delay-ms 150] [--drop 0.02] [--seed N] [--control 127.0.0.1:9101]

- the rate (kilobits per second) is one line each way, shared by all connections: a chunk
  waits for the line to be free, takes its length over the rate to send, then travels;
- the delay (milliseconds) is added one way to every chunk each way, in order (a round
  trip is twice it); data and half-closes (EOF) are forwarded as they come, so keep-alive
  and pipelining pass through untouched: nothing but the control port reads HTTP;
- a new connection is dropped with probability --drop (random.Random(--seed)): half the
  time closed at once after accepting, half the time forwarded but cut (both sides closed)
  when the server starts answering: the server did the work, the client sees an error;
- the control port (optional) answers tiny HTTP requests with JSON: POST /down cuts the
  line (every open connection closed, new ones closed at once), POST /up restores it,
  GET /stats counts connections, drops and bytes each way.

A port of 0 binds a free one; the line printed at start says which. From Python, `Line`
runs it in a subprocess:

    with Line(to="127.0.0.1:8000", rate_kbit=1000, delay_ms=150, drop=0.02, seed=1) as line:
        urllib.request.urlopen(line.url + "/")
        line.down(); line.up(); line.stats()
"""

from __future__ import annotations

import argparse
import asyncio
import json
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

QUEUE_CHUNKS = 64  # chunks in flight per connection and direction before reading waits
CONNECT_TIMEOUT = 10.0
CONTROL_TIMEOUT = 5.0
START_LINE = re.compile(r"listening on (?P<listen>\S+?):(?P<port>\d+),")
CONTROL_ON = re.compile(r"control on (?P<host>\S+?):(?P<port>\d+)")


def host_port(text: str) -> tuple[str, int]:
    """'127.0.0.1:9100' -> ('127.0.0.1', 9100); '[::1]:9100' works too."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, not {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


async def sleep_until(loop: asyncio.AbstractEventLoop, when: float) -> None:
    wait = when - loop.time()
    if wait > 0:
        await asyncio.sleep(wait)


class Link:
    """One direction of the line: one sender at a time at `rate_kbit` (0: no limit), then
    `delay_ms` on the way. Shared by every connection going that way."""

    def __init__(self, rate_kbit: float, delay_ms: float):
        self.bytes_per_second = rate_kbit * 1000 / 8
        self.delay = delay_ms / 1000
        self.free_at = 0.0
        # About 20 ms of the line per chunk: a big read would make the line bursty.
        rate = self.bytes_per_second
        self.chunk = 65536 if rate <= 0 else int(min(65536, max(1024, rate / 50)))

    def reserve(self, now: float, size: int) -> tuple[float, float]:
        """Send `size` bytes as soon as the line is free: when they are sent (the line
        is busy until then) and when they arrive at the other end."""
        start = max(now, self.free_at)
        sent = start + (size / self.bytes_per_second if self.bytes_per_second > 0 else 0.0)
        self.free_at = sent
        return sent, sent + self.delay


class Connection:
    """One client connection and the server connection it is forwarded to."""

    def __init__(self, proxy: Proxy, client: asyncio.StreamWriter, cut: bool):
        self.proxy = proxy
        self.writers = [client]
        self.tasks: list[asyncio.Task] = []
        self.cut = cut  # dropped: cut when the server starts answering
        self.closed = False

    def abort(self) -> None:
        """Close both sides at once (no flushing) and stop forwarding."""
        if self.closed:
            return
        self.closed = True
        for writer in self.writers:
            writer.transport.abort()
        current = asyncio.current_task()
        for task in self.tasks:
            if task is not current:
                task.cancel()

    async def run(self, client_reader: asyncio.StreamReader) -> None:
        proxy = self.proxy
        try:
            server_reader, server_writer = await asyncio.wait_for(
                asyncio.open_connection(*proxy.to), CONNECT_TIMEOUT
            )
        except (OSError, asyncio.TimeoutError):
            proxy.stats["upstream_errors"] += 1
            self.abort()
            return
        if self.closed:  # the line went down while connecting
            server_writer.transport.abort()
            return
        self.writers.append(server_writer)
        upward: asyncio.Queue = asyncio.Queue(QUEUE_CHUNKS)
        downward: asyncio.Queue = asyncio.Queue(QUEUE_CHUNKS)
        self.tasks = [
            asyncio.create_task(self.read(client_reader, upward, proxy.up, False)),
            asyncio.create_task(self.write(server_writer, upward, "bytes_up")),
            asyncio.create_task(self.read(server_reader, downward, proxy.down, self.cut)),
            asyncio.create_task(self.write(self.writers[0], downward, "bytes_down")),
        ]
        done, _ = await asyncio.wait(self.tasks, return_when=asyncio.FIRST_EXCEPTION)
        failed = any(not task.cancelled() and task.exception() for task in done)
        if failed or self.closed:
            self.abort()
            # Let the cancelled tasks finish, and take their exceptions.
            await asyncio.gather(*self.tasks, return_exceptions=True)
            return
        self.closed = True  # both ways ended cleanly: close once what is written is sent
        for writer in self.writers:
            writer.close()

    async def read(
        self, reader: asyncio.StreamReader, out: asyncio.Queue, link: Link, cut: bool
    ) -> None:
        loop = asyncio.get_running_loop()
        while True:
            data = await reader.read(link.chunk)
            if not data:
                await out.put((loop.time() + link.delay, None))
                return
            if cut:  # the server has the request and is answering: none of it gets back
                self.abort()
                return
            sent, arrives = link.reserve(loop.time(), len(data))
            await out.put((arrives, data))
            await sleep_until(loop, sent)  # the line is busy with it until then

    async def write(self, writer: asyncio.StreamWriter, inbox: asyncio.Queue, count: str) -> None:
        loop = asyncio.get_running_loop()
        while True:
            arrives, data = await inbox.get()
            await sleep_until(loop, arrives)
            if data is None:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()
            self.proxy.stats[count] += len(data)


class Proxy:
    def __init__(self, args: argparse.Namespace):
        self.listen: tuple[str, int] = args.listen
        self.to: tuple[str, int] = args.to
        self.control_at: tuple[str, int] | None = args.control
        self.up = Link(args.rate_kbit, args.delay_ms)
        self.down = Link(args.rate_kbit, args.delay_ms)
        self.drop = args.drop
        self.rng = random.Random(args.seed)
        self.is_up = True
        self.connections: set[Connection] = set()
        self.stats = {
            "accepted": 0,
            "dropped": 0,  # dropped_closed + dropped_cut
            "dropped_closed": 0,
            "dropped_cut": 0,
            "refused_down": 0,  # closed at once because the line was down
            "cut_down": 0,  # open when the line went down
            "upstream_errors": 0,
            "bytes_up": 0,  # client to server, delivered
            "bytes_down": 0,  # server to client, delivered
        }

    def report(self) -> dict:
        return {
            **self.stats,
            "open": len(self.connections),
            "state": "up" if self.is_up else "down",
        }

    async def client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.stats["accepted"] += 1
        if not self.is_up:
            self.stats["refused_down"] += 1
            writer.transport.abort()
            return
        cut = False
        if self.drop > 0 and self.rng.random() < self.drop:
            self.stats["dropped"] += 1
            if self.rng.random() < 0.5:
                self.stats["dropped_closed"] += 1
                writer.transport.abort()
                return
            self.stats["dropped_cut"] += 1
            cut = True
        connection = Connection(self, writer, cut)
        self.connections.add(connection)
        try:
            await connection.run(reader)
        except (Exception, asyncio.CancelledError):  # cancelled: the line is stopping
            connection.abort()
        finally:
            self.connections.discard(connection)

    def cut_line(self) -> None:
        self.is_up = False
        for connection in list(self.connections):
            self.stats["cut_down"] += 1
            connection.abort()

    def control(self, method: str, path: str) -> tuple[int, dict]:
        path = path.split("?", 1)[0].rstrip("/") or "/"
        routes = {"/down": "POST", "/up": "POST", "/stats": "GET"}
        if path not in routes:
            return 404, {"error": f"no {path}: POST /down, POST /up, GET /stats"}
        if method != routes[path]:
            return 405, {"error": f"{routes[path]} {path}"}
        if path == "/down":
            self.cut_line()
        elif path == "/up":
            self.is_up = True
        return 200, self.report()

    async def control_client(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), CONTROL_TIMEOUT)
                lines = head.decode("latin-1").split("\r\n")
                method, path = lines[0].split()[:2]
                length = 0
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                if 0 < length <= 65536:
                    await asyncio.wait_for(reader.readexactly(length), CONTROL_TIMEOUT)
                status, body = self.control(method.upper(), path)
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
                status, body = 400, {"error": "bad request"}
            except asyncio.TimeoutError:
                status, body = 408, {"error": "timeout"}
            data = json.dumps(body).encode() + b"\n"
            reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}
            writer.write(
                f"HTTP/1.1 {status} {reason.get(status, 'Request Timeout')}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
                "Connection: close\r\n\r\n".encode()
                + data
            )
            await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        servers = [await asyncio.start_server(self.client, *self.listen, backlog=1024)]
        listening = servers[0].sockets[0].getsockname()[:2]
        said = (
            f"line: listening on {listening[0]}:{listening[1]}, forwarding to "
            f"{self.to[0]}:{self.to[1]} ({self.up.bytes_per_second * 8 / 1000:g} kbit/s each "
            f"way, {self.up.delay * 1000:g} ms one way, drop {self.drop:g})"
        )
        if self.control_at:
            servers.append(await asyncio.start_server(self.control_client, *self.control_at))
            control = servers[1].sockets[0].getsockname()[:2]
            said += f", control on {control[0]}:{control[1]}"
        print(said, flush=True)
        await stop.wait()
        for server in servers:
            server.close()
        for connection in list(self.connections):
            connection.abort()


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", type=host_port, default=("127.0.0.1", 9100))
    parser.add_argument("--to", type=host_port, required=True)
    parser.add_argument("--rate-kbit", type=float, default=1000.0, help="each way; 0: no limit")
    parser.add_argument("--delay-ms", type=float, default=150.0, help="one way")
    parser.add_argument("--drop", type=float, default=0.02, help="of new connections")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--control", type=host_port, default=None, help="HOST:PORT")
    args = parser.parse_args(argv)
    if args.rate_kbit < 0 or args.delay_ms < 0 or not 0 <= args.drop <= 1:
        parser.error("--rate-kbit and --delay-ms are >= 0, --drop is in [0, 1]")
    return args


def main(argv: list[str] | None = None) -> None:
    asyncio.run(Proxy(arguments(argv)).serve())


class Line:
    """The line in a subprocess, for tests and benches:

    with Line(to="127.0.0.1:8000", rate_kbit=1000, delay_ms=150, drop=0.02, seed=1) as line:
        ... requests to line.url ...; line.down(); line.up(); line.stats()

    A port of 0 (the default) is a free one, chosen by the subprocess: `listen_port` and
    `control_port` hold the real ones once started. `control_port=None`: no control port
    (and no down/up/stats)."""

    def __init__(
        self,
        to: str,
        *,
        listen_port: int = 0,
        control_port: int | None = 0,
        rate_kbit: float = 1000,
        delay_ms: float = 150,
        drop: float = 0.02,
        seed: int | None = None,
        host: str = "127.0.0.1",
        timeout: float = 10.0,
    ):
        self.to = to
        self.host = host
        self.listen_port = listen_port
        self.control_port = control_port
        self.rate_kbit = rate_kbit
        self.delay_ms = delay_ms
        self.drop = drop
        self.seed = seed
        self.timeout = timeout
        self.process: subprocess.Popen | None = None

    @property
    def address(self) -> str:
        return f"{self.host}:{self.listen_port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    def command(self) -> list[str]:
        command = [
            sys.executable,
            __file__,
            "--listen",
            self.address,
            "--to",
            self.to,
            "--rate-kbit",
            str(self.rate_kbit),
            "--delay-ms",
            str(self.delay_ms),
            "--drop",
            str(self.drop),
        ]
        if self.seed is not None:
            command += ["--seed", str(self.seed)]
        if self.control_port is not None:
            command += ["--control", f"{self.host}:{self.control_port}"]
        return command

    def start(self) -> Line:
        """Start the subprocess; return once it listens (its start line says so, printed
        once both ports are bound)."""
        if self.process is not None:
            return self
        self.process = subprocess.Popen(self.command(), stdout=subprocess.PIPE, text=True)
        lines: queue.Queue = queue.Queue()
        threading.Thread(
            target=lambda: lines.put(self.process.stdout.readline()), daemon=True
        ).start()
        try:
            said = lines.get(timeout=self.timeout)
        except queue.Empty:
            said = ""
        listening = START_LINE.search(said)
        if not listening:
            self.stop()
            raise RuntimeError(f"bench/line.py did not start: {said.strip() or 'no word'}")
        self.listen_port = int(listening["port"])
        control = CONTROL_ON.search(said)
        if control:
            self.control_port = int(control["port"])
        self.wait_until_accepting()
        return self

    def wait_until_accepting(self) -> None:
        """The start line is printed once the ports listen; on the control port (if any),
        check it answers (a probe of the listen port would count as a connection)."""
        if self.control_port is None:
            return
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                self.stats()
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise
                time.sleep(0.02)

    def stop(self) -> None:
        """Stop the subprocess (SIGTERM, then SIGKILL after `timeout`)."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(self.timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stdout:
            process.stdout.close()

    def control(self, method: str, path: str) -> dict:
        if self.control_port is None:
            raise RuntimeError("this Line has no control port")
        request = urllib.request.Request(
            f"http://{self.host}:{self.control_port}{path}",
            data=b"" if method == "POST" else None,
            method=method,
        )
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            return json.loads(response.read())

    def down(self) -> dict:
        """Cut the line: every open connection closed, new ones closed at once."""
        return self.control("POST", "/down")

    def up(self) -> dict:
        """Restore the line."""
        return self.control("POST", "/up")

    def stats(self) -> dict:
        """accepted, dropped (dropped_closed, dropped_cut), refused_down, cut_down,
        upstream_errors, bytes_up, bytes_down, open, state ('up' or 'down')."""
        return self.control("GET", "/stats")

    def __enter__(self) -> Line:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


if __name__ == "__main__":
    main()
