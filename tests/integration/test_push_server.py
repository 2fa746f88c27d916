"""The push server as `manage.py run_processes` starts it (uvicorn, marker `worker`:
Redis, PostgreSQL and a real Celery worker): an open leaderboard's stream is sent the
new region once a hand saved in another process is rebuilt by the worker and announced
in the shared cache; killed and started again, the server sends a page that opens its
stream again only what moved meanwhile."""

from __future__ import annotations

import http.client
import re
import sys
import time
import zlib

import pytest

from core import services
from core.management.commands.run_processes import programs
from tests.fixtures import hand, make_world
from tests.processes import Process, Worker, free_port, service_env, wait_until
from tournaments.models import Event

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ID = re.compile(r"^id: (\d+)\.(\d+)$", re.M)


class PushServer(Process):
    def __init__(self) -> None:
        self.name, self.port = "push", free_port()
        command = programs(
            bind="127.0.0.1:1",
            web_workers=1,
            threads=1,
            worker_concurrency=1,
            push_bind=f"127.0.0.1:{self.port}",
        )["push"]
        assert command[:3] == [sys.executable, "-m", "uvicorn"]
        self.spawn(command, service_env(LIVE_PUSH="1"))
        wait_until(self.answers, 30, "the push server starting")

    def answers(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"uvicorn exited:\n{self.output()}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
            connection.request("GET", "/healthz")
            return connection.getresponse().status == 200
        except OSError:
            return False


class Stream:
    """An open page's stream, as a browser takes it (gzip)."""

    def __init__(self, port: int, path: str, last_id: str = "") -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Accept": "text/event-stream", "Accept-Encoding": "gzip, deflate"}
        if last_id:
            headers["Last-Event-ID"] = last_id
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Encoding") == "gzip"
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.text = ""

    def read(self) -> str:
        """What has come so far (one chunk at least)."""
        self.text += self.inflate.decompress(self.response.read1(65536)).decode()
        return self.text

    def versions(self) -> list[tuple[int, int]]:
        return [(int(v), int(s)) for v, s in ID.findall(self.text)]

    def wait_for(self, version: int, seconds: float) -> float:
        started = time.monotonic()
        while not any(v >= version for v, _ in self.versions()):
            assert time.monotonic() - started < seconds, self.text[-500:]
            self.read()
        return time.monotonic() - started

    def close(self) -> None:
        self.connection.close()


def test_an_open_leaderboard_is_sent_each_new_version_across_processes():
    w = make_world()
    worker = Worker("push")
    server = PushServer()
    try:
        services.record_hand(table=w.table, number=1, entry=hand(2, 4))
        wait_until(lambda: Event.objects.get(pk=w.event.pk).standings_version >= 1, 10)
        event = Event.objects.get(pk=w.event.pk)
        path = f"/events/{event.slug}/live/push/?v={event.standings_version}"
        path += f"&s={event.screen_version}&lang=en"
        page = Stream(server.port, path)
        assert "event: time" in page.read() and page.versions() == []  # not behind

        services.record_hand(table=w.table, number=2, entry=hand(3, 4))
        took = page.wait_for(event.standings_version + 1, 10)
        assert took < 3, f"{took:.2f} s from the save to the open page"
        assert 'id="leaderboard"' in page.text
        last = page.versions()[-1]

        # The server dies with the page open; a hand is saved meanwhile; the server
        # comes back and the page, opening its stream again with the last id it was
        # sent, gets the region that moved.
        server.kill()
        page.close()
        services.record_hand(table=w.table, number=3, entry=hand(4, 4))
        wait_until(lambda: Event.objects.get(pk=w.event.pk).standings_version > last[0], 10)
        server = PushServer()
        again = Stream(server.port, path, last_id=f"{last[0]}.{last[1]}")
        again.wait_for(last[0] + 1, 10)
        again.close()
    finally:
        server.stop()
        worker.stop()
