"""The clients of `bench/venue.py`: a table's four phones, the director, the screens'
readers and the probe that notes when each save shows on the leaderboard and in the
standings API; and what they share (`Day`: the request times, the saves recorded).
Not a test."""

from __future__ import annotations

import html
import random
import re
import select
import socket
import statistics
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import partial

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

SLUG = "venue-day"
PASSWORD = "bench-director-password"
LOG = "/tmp/kalooki-bench-venue.log"
ENTRY_POLL = 3.0  # settings.ENTRY_POLL_SECONDS
PUBLIC_POLL = 3.0  # settings.PUBLIC_POLL_SECONDS
PROBE = 0.1
GRACE = 20  # seconds the probe waits, after the run, for the last saves to show
POLL_URL = re.compile(r'hx-get="([^"]*/live/[^"]*)"')
PUSH_URL = re.compile(r'data-push="([^"]*)"')
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
        self.failures: dict[str, str] = {}  # the first failure of each kind, as said

    def call(self, session: requests.Session, kind: str, method: str, url: str, **kw):
        started = time.perf_counter()
        try:
            response = session.request(method, url, allow_redirects=False, timeout=60, **kw)
        except requests.RequestException as error:
            with self.lock:
                self.statuses[kind][type(error).__name__] += 1
                self.failures.setdefault(kind, str(error)[:160])
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
    p95, p99 = (ordered[max(0, int(len(ordered) * share + 0.5) - 1)] for share in (0.95, 0.99))
    return (
        f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms (n={len(ordered)})"
    )


def browser() -> requests.Session:
    """A client with its own cookies that, as a browser does, sends a request once more
    when the kept-alive connection it reused turns out closed (the server closes an idle
    one after 2 s; the pages poll every 3 s)."""
    session = requests.Session()
    retry = Retry(total=1, connect=1, read=1, status=0, other=0, allowed_methods=None)
    session.mount("http://", HTTPAdapter(max_retries=retry))
    return session


def csrf(session: requests.Session) -> str:
    return next((c.value for c in session.cookies if c.name == "csrftoken"), "")


def signed_in(
    session: requests.Session, base: str, username: str, password: str, send=None
) -> requests.Response | None:
    """A director signed in through the sign-in page, as a browser does (the page for
    its CSRF cookie, then the form): the form's answer, 302 when right. `send(method,
    url, **kw)`: how each request goes (by default straight, not following redirects)."""
    if send is None:
        send = partial(session.request, allow_redirects=False, timeout=60)
    send("GET", f"{base}/accounts/login/")
    data = {"username": username, "password": password, "csrfmiddlewaretoken": csrf(session)}
    return send("POST", f"{base}/accounts/login/", data=data)


def poll_url(text: str, current: str) -> str:
    found = POLL_URL.search(text)
    return html.unescape(found.group(1)) if found else current


class Phone:
    def __init__(self, base: str, stats: Stats, entry: str, code: str):
        self.session, self.stats, self.entry = browser(), stats, entry
        self.base, self.code, self.poll, self.region = base, code, "", ""
        self.stream: socket.socket | None = None  # the push server's stream, when pushed
        self.heard = b""

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

    def listen(self, port: int) -> socket.socket | None:
        """The page's push stream (its data-push address, on the push server at `port`)
        opened as the browser does; None when the page names none."""
        found = PUSH_URL.search(self.region)
        if not found:
            return None
        path = html.unescape(found.group(1))
        try:
            self.stream = socket.create_connection(("127.0.0.1", port), timeout=30)
            self.stream.sendall(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Accept: text/event-stream\r\nAccept-Encoding: identity\r\n\r\n".encode()
            )
        except OSError:
            self.stream = None
        return self.stream

    def told(self) -> bool:
        """Read what the stream sent: whether it says the table changed (False, and the
        stream dropped, when it ended: the phone polls again)."""
        try:
            data = self.stream.recv(65536)
        except OSError:
            data = b""
        if not data:
            self.stream.close()
            self.stream = None
            return False
        changed = b"event: changed" in self.heard + data
        self.heard = data[-16:]
        return changed

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
        # The same saves, for the probe of the database (`committed_probe`).
        self.uncommitted: dict[int, list[tuple[int, float, str]]] = {n: [] for n in tables}
        self.hands: dict[tuple[int, int], dict] = {}  # hands the phones recorded
        self.lock = threading.Lock()

    def saved(self, table: int, points: int, kind: str) -> None:
        with self.lock:
            self.added[table] += points
            saved = (self.added[table], time.perf_counter(), kind)
            self.pending[table].append(saved)
            self.uncommitted[table].append(saved)


def hand_fields(table: int, number: int, seats: list[int], went_out: int) -> dict[str, str]:
    points = {s: 0 if s == went_out else 3 + (number * 7 + s * 5 + table) % 30 for s in seats}
    return {**{f"seat{s}": str(p) for s, p in points.items()}, "went_out": str(went_out)}


def play_table(day: Day, number: int) -> None:
    """One table: its phones' polls, and a hand entered and confirmed every 20-60 s."""
    info, ledger = day.event["tables"][number], day.ledger
    entry = f"/events/{day.event['slug']}/rounds/{day.event['round']}/tables/{number}/enter/"
    phones = {s: Phone(day.base, day.stats, entry, code) for s, code in info["codes"].items()}
    rng = random.Random(number)
    time.sleep(rng.uniform(0, day.args.warm_up))
    for phone in phones.values():
        phone.sign_in()
    day.signed_in.release()
    polls = {seat: time.monotonic() + rng.uniform(0, ENTRY_POLL) for seat in phones}
    # With the push server (bench/national.py --push), a phone asks only when its
    # stream says the table changed, and polls as before while it has no stream.
    push = getattr(day.args, "push_port", None)
    for seat, phone in phones.items():
        if push and phone.listen(push) is not None:
            polls[seat] = float("inf")
    next_hand = time.monotonic() + rng.uniform(0, 20)
    waiting: list | None = None  # [hand, confirming seat, fields, entered at, version]
    confirm_at = None
    while time.monotonic() < day.stop_at:
        now = time.monotonic()
        if waiting is not None:
            action = confirm_at if confirm_at is not None else waiting[3] + 15
        else:
            action = next_hand if info["next"] else float("inf")
        due = min(*polls.values(), action)
        if due > now:
            wait = max(0, min(due - now, day.stop_at - now))
            streams = {p.stream: seat for seat, p in phones.items() if p.stream is not None}
            if not streams:
                time.sleep(wait)
                continue
            heard = select.poll()  # not select(): a national bench holds 2,000 sockets
            for stream in streams:
                heard.register(stream, select.POLLIN)
            for fd, _ in heard.poll(wait * 1000):
                seat = next(s for stream, s in streams.items() if stream.fileno() == fd)
                if phones[seat].told():
                    polls[seat] = time.monotonic()
                elif phones[seat].stream is None:
                    polls[seat] = time.monotonic() + ENTRY_POLL
            continue
        seat = min(polls, key=polls.get)
        if polls[seat] <= now:
            phones[seat].poll_once()
            pushed = phones[seat].stream is not None
            polls[seat] = float("inf") if pushed else time.monotonic() + ENTRY_POLL
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


def director(day: Day) -> None:
    """Signs in, then every few seconds corrects a hand the phones recorded."""
    session, rng = browser(), random.Random(1)
    base, stats, ledger, every = day.base, day.stats, day.ledger, day.args.director_every
    send = partial(stats.call, session, "director sign-in")
    signed = signed_in(session, base, "bench-director", PASSWORD, send)
    assert signed is not None and signed.status_code == 302, "the director's sign-in failed"
    while time.monotonic() < day.stop_at:
        time.sleep(rng.uniform(every / 2, every * 1.5))
        if time.monotonic() >= day.stop_at:
            # A save after the end may come once the probe, finding nothing pending,
            # has stopped looking: it would be counted as never shown.
            break
        with ledger.lock:
            done = sorted(ledger.hands)
        if not done:
            continue
        table, hand = rng.choice(done)
        sheet = f"/director/{day.event['slug']}/rounds/{day.event['round']}/tables/{table}/"
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


def reader(day: Day, page: str, kind: str, delay: float) -> None:
    session, stats, base = browser(), day.stats, day.base
    time.sleep(delay)
    first = stats.call(session, f"{kind} page", "GET", base + page)
    url = poll_url(first.text if first is not None else "", f"{page}live/")
    while time.monotonic() < day.stop_at:
        time.sleep(PUBLIC_POLL)
        answer = stats.call(session, f"{kind} poll", "GET", base + url)
        if answer is not None and answer.status_code == 200:
            url = poll_url(answer.text, url)


def probe(day: Day, baseline: dict) -> None:
    """When the standings API, and the leaderboard's poll, first show each save."""
    session, stats, base, ledger = browser(), day.stats, day.base, day.ledger
    board = f"/events/{day.event['slug']}/live/"
    api = f"/api/v1/events/{day.event['slug']}/standings/"
    seen: list[tuple[int, float]] = []  # the leaderboard's versions, when first answered
    shown: list[tuple[int, float, str]] = []  # in the API from version v, not yet on the board
    etag, version = "", None
    while time.monotonic() < day.stop_at + GRACE:
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
                    total = sum(points.get(p, 0) for p in day.event["tables"][table]["players"])
                    total -= baseline[table]
                    for _, answered, kind in [p for p in pending if p[0] <= total]:
                        stats.delays[f"{kind} -> standings API"].append(max(0, now - answered))
                        shown.append((version, answered, kind))
                        day.in_api.append((version, answered, kind))
                    ledger.pending[table] = [p for p in pending if p[0] > total]
        for item in list(shown):
            on_board = [t for v, t in seen if v >= item[0]]
            if on_board:
                stats.delays[f"{item[2]} -> leaderboard"].append(max(0, on_board[0] - item[1]))
                shown.remove(item)
        if not any(ledger.pending.values()) and not shown and day.saving_done.is_set():
            return
        time.sleep(PROBE)


@dataclass
class Day:
    """What every client of one run shares; `stop_at` moves once every phone signed in."""

    args: object
    base: str
    event: dict
    stats: Stats
    ledger: Ledger
    stop_at: float
    signed_in: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    # Set once every client that saves has stopped: a save answered after the end (a
    # slow answer to a request sent before it) is still looked for.
    saving_done: threading.Event = field(default_factory=threading.Event)
    # Each save as the probe first found it in the standings API: (the API's version,
    # when the save was answered, its kind).
    in_api: list[tuple[int, float, str]] = field(default_factory=list)
    # Each save with the standings version whose rebuild committed it (`committed_probe`):
    # the first version that shows it, whenever the API's probe got to it.
    in_db: list[tuple[int, float, str]] = field(default_factory=list)
    # When each standings version was first seen committed (time.time()).
    committed_at: dict[int, float] = field(default_factory=dict)
    # When each was first seen announced in the shared cache (time.time()).
    announced_at: dict[int, float] = field(default_factory=dict)


def table_totals(base: str, event: dict) -> dict[int, int]:
    api = f"{base}/api/v1/events/{event['slug']}/standings/"
    document = requests.get(api, timeout=60).json()
    points = {row["player"]["id"]: row["points"] for row in document["standings"]}
    return {n: sum(points.get(p, 0) for p in t["players"]) for n, t in event["tables"].items()}


# --- the run -----------------------------------------------------------------------------
