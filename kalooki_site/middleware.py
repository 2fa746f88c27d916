"""Refusing what no page or endpoint can take, before any view sees it; and the
language every page speaks."""

from __future__ import annotations

import gzip
import re
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.contrib import messages
from django.core.handlers.exception import response_for_exception
from django.db import OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy
from django.utils.translation.trans_real import language_code_re, parse_accept_lang_header

from core.caching import event_language as cached_event_language
from core.common import UNREADABLE, text_problem
from core.errors import Busy, Missing
from core.locks import busy, is_lock_timeout
from core.publishing.links import PublishedHere, read_only_reason
from kalooki_site.digits import ascii_digits, persian_digits

NUL = b"\x00"
MESSAGE = gettext_lazy("The address may not contain a NUL character (written %s).")


class RefuseNulMiddleware:
    """A NUL character in the path or the query string is answered 400: PostgreSQL
    cannot compare text with one, so a search for it would fail instead."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raw = request.META.get("QUERY_STRING", "").encode("latin-1", "replace")
        if NUL in unquote_to_bytes(raw) or "\x00" in request.path:
            # Before any language is chosen: said in the one the reader asks for.
            with translation.override(chosen_language(request) or settings.LANGUAGE_CODE):
                message = str(MESSAGE) % "%00"
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=400)
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


class RefuseUnreadableFormTextMiddleware:
    """A form field holding a control character (a tab and line breaks are text) is
    answered 400 naming the field, before any page's form sees it: the pages' one check,
    as the API's is its JSON parser (`api.guards.check_document`). A lone surrogate
    cannot arrive this way (Django decodes a form's bytes, replacing what is not
    UTF-8), so the same check covers everything a form can send.

    It is also where every form's text is read first: digits typed on a Persian or
    Arabic keyboard (a score of ۱۲) are read as ASCII digits here, for every page's
    form at once; a password is left exactly as typed."""

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
            read_digits_as_ascii(request)
        return self.get_response(request)


def read_digits_as_ascii(request) -> None:
    """The form's values with Persian and Arabic-Indic digits as ASCII ones."""
    posted = request.POST
    if all(ascii_digits(v) == v for _, values in posted.lists() for v in values):
        return
    converted = posted.copy()
    for name, values in posted.lists():
        if "password" not in name:
            converted.setlist(name, [ascii_digits(v) for v in values])
    converted._mutable = False
    request.POST = converted


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


class PublishedEventIsReadOnlyMiddleware:
    """An event published here from a venue changes only through its link
    (`core.publishing`): a director's form posted to it is refused where the page loads
    the event (`director.common`, `PublishedHere`), answered here with the reason as a
    message on the dashboard; a form posted to its public pages (the players' entry) is
    refused here before the view runs. Nothing is written. The API refuses the same in
    its event scope (`api.support.EventScoped`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if request.method in ("GET", "HEAD", "OPTIONS", "TRACE") or "slug" not in kwargs:
            return None
        if not request.path.startswith("/events/"):
            return None
        reason = read_only_reason(slug=kwargs["slug"])
        return None if reason is None else refused(reason)

    def process_exception(self, request, exception):
        if not isinstance(exception, PublishedHere):
            return None
        reason = " ".join(m for messages in exception.errors.values() for m in messages)
        match = request.resolver_match
        slug = match.kwargs.get("slug") if match is not None else None
        if slug and request.path.startswith("/director/") and not request.headers.get("HX-Request"):
            messages.error(request, reason)
            return redirect("director:event", slug)
        return refused(reason)


def refused(reason: str) -> HttpResponse:
    return HttpResponse(reason, status=409, content_type="text/plain; charset=utf-8")


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


# The pages of one event, whose default language applies to a reader who asks for none
# the site has: /events/<slug>/... and /director/<slug>/... (not the director's own
# pages beside the events: /director/new/ and the like).
EVENT_PATH = re.compile(r"^/(?:events|director)/([-\w]+)/")
NOT_EVENTS = frozenset({"new", "site", "archive"})


def chosen_language(request) -> str | None:
    """The language the reader asks for: the one they chose with the switch (Django's
    language cookie), else the first of their browser's Accept-Language the site has;
    None when neither names one."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen:
        try:
            return translation.get_supported_language_variant(chosen)
        except LookupError:
            pass
    for asked, _quality in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        if asked == "*":
            break
        if not language_code_re.search(asked):
            continue
        try:
            return translation.get_supported_language_variant(asked)
        except LookupError:
            continue
    return None


def event_language(path: str) -> str | None:
    """The default language of the event the address is about (from the cache, or one
    query by its unique slug; none for an address about no event)."""
    match = EVENT_PATH.match(path)
    if match is None or match.group(1) in NOT_EVENTS:
        return None
    return cached_event_language(match.group(1))


class LanguageMiddleware:
    """Every page in the reader's language: the one they chose with the switch, else
    their browser's, else the default language of the event the page is about, else
    English (README, "Languages"). The answer says which (Content-Language) and that it
    depends on those (Vary: Accept-Language, Cookie); a page in Persian shows Persian
    digits.

    The API answers in the language its client asks for (Accept-Language, or the
    switch's cookie a browser sends), else in English, never in an event's default: a
    program that asks for nothing reads the same words wherever the event is played.
    Its words (error details, the texts beside codes) change; its names, codes and
    digits never do."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        api = request.path.startswith("/api/")
        language = chosen_language(request) or (None if api else event_language(request.path))
        language = language or settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        if language == "fa" and not api:
            with_persian_digits(response)
        return response


def with_persian_digits(response) -> None:
    """An HTML answer's text with Persian digits (kalooki_site.digits); one already
    compressed is opened and compressed again."""
    if response.streaming or not response.get("Content-Type", "").startswith("text/html"):
        return
    encoding = response.get("Content-Encoding", "")
    if encoding not in ("", "gzip"):
        return
    body = response.content
    if encoding == "gzip":
        body = gzip.decompress(body)
    charset = response.charset or "utf-8"
    changed = persian_digits(body.decode(charset)).encode(charset)
    response.content = gzip.compress(changed, mtime=0) if encoding == "gzip" else changed
    if response.has_header("Content-Length"):
        response["Content-Length"] = str(len(response.content))
