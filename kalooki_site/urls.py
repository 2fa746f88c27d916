from __future__ import annotations

import sys

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import include, path
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView


class FaviconRedirect(RedirectView):
    """The static icon's address, found when asked (the manifest of hashed names exists
    only once `collectstatic` has run, after this module is imported)."""

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.ico")


def when_mail_is_configured(view):
    """Password reset mails a link: without a mail server the pages do not exist."""

    def guarded(request, *args, **kwargs):
        if not settings.PASSWORD_RESET_ENABLED:
            raise Http404("Password reset is not available here; ask an administrator.")
        return view(request, *args, **kwargs)

    return guarded


# Password reset mails a link: its pages exist only where mail can be sent.
RESET_PAGES = [
    ("password_reset/", auth.PasswordResetView, "password_reset"),
    ("password_reset/done/", auth.PasswordResetDoneView, "password_reset_done"),
    ("reset/<uidb64>/<token>/", auth.PasswordResetConfirmView, "password_reset_confirm"),
    ("reset/done/", auth.PasswordResetCompleteView, "password_reset_complete"),
]
accounts = [
    path("login/", auth.LoginView.as_view(), name="login"),
    path("logout/", auth.LogoutView.as_view(), name="logout"),
    path("password_change/", auth.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    *(
        path(route, when_mail_is_configured(view.as_view()), name=name)
        for route, view, name in RESET_PAGES
    ),
]

urlpatterns = [
    # Browsers ask for /favicon.ico whatever the page links: send them the static one.
    path(
        "favicon.ico",
        FaviconRedirect.as_view(permanent=True),
        name="favicon",
    ),
    # The API ahead of the public pages, whose include matches every address: a read of
    # the API is resolved without trying each public pattern first (a tenth of a
    # cached standings read, docs/benchmarks.md, "A national championship, third pass").
    path("api/v1/", include(("api.urls", "api"), namespace="api")),
    path("", include("public.urls")),
    # The language switch on every page. Without a CSRF token: the public pages are
    # cached whole for every visitor (no token in them), and choosing a language is
    # all a forged request could do.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("director/<slug:slug>/toolkit/", include("director.toolkit_urls")),
    path("director/", include("director.urls")),
    path("organiser/", include("director.series_urls")),
    path("accounts/", include(accounts)),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api_docs.html"),
        name="api-docs",
    ),
]


def under_api(request) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request, exception):
    """An address no route matches: JSON under the API (as its every other answer),
    the site's page elsewhere."""
    if under_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request, exception):
    """A request refused before any view read it: a body larger than
    DATA_UPLOAD_MAX_MEMORY_SIZE (413), or one Django finds suspicious (400)."""
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = f"The request body is larger than the {limit:,} bytes a request may carry."
        if under_api(request):
            return JsonResponse({"detail": message}, status=413)
        return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
    if under_api(request):
        return JsonResponse({"detail": "Bad request."}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    if under_api(request):
        return JsonResponse({"detail": "You may not do this."}, status=403)
    return defaults.permission_denied(request, exception)


# Seconds a client is asked to wait when the database refuses connections.
DATABASE_RETRY_AFTER = 5


def server_error(request):
    """An error no view answered. A database that cannot be reached (refusing
    connections, too many clients) is a 503 with Retry-After: the request can be sent
    again shortly. JSON under the API, the site's page elsewhere."""
    error = sys.exc_info()[1]
    unavailable = isinstance(error, OperationalError | InterfaceError)
    if unavailable:
        message = "The database cannot be reached just now; try again in a few seconds."
        if under_api(request):
            response = JsonResponse({"detail": message}, status=503)
        else:
            response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
    if under_api(request):
        return JsonResponse({"detail": "Server error; it has been logged."}, status=500)
    return defaults.server_error(request)


handler400 = bad_request
handler403 = permission_denied
handler404 = page_not_found
handler500 = server_error
