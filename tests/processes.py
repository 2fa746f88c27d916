"""Real processes for the tests that need them: a private `redis-server` on a port of
its own (so a test may stop it without touching anyone else's), `celery worker` and
`gunicorn` on the test database. Each is started by the test and stopped by it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def bench_module(name: str):
    """A script of bench/ (which is not a package), loaded as a module: the simulated
    line (`bench/line.py`) is shared by the benches and the tests."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return "postgres://{USER}:{password}@{HOST}:{PORT}/{NAME}".format(
        password=db["PASSWORD"] or "", **db
    )


def wait_until(check, seconds: float, what: str = "it") -> float:
    """Poll `check` until it is true; how long that took."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > seconds:
            raise AssertionError(f"{what}: not done within {seconds}s")
        time.sleep(0.1)
    return time.monotonic() - started


class Process:
    """A subprocess in its own session, its output in a log file."""

    name: str
    process: subprocess.Popen

    def spawn(self, args: list[str], env: dict[str, str]) -> None:
        self.log = Path(f"/tmp/kalooki-{self.name}-{os.getpid()}.log")
        self.process = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL, as a crash would: no chance to finish or give work back."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


class RedisServer(Process):
    """A private redis-server on a free port, keeping nothing on disk."""

    def __init__(self, port: int | None = None):
        binary = shutil.which("redis-server")
        if binary is None:
            message = "redis-server is not installed: apt-get install redis-server"
            if os.environ.get("CI") == "true":
                pytest.fail(message)
            pytest.skip(message)
        self.binary, self.port, self.name = binary, port or free_port(), "redis"
        self.start()

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        self.spawn([*args, "--save", "", "--appendonly", "no"], dict(os.environ))
        wait_until(self.answers, 10, "redis-server starting")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        super().stop()
        wait_until(lambda: not self.answers(), 10, "redis-server stopping")


def service_env(**extra: str) -> dict[str, str]:
    """The environment of a web or worker process on the test database."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "kalooki_site.settings_test",
        **extra,
    }


class Worker(Process):
    """A `celery worker` subprocess on the test database (with `beat`, it also runs the
    periodic catch-up, as production's beat process does)."""

    def __init__(self, name: str, extra_env: dict[str, str] | None = None, beat: bool = False):
        self.name = f"worker-{name}"
        self.spawn(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "kalooki_site",
                "worker",
                "--pool",
                "solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{name}@%h",
                "--loglevel",
                "INFO",
                *(["--beat"] if beat else []),
            ],
            service_env(**(extra_env or {})),
        )
        self.wait_for("ready", 30)

    def wait_for(self, text: str, seconds: float, times: int = 1) -> None:
        deadline = time.monotonic() + seconds
        while self.output().count(text) < times:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"worker never said {text!r}:\n{self.output()}")
            time.sleep(0.1)


class Gunicorn(Process):
    """The site under gunicorn on a free port, as production runs it."""

    def __init__(
        self, extra_env: dict[str, str] | None = None, workers: int = 1, name: str = "gunicorn"
    ):
        self.name, self.port = name, free_port()
        self.spawn(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "kalooki_site.wsgi",
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--log-level",
                "warning",
            ],
            service_env(**(extra_env or {})),
        )
        wait_until(self.answers, 30, "gunicorn starting")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def answers(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"gunicorn exited:\n{self.output()}")
        try:
            with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                return response.status == 200
        except OSError:
            return False
