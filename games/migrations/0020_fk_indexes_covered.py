"""Drop the indexes of three foreign keys that longer indexes begin with (a review): every
move wrote ``games_playedmove``'s ``game_id`` index beside ``move_unique_game_ply``.

The indexes are dropped by name, not by ``AlterField``, which on SQLite copies each table
whole (every move the site has stored) to change nothing else."""

import django.db.models.deletion
from django.db import migrations, models

COVERED = [
    ("games_move_game_id_aca66fc5", "games_playedmove", "game_id"),
    ("games_game_owner_id_c554a59d", "games_game", "owner_id"),
    ("games_entry_daily_id_03266c10", "games_entry", "daily_id"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_player_glide"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{name}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{name}" ON "{table}" ("{column}")',
                )
                for name, table, column in COVERED
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="entry",
                    name="daily",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="games.daily",
                    ),
                ),
                migrations.AlterField(
                    model_name="game",
                    name="owner",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="games",
                        to="games.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="playedmove",
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="played_moves",
                        to="games.game",
                    ),
                ),
            ],
        ),
    ]
