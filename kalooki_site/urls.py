from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth
from django.http import Http404, JsonResponse
from django.templatetags.static import static
from django.urls import include, path
from django.views import defaults
from django.views.generic import RedirectView
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
    path("", include("public.urls")),
    path("director/<slug:slug>/toolkit/", include("director.toolkit_urls")),
    path("director/", include("director.urls")),
    path("organiser/", include("director.series_urls")),
    path("accounts/", include(accounts)),
    path("admin/", admin.site.urls),
    path("api/v1/", include(("api.urls", "api"), namespace="api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api_docs.html"),
        name="api-docs",
    ),
]


def page_not_found(request, exception):
    """An address no route matches: JSON under the API (as its every other answer),
    the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


handler404 = page_not_found
