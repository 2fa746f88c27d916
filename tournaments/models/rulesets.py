"""The rulesets an event can play: the built-in ones by name, and house rules an
organiser defines once for many events."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from game.rulesets import get_ruleset

# The built-in rulesets' hands and deals, as game.rulesets defines them, for the labels.
_JAMAICA, _TRINIDAD = get_ruleset("jamaica"), get_ruleset("trinidad")
_JAMAICA_DEALS = sorted(spec.cards_dealt for spec in _JAMAICA.hands)


class Ruleset(models.TextChoices):
    JAMAICA = (
        "jamaica",
        f"Jamaica ({_JAMAICA.hand_count} hands, {_JAMAICA_DEALS[0]}-{_JAMAICA_DEALS[-1]} cards)",
    )
    JAMAICA_12 = "jamaica-12", "Jamaica, 12 cards in hands 1-3"
    TRINIDAD = (
        "trinidad",
        f"Trinidad ({_TRINIDAD.hand_count} hands of {_TRINIDAD.hands[0].cards_dealt})",
    )
    CUSTOM = "custom", "Custom (house rules)"


def default_house_hands() -> list[dict]:
    return [{"cards_dealt": 9 + i, "threes": 3 - i, "fours": i} for i in range(4)]


class HouseRuleset(models.Model):
    """A custom ruleset ("house rules"), defined once and used by many events. An event
    copies its values when its first hand is recorded (`Event.frozen_ruleset`), so an
    edit here never changes a result already played."""

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    hands = models.JSONField(
        default=default_house_hands,
        help_text='Each hand in order: {"cards_dealt", "threes", "fours"}.',
    )
    jokers_per_pack = models.PositiveSmallIntegerField(default=2)
    overcall_penalty = models.PositiveSmallIntegerField(default=100)
    false_laydown_penalty = models.PositiveSmallIntegerField(default=100)
    down_and_out_doubles = models.BooleanField(default=True)
    owners = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="house_rulesets"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    VALUE_FIELDS = (
        "hands",
        "jokers_per_pack",
        "overcall_penalty",
        "false_laydown_penalty",
        "down_and_out_doubles",
    )

    def values(self) -> dict:
        """What an event freezes: everything the rules engine reads, and the name."""
        found = {name: getattr(self, name) for name in self.VALUE_FIELDS}
        return {"slug": self.slug, "name": self.name, **found}
