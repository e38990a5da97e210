import datetime as dt

from django.contrib.auth import views as auth_views
from django.urls import path, register_converter

from games import daily_views, leaderboard_views, limits, player_views, pool_views, views


class DateConverter:
    """``2026-11-22`` in a URL: a real calendar date or no match (404)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> dt.date:
        return dt.date.fromisoformat(value)  # ValueError: not a date, so no match

    def to_url(self, value: dt.date) -> str:
        return value.isoformat()


register_converter(DateConverter, "date")

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.health, name="health"),
    path("robots.txt", views.robots, name="robots"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("rules/<slug:slug>/", views.rules_page, name="rules"),
    path("play/<slug:slug>/", views.play, name="play"),
    path("play/<slug:slug>/<int:deal>/", views.play, name="play_deal"),
    path("games/<uuid:game_id>/", views.game_page, name="game"),
    path("games/<uuid:game_id>/moves", views.move, name="move"),
    path("games/<uuid:game_id>/undo", views.undo, name="undo"),
    path("games/<uuid:game_id>/redo", views.redo, name="redo"),
    path("games/<uuid:game_id>/restart", views.restart, name="restart"),
    path("games/<uuid:game_id>/autoplay", views.autoplay, name="autoplay"),
    path("games/<uuid:game_id>/record", views.record, name="record"),
    path("games/<uuid:game_id>/replay/", views.replay, name="replay"),
    path("games/<uuid:game_id>/delete", views.delete, name="delete"),
    path("games/<uuid:game_id>/hint", views.hint, name="hint"),
    path("games/<uuid:game_id>/analyse", views.analyse, name="analyse"),
    path("games/<uuid:game_id>/verdict", pool_views.verdict, name="verdict"),
    path("games/<uuid:game_id>/analysis", views.analysis, name="analysis"),
    path("import/", views.import_record, name="import"),
    path("daily/", daily_views.today, name="daily"),
    path("daily/archive/", daily_views.archive, name="daily_archive"),
    path("daily/<date:date>/", daily_views.day, name="daily_day"),
    path(
        "daily/<date:date>/<slug:slug>/",
        leaderboard_views.daily_leaderboard,
        name="daily_leaderboard",
    ),
    path(
        "daily/<date:date>/<slug:slug>/play",
        daily_views.play,
        name="daily_play",
    ),
    path("leaderboard/<slug:slug>/", leaderboard_views.game_leaderboard, name="game_leaderboard"),
    path("me/", player_views.profile, name="profile"),
    path("me/games/", player_views.my_games, name="my_games"),
    path("me/stats/", player_views.stats, name="stats"),
    path("accounts/signup/", player_views.signup, name="signup"),
    path(
        "accounts/login/",
        limits.login_limited(
            auth_views.LoginView.as_view(http_method_names=player_views.FORM_METHODS)
        ),
        name="login",
    ),
    path("accounts/logout/", player_views.logout_everywhere, name="logout"),
    path("accounts/password/", player_views.password_change, name="password_change"),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
