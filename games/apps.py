from django.apps import AppConfig
from django.conf import settings

from games.rules.board import set_legal_memo_entries


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games import players  # noqa: F401  (connects the log-in signal)

        set_legal_memo_entries(settings.LEGAL_MEMO_ENTRIES)
