"""The national championship's probes of when each save shows (bench/national.py): in
the database, as the version that committed it, and in the standings API, as the
version it answers."""

from __future__ import annotations

import pickle
import re
import time

import redis
from _venue_clients import Day, browser

SLUG = "national-day"
CACHE = "redis://127.0.0.1:6379/11"  # the site's shared cache


def committed_probe(day: Day, baseline: dict) -> None:
    """Each save with the first standings version that shows it: the points of the
    players whose tables wait for a save to show, and the version, read from the
    database every 100 ms in one statement (one snapshot), so the version is the one
    whose rebuild committed the save, however long the API's probe took to read it (its
    whole list takes seconds under the load)."""
    from django.db import connection

    from core.caching import version_key
    from scoring.models import Standing
    from tournaments.models import Entry, Event, Round

    sql = (
        f"SELECT e.standings_version, n.player_id, s.points FROM {Standing._meta.db_table} s"
        f" JOIN {Event._meta.db_table} e ON e.id = s.event_id"
        f" JOIN {Entry._meta.db_table} n ON n.id = s.entry_id"
        " WHERE s.event_id = %s AND s.round_id = %s AND n.player_id = ANY(%s)"
    )
    round_ = Round.objects.get(event__slug=SLUG, number=day.event["round"])
    ledger, tables = day.ledger, day.event["tables"]
    announced = redis.Redis.from_url(CACHE)
    with connection.cursor() as cursor:
        while time.monotonic() < day.stop_at + 20:
            found = announced.get(f":1:{version_key(SLUG)}")  # as Django keeps it, pickled
            if found is not None:
                day.announced_at.setdefault(pickle.loads(found)[0], time.time())
            with ledger.lock:
                waiting = [table for table, pending in ledger.uncommitted.items() if pending]
            if not waiting and day.saving_done.is_set():
                break
            players = [player for table in waiting for player in tables[table]["players"]]
            rows = []
            if players:
                cursor.execute(sql, [round_.event_id, round_.pk, players])
                rows = cursor.fetchall()
            if rows:
                version = rows[0][0]
                day.committed_at.setdefault(version, time.time())
                points = {player: points for _, player, points in rows}
                with ledger.lock:
                    for table in waiting:
                        pending = ledger.uncommitted[table]
                        total = sum(points.get(p, 0) for p in tables[table]["players"])
                        total -= baseline[table]
                        now = time.perf_counter()
                        for _, answered, kind in [p for p in pending if p[0] <= total]:
                            day.in_db.append((version, answered, kind))
                            day.stats.delays[f"{kind} -> committed (database)"].append(
                                max(0, now - answered)
                            )
                        ledger.uncommitted[table] = [p for p in pending if p[0] > total]
            time.sleep(0.1)
    connection.close()


def version_probe(day: Day, seen: list) -> None:
    """The standings API's version every 100 ms, as an integrator's client would follow
    it: the whole list asked with the ETag last answered (304 while unchanged), and of a
    new version's answer only its first bytes read (`{"version": ...`; the bytes are
    the ones the probe reads whole, built once per version): `seen` gets each version
    and when it was first answered. A save is in the API once it answers the version
    that committed it."""
    session = browser()
    url = f"{day.base}/api/v1/events/{SLUG}/standings/"
    etag = ""

    def done() -> bool:  # every save committed, and the latest version answered
        if not day.saving_done.is_set() or any(day.ledger.uncommitted.values()):
            return False
        latest = max((version for version, _, _ in day.in_db), default=0)
        return bool(seen) and seen[-1][0] >= latest

    while time.monotonic() < day.stop_at + 20 and not done():
        headers = {"If-None-Match": etag} if etag else {}
        answer = day.stats.call(
            session, "probe standings API, version", "GET", url, headers=headers, stream=True
        )
        now = time.perf_counter()
        if answer is not None and answer.status_code == 200:
            start = answer.raw.read(100, decode_content=True)
            found = re.match(rb'\{"version":\s*(\d+)', start)
            if found and (not seen or int(found.group(1)) > seen[-1][0]):
                seen.append((int(found.group(1)), now))
                etag = answer.headers.get("ETag", "")
        if answer is not None:
            answer.close()
        time.sleep(0.1)


def in_api_by_version(in_db: list, seen: list) -> list[float]:
    """How long after its answer each save's committed version was first answered by
    the standings API."""
    delays = []
    for version, answered, _ in in_db:
        at = first_at(seen, version)
        if at is not None:
            delays.append(max(0.0, at - answered))
    return delays


def first_at(shown: list, version: int) -> float | None:
    """When a version at least `version` was first shown (`shown`: (version, time, ...)
    in the order seen), if ever."""
    return next((item[1] for item in shown if item[0] >= version), None)
