"""A player's own pages: account, profile, saved games, statistics."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import limits
from games.forms import SignupForm, TickField
from games.limits import rate_limited
from games.models import Game, Player
from games.players import (
    checked_name,
    current_player,
    end_sessions,
    known_player,
    player_games,
    player_set_name,
    player_set_preferences,
)
from games.presentation import thumbnail
from games.stats import viewed_stats

GAMES_PER_PAGE = 12


FORM_METHODS = ["get", "head", "post", "options"]
"""The methods of Django's form views here (the log-in's, the password change's): they take
PUT as POST and say so (``Allow``); the site takes no PUT
(``castle_site.middleware.methods_the_site_takes``)."""


class NameForm(forms.Form):
    display_name = forms.CharField(max_length=24, label="Display name")

    def __init__(self, *args: Any, player: Player | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player = player

    def clean_display_name(self) -> str:
        """Checked before the save makes a player: a refused name left one behind."""
        player_id = self.player.pk if self.player is not None else None
        return checked_name(self.cleaned_data["display_name"], player_id=player_id)


class PreferencesForm(forms.Form):
    four_colour = TickField(label="Four-colour deck")
    autoplay = TickField(label="Auto-play safe cards")
    glide = TickField(
        label="Cards glide",
        help_text="Off: each move shows at once, as with your system's reduced motion.",
    )


@rate_limited("signup", *limits.SIGNUP)
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account; the log-in that follows adopts this browser's games."""
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:  # the same name, sent twice at once (a double click)
            form.add_error("username", "A user with that username already exists.")
        else:
            login(request, user)
            player = current_player(request)  # the browser's own, adopted by the account
            if player.display_name:
                return redirect("games:my_games")
            # The username is half of a log-in: leaderboards never show it, and a new
            # player looked for it there in vain.
            messages.info(
                request,
                f"Welcome, {user.username}. Leaderboards show you as {player.name}, never "
                "by your username: choose the name they show here.",
            )
            return redirect("games:profile")
    return render(request, "registration/signup.html", {"form": form}, status=_status(form))


@require_POST
def logout_everywhere(request: HttpRequest) -> HttpResponse:
    """Log out here and end every other session of the account (a copied cookie too)."""
    if request.user.is_authenticated:
        end_sessions(user=request.user)
    logout(request)
    return redirect(settings.LOGOUT_REDIRECT_URL)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's. The new password ends the account's other sessions, so whoever held a copy
    of a logged-in cookie is locked out (``games.players``' signals; this session goes on
    under a new key, ``castle_site.sessions.IndexedKeys``)."""

    success_url = reverse_lazy("games:password_change_done")
    http_method_names = FORM_METHODS


password_change = rate_limited("password", *limits.PASSWORD_CHANGE)(PasswordChangeView.as_view())


@rate_limited("profile", *limits.PROFILE)
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """A player's name and preferences. Looking creates nothing: a visitor without a player
    sees the defaults, and only a saved form makes one (a GET that made a player and a
    session would let a script fill both tables)."""
    known = known_player(request)
    player = known or Player()  # a visitor's defaults, saved only with a valid form
    name_form = NameForm(initial={"display_name": player.display_name})
    prefs_form = PreferencesForm(
        initial={
            "four_colour": player.four_colour,
            "autoplay": player.autoplay,
            "glide": player.glide,
        }
    )
    back = _back_to(request)
    if request.method == "POST" and "display_name" in request.POST:
        name_form = NameForm(request.POST, player=known)
        if name_form.is_valid():
            try:
                player = current_player(request)
                player_set_name(player=player, name=name_form.cleaned_data["display_name"])
                messages.success(request, "Your name is saved.")
                return redirect(back or "games:profile")
            except ValidationError as error:
                name_form.add_error("display_name", error)
    elif request.method == "POST":
        prefs_form = PreferencesForm(request.POST)
        if prefs_form.is_valid():
            player_set_preferences(player=current_player(request), **prefs_form.cleaned_data)
            messages.success(request, "Your preferences are saved.")
            return redirect("games:profile")
    context = {"player": known, "name_form": name_form, "prefs_form": prefs_form, "back": back}
    bad = name_form.errors or prefs_form.errors
    return render(request, "games/profile.html", context, status=400 if bad else 200)


def _back_to(request: HttpRequest) -> str:
    """The page of this site that sent the player to choose a name (``next``: a leaderboard
    row's "choose a name"), where saving one returns; empty for any other address. Saved,
    the name left the player on the profile, the row they came from out of reach (a
    player's pass)."""
    back = request.POST.get("next") or request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return back if safe and back.startswith("/") else ""


@require_safe
def my_games(request: HttpRequest) -> HttpResponse:
    """Unfinished games first (most recent first), then finished ones; paginated."""
    player = known_player(request)
    games = player_games(player) if player else Game.objects.none()
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    listed = [(game, thumbnail(game.position)) for game in page]
    return render(request, "games/my_games.html", {"page": page, "listed": listed})


@require_safe
def stats(request: HttpRequest) -> HttpResponse:
    """A row for each game the player played; the others named in a line below (a table of
    every game, mostly zeros, ran to 5,000 px on a phone)."""
    player = known_player(request)
    table = viewed_stats(player) if player else []
    context = {
        "player": player,
        "stats": [row for row in table if row.played],
        "unplayed": [row for row in table if not row.played],
    }
    return render(request, "games/stats.html", context)


def _status(form: forms.BaseForm) -> int:
    return 400 if form.is_bound and form.errors else 200
