from django.db import migrations

from games.names import skeleton


def keys_for_names(apps, schema_editor):
    """Each named player's key again, now that 3, 4 and 7 read as E, A and T, u as v and a
    capital Q as O (oldest first; a name that reads as an earlier one keeps an empty key, as
    in 0013)."""
    Player = apps.get_model("games", "Player")
    Player.objects.exclude(name_key="").update(name_key="")
    seen = set()
    for player in Player.objects.exclude(display_name="").order_by("created_at", "pk"):
        key = skeleton(player.display_name)
        if key and key not in seen:
            seen.add(key)
            Player.objects.filter(pk=player.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_dealverdict_hinted"),
    ]

    operations = [
        migrations.RunPython(keys_for_names, migrations.RunPython.noop),
    ]
