"""Moving an event between installations from the director's pages: download the
event's archive (the dashboard), import one as a new event (the events list). The
same archive code as `manage.py export_event` and `import_event`; the director who
imports directs the new event, and nobody else is made a director."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from core import archive, selectors
from core.archive import export as archive_export
from core.archive import importer as archive_import
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
    errors = []
    if upload is None:
        errors.append("Choose an event archive (a .json file exported by this software).")
    elif upload.size > MAX_BYTES:
        errors.append(f"The file is larger than {MAX_BYTES:,} bytes; it is not an archive.")
    if errors:
        return render(request, template, {"errors": errors, "rename": rename}, status=400)
    try:
        imported = archive_import.import_event(raw=upload.read(), rename=rename, by=request.user)
    except archive.ArchiveError as error:
        context = {"errors": [str(error)], "rename": rename}
        return render(request, template, context, status=400)
    messages.success(request, imported.summary())
    return redirect("director:event", imported.event.slug)
