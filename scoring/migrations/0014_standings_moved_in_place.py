"""A round's standings moved in place: a rebuild gives about half of a round's rows a
new rank and movement (the players the tables passed), and PostgreSQL can update a row
in its own page without writing a new entry in every index (a heap-only update) only
when no indexed column changes and the page has room. So `rank` is no longer indexed
(a round's rows are read whole and sorted as they are read), the round's own index goes
(the unique (round, entry) constraint's serves), and the table keeps a fifth of each
page free (fillfactor 80). Measured in docs/benchmarks.md, "every goal measured again"."""

import django.db.models.deletion
from django.db import migrations, models

FILL = 80


def fill_factor(value):
    def alter(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return  # SQLite has no such setting
        table = schema_editor.quote_name("scoring_standing")
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {value})")

    return alter


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_proposal_change_reason_text"),
        ("tournaments", "0020_publishing_from_the_venue"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="standing",
            name="scoring_sta_round_i_ff33f1_idx",
        ),
        migrations.AlterField(
            model_name="standing",
            name="round",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="standings",
                to="tournaments.round",
            ),
        ),
        migrations.RunPython(fill_factor(FILL), fill_factor(100), elidable=True),
    ]
