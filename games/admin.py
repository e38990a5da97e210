from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games import leaderboard
from games.models import Daily, DealVerdict, Entry, Game, PlayedMove, Player


class PlayedMoveInline(admin.TabularInline):
    model = PlayedMove
    extra = 0
    fields = ("ply", "notation", "auto", "undone", "played_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "slug", "deal", "owner", "status", "ply", "elapsed", "updated_at")
    list_filter = ("slug", "status")
    search_fields = ("id", "deal")
    readonly_fields = ("position", "created_at", "updated_at")
    inlines = [PlayedMoveInline]


@admin.register(PlayedMove)
class PlayedMoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "notation", "auto", "undone", "played_at")
    list_filter = ("auto", "undone")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("id", "display_name", "user", "autoplay", "created_at")
    search_fields = ("display_name",)


@admin.register(DealVerdict)
class DealVerdictAdmin(admin.ModelAdmin):
    list_display = ("slug", "deal", "verdict", "difficulty", "moves", "nodes", "pooled", "dealt")
    list_filter = ("slug", "verdict", "difficulty", "pooled")
    search_fields = ("deal",)
    readonly_fields = ("solution", "requested_at", "solved_at")


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ("date", "slug", "par", "created_at")
    list_filter = ("slug",)
    date_hierarchy = "date"
    # The deal and its proof stay out of lists: future dailies are secret.
    fields = ("slug", "date", "par", "created_at")
    readonly_fields = fields


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    """Moderation: entries flagged (``leaderboard.win_reason``: the speed rule, a copied
    solution, a second game opened from one network; a win claimed after its day) wait here
    until cleared; any entry can be hidden from the leaderboard (and shown again). Every
    change and deletion forgets the counts (``entries_moderate``; deletion: a signal)."""

    list_display = (
        "daily",
        "player",
        "moves",
        "elapsed",
        "undos",
        "hints",
        "finished_at",
        "flagged",
        "flag_reason",
        "hidden",
    )
    list_filter = ("flagged", "hidden", "daily__slug", "daily__date")
    search_fields = ("player__display_name",)
    list_select_related = ("daily", "player")
    readonly_fields = (
        "daily",
        "player",
        "game",
        "moves",
        "elapsed",
        "undos",
        "hints",
        "finished_at",
        "flag_reason",
    )
    actions = ("clear_flag", "hide", "show")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # entries are made by wins alone (``leaderboard.record_win``)

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        """The entry's own page (its Flagged and Hidden boxes, the rest read-only) saves
        through ``entries_moderate``, as the actions do: saved as a form, its change forgot
        no counts, and an ended daily went on counting a win hidden there for ten minutes."""
        changes = {name: getattr(obj, name) for name in form.changed_data}
        if changes:
            leaderboard.entries_moderate(Entry.objects.filter(pk=obj.pk), **changes)

    @admin.action(description="Clear the flag (the entry ranks)")
    def clear_flag(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        count = leaderboard.entries_moderate(queryset, flagged=False)
        self.message_user(request, f"{count} entries cleared.")

    @admin.action(description="Hide from the leaderboard")
    def hide(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        count = leaderboard.entries_moderate(queryset, hidden=True)
        self.message_user(request, f"{count} entries hidden.")

    @admin.action(description="Show on the leaderboard again")
    def show(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        count = leaderboard.entries_moderate(queryset, hidden=False)
        self.message_user(request, f"{count} entries shown.")
