"""Keep the site's processes running: start each, restart whichever exits (after a
back-off that grows while it keeps failing), stop them all together.

A Celery worker can exit on a broker outage however it is configured (its Redis
transport has been reported to end it with an AttributeError on reconnecting), and
nothing else would start it again: the standings would stay behind until someone
noticed.
`manage.py run_processes` runs the web server, the worker, beat and the standby
rebuilder under this supervisor, which is what the README's deploy section starts.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

# Restarted after 1 s, then 2, 4, ... up to a minute while it keeps exiting; a program
# that ran for a minute is healthy again and its next restart is quick.
FIRST_DELAY = 1.0
MAX_DELAY = 60.0
STEADY_SECONDS = 60.0
STOP_SECONDS = 20.0


@dataclass
class Program:
    """One supervised command."""

    name: str
    args: Sequence[str]
    cwd: str | None = None
    # Added to the supervisor's own CPU niceness: a higher number gives way to others
    # when the machine's cores are all busy (never needs privileges).
    niceness: int = 0
    # Set in its environment over the supervisor's own.
    env: Mapping[str, str] = field(default_factory=dict)
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    failures: int = 0  # exits in a row, each after less than STEADY_SECONDS
    restart_at: float | None = None
    starts: list[int] = field(default_factory=list)  # the pid of each start

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


class Supervisor:
    def __init__(
        self,
        programs: Sequence[Program],
        *,
        first_delay: float = FIRST_DELAY,
        max_delay: float = MAX_DELAY,
        steady: float = STEADY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.programs = list(programs)
        self.first_delay, self.max_delay, self.steady = first_delay, max_delay, steady
        self.clock = clock
        self.stopping = False

    def start(self, program: Program) -> None:
        lowered = program.niceness
        program.process = subprocess.Popen(
            list(program.args),
            cwd=program.cwd,
            env={**os.environ, **program.env} if program.env else None,
            preexec_fn=(lambda: os.nice(lowered)) if lowered > 0 else None,
        )
        program.started_at, program.restart_at = self.clock(), None
        program.starts.append(program.process.pid)
        log.warning("Started %s (pid %s).", program.name, program.process.pid)

    def delay(self, program: Program) -> float:
        return min(self.max_delay, self.first_delay * 2 ** max(program.failures - 1, 0))

    def check(self) -> None:
        """Note what exited and schedule its restart; start what is due."""
        now = self.clock()
        for program in self.programs:
            if program.process is not None and program.restart_at is None:
                code = program.process.poll()
                if code is not None:
                    ran = now - program.started_at
                    program.failures = 1 if ran >= self.steady else program.failures + 1
                    program.restart_at = now + self.delay(program)
                    log.error(
                        "%s (pid %s) exited with %s after %.0f s; restarting it in %.0f s.",
                        program.name,
                        program.process.pid,
                        code,
                        ran,
                        program.restart_at - now,
                    )
            if program.process is None or (
                program.restart_at is not None and now >= program.restart_at
            ):
                self.start(program)

    def stop(self, *_: object) -> None:
        self.stopping = True

    def run(self, *, interval: float = 0.5) -> None:
        """Supervise until SIGTERM or SIGINT, then stop every program."""
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        try:
            while not self.stopping:
                self.check()
                time.sleep(interval)
        finally:
            self.stop_all()

    def stop_all(self) -> None:
        """SIGTERM to each (a worker finishes its task, gunicorn its requests), SIGKILL
        to whatever is still there after STOP_SECONDS."""
        running = [p for p in self.programs if p.running]
        for program in running:
            program.process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for program in running:
            try:
                program.process.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                log.error("%s did not stop within %.0f s: killed.", program.name, STOP_SECONDS)
                program.process.kill()
                program.process.wait()
