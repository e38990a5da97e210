from django.contrib import admin

from games.models import DealVerdict, Game, Move, Player


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("ply", "notation", "auto", "undone", "played_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "deal", "owner", "status", "ply", "elapsed", "updated_at")
    list_filter = ("game", "status")
    search_fields = ("id", "deal")
    readonly_fields = ("position", "created_at", "updated_at")
    inlines = [MoveInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "notation", "auto", "undone", "played_at")
    list_filter = ("auto", "undone")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("id", "display_name", "user", "autoplay", "created_at")
    search_fields = ("display_name",)


@admin.register(DealVerdict)
class DealVerdictAdmin(admin.ModelAdmin):
    list_display = ("game", "deal", "verdict", "difficulty", "moves", "nodes", "pooled", "dealt")
    list_filter = ("game", "verdict", "difficulty", "pooled")
    search_fields = ("deal",)
    readonly_fields = ("solution", "requested_at", "solved_at")
