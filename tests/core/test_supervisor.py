"""The supervisor behind `manage.py run_processes` restarts whatever exits, after a
back-off that grows while it keeps failing, and leaves the others running."""

from __future__ import annotations

import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

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
