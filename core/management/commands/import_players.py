"""Import players from a CSV file into an event: `manage.py import_players SLUG players.csv`.

Shows the preview first (per-row errors, players already registered, players already
entered). Rows with errors stop the import. A row whose name matches a registered
player is merged with the closest one unless told otherwise: `--merge LINE=PLAYER_ID`
picks another, `--new LINE` registers a new player. Asks before writing when run from
a terminal; `--dry-run` only shows the preview.
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from core.importing import NEW, Preview, apply_import, build_preview
from tournaments.models import Event


def line_number(text: str) -> int:
    if not text.strip().isdigit():
        raise CommandError(f"{text!r} is not a line number of the file.")
    return int(text)


class Command(BaseCommand):
    help = "Import players (name, club, country; optional seed or rating) from a CSV file."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's slug")
        parser.add_argument("path", help="the CSV file (UTF-8), with a header line")
        parser.add_argument(
            "--merge",
            action="append",
            default=[],
            metavar="LINE=PLAYER_ID",
            help="the row on this line is this registered player",
        )
        parser.add_argument(
            "--new",
            action="append",
            default=[],
            metavar="LINE",
            help="the row on this line is a new player, whatever the registry holds",
        )
        parser.add_argument("--dry-run", action="store_true", help="show the preview only")
        parser.add_argument("--by", metavar="USERNAME", help="record the entries as this user's")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="do not ask before importing",
        )

    def handle(self, *args, **opts):
        event = Event.objects.filter(slug=opts["slug"]).first()
        if event is None:
            raise CommandError(f"No event {opts['slug']!r} here.")
        by = self.user(opts["by"])
        try:
            data = Path(opts["path"]).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {opts['path']}: {error.strerror or error}.") from error
        choices = self.choices(opts["merge"], opts["new"])
        try:
            preview = build_preview(event=event, data=data, choices=choices)
        except ServiceError as error:
            raise CommandError(str(error)) from error
        self.show(preview)
        if not preview.ok:
            raise CommandError(
                f"{preview.error_count} problem(s) in the file; fix them and run again. "
                "Nothing was imported."
            )
        if opts["dry_run"]:
            self.stdout.write("Dry run: nothing was imported.")
            return
        if opts["interactive"] and sys.stdin.isatty():
            answer = input(f"Import {len(preview.rows)} rows into {event.name}? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                self.stdout.write("Cancelled: nothing was imported.")
                return
        try:
            result = apply_import(event=event, data=data, choices=choices, by=by)
        except ServiceError as error:
            messages = [m for msgs in error.errors.values() for m in msgs]
            raise CommandError(" ".join(messages) + " Nothing was imported.") from error
        self.stdout.write(f"Imported into {event.name}: {result.summary()}.")

    def user(self, username: str | None):
        if not username:
            return None
        user_model = get_user_model()
        user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"No user {username!r} here.")
        return user

    def choices(self, merges: list[str], news: list[str]) -> dict[int, str | int]:
        chosen: dict[int, str | int] = {}
        for item in merges:
            line, _, player = item.partition("=")
            if not player.strip().isdigit():
                raise CommandError(f"--merge {item!r}: give LINE=PLAYER_ID, e.g. 4=17.")
            chosen[line_number(line)] = int(player)
        for item in news:
            chosen[line_number(item)] = NEW
        return chosen

    def show(self, preview: Preview) -> None:
        write = self.stdout.write
        for message in preview.errors:
            write(self.style.ERROR(f"File: {message}"))
        for message in preview.notices:
            write(f"File: {message}")
        for row in preview.rows:
            what = "new player" if row.suggested == NEW else f"merge with player {row.suggested}"
            details = ", ".join(x for x in (row.club, row.country) if x)
            seed = f" seed {row.seed}" if row.seed is not None else ""
            write(f"line {row.line}: {row.name or '(no name)'} ({details}){seed} -> {what}")
            for candidate in row.candidates:
                entered = f", {candidate.entry} in this event" if candidate.entry else ""
                write(
                    f"    registered: player {candidate.id} {candidate.name} "
                    f"({candidate.club}, {candidate.country}){entered}"
                )
            for message in row.errors:
                write(self.style.ERROR(f"    error: {message}"))
            for message in row.notices:
                write(f"    note: {message}")
        if preview.duplicates:
            write(
                "Some rows match registered players; each line above says what will happen. "
                "Use --merge LINE=PLAYER_ID or --new LINE to choose otherwise."
            )
