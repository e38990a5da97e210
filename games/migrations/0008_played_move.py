from django.db import migrations


class Migration(migrations.Migration):
    """The model of a stored move is PlayedMove (the engine's value is games.rules.Move).
    Renaming the model renames its table; the rows stay."""

    dependencies = [
        ("games", "0007_game_list_in_code"),
    ]

    operations = [
        migrations.RenameModel(old_name="Move", new_name="PlayedMove"),
    ]
