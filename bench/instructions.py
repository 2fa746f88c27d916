"""The instructions a cached read costs the web process, against the trivial view's:
counted by valgrind (callgrind), which the machine's speed and its neighbours do not
move, where `bench/reads.py`'s rates drift by a third from round to round.

Not a test: it prints figures (docs/benchmarks.md, "seventh pass"). Each read in a
process of its own under valgrind: Django's WSGI handler called directly with the
production settings, on `bench/reads.py`'s event (run that first: it makes it) and a
Redis cache (filled first by a run of each read without valgrind, so that no counted
run builds what another then reads), 300 requests to warm up, the heap frozen (so
that a full collection landing in one run and not the other does not count), the
announced versions' recheck held for the run (valgrind runs the process 50 times
slower than its 0.25 s are meant for); then the instructions of `--requests` requests
less those of none.

    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/instructions.py \\
        [--players 1024] [--requests 2000] [--cache redis://127.0.0.1:6379/9]
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from _setup import ROOT, command_line, site_env

READS = {  # name: (path, the browser's Accept-Language sent)
    "trivial": ("/healthz", False),
    "leaderboard": ("/events/{slug}/", True),
    "api whole list": ("/api/v1/events/{slug}/standings/", False),
}


def serve(path: str, language: bool, requests: int) -> None:
    """In this process (under valgrind): warm up, then `requests` requests of `path`."""
    import gc

    import django

    django.setup()
    from django.core.handlers.wsgi import WSGIHandler

    from core import caching

    app = WSGIHandler()
    environ = {
        "REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1", "HTTP_ACCEPT_ENCODING": "gzip", "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
    }  # fmt: skip
    if language:
        environ["HTTP_ACCEPT_LANGUAGE"] = "en"

    def one() -> None:
        status = []
        body = app({**environ, "wsgi.input": io.BytesIO(b"")}, lambda s, h: status.append(s))
        b"".join(body)
        body.close()
        assert status[0].startswith("200"), (path, status)

    caching.ANNOUNCED.ttl = 3600  # held: valgrind's slowness would expire it 50x as often
    for _ in range(300):
        one()
    gc.collect()
    gc.freeze()
    for _ in range(requests):
        one()


def counted(path: str, language: bool, requests: int, env: dict, *, valgrind=True) -> int:
    args = [sys.executable, __file__, "--one", path, "--language", str(int(language))]
    args += ["--requests", str(requests)]
    if valgrind:
        args = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args]
    out = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    return int(re.search(r"Collected : (\d+)", out.stderr).group(1)) if valgrind else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--cache", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--language", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        serve(args.one, bool(args.language), args.requests)
        return
    print(f"$ {command_line()}")
    # The reads bench's settings (production's, the API's limits lifted), no broker.
    env = site_env(os.environ["BENCH_DATABASE_URL"], "", args.cache)
    env.pop("CELERY_BROKER_URL")
    env["PYTHONPATH"] = str(ROOT)
    slug = f"bench-{args.players}-10"
    jobs = [
        (name, path.format(slug=slug), language, n)
        for name, (path, language) in READS.items()
        for n in (0, args.requests)
    ]
    for path, language in READS.values():  # the shared cache filled first
        counted(path.format(slug=slug), language, 0, env, valgrind=False)
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        found = list(pool.map(lambda job: counted(*job[1:], env), jobs))
    per = {}
    for (name, _path, _language, n), total in zip(jobs, found, strict=True):
        per.setdefault(name, {})[n] = total
    each = {name: (t[args.requests] - t[0]) / args.requests for name, t in per.items()}
    print(f"instructions a request ({args.requests} requests less none, one process each):")
    for name, value in each.items():
        print(f"  {name:<16} {value:12,.0f}  {each['trivial'] / value:5.2f}x the trivial view")


if __name__ == "__main__":
    main()
