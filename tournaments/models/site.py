"""The installation's own settings."""

from __future__ import annotations

from django.db import models
from simple_history.models import HistoricalRecords


class SiteSetting(models.Model):
    """Settings of the whole installation a director may change from the pages (one
    row): the site's public address, used in the QR codes. Empty: the SITE_URL setting."""

    site_url = models.URLField(max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    def __str__(self) -> str:
        return self.site_url or "(the SITE_URL setting)"
