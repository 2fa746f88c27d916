"""Load a complete, plausible demo event: `manage.py demo_event --players 32 --rounds 3`."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from core.demo import DemoOptions, generate_demo_event
from core.services import refresh_ratings, refresh_standings
from tournaments.models import Event


class Command(BaseCommand):
    help = "Create a demo event by simulating the score sheets of every table."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=32)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--planned", type=int, default=None, help="Rounds the event plans (default: --rounds)."
        )
        parser.add_argument("--slug", default=None)
        parser.add_argument("--name", default=None)
        parser.add_argument(
            "--ruleset", default="jamaica", choices=[c for c, _ in Event.Ruleset.choices]
        )
        parser.add_argument(
            "--table-entry",
            default="directors",
            choices=[c for c, _ in Event.TableEntry.choices],
            help="Who enters the hands: the directors only, or the players (confirmed by an "
            "opponent).",
        )
        parser.add_argument(
            "--live",
            action="store_true",
            help="Leave the last round in play, with some hands still to enter.",
        )
        parser.add_argument(
            "--seated",
            action="store_true",
            help="With --live: the last round just published, no hand played (the seating board).",
        )
        parser.add_argument(
            "--replace", action="store_true", help="Delete an event with the same slug first."
        )
        parser.add_argument("--venue", default="Kingston, Jamaica", help="Where it is played.")
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help="Do nothing when an event with the same slug exists.",
        )

    def handle(self, *args, **opts):
        if opts["rounds"] < 0 or (opts["planned"] is not None and opts["planned"] < 1):
            raise CommandError("--rounds and --planned cannot be negative; --planned at least 1.")
        if opts["rounds"] and opts["players"] < 3:
            raise CommandError("--players: at least 3 players are needed to play a round.")
        if opts["players"] < 0:
            raise CommandError("--players cannot be negative.")
        slug = opts["slug"] or f"demo-{opts['players']}-players"
        name = opts["name"] or f"Demo Kalooki Open ({opts['players']} players)"
        existing = Event.objects.filter(slug=slug)
        if existing.exists():
            if opts["if_missing"]:
                self.stdout.write(f"Demo event {slug!r} is already loaded.")
                return
            if not opts["replace"]:
                raise CommandError(f"An event {slug!r} exists; pass --replace to rebuild it.")
            existing.delete()
        started = time.perf_counter()
        try:
            event = generate_demo_event(
                DemoOptions(
                    players=opts["players"],
                    rounds=opts["rounds"],
                    seed=opts["seed"],
                    slug=slug,
                    name=name,
                    ruleset=opts["ruleset"],
                    live=opts["live"],
                    seated=opts["seated"],
                    planned=opts["planned"],
                    table_entry=opts["table_entry"],
                    venue=opts["venue"],
                )
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        for number in range(1, opts["rounds"] + 1):  # each round's standings, as it ended
            refresh_standings(event=event, round_number=number)
        refresh_ratings()  # its closed rounds rated, after those of any earlier demo event
        took = time.perf_counter() - started
        self.stdout.write(
            f"Created {event.name!r} ({event.slug}): {opts['players']} players, "
            f"{opts['rounds']} rounds in {took:.1f}s."
        )
