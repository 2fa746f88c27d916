"""Publishing an event from a venue install to the public site (`core.publishing`).

On the site: the event's `PublishingLink` (the credential its venue publishes with, and
how far the venue's changes have been applied) and `PublishedRow` (which row here each
of the venue's rows became). On the venue: the event's `Publication` (the site it
publishes to, and what the site has acknowledged) and its `OutgoingChange`s, numbered
in the order they were captured.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments.models.events import Event


class PublishingLink(models.Model):
    """The site's side: one event's link. Only its secret's SHA-256 is kept (the secret
    is shown once). While a link stands, the event changes only through it."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="publishing_link")
    secret_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The venue's publication this site follows (a new one starts over from the whole event).
    stream = models.CharField(max_length=64, blank=True)
    # The last change applied, and when the venue made it.
    acknowledged = models.PositiveIntegerField(default=0)
    last_change_at = models.DateTimeField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    # A change this site refused (nothing after it is applied), with the reason.
    refused_seq = models.PositiveIntegerField(null=True, blank=True)
    refused_reason = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"publishing link of {self.event}"


class PublishedRow(models.Model):
    """The site's id of one of the venue's rows (by the archive's section name)."""

    link = models.ForeignKey(PublishingLink, on_delete=models.CASCADE, related_name="rows")
    section = models.CharField(max_length=20)
    venue_id = models.BigIntegerField()
    site_id = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["link", "section", "venue_id"], name="published_row_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.section} {self.venue_id} -> {self.site_id}"


class Publication(models.Model):
    """The venue's side: where one event is published, and how far the site has it."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="publication")
    site = models.URLField(max_length=300)
    link = models.CharField(max_length=200)
    stream = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    # The last change captured into the outbox, and the last the site acknowledged
    # (with when the venue made it: "published up to 14:32").
    captured = models.PositiveIntegerField(default=0)
    acknowledged = models.PositiveIntegerField(default=0)
    acknowledged_change_at = models.DateTimeField(null=True, blank=True)
    contacted_at = models.DateTimeField(null=True, blank=True)
    unreachable_since = models.DateTimeField(null=True, blank=True)
    problem = models.TextField(blank=True)  # why the site could not be reached
    refused = models.TextField(blank=True)  # the site refused a change: publishing stopped

    def __str__(self) -> str:
        return f"{self.event} published to {self.site}"


class OutgoingChange(models.Model):
    """One captured change of the venue's event, as sent (gzipped JSON)."""

    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="changes")
    seq = models.PositiveIntegerField()
    captured_at = models.DateTimeField()
    body = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["publication", "seq"], name="outgoing_change_once")
        ]

    def __str__(self) -> str:
        return f"change {self.seq} of {self.publication}"
