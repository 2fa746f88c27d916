"""The texts the site wrote in English into the database, as codes worded for each
reader (`core.stored_texts`), where the English is recognisable:

- every history's reasons the site wrote ("reopened: why", "restored version 2",
  "entered by seat 1 (Ann), confirmed by seat 4 (Ben)", "no-show, replaced by Ann"...),
  read by the kind of row they were written on, an imported row's author kept;
- an event's rule at time left at the English default: the default, worded when shown;
- a finished event's "Round 2 reopened: why": the round, and the director's reason;
- a round's seating that failed for too few players: its code.

A director's own words are left as they are. Going back writes the English again."""

from django.db import migrations
from django.utils import translation

from core.stored_texts import english
from core.stored_texts.words import reason_words, worded

APPS = ("tournaments", "scoring")
BATCH = 2000


def history_models(apps):
    """Each model's history, with the kind of row its reasons were written on."""
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            name = model.__name__
            if name.startswith("Historical"):
                yield model, name.removeprefix("Historical").lower()


def rewrite_reasons(model, change) -> None:
    """Every history row of `model` whose reason `change` changes, saved in batches
    once read (SQLite does not keep a read apart from writes to the same table)."""
    rows = model.objects.exclude(history_change_reason=None).exclude(history_change_reason="")
    changed = []
    for pk, text in rows.values_list("pk", "history_change_reason").iterator(chunk_size=BATCH):
        new = change(text)
        if new != text:
            changed.append(model(pk=pk, history_change_reason=new))
    model.objects.bulk_update(changed, ["history_change_reason"], batch_size=BATCH)


def event_texts(model, change) -> None:
    """The rule at time and the results changed of every event row of `model`."""
    for row in model.objects.only(
        "pk", "time_rule", "results_changed_round", "results_changed_reason"
    ):
        rule, round_, reason = change(
            row.time_rule, row.results_changed_round, row.results_changed_reason
        )
        if (rule, round_, reason) != (
            row.time_rule,
            row.results_changed_round,
            row.results_changed_reason,
        ):
            model.objects.filter(pk=row.pk).update(
                time_rule=rule, results_changed_round=round_, results_changed_reason=reason
            )


def seating_errors(model, change) -> None:
    for row in model.objects.filter(quality__has_key="error").only("pk", "quality"):
        quality = change(row.quality)
        if quality != row.quality:
            model.objects.filter(pk=row.pk).update(quality=quality)


def as_codes(apps, schema_editor):
    for model, kind in history_models(apps):
        rewrite_reasons(model, lambda text, kind=kind: english.reason_from_english(text, kind))

    def event(rule, round_, reason):
        round_, reason = english.results_changed_from_english(round_, reason)
        return english.time_rule_from_english(rule), round_, reason

    for name in ("Event", "HistoricalEvent"):
        event_texts(apps.get_model("tournaments", name), event)
    for name in ("Round", "HistoricalRound"):
        seating_errors(apps.get_model("tournaments", name), english.seating_error_from_english)


def as_english(apps, schema_editor):
    with translation.override("en"):
        for model, _kind in history_models(apps):
            rewrite_reasons(model, reason_words)

        def event(rule, round_, reason):
            if round_ is not None:
                reason = f"Round {round_} reopened: {reason}"
            return (english.OLD_DEFAULT_TIME_RULE if rule is None else rule), None, reason

        for name in ("Event", "HistoricalEvent"):
            event_texts(apps.get_model("tournaments", name), event)

        def quality(report):
            return {**report, "error": worded(report["error"])}

        for name in ("Round", "HistoricalRound"):
            seating_errors(apps.get_model("tournaments", name), quality)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_event_texts_worded_when_shown"),
        ("scoring", "0012_rank_every_series_again"),
    ]

    operations = [migrations.RunPython(as_codes, as_english)]
