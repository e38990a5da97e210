from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.health, name="health"),
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
]
