"""A round's standings moved in place: a rebuild gives about half of a round's rows a
new rank and movement (the players the tables passed), and PostgreSQL can update a row
in its own page without writing a new entry in every index (a heap-only update) only
when no indexed column changes and the page has room. So `rank` is no longer indexed
(a round's rows are read whole and sorted as they are read), the round's own index goes
(the unique (round, entry) constraint's serves), and the table keeps a fifth of each
page free (fillfactor 80: for pages written from now on; an upgraded database's rows
move into them as they are written again). Measured in docs/benchmarks.md, "A rebuild's
SQL halved".

The round's index is dropped by name, the foreign key left as it is: Django's own
AlterField would drop the key with it and add it back, checking every standing of every
event again while both tables are locked."""

import django.db.models.deletion
from django.db import migrations, models

FILL = 80


def fill_factor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":  # SQLite has no such setting
        table = schema_editor.quote_name("scoring_standing")
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {FILL})")


def fill_factor_reset(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name("scoring_standing")
        schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")


def drop_round_index(apps, schema_editor):
    """The index Django made for the round's foreign key (its name is a hash), found by
    its one column; the key's constraint stays."""
    standing = apps.get_model("scoring", "Standing")
    column = standing._meta.get_field("round").column
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, standing._meta.db_table)
    for name, constraint in found.items():
        if (
            constraint["columns"] == [column]
            and constraint["index"]
            and not constraint["unique"]
            and not constraint["primary_key"]
        ):
            schema_editor.execute(schema_editor._delete_index_sql(standing, name))


def add_round_index(apps, schema_editor):
    standing = apps.get_model("scoring", "Standing")
    field = standing._meta.get_field("round")
    schema_editor.execute(schema_editor._create_index_sql(standing, fields=[field]))


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
        migrations.SeparateDatabaseAndState(
            state_operations=[
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
            ],
            database_operations=[migrations.RunPython(drop_round_index, add_round_index)],
        ),
        migrations.RunPython(fill_factor, fill_factor_reset),
    ]
