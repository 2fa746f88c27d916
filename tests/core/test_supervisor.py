"""The supervisor behind `manage.py run_processes` restarts whatever exits, after a
back-off that grows while it keeps failing, and leaves the others running."""

from __future__ import annotations

import os
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from core.management.commands import run_processes
from core.processes.supervisor import Program, Supervisor


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def exited(program: Program) -> None:
    program.process.wait(10)


def test_a_program_that_exits_is_restarted_with_a_growing_back_off_and_the_others_run_on():
    clock = Clock()
    crashing = Program("worker", [sys.executable, "-c", "raise SystemExit(3)"])
    steady = Program("web", [sys.executable, "-c", "import time; time.sleep(60)"])
    supervisor = Supervisor([crashing, steady], first_delay=1, max_delay=4, steady=60, clock=clock)
    try:
        supervisor.check()
        assert len(crashing.starts) == len(steady.starts) == 1
        for delay in (1, 2, 4, 4):  # doubling, up to max_delay
            exited(crashing)
            supervisor.check()  # notes the exit
            clock.now += delay - 0.1
            supervisor.check()
            starts = len(crashing.starts)
            clock.now += 0.2
            supervisor.check()
            assert len(crashing.starts) == starts + 1, f"restarted after {delay} s"
        assert len(steady.starts) == 1 and steady.running
    finally:
        supervisor.stop_all()
    assert not steady.running


def test_a_program_that_ran_steadily_before_it_exited_is_restarted_at_once():
    clock = Clock()
    program = Program("worker", [sys.executable, "-c", "raise SystemExit(1)"])
    supervisor = Supervisor([program], first_delay=1, max_delay=60, steady=60, clock=clock)
    program.failures = 5  # it had been failing...
    supervisor.check()
    exited(program)
    clock.now += 120  # ...then ran for two minutes
    supervisor.check()
    clock.now += 1.1
    supervisor.check()
    assert len(program.starts) == 2
    exited(program)


def test_run_processes_refuses_a_program_it_does_not_know():
    with pytest.raises(CommandError, match="--only takes some of web, worker, beat, standby"):
        call_command("run_processes", "--only", "web,flower")


def test_a_program_started_with_a_niceness_gives_way_by_that_much_and_restarts_so():
    here = os.nice(0)
    program = Program(
        "web",
        [sys.executable, "-c", "import os; raise SystemExit(os.nice(0))"],
        niceness=5,
    )
    supervisor = Supervisor([program], first_delay=0, clock=Clock())
    for _ in range(2):
        supervisor.check()
        exited(program)
        assert program.process.returncode == min(here + 5, 19)
        supervisor.check()  # notes the exit; restarted at the next look


def test_a_program_started_with_an_environment_has_it_over_the_supervisors(monkeypatch):
    monkeypatch.setenv("KALOOKI_TEST_KEPT", "7")
    program = Program(
        "web",
        [
            sys.executable,
            "-c",
            "import os; e = os.environ; "
            "raise SystemExit(int(e['KALOOKI_TEST_SET']) + int(e['KALOOKI_TEST_KEPT']))",
        ],
        env={"KALOOKI_TEST_SET": "3"},
    )
    supervisor = Supervisor([program], first_delay=0, clock=Clock())
    supervisor.check()
    exited(program)
    assert program.process.returncode == 10


@pytest.mark.parametrize("given", [None, "8"], ids=["default", "set"])
def test_the_web_server_keeps_two_allocator_arenas_unless_told(monkeypatch, given):
    """Two C allocator arenas per web process (its memory level over a day), or what
    MALLOC_ARENA_MAX says where it is set; the other programs as the environment says."""
    monkeypatch.setattr(run_processes, "Supervisor", Captured)
    if given is None:
        monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    else:
        monkeypatch.setenv("MALLOC_ARENA_MAX", given)
    call_command("run_processes", "--only", "web,standby")
    envs = {program.name: dict(program.env) for program in Captured.programs}
    assert envs == {"web": {"MALLOC_ARENA_MAX": given or "2"}, "standby": {}}


@pytest.mark.parametrize(("cores", "workers"), [(1, 2), (2, 3), (3, 4), (8, 4)])
def test_the_web_server_runs_one_process_a_core_and_one_more_unless_told(
    monkeypatch, cores, workers
):
    """gunicorn's processes: one for each core this process may use, and one more, at
    most four; `--web-workers` says otherwise."""
    monkeypatch.setattr(run_processes, "Supervisor", Captured)
    monkeypatch.setattr(run_processes, "cores", lambda: cores)

    def web_workers(*args: str) -> str:
        call_command("run_processes", "--only", "web", *args)
        web = next(program.args for program in Captured.programs if program.name == "web")
        return web[web.index("--workers") + 1]

    assert web_workers() == str(workers)
    assert web_workers("--web-workers", "6") == "6"


def test_the_cores_are_those_this_process_may_run_on(monkeypatch):
    """Its CPU affinity where the platform has one, else every core of the machine."""
    monkeypatch.setattr(run_processes.os, "sched_getaffinity", lambda pid: {0, 3}, raising=False)
    monkeypatch.setattr(run_processes.os, "cpu_count", lambda: 16)
    assert run_processes.cores() == 2
    monkeypatch.delattr(run_processes.os, "sched_getaffinity")
    assert run_processes.cores() == 16


class Captured:
    """What run_processes would supervise, captured instead of run."""

    programs: list[Program] = []

    def __init__(self, programs):
        Captured.programs = list(programs)

    def run(self):
        pass


@pytest.mark.parametrize("broker", ["redis://127.0.0.1:6379/0", ""], ids=["worker", "embedded"])
def test_the_web_server_gives_way_to_the_worker_beside_it(monkeypatch, settings, broker):
    """With a worker, the web server runs at a lower priority, so the standings a saved
    hand changes are rebuilt first when every core is busy; without one (the embedded
    default rebuilds in the web process) it keeps the usual priority."""
    monkeypatch.setattr(run_processes, "Supervisor", Captured)
    settings.CELERY_BROKER_URL = broker
    call_command("run_processes", "--only", "web,worker,standby")
    niceness = {program.name: program.niceness for program in Captured.programs}
    if broker:
        assert niceness == {"web": run_processes.WEB_NICENESS, "worker": 0, "standby": 0}
        assert run_processes.WEB_NICENESS > 0
    else:
        assert niceness == {"web": 0, "standby": 0}


@pytest.mark.parametrize("push", [True, False], ids=["push", "polling"])
def test_the_push_server_runs_beside_gunicorn_only_when_the_pages_use_it(
    monkeypatch, settings, push
):
    """With LIVE_PUSH on, uvicorn serves the streams on --push-bind; off, no page asks
    for one and no push server runs."""
    monkeypatch.setattr(run_processes, "Supervisor", Captured)
    settings.LIVE_PUSH = push
    call_command("run_processes", "--push-bind", "127.0.0.1:8123")
    programs = {program.name: program.args for program in Captured.programs}
    assert ("push" in programs) is push
    assert "web" in programs and "standby" in programs
    if push:
        args = programs["push"]
        assert args[1:4] == ["-m", "uvicorn", "kalooki_site.asgi:application"]
        assert args[args.index("--host") + 1 :][:3] == ["127.0.0.1", "--port", "8123"]
