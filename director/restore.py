"""Restoring an earlier version of a hand from its history page, with a reason."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core import services
from core.errors import ServiceError
from core.hands.services import CORRECTION_REASON_MAX
from director.common import director_table
from director.sheet import check_hand_number


class RestoreForm(forms.Form):
    version = forms.IntegerField(min_value=1, label=gettext_lazy("Version to restore"))
    current = forms.IntegerField(min_value=0, label=gettext_lazy("Version now"))
    reason = forms.CharField(
        max_length=CORRECTION_REASON_MAX, required=False, label=gettext_lazy("Reason")
    )


@login_required
@require_POST
def restore_version(request: HttpRequest, slug: str, number: int, table: int, hand: int):
    found = director_table(request, slug, number, table)
    check_hand_number(found, hand)
    form = RestoreForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            for text in errors:
                messages.error(request, f"{label}: {text}" if label else text)
        return redirect("director:hand-history", slug, number, table, hand)
    data = form.cleaned_data
    try:
        recorded = services.restore_hand_version(
            table=found,
            number=hand,
            version=data["version"],
            reason=data["reason"],
            by=request.user,
            expected_version=data["current"],
        )
    except ServiceError as error:
        for text in (msg for msgs in error.errors.values() for msg in msgs):
            messages.error(request, text)
    else:
        messages.success(
            request,
            _("Hand %(hand)s is restored to version %(version)s (now version %(now)s).")
            % {"hand": hand, "version": data["version"], "now": recorded.hand.version},
        )
    return redirect("director:hand-history", slug, number, table, hand)
