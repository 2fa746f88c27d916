"""Refusing what no page or endpoint can take, before any view sees it."""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from django.core.handlers.exception import response_for_exception
from django.db import OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import Resolver404, resolve

from core.common import UNREADABLE, text_problem
from core.errors import Busy, Missing
from core.locks import busy, is_lock_timeout

NUL = b"\x00"
MESSAGE = "The address may not contain NUL characters (%00)."


class RefuseNulMiddleware:
    """A NUL character in the path or the query string is answered 400: PostgreSQL
    cannot compare text with one, so a search for it would fail instead."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raw = request.META.get("QUERY_STRING", "").encode("latin-1", "replace")
        if NUL in unquote_to_bytes(raw) or "\x00" in request.path:
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": MESSAGE}, status=400)
            return HttpResponse(MESSAGE, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


class RefuseUnreadableFormTextMiddleware:
    """A form field holding a control character (a tab and line breaks are text) is
    answered 400 naming the field, before any page's form sees it: the pages' one check,
    as the API's is its JSON parser (`api.guards.check_document`). A lone surrogate
    cannot arrive this way (Django decodes a form's bytes, replacing what is not
    UTF-8), so the same check covers everything a form can send."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.method == "POST"
            and not request.path.startswith("/api/")
            and request.content_type in FORMS
        ):
            for name, values in request.POST.lists():
                problem = text_problem(name) or next(
                    (text_problem(v) for v in values if text_problem(v)), None
                )
                if problem is not None:
                    field = UNREADABLE.sub("?", name)
                    return HttpResponse(
                        f"{field}: {problem}", status=400, content_type="text/plain; charset=utf-8"
                    )
        return self.get_response(request)


class MissingIsNotFoundMiddleware:
    """The pages' one translation of core's "not found" (`core.errors.Missing`): Django's
    404 page, with the core's words. The API translates it in its exception handler."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, Missing):
            return response_for_exception(request, Http404(str(exception.message)))
        return None


class BusyIsUnavailableMiddleware:
    """A page whose save found its row held too long (`core.errors.Busy`, or the
    database's own lock timeout where no service turned it into one) answers 503 with
    Retry-After and the words saying what is busy: never a 500 nor a dropped
    connection. Pages that show the refusal themselves (keeping what was typed) do so
    before it gets here; the API answers it in its exception handler."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OperationalError) and is_lock_timeout(exception):
            exception = busy("record")
        if not isinstance(exception, Busy):
            return None
        text = " ".join(message for messages in exception.errors.values() for message in messages)
        if request.path.startswith("/api/"):
            response = JsonResponse(exception.errors, status=exception.status_code)
        else:
            response = HttpResponse(
                text, status=exception.status_code, content_type="text/plain; charset=utf-8"
            )
        response["Retry-After"] = str(exception.retry_after)
        return response


# The pages a director's or an organiser's forms live on, which a GET may open.
FORM_PAGES = {
    "director:events",
    "director:event",
    "director:round",
    "director:sheet",
    "organiser:series-list",
    "organiser:series",
}


class PostOnlyOpensItsPageMiddleware:
    """A GET on a director's or organiser's POST-only address (a link shared, a page
    reloaded after a redirect went astray) opens the page its form lives on, the
    nearest one up the address, instead of a blank 405."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or request.method not in ("GET", "HEAD"):
            return response
        if not request.path.startswith(("/director/", "/organiser/")):
            return response
        parts = request.path.strip("/").split("/")
        while len(parts) > 1:
            parts.pop()
            candidate = "/" + "/".join(parts) + "/"
            try:
                found = resolve(candidate)
            except Resolver404:
                continue
            if found.view_name in FORM_PAGES:
                return redirect(candidate)
        return response
