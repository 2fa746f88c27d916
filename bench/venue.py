"""The venue laptop on a big day: 64 tables (256 players) enter their hands on phones,
a director corrects hands on the sheet and the screens follow, all on the embedded
default (an SQLite file, no broker, no shared cache) served as `make venue` serves it.

Not a test: it prints figures. A fresh SQLite file gets a 256-player event (the demo
generator, `--rounds` rounds, the last in play, entered by the players); then the
venue's own start runs on it (`manage.py run_processes --web-workers 1 --threads 8
--only web,standby`: `make venue`'s command without the publisher) and, for
`--seconds`:

- 64 tables, each with its four phones (a session each, signed in with the player's
  code from the slip's QR code). Every phone polls its entry page's live region every
  ENTRY_POLL_SECONDS, as the page does. Every 20-60 s (jittered) one player enters the
  table's next hand (POST, then the page it redirects to); another player's phone sees
  it in its next poll and, a few seconds later, confirms it.
- a director, signed in, every few seconds opens a table's sheet and corrects one of
  the hands confirmed meanwhile (the sheet's HTMX POST): one more point for a seat.
- 8 leaderboard readers and 2 projectors: the page, then its poll every
  PUBLIC_POLL_SECONDS, following the versions it is given.
- a probe, every PROBE seconds: the leaderboard's poll and the standings API. For each
  confirmed hand and each correction it notes when the standings API first includes it
  (the table's players' points add up to what the bench has recorded there) and when
  the leaderboard's poll first answers with that standings version or a later one.

Printed: writes per second, each save's time (the POST; proposal, confirmation and the
director's save apart), every screen's time, the delay from a save's answer to the
leaderboard and the API showing it, the answers that were neither 2xx, 3xx nor 204,
and "database is locked" counted in the answers and in the server's log; with the load
average. Traffic goes to 127.0.0.1 only.

    .venv/bin/python bench/venue.py [--seconds 120] [--rounds 6]
"""

from __future__ import annotations

import argparse
import html
import os
import random
import re
import socket
import statistics
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import requests
from _setup import ROOT, command_line, setup_django, start, stop, wait_for_port

SLUG = "venue-day"
PASSWORD = "bench-director-password"
LOG = "/tmp/kalooki-bench-venue.log"
ENTRY_POLL = 3.0  # settings.ENTRY_POLL_SECONDS
PUBLIC_POLL = 3.0  # settings.PUBLIC_POLL_SECONDS
PROBE = 0.1
POLL_URL = re.compile(r'hx-get="([^"]*/live/[^"]*)"')
CONFIRM = re.compile(r'hands/(\d+)/confirm/">(?:(?!</form>).)*?name="version" value="(\d+)"', re.S)


class Stats:
    """Every request's time and answer, by kind; the screens' delays."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.locked = 0
        self.delays: dict[str, list[float]] = defaultdict(list)
        self.measuring = False

    def call(self, session: requests.Session, kind: str, method: str, url: str, **kw):
        started = time.perf_counter()
        try:
            response = session.request(method, url, allow_redirects=False, timeout=60, **kw)
        except requests.RequestException as error:
            with self.lock:
                self.statuses[kind][type(error).__name__] += 1
            return None
        took = time.perf_counter() - started
        with self.lock:
            if self.measuring:
                self.times[kind].append(took)
            self.statuses[kind][response.status_code] += 1
            if response.status_code >= 500 and "locked" in response.text:
                self.locked += 1
        return response


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[max(0, int(len(ordered) * 0.95 + 0.5) - 1)]
    return (
        f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {ordered[-1] * 1000:.0f} ms (n={len(ordered)})"
    )


def csrf(session: requests.Session) -> str:
    return next((c.value for c in session.cookies if c.name == "csrftoken"), "")


def poll_url(text: str, current: str) -> str:
    found = POLL_URL.search(text)
    return html.unescape(found.group(1)) if found else current


# --- the event ---------------------------------------------------------------------------


def make_event(rounds: int) -> dict:
    """The 256-player event, its round in play entered by the players; what the phones
    need: per table, each seat's code, the seats playing each hand, the next hand."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import Hand
    from tournaments.models import Event, PlayerCode, Round, Seat

    started = time.perf_counter()
    call_command(
        *("demo_event", "--players", "256", "--rounds", str(rounds), "--seed", "7"),
        *("--live", "--table-entry", "players", "--slug", SLUG, "--name", "Venue day"),
    )
    print(f"demo event generated in {time.perf_counter() - started:.0f} s")
    user = get_user_model().objects.create_superuser("bench-director", password=PASSWORD)
    assert user.pk
    event = Event.objects.get(slug=SLUG)
    round_ = event.rounds.get(status=Round.Status.PUBLISHED)
    codes = dict(PlayerCode.objects.filter(round=round_).values_list("entry_id", "code"))
    recorded = set(
        Hand.objects.filter(table__round=round_, outcome="scored").values_list(
            "table__number", "number"
        )
    )
    count = event.rules.hand_count
    tables: dict[int, dict] = {}
    for seat in Seat.objects.filter(table__round=round_).select_related("table", "entry"):
        table = tables.setdefault(
            seat.table.number, {"codes": {}, "players": [], "plays": defaultdict(list)}
        )
        table["players"].append(seat.entry.player_id)
        if seat.entry_id in codes:
            table["codes"][seat.position] = codes[seat.entry_id]
        for number in range(1, count + 1):
            if seat.plays_hand(number):
                table["plays"][number].append(seat.position)
    for number, table in tables.items():
        table["next"] = [n for n in range(1, count + 1) if (number, n) not in recorded]
    connection.close()
    return {"round": round_.number, "tables": tables}


# --- the clients -------------------------------------------------------------------------


class Phone:
    def __init__(self, base: str, stats: Stats, entry: str, code: str):
        self.session, self.stats, self.entry = requests.Session(), stats, entry
        self.base, self.code, self.poll, self.region = base, code, "", ""

    def sign_in(self) -> None:
        self.stats.call(self.session, "sign-in", "GET", f"{self.base}{self.entry}?code={self.code}")
        self.page()

    def page(self) -> None:
        page = self.stats.call(self.session, "phone page", "GET", self.base + self.entry)
        if page is not None and page.status_code == 200:
            self.region = page.text
            self.poll = poll_url(page.text, self.poll or f"{self.entry}live/")

    def poll_once(self) -> None:
        answer = self.stats.call(self.session, "phone poll", "GET", self.base + self.poll)
        if answer is None:
            return
        if answer.headers.get("HX-Refresh"):
            self.page()
        elif answer.status_code == 200:
            self.region = answer.text
            self.poll = poll_url(answer.text, self.poll)

    def post(self, kind: str, path: str, data: dict) -> int:
        data = {**data, "csrfmiddlewaretoken": csrf(self.session)}
        answer = self.stats.call(self.session, kind, "POST", self.base + path, data=data)
        if answer is None:
            return 0
        if answer.status_code == 302:
            self.page()  # the browser follows the redirect
        return answer.status_code


class Ledger:
    """What the bench has recorded at each table since the start (points added), and
    the saves whose answer came but whose effect the probe has not seen yet."""

    def __init__(self, tables) -> None:
        self.locks = {number: threading.Lock() for number in tables}
        self.added = dict.fromkeys(tables, 0)
        self.pending: dict[int, list[tuple[int, float, str]]] = {n: [] for n in tables}
        self.hands: dict[tuple[int, int], dict] = {}  # hands the phones recorded
        self.lock = threading.Lock()

    def saved(self, table: int, points: int, kind: str) -> None:
        with self.lock:
            self.added[table] += points
            self.pending[table].append((self.added[table], time.perf_counter(), kind))


def hand_fields(table: int, number: int, seats: list[int], went_out: int) -> dict[str, str]:
    points = {s: 0 if s == went_out else 3 + (number * 7 + s * 5 + table) % 30 for s in seats}
    return {**{f"seat{s}": str(p) for s, p in points.items()}, "went_out": str(went_out)}


def play_table(args, base, stats, ledger, event, number, stop_at) -> None:
    """One table: its phones' polls, and a hand entered and confirmed every 20-60 s."""
    info = event["tables"][number]
    entry = f"/events/{SLUG}/rounds/{event['round']}/tables/{number}/enter/"
    phones = {seat: Phone(base, stats, entry, code) for seat, code in info["codes"].items()}
    rng = random.Random(number)
    time.sleep(rng.uniform(0, args.warm_up / 2))
    for phone in phones.values():
        phone.sign_in()
    polls = {seat: time.monotonic() + rng.uniform(0, ENTRY_POLL) for seat in phones}
    next_hand = time.monotonic() + args.warm_up / 2 + rng.uniform(0, 20)
    waiting: list | None = None  # [hand, confirming seat, fields, entered at, version]
    confirm_at = None
    while time.monotonic() < stop_at:
        now = time.monotonic()
        if waiting is not None:
            action = confirm_at if confirm_at is not None else waiting[3] + 15
        else:
            action = next_hand if info["next"] else float("inf")
        due = min(*polls.values(), action)
        if due > now:
            time.sleep(min(due - now, stop_at - now))
            continue
        seat = min(polls, key=polls.get)
        if polls[seat] <= now:
            phones[seat].poll_once()
            polls[seat] = time.monotonic() + ENTRY_POLL
            if waiting and seat == waiting[1] and confirm_at is None:
                confirm_at = confirmable(phones[seat], waiting, rng)
        elif waiting is None:
            waiting = enter_hand(phones, info, number, entry, rng)
            next_hand = time.monotonic() + rng.uniform(3, 6)  # if refused: tapped again
        elif confirm_at is None:  # not seen in the polls: the player reloads the page
            phones[waiting[1]].page()
            confirm_at = confirmable(phones[waiting[1]], waiting, rng)
            waiting[3] = time.monotonic()
        else:
            hand, confirmer, fields, _, version = waiting
            with ledger.locks[number]:
                status = phones[confirmer].post(
                    "confirm", f"{entry}hands/{hand}/confirm/", {"version": version}
                )
                if status == 302:
                    points = sum(int(v) for k, v in fields.items() if k != "went_out")
                    ledger.saved(number, points, "confirm")
                    ledger.hands[(number, hand)] = fields
            if status == 302:
                info["next"].pop(0)
                waiting, confirm_at = None, None
                next_hand = time.monotonic() + rng.uniform(20, 60)
            else:
                confirm_at = time.monotonic() + rng.uniform(3, 6)


def enter_hand(phones, info, number: int, entry: str, rng) -> list | None:
    """The table's next hand entered on one player's phone (None: refused)."""
    while info["next"]:
        hand = info["next"][0]
        seats = [s for s in info["plays"][hand] if s in phones]
        if len(seats) >= 2:
            break
        info["next"].pop(0)
    else:
        return None
    proposer = seats[hand % len(seats)]
    fields = hand_fields(number, hand, info["plays"][hand], proposer)
    if phones[proposer].post("propose", f"{entry}hands/{hand}/", fields) != 302:
        return None
    return [hand, seats[(hand + 1) % len(seats)], fields, time.monotonic(), None]


def confirmable(phone: Phone, waiting: list, rng) -> float | None:
    """When the confirming player taps Confirm, once their phone shows the hand."""
    shown = dict(CONFIRM.findall(phone.region))
    if str(waiting[0]) not in shown:
        return None
    waiting[4] = shown[str(waiting[0])]
    return time.monotonic() + rng.uniform(2, 6)


def director(args, base, stats, ledger, event, stop_at) -> None:
    """Signs in, then every few seconds corrects a hand the phones recorded."""
    session, rng = requests.Session(), random.Random(1)
    stats.call(session, "director sign-in", "GET", f"{base}/accounts/login/")
    data = {"username": "bench-director", "password": PASSWORD}
    data["csrfmiddlewaretoken"] = csrf(session)
    signed = stats.call(session, "director sign-in", "POST", f"{base}/accounts/login/", data=data)
    assert signed is not None and signed.status_code == 302, "the director's sign-in failed"
    while time.monotonic() < stop_at:
        time.sleep(rng.uniform(args.director_every / 2, args.director_every * 1.5))
        with ledger.lock:
            done = sorted(ledger.hands)
        if not done:
            continue
        table, hand = rng.choice(done)
        sheet = f"/director/{SLUG}/rounds/{event['round']}/tables/{table}/"
        with ledger.locks[table]:
            page = stats.call(session, "director sheet page", "GET", base + sheet)
            if page is None or page.status_code != 200:
                continue
            found = re.search(
                rf'id="hand-{hand}-form"(?:(?!</form>).)*?name="version" value="(\d+)"',
                page.text,
                re.S,
            )
            fields = dict(ledger.hands[(table, hand)])
            seat = rng.choice([k for k, v in fields.items() if k != "went_out" and v != "0"])
            fields[seat] = str(int(fields[seat]) + 1)
            answer = stats.call(
                session,
                "director save",
                "POST",
                f"{base}{sheet}hands/{hand}/",
                data={**fields, "version": found.group(1) if found else ""},
                headers={"HX-Request": "true", "X-CSRFToken": csrf(session)},
            )
            if answer is not None and answer.status_code == 200:
                ledger.hands[(table, hand)] = fields
                ledger.saved(table, 1, "director")


def reader(base, stats, page: str, kind: str, stop_at: float, delay: float) -> None:
    session = requests.Session()
    time.sleep(delay)
    first = stats.call(session, f"{kind} page", "GET", base + page)
    url = poll_url(first.text if first is not None else "", f"{page}live/")
    while time.monotonic() < stop_at:
        time.sleep(PUBLIC_POLL)
        answer = stats.call(session, f"{kind} poll", "GET", base + url)
        if answer is not None and answer.status_code == 200:
            url = poll_url(answer.text, url)


def probe(base, stats, ledger, event, stop_at, baseline: dict) -> None:
    """When the standings API, and the leaderboard's poll, first show each save."""
    session = requests.Session()
    board = f"/events/{SLUG}/live/"
    api = f"/api/v1/events/{SLUG}/standings/"
    seen: list[tuple[int, float]] = []  # the leaderboard's versions, when first answered
    shown: list[tuple[int, float, str]] = []  # in the API from version v, not yet on the board
    etag, version = "", None
    while time.monotonic() < stop_at + 5:
        answer = stats.call(session, "probe leaderboard poll", "GET", base + board)
        now = time.perf_counter()
        if answer is not None and answer.status_code == 200:
            board = poll_url(answer.text, board)
            found = re.search(r"[?&]v=(\d+)", board)
            if found and (not seen or int(found.group(1)) > seen[-1][0]):
                seen.append((int(found.group(1)), now))
        headers = {"If-None-Match": etag} if etag else {}
        answer = stats.call(session, "probe standings API", "GET", base + api, headers=headers)
        now = time.perf_counter()
        if answer is not None and answer.status_code == 200:
            etag, document = answer.headers.get("ETag", ""), answer.json()
            version = document["version"]
            points = {row["player"]["id"]: row["points"] for row in document["standings"]}
            with ledger.lock:
                for table, pending in ledger.pending.items():
                    total = sum(points.get(p, 0) for p in event["tables"][table]["players"])
                    total -= baseline[table]
                    for _, answered, kind in [p for p in pending if p[0] <= total]:
                        stats.delays[f"{kind} -> standings API"].append(max(0, now - answered))
                        shown.append((version, answered, kind))
                    ledger.pending[table] = [p for p in pending if p[0] > total]
        for item in list(shown):
            on_board = [t for v, t in seen if v >= item[0]]
            if on_board:
                stats.delays[f"{item[2]} -> leaderboard"].append(max(0, on_board[0] - item[1]))
                shown.remove(item)
        if not any(ledger.pending.values()) and not shown and time.monotonic() > stop_at:
            return
        time.sleep(PROBE)


def table_totals(base: str, event: dict) -> dict[int, int]:
    document = requests.get(f"{base}/api/v1/events/{SLUG}/standings/", timeout=60).json()
    points = {row["player"]["id"]: row["points"] for row in document["standings"]}
    return {n: sum(points.get(p, 0) for p in t["players"]) for n, t in event["tables"].items()}


# --- the run -----------------------------------------------------------------------------


def venue_env(url: str) -> dict[str, str]:
    """`make venue`'s environment (VENUE_ENV) on this file. One difference: every
    client here comes from 127.0.0.1, where a hall's phones each have an address of
    their own, so the API's per-address limit is lifted for the probe."""
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    env.pop("DEBUG", None)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.update(
        DATABASE_URL=url,
        SECRET_KEY="bench-only-venue-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="*",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        API_RATE_ANON="100000/minute",
    )
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--rounds", type=int, default=6, help="rounds, the last in play")
    parser.add_argument("--threads", type=int, default=8, help="gunicorn's (make venue: 8)")
    parser.add_argument("--director-every", type=float, default=5, help="seconds, about")
    parser.add_argument("--warm-up", type=float, default=20, help="seconds to sign in")
    parser.add_argument("--db", default="/tmp/kalooki-bench-venue.sqlite3")
    args = parser.parse_args()
    print(f"$ {command_line()}")
    for suffix in ("", "-wal", "-shm"):
        Path(args.db + suffix).unlink(missing_ok=True)
    url = f"sqlite:///{args.db}"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.pop("CACHE_URL", None)
    os.environ.update(DEBUG="1", DJANGO_SETTINGS_MODULE="kalooki_site.settings", LOG_LEVEL="ERROR")
    setup_django(url)
    event = make_event(args.rounds)
    env = venue_env(url)
    manage = [sys.executable, str(ROOT / "manage.py")]
    start(
        [*manage, "collectstatic", "--noinput", "-v0"], env, "/tmp/kalooki-bench-static.log"
    ).wait()
    port = free_port()
    server = start(
        [
            *(*manage, "run_processes", "--bind", f"127.0.0.1:{port}"),
            *("--web-workers", "1", "--threads", str(args.threads), "--only", "web,standby"),
        ],
        env,
        LOG,
    )
    try:
        wait_for_port(port)
        run(args, f"http://127.0.0.1:{port}", event)
    finally:
        stop(server)
    log = Path(LOG).read_text(errors="replace")
    print(
        f'server log: {log.count("database is locked")} "database is locked", '
        f'{log.count("database table is locked")} "database table is locked", '
        f"{log.count('Traceback')} tracebacks ({LOG})"
    )


def run(args, base: str, event: dict) -> None:
    stats, ledger = Stats(), Ledger(event["tables"])
    baseline = table_totals(base, event)
    stop_at = time.monotonic() + args.warm_up + args.seconds
    threads = [
        threading.Thread(
            target=play_table, args=(args, base, stats, ledger, event, number, stop_at)
        )
        for number in event["tables"]
    ]
    threads.append(
        threading.Thread(target=director, args=(args, base, stats, ledger, event, stop_at))
    )
    for i in range(10):
        page, kind = (
            (f"/events/{SLUG}/projector/", "projector")
            if i < 2
            else (f"/events/{SLUG}/", "leaderboard")
        )
        threads.append(
            threading.Thread(
                target=reader, args=(base, stats, page, kind, stop_at, i * PUBLIC_POLL / 10)
            )
        )
    watcher = threading.Thread(target=probe, args=(base, stats, ledger, event, stop_at, baseline))
    for thread in [*threads, watcher]:
        thread.start()
    time.sleep(args.warm_up)
    stats.measuring = True
    load_before = Path("/proc/loadavg").read_text().strip()
    began = time.monotonic()
    for thread in threads:
        thread.join()
    played = time.monotonic() - began
    stats.measuring = False
    watcher.join()
    report(args, stats, ledger, event, played, load_before)


def report(args, stats: Stats, ledger: Ledger, event: dict, played: float, load: str) -> None:
    tables = len(event["tables"])
    writes = sum(len(stats.times[k]) for k in ("propose", "confirm", "director save"))
    polls = stats.times["phone poll"]
    print(
        f"{SLUG}: 256 players at {tables} tables, {args.rounds} rounds (the last in play); "
        f"SQLite file, no broker, run_processes --web-workers 1 --threads {args.threads} "
        f"--only web,standby; {os.cpu_count()} CPUs"
    )
    print(
        f"load average: {load} at the start, {Path('/proc/loadavg').read_text().strip()} at the end"
    )
    print(
        f"{played:.0f} s measured: {writes} saves ({writes / played:.1f}/s), "
        f"{len(polls)} phone polls ({len(polls) / played:.0f}/s)"
    )
    print("saves (the POST, request to answer):")
    for kind in ("propose", "confirm", "director save"):
        print(f"  {kind:<28} {percentiles(stats.times[kind])}")
    print("screens (request to answer):")
    for kind in sorted(stats.times):
        if kind not in ("propose", "confirm", "director save"):
            print(f"  {kind:<28} {percentiles(stats.times[kind])}")
    print("a save's answer -> shown (probe every 100 ms):")
    for kind in sorted(stats.delays):
        print(f"  {kind:<28} {percentiles(stats.delays[kind])}")
    left = sum(len(p) for p in ledger.pending.values())
    print(f"  saves never seen in the standings API: {left}")
    answered = stats.statuses["phone poll"]
    print(f"phone polls: {answered[204]} unchanged (204), {answered[200]} the region again (200)")
    bad = {
        kind: {s: n for s, n in counts.items() if not (isinstance(s, int) and s < 400)}
        for kind, counts in stats.statuses.items()
    }
    bad = {k: v for k, v in bad.items() if v}
    print(f'answers: {stats.locked} 5xx saying "locked"; other than 2xx/3xx: {bad or "none"}')


if __name__ == "__main__":
    main()
