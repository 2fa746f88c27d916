"""Import an event archive written by export_event: `manage.py import_event event.json`.
Everything or nothing: a damaged or incompatible archive is refused. An archive of an
event this site holds already is refused too, saying so, unless --replace (the event
held here becomes the archive's) or --copy (kept beside it, left out of ratings and
series) says what to do."""

from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core import archive
from core.archive import importer as archive_import
from core.archive.replacing import COPY, REPLACE


class Command(BaseCommand):
    help = "Import an event archive (from export_event) as a new event."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the archive file, or - for the standard input")
        parser.add_argument(
            "--rename", metavar="NEW_SLUG", help="import under this slug instead of the archive's"
        )
        held = parser.add_mutually_exclusive_group()
        held.add_argument(
            "--replace",
            action="store_const",
            const=REPLACE,
            dest="held",
            help="this site holds the event already: replace it with the archive's contents",
        )
        held.add_argument(
            "--copy",
            action="store_const",
            const=COPY,
            dest="held",
            help="this site holds the event already: keep a copy beside it (under --rename), "
            "left out of ratings and series until an organiser counts it",
        )
        parser.add_argument(
            "--director",
            metavar="USERNAME",
            help="make this user a director of the event (the archive's directors are not)",
        )

    def handle(
        self,
        *args,
        path: str,
        rename: str | None,
        director: str | None,
        held: str | None = None,
        **options,
    ):
        by = None
        if director:
            user_model = get_user_model()
            by = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: director}).first()
            if by is None:
                raise CommandError(f"No user {director!r} here.")
        try:
            raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror or error}.") from error
        try:
            imported = archive_import.import_event(raw=raw, rename=rename, by=by, held=held)
        except archive.ArchiveError as error:
            raise CommandError(str(error)) from error
        except Exception as error:  # a message, never a traceback: nothing was written
            raise CommandError(
                f"The archive could not be imported ({type(error).__name__}: {error}); "
                "nothing was imported."
            ) from error
        self.stdout.write(imported.summary())
