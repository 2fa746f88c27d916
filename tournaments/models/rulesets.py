"""The rulesets an event can play: the built-in ones by name, and house rules an
organiser defines once for many events."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy, gettext_noop
from simple_history.models import HistoricalRecords

from game.rulesets import get_ruleset
from tournaments.models.words import said_lazy

# The built-in rulesets' hands and deals, as game.rulesets defines them, for the labels.
_JAMAICA, _TRINIDAD = get_ruleset("jamaica"), get_ruleset("trinidad")
_JAMAICA_DEALS = sorted(spec.cards_dealt for spec in _JAMAICA.hands)


class Ruleset(models.TextChoices):
    JAMAICA = (
        "jamaica",
        said_lazy(
            gettext_noop("Jamaica (%(hands)s hands, %(fewest)s-%(most)s cards)"),
            {"hands": _JAMAICA.hand_count, "fewest": _JAMAICA_DEALS[0], "most": _JAMAICA_DEALS[-1]},
        ),
    )
    JAMAICA_12 = "jamaica-12", gettext_lazy("Jamaica, 12 cards in hands 1-3")
    TRINIDAD = (
        "trinidad",
        said_lazy(
            gettext_noop("Trinidad (%(hands)s hands of %(cards)s)"),
            {"hands": _TRINIDAD.hand_count, "cards": _TRINIDAD.hands[0].cards_dealt},
        ),
    )
    CUSTOM = "custom", gettext_lazy("Custom (house rules)")


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
        help_text=gettext_lazy('Each hand in order: {"cards_dealt", "threes", "fours"}.'),
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
