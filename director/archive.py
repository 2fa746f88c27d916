"""Moving an event between installations from the director's pages: download the
event's archive (the dashboard), import one as a new event (the events list). The
same archive code as `manage.py export_event` and `import_event`; the director who
imports directs the new event, and nobody else is made a director.

An archive of an event this site holds already (the same identity) is not imported
until the director chooses: replace the event held here, or keep a copy beside it
(left out of ratings and series until an organiser counts it). The page asks, with
the file chosen again: a browser does not keep a chosen file from one page to the next."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core import archive, selectors
from core.archive import export as archive_export
from core.archive import importer as archive_import
from core.archive.replacing import CHOICES, REPLACE, AlreadyHeld
from director.common import director_event

MAX_BYTES = 50 * 1024 * 1024
FILE_FIELD = "archive"


@login_required
def export_archive(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    text = archive.dumps(archive_export.export_event(event))
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{stamp}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_archive(request: HttpRequest) -> HttpResponse:
    if not selectors.can_create_events(request.user):
        raise Http404("Only a user who may create events imports one.")
    template = "director/archive_import.html"
    if request.method == "GET":
        return render(request, template, {})
    upload = request.FILES.get(FILE_FIELD)
    rename = request.POST.get("rename", "").strip() or None
    held = request.POST.get("held", "").strip() or None
    context = {"rename": rename, "held": held}
    errors = []
    if upload is None:
        errors.append(_("Choose an event archive (a .json file exported by this software)."))
    elif upload.size > MAX_BYTES:
        errors.append(
            _("The file is larger than %(bytes)s bytes; it is not an archive.")
            % {"bytes": f"{MAX_BYTES:,}"}
        )
    if held is not None and held not in CHOICES:
        errors.append(_("This site holds the event already: choose to replace it or keep a copy."))
    if errors:
        return render(request, template, {**context, "errors": errors}, status=400)
    try:
        imported = archive_import.import_event(
            raw=upload.read(),
            # The new slug is the copy's: a replaced event keeps its own.
            rename=None if held == REPLACE else rename,
            by=request.user,
            held=held,
        )
    except AlreadyHeld as question:
        return render(request, template, {**context, "question": question}, status=409)
    except archive.ArchiveError as error:
        return render(request, template, {**context, "errors": [str(error)]}, status=400)
    messages.success(request, imported.summary())
    return redirect("director:event", imported.event.slug)
