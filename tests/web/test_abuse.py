"""What a hostile client sends: floods answer 429, oversized input 400, races never 500."""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import date, datetime
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client, RequestFactory
from django.urls import reverse

from games import limits, services
from games.forms import IMPORT_MAX_CHARS
from games.models import Daily, Game, PlayedMove, Player
from games.rules import replay_record
from games.rules.cli import main as cli_main

HX = {"HX-Request": "true"}


def assert_too_many(response) -> None:
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert "please wait" in html.unescape(response.text)


# -- rate limits -------------------------------------------------------------------------


def test_a_wait_of_one_second_reads_one_second(rf) -> None:
    response = limits.too_many(rf.get("/"), 1)

    assert "please wait 1 second and try again." in html.unescape(response.content.decode())
    assert response["Retry-After"] == "1"


@pytest.mark.parametrize("name", ["games:import", "games:signup"])
def test_a_form_posted_as_json_is_refused_with_400(client: Client, db: None, name: str) -> None:
    """An empty form body (JSON, which Django does not parse) was read as no post at all:
    the blank form, 200."""
    response = client.post(reverse(name), '{"record": "game: citadel"}', "application/json")

    assert response.status_code == 400
    assert "This field is required." in html.unescape(response.text)
    assert not Game.objects.exists()
    assert not User.objects.exists()


def test_starting_games_is_rate_limited_per_player(owner_client: Client) -> None:
    url = reverse("games:play", args=["citadel"])
    statuses = [owner_client.get(url).status_code for _ in range(30)]

    assert statuses == [302] * 30
    assert_too_many(owner_client.get(url))
    assert Game.objects.count() == 30


def test_starting_games_is_rate_limited_per_address(db: None) -> None:
    """Fresh cookies each time (a script dropping its cookie) still share an address."""
    statuses = [
        Client().get(reverse("games:play_deal", args=["citadel", 5])).status_code
        for _ in range(121)
    ]

    assert statuses.count(302) == 120 and statuses[-1] == 429
    assert Game.objects.count() == 120
    assert (
        Client(REMOTE_ADDR="10.1.2.3").get(reverse("games:play", args=["citadel"])).status_code
        == 302
    )


def test_starting_games_from_one_address_stops_at_a_daily_cap(
    monkeypatch: pytest.MonkeyPatch, db: None
) -> None:
    """Every start without a cookie stores a player, a session and a game: 120 a minute all
    day long came to 172,800 a day from one address (an attacker's pass)."""
    clock = SimpleNamespace(time=lambda: 1.8e9)
    monkeypatch.setattr(django_ratelimit.core, "time", clock)
    day_ends = django_ratelimit.core._get_window("127.0.0.1", 24 * 3600)
    started = day_ends - 24 * 3600 + 1
    start = RequestFactory().get("/play/citadel/5/")  # counted as the view counts it
    start.session = SessionStore()  # no player: a script without cookies
    for minute in range(25):  # 120 a minute, the most the minute's limit allows
        clock.time = lambda minute=minute: started + minute * 60
        for _ in range(120):
            assert limits.over_limit(start, "play", limits.PLAY) is None

    clock.time = lambda: started + 25 * 60
    assert Client().get("/play/citadel/5/").status_code == 429  # the 3,001st of the day
    clock.time = lambda: day_ends + 1  # the next day
    assert Client().get("/play/citadel/5/").status_code == 302
    assert Game.objects.count() == 1


def test_the_daily_play_link_is_rate_limited_too(owner_client: Client) -> None:
    url = reverse("games:daily_play", args=[date(2026, 11, 22), "citadel"])
    for _ in range(30):
        owner_client.get(reverse("games:play", args=["citadel"]))

    assert_too_many(owner_client.get(url))


def test_a_proxy_header_names_the_client_when_configured(settings, db: None) -> None:
    settings.CLIENT_IP_HEADER = "HTTP_X_REAL_IP"
    for _ in range(120):
        Client(HTTP_X_REAL_IP="203.0.113.9").get(reverse("games:play", args=["citadel"]))

    assert Client(HTTP_X_REAL_IP="203.0.113.9").get("/play/citadel/").status_code == 429
    assert Client(HTTP_X_REAL_IP="203.0.113.10").get("/play/citadel/").status_code == 302
    # A header that is not an address falls back to the peer's: no 500.
    assert Client(HTTP_X_REAL_IP="<script>").get("/play/citadel/").status_code == 302


def test_over_the_limit_htmx_shows_the_sentence_in_the_status_line(
    owner_client: Client, game: Game
) -> None:
    url = reverse("games:hint", args=[game.pk])
    for _ in range(60):
        owner_client.post(url, headers=HX)

    response = owner_client.post(url, headers=HX)

    assert_too_many(response)
    assert response["HX-Retarget"] == "#status"
    assert 'id="status"' in response.text
    game.refresh_from_db()
    assert game.hints == 60


def test_imports_are_rate_limited(owner_client: Client, db: None) -> None:
    record = "game: citadel\ndeal: 3\n"
    for _ in range(10):
        response = owner_client.post(reverse("games:import"), {"record": record, "then": "replay"})
        assert response.status_code == 302

    assert_too_many(
        owner_client.post(reverse("games:import"), {"record": record, "then": "replay"})
    )
    assert owner_client.get(reverse("games:import")).status_code == 200  # the form still shows
    assert Game.objects.count() == 10


def test_imports_from_one_address_stop_at_a_daily_cap(
    monkeypatch: pytest.MonkeyPatch, db: None
) -> None:
    """A client without cookies (a new player each time) importing 30 a minute, the most
    the minute's limit allows, all day: 200 go through, then none until the next day."""
    clock = SimpleNamespace(time=lambda: 1.8e9)
    monkeypatch.setattr(django_ratelimit.core, "time", clock)
    day_ends = django_ratelimit.core._get_window("127.0.0.1", 24 * 3600)
    started = day_ends - 24 * 3600 + 1

    def import_at(seconds: float) -> int:
        clock.time = lambda: started + seconds
        record = "game: citadel\ndeal: 3\n"
        data = {"record": record, "then": "replay"}
        return Client().post(reverse("games:import"), data).status_code

    statuses = [import_at(60 * (n // 30)) for n in range(200)]
    assert statuses == [302] * 200
    assert import_at(7 * 60) == 429 and import_at(60 * 60) == 429
    assert import_at(24 * 3600) == 302  # the next day's window
    assert Game.objects.count() == 201


def test_sign_ups_are_rate_limited_per_address(client: Client, db: None) -> None:
    for index in range(10):
        client.post(
            reverse("games:signup"),
            {"username": f"u{index}", "password1": "x", "password2": "y"},
        )

    response = client.post(
        reverse("games:signup"),
        {"username": "last", "password1": "long enough pw 1", "password2": "long enough pw 1"},
    )

    assert_too_many(response)
    assert not User.objects.filter(username="last").exists()


def test_analyse_is_rate_limited(owner_client: Client, game: Game) -> None:
    url = reverse("games:analyse", args=[game.pk])
    for _ in range(12):
        assert owner_client.post(url).status_code == 303  # to the analysis's page

    assert_too_many(owner_client.post(url))
    # Polling the answer is not an analysis: it is never limited.
    assert owner_client.get(reverse("games:analysis", args=[game.pk])).status_code == 200


def test_moves_are_never_rate_limited(owner_client: Client, game: Game) -> None:
    for _ in range(40):
        owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"})
        owner_client.post(reverse("games:undo", args=[game.pk]))

    response = owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"})
    assert response.status_code == 303


# -- caps --------------------------------------------------------------------------------


def long_record(moves: int) -> str:
    """Beleaguered Castle deal 13: one card sent back and forth between t5 and t4."""
    line = ["t5-t4" if index % 2 == 0 else "t4-t5" for index in range(moves)]
    return f"game: beleaguered-castle\ndeal: 13\n{' '.join(line)}\n"


def test_an_import_past_the_move_cap_is_refused_and_stores_nothing(
    owner_client: Client, db: None
) -> None:
    record = long_record(services.MAX_PLIES + 1)
    assert len(record) < IMPORT_MAX_CHARS

    response = owner_client.post(reverse("games:import"), {"record": record, "then": "replay"})

    assert response.status_code == 400
    assert "at most 2,000 moves" in response.text
    assert Game.objects.count() == 0 and PlayedMove.objects.count() == 0


def test_an_import_at_the_move_cap_is_taken(owner_client: Client, db: None) -> None:
    record = long_record(services.MAX_PLIES)

    response = owner_client.post(reverse("games:import"), {"record": record, "then": "replay"})

    assert response.status_code == 302
    assert Game.objects.get().imported


def test_an_oversized_import_is_refused_before_it_is_read(owner_client: Client, db: None) -> None:
    record = long_record(1).rstrip() + "\n" * IMPORT_MAX_CHARS + "t4-t5\n"

    response = owner_client.post(reverse("games:import"), {"record": record, "then": "replay"})

    assert response.status_code == 400
    assert Game.objects.count() == 0


def test_a_game_stops_at_the_move_cap(
    owner_client: Client, start_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "MAX_PLIES", 3)
    game = start_game("beleaguered-castle", 13)
    url = reverse("games:move", args=[game.pk])
    for notation in ("t5-t4", "t4-t5", "t5-t4"):
        assert owner_client.post(url, {"move": notation}).status_code == 303

    response = owner_client.post(url, {"move": "t4-t5"})

    assert response.status_code == 422
    assert "at most 3 moves" in response.text
    game.refresh_from_db()
    assert game.ply == 3 and game.played_moves.count() == 3


def test_the_board_cache_is_bounded_by_the_plies_it_holds(
    player: Player, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "_boards", type(services._boards)())
    monkeypatch.setattr(services, "_boards_weight", 0)
    monkeypatch.setattr(services, "BOARD_CACHE_WEIGHT", 3 * (services.BOARD_WEIGHT + 400))
    board = replay_record(long_record(400))
    games = [services.game_import(player=player, board=board, now=now) for _ in range(6)]

    for game in games:
        services.game_board(game)

    assert len(services._boards) == 3
    assert services._boards_weight == sum(
        services.BOARD_WEIGHT + b.ply for b in services._boards.values()
    )


def test_the_replay_lists_a_window_of_a_long_game(owner_client: Client, db: None) -> None:
    owner_client.post(reverse("games:import"), {"record": long_record(1500), "then": "replay"})
    game = Game.objects.get()

    body = owner_client.get(reverse("games:replay", args=[game.pk]) + "?ply=700").text

    assert body.count('href="?ply=') <= 80
    assert 'href="?ply=700"' in body and 'href="?ply=1"' not in body


# -- no 500s -----------------------------------------------------------------------------


@pytest.mark.parametrize("deal", ["²", "①", "١٢", "12³"])
def test_an_import_with_a_non_ascii_digit_deal_is_a_400(
    owner_client: Client, db: None, deal: str
) -> None:
    record = f"game: citadel\ndeal: {deal}\n"

    response = owner_client.post(reverse("games:import"), {"record": record, "then": "replay"})

    assert response.status_code == 400
    assert "is not a deal number: use 1 to" in html.unescape(response.text)
    assert Game.objects.count() == 0


@pytest.mark.parametrize("deal", ["²", "①"])
def test_the_command_line_refuses_a_non_ascii_digit_deal(
    deal: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        cli_main(["deal", "citadel", deal])

    assert exit.value.code == 2
    assert "is not a deal number: use 1 to" in capsys.readouterr().err


def test_two_identical_sign_ups_answer_once_and_then_400(client: Client, db: None) -> None:
    form = {"username": "dave", "password1": "long enough pw 1", "password2": "long enough pw 1"}

    first = client.post(reverse("games:signup"), form)
    second = Client().post(reverse("games:signup"), form)

    assert first.status_code == 302 and second.status_code == 400
    assert User.objects.filter(username="dave").count() == 1


def test_a_sign_up_losing_the_race_for_its_name_is_a_400(
    client: Client, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name was free when the form checked it and taken when it saved (a double click)."""
    form = {"username": "erin", "password1": "long enough pw 1", "password2": "long enough pw 1"}
    real_save = UserCreationForm.save

    def lose_the_race_then_save(self, commit=True):
        User.objects.create_user(self.cleaned_data["username"], password="other")
        return real_save(self, commit=commit)

    monkeypatch.setattr(UserCreationForm, "save", lose_the_race_then_save)

    response = client.post(reverse("games:signup"), form)

    assert response.status_code == 400
    assert "already exists" in html.unescape(response.text)


def test_a_double_clicked_delete_is_not_a_500(owner_client: Client, game: Game) -> None:
    url = reverse("games:delete", args=[game.pk])

    assert owner_client.post(url).status_code == 302
    assert owner_client.post(url).status_code == 404


def test_delete_between_the_delete_pages_check_and_its_write_is_not_a_500(
    owner_client: Client, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = services.game_delete

    def deleted_by_the_other_click(**kwargs):
        Game.objects.filter(pk=game.pk).delete()
        return real(**kwargs)

    monkeypatch.setattr(services, "game_delete", deleted_by_the_other_click)

    response = owner_client.post(reverse("games:delete", args=[game.pk]))

    assert response.status_code == 302


@pytest.mark.parametrize("htmx", [False, True])
def test_a_move_racing_a_delete_is_a_404_not_a_500(
    owner_client: Client, game: Game, monkeypatch: pytest.MonkeyPatch, htmx: bool
) -> None:
    real = services._load

    def load_then_deleted(*args):
        loaded = real(*args)
        Game.objects.filter(pk=game.pk).delete()
        return loaded

    monkeypatch.setattr(services, "_load", load_then_deleted)

    response = owner_client.post(
        reverse("games:move", args=[game.pk]), {"move": "t3-t6"}, headers=HX if htmx else {}
    )

    assert response.status_code == 404
    assert PlayedMove.objects.count() == 0


@pytest.mark.parametrize(
    "name",
    ["games:health", "games:home", "games:robots", "games:import", "games:signup", "games:login"],
)
def test_head_works_wherever_get_does(client: Client, db: None, name: str) -> None:
    response = client.head(reverse(name))

    assert response.status_code == 200
    assert response.content == b""


def test_head_of_game_pages(client: Client, game: Game) -> None:
    for name in ("games:game", "games:replay", "games:record"):
        assert client.head(reverse(name, args=[game.pk])).status_code == 200


@pytest.mark.parametrize("asked", ["new", "deal", "daily"])
def test_a_head_request_starts_no_game(owner_client: Client, live: Daily, asked: str) -> None:
    """HEAD started a game (a daily's one try and its clock, too) and went on to it."""
    url = {
        "new": reverse("games:play", args=["citadel"]),
        "deal": reverse("games:play_deal", args=["citadel", 8]),
        "daily": reverse("games:daily_play", args=[live.date, "citadel"]),
    }[asked]
    for _ in range(30):
        assert owner_client.head(url).status_code == 405

    assert not Game.objects.exists()
    assert owner_client.get(url).status_code == 302  # and spent nothing of the limit


def test_starting_a_game_with_a_stale_account_cookie_gets_a_fresh_player(
    client_for: Callable[..., Client], player: Player
) -> None:
    player.user = User.objects.create_user("frank", password="long enough pw 1")
    player.save()

    client_for(player).get(reverse("games:play", args=["citadel"]))

    game = Game.objects.get()
    assert game.owner_id != player.pk


@pytest.mark.parametrize("poll", ["²", "①", "1", "99999", "x"])
def test_the_verdict_badge_reads_any_poll_count_without_a_500(
    client: Client, game: Game, poll: str
) -> None:
    url = reverse("games:verdict", args=[game.pk])

    assert client.get(url, {"poll": poll}).status_code == 200
    assert client.head(url).status_code == 200


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_a_method_no_page_takes_is_refused_as_such_not_as_a_stale_form(
    game: Game, method: str
) -> None:
    """With no CSRF token, PUT, PATCH and DELETE were told "This page's form has expired" (a
    403 from the CSRF check, which runs before each view's own method check)."""
    client = Client(enforce_csrf_checks=True)
    urls = [
        reverse("games:home"),
        reverse("games:move", args=[game.pk]),
        reverse("games:undo", args=[game.pk]),
        reverse("games:login"),
        game.get_absolute_url(),
    ]
    for url in urls:
        response = getattr(client, method)(url, "move=t7-f")

        assert response.status_code == 405, (url, response.status_code)
        assert response["Allow"] == "GET, HEAD, POST"
    assert game.played_moves.count() == 0
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", ["games:login", "games:password_change"])
def test_the_account_forms_offer_no_put(client: Client, db: None, name: str) -> None:
    """Django's form views answered OPTIONS with "Allow: GET, POST, PUT, HEAD, OPTIONS"."""
    client.force_login(User.objects.create_user("ada"))

    allowed = client.options(reverse(name))["Allow"]

    assert "PUT" not in allowed and "POST" in allowed
