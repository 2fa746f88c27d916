"""The site's public address on the director's pages: shown with where it comes from,
a warning when it is a loopback address (QR codes pointing there open nothing on a
player's phone), and a form to set it for those who may."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core import services
from core.errors import ServiceError
from core.site.selectors import is_loopback, site_url, site_url_source, stored_site_url
from core.site.services import may_set_site_url


def site_panel(request: HttpRequest) -> dict:
    url = site_url(request.build_absolute_uri("/"))
    return {
        "url": url,
        "source": site_url_source(),
        "loopback": is_loopback(url),
        "may_set": may_set_site_url(request.user),
    }


@login_required
@require_http_methods(["GET", "POST"])
def site_address(request: HttpRequest) -> HttpResponse:
    errors: list[str] = []
    value = stored_site_url()
    if request.method == "POST":
        value = request.POST.get("site_url", "")
        try:
            setting = services.set_site_url(site_url=value, by=request.user)
        except ServiceError as error:
            errors = [m for msgs in error.errors.values() for m in msgs]
        else:
            if setting.site_url:
                messages.success(
                    request,
                    _("The QR codes now point at %(url)s.") % {"url": setting.site_url},
                )
            else:
                messages.success(request, _("The site's address is the SITE_URL setting again."))
            target = request.POST.get("next", "")
            if target.startswith("/") and not target.startswith("//"):
                return redirect(target)
            return redirect("director:site")
    context = {
        "site": site_panel(request),
        "value": value,
        "errors": errors,
        "next": request.GET.get("next", request.POST.get("next", "")),
    }
    status = 403 if errors and not may_set_site_url(request.user) else 400 if errors else 200
    return render(request, "director/site.html", context, status=status)
