"""The web server as `manage.py run_processes` starts it keeps an open page's connection
between its polls, rather than closing it after gunicorn's default 2 s and having every
poll open a new one (docs/benchmarks.md, "Connections kept between polls")."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import time

from django.conf import settings

from core.management.commands.run_processes import KEEP_ALIVE, programs


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_idle_connection_is_kept_longer_than_a_poll_takes_to_come():
    assert max(settings.PUBLIC_POLL_SECONDS, settings.ENTRY_POLL_SECONDS) < KEEP_ALIVE
    port = free_port()
    web = programs(bind=f"127.0.0.1:{port}", web_workers=1, threads=2, worker_concurrency=1)
    server = subprocess.Popen(
        web["web"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "kalooki_site.settings_test"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):  # up to 30 s for gunicorn to start
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        page = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        page.request("GET", "/healthz")
        assert page.getresponse().read() == b"ok"
        opened = page.sock
        time.sleep(KEEP_ALIVE - 0.5)  # longer than gunicorn's own 2 s
        page.request("GET", "/healthz")
        assert page.getresponse().read() == b"ok"
        assert page.sock is opened  # the same connection, not a new one
    finally:
        server.terminate()
        server.wait(timeout=30)
