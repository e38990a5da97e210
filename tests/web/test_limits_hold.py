"""The rate limits hold against a script that works around them: a flood of sessions, the
admin's log-in, many IPv6 addresses, a forged forwarding header; and looking creates nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse

from games import limits, services
from games.limits import PLAYING_BATCH, PLAYING_PER_MINUTE, PLAYING_ROWS, Limit, client_ip
from games.models import Game, PlayedMove, Player
from games.rules import Board
from games.services import MAX_PLIES


def test_a_flood_of_cache_entries_does_not_reset_a_rate_limit(owner_client: Client) -> None:
    """Sessions (and hints, markers) fill the default cache, a memory cache of 300 entries
    per process: the counters used to be culled with them, and the limit started afresh."""
    url = reverse("games:play", args=["citadel"])
    for _ in range(30):
        owner_client.get(url)
    assert owner_client.get(url).status_code == 429

    for index in range(2_000):  # what a few thousand fresh sessions do to the default cache
        cache.set(f"flood:{index}", index)

    assert owner_client.get(url).status_code == 429
    assert Game.objects.count() == 30


def test_the_admin_log_in_is_rate_limited_with_the_sites(client: Client, db: None) -> None:
    url = reverse("admin:login")
    for attempt in range(10):
        response = client.post(url, {"username": "alice", "password": f"guess {attempt}"})
        assert response.status_code == 200

    response = client.post(url, {"username": "alice", "password": "guess 10"})

    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    # The same account's guesses on the site's log-in count against the same limit.
    site = client.post(reverse("games:login"), {"username": "alice", "password": "guess 11"})
    assert site.status_code == 429


def test_looking_at_the_profile_creates_no_player_and_no_session(db: None) -> None:
    for _ in range(5):
        response = Client().get(reverse("games:profile"))
        assert response.status_code == 200
        assert "Your profile" in response.text

    assert Player.objects.count() == 0
    assert Session.objects.count() == 0


@pytest.mark.parametrize(
    "form", [{"display_name": "<b>"}, {"display_name": ""}, {"glide": "banana"}], ids=str
)
def test_a_refused_profile_form_creates_no_player_and_no_session(db: None, form: dict) -> None:
    """Each refused form (a 400) left a player and a session behind (an attacker's pass):
    only a saved form makes them."""
    for _ in range(3):
        assert Client().post(reverse("games:profile"), form).status_code == 400

    assert Player.objects.count() == 0
    assert Session.objects.count() == 0


def test_saving_a_name_still_makes_the_player(client: Client, db: None) -> None:
    response = client.post(reverse("games:profile"), {"display_name": "Ada"})

    assert response.status_code == 302
    assert Player.objects.get().display_name == "Ada"
    assert "Ada" in client.get(reverse("games:profile")).text


def test_names_cannot_be_claimed_by_the_hundred(db: None) -> None:
    """Display names are unique and never expire: fresh sessions from one address may save
    60 an hour. (The names differ as they read: no two of their letters look alike.)"""
    names = [f"squat{a}{b}" for a in "aehkmnptuxy" for b in "aehkmnptuxy"][:61]
    for name in names[:60]:
        response = Client().post(reverse("games:profile"), {"display_name": name})
        assert response.status_code == 302

    response = Client().post(reverse("games:profile"), {"display_name": names[60]})

    assert response.status_code == 429
    assert not Player.objects.filter(display_name=names[60]).exists()


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", True),
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
        ("::ffff:203.0.113.9", "203.0.113.9", True),
        ("203.0.113.9", "203.0.113.10", False),
        # 6to4 and Teredo carry the client's IPv4 address: one /64 each gave it 65,536 keys
        ("2002:cb00:7109:1::1", "2002:cb00:7109:ffff::1", True),
        ("2002:cb00:7109:1::1", "203.0.113.9", True),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45", True),
    ],
)
def test_the_limits_count_an_ipv6_client_by_its_64_network(
    first: str, second: str, same: bool
) -> None:
    factory = RequestFactory()
    one = client_ip(factory.get("/", REMOTE_ADDR=first))
    two = client_ip(factory.get("/", REMOTE_ADDR=second))

    assert (one == two) is same


def test_a_forwarded_list_counts_the_address_the_proxy_added(settings) -> None:
    """A proxy that appends to ``X-Forwarded-For`` keeps what the client wrote before it."""
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    factory = RequestFactory()

    forged = [
        client_ip(factory.get("/", HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 198.51.100.7"))
        for n in range(5)
    ]

    assert forged == ["198.51.100.7"] * 5


def test_a_script_cannot_store_moves_without_end(
    owner_client: Client, start_game: Callable[..., Game]
) -> None:
    """One card sent back and forth stored a move row a request, 324 a second from one
    address: the game's actions together are limited to 600 a minute an address (ten a
    second, beyond any hand), counted in batches of ten per process."""
    game = start_game("beleaguered-castle", 13)
    moves, undo = reverse("games:move", args=[game.pk]), reverse("games:undo", args=[game.pk])
    statuses = []
    for ply in range(PLAYING_PER_MINUTE + PLAYING_BATCH - 1):
        step = "t5-t4" if ply % 2 == 0 else "t4-t5"
        statuses.append(owner_client.post(moves, {"move": step, "ply": ply}).status_code)
    assert statuses == [303] * len(statuses)
    assert owner_client.post(undo, {"ply": len(statuses)}).status_code == 429  # with them
    stored = PlayedMove.objects.filter(game=game).count()

    refused = owner_client.post(moves, {"move": "t5-t4", "ply": 0}, HTTP_HX_REQUEST="true")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "Too many requests" in refused.text
    assert PlayedMove.objects.filter(game=game).count() == stored


def test_another_address_plays_on(owner_client: Client, start_game: Callable[..., Game]) -> None:
    game = start_game("beleaguered-castle", 13)
    moves = reverse("games:move", args=[game.pk])
    for ply in range(PLAYING_PER_MINUTE + PLAYING_BATCH):
        step = "t5-t4" if ply % 2 == 0 else "t4-t5"
        owner_client.post(moves, {"move": step, "ply": ply})
    assert owner_client.post(moves, {"move": "t5-t4", "ply": 0}).status_code == 429

    game.refresh_from_db()
    elsewhere = {"move": "t5-t4" if game.ply % 2 == 0 else "t4-t5", "ply": game.ply}
    assert owner_client.post(moves, elsewhere, REMOTE_ADDR="192.0.2.9").status_code == 303


def test_actions_count_the_rows_they_change(
    owner_client: Client, player: Player, now: datetime
) -> None:
    """A restart of an imported 2,000-move game, then the Undo that brings it back, each
    changed 2,000 rows (35 ms of the server's CPU, a move 3 ms) and counted one action: 600
    a minute from one address changed 20,000 rows a second (an attacker's pass). An action
    now counts one more for each ``PLAYING_ROWS`` rows."""
    board = Board("beleaguered-castle", 13)
    for ply in range(MAX_PLIES):
        board.play("t5-t4" if ply % 2 == 0 else "t4-t5")
    game = services.game_import(player=player, board=board, now=now)
    restart, undo = (reverse(f"games:{name}", args=[game.pk]) for name in ("restart", "undo"))

    statuses = []
    for action in range(20):
        url, ply = (restart, MAX_PLIES) if action % 2 == 0 else (undo, 0)
        statuses.append(owner_client.post(url, {"ply": ply}).status_code)

    done = PLAYING_PER_MINUTE // (1 + MAX_PLIES // PLAYING_ROWS) + 1  # 6, where 600 were
    assert statuses == [303] * done + [429] * (20 - done)
    game.refresh_from_db()
    assert game.ply == (0 if done % 2 else MAX_PLIES)


@pytest.fixture
def alice(db: None) -> None:
    User.objects.create_user("alice", password="a long right password")


def test_wrong_guesses_from_one_address_do_not_lock_the_owner_out(alice: None) -> None:
    """Every attempt counted against the account, refused ones too: eleven wrong guesses
    every 15 minutes from one address kept its owner locked out everywhere, for good."""
    url = reverse("games:login")
    attacker = Client(REMOTE_ADDR="192.0.2.66")
    answers = [
        attacker.post(url, {"username": "alice", "password": f"guess {n}"}).status_code
        for n in range(12)
    ]
    assert answers == [200] * 10 + [429] * 2  # this address may guess no more

    owner = Client(REMOTE_ADDR="198.51.100.7")
    response = owner.post(url, {"username": "alice", "password": "a long right password"})

    assert response.status_code == 302
    assert owner.get(reverse("games:profile")).context["user"].username == "alice"


def test_many_addresses_guessing_one_account_lock_it(
    alice: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The account's own limit (100 failures in 15 minutes, here 4) still stops guessing
    spread over many addresses; an attempt it refuses checks no password and counts nothing."""
    monkeypatch.setattr(
        limits, "LOGIN_FAILURES", (Limit("account-ip", "2/15m"), Limit("account", "4/15m"))
    )
    url = reverse("games:login")
    for address in ("192.0.2.1", "192.0.2.2"):
        for n in range(2):
            wrong = {"username": "alice", "password": f"guess {n}"}
            assert Client(REMOTE_ADDR=address).post(url, wrong).status_code == 200

    right = {"username": "alice", "password": "a long right password"}
    refused = Client(REMOTE_ADDR="192.0.2.3").post(url, right)

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1


def test_another_spelling_of_the_name_counts_against_the_same_account(alice: None) -> None:
    """Alice in full-width letters logs in as alice (Django reads names NFKC) but had counters
    of its own: 180 wrong guesses in 5 minutes went through a cap of 100."""
    url = reverse("games:login")
    guesser = Client(REMOTE_ADDR="192.0.2.66")
    for n in range(10):
        assert guesser.post(url, {"username": "alice", "password": f"guess {n}"}).status_code == 200

    other = guesser.post(url, {"username": "\uff41lice", "password": "guess 10"})

    assert other.status_code == 429


def test_password_changes_are_rate_limited(alice: None) -> None:
    """Each checks the old password (a hash, some 0.7 s of a core): unlimited, one account's
    wrong guesses kept every worker busy, and a copied cookie could guess the password."""
    account = Client(REMOTE_ADDR="192.0.2.66")
    account.login(username="alice", password="a long right password")
    url = reverse("games:password_change")
    answers = [
        account.post(
            url,
            {"old_password": f"guess {n}", "new_password1": "x7!kQ2#", "new_password2": "x7!kQ2#"},
        ).status_code
        for n in range(11)
    ]
    assert answers == [200] * 10 + [429]

    assert account.get(url).status_code == 200  # the form itself is no attempt
    assert User.objects.get().check_password("a long right password")


def test_the_admins_password_change_is_limited_with_the_sites(alice: None) -> None:
    """Anyone holding a copy of a staff cookie guessed the password on the admin's form, 60
    guesses unlimited, each a hash (an attacker's pass)."""
    User.objects.filter(username="alice").update(is_staff=True)
    staff = Client(REMOTE_ADDR="192.0.2.66")
    staff.login(username="alice", password="a long right password")
    wrong = {"old_password": "guess", "new_password1": "x7!kQ2#", "new_password2": "x7!kQ2#"}
    for _ in range(5):
        assert staff.post(reverse("games:password_change"), wrong).status_code == 200
    answers = [staff.post(reverse("admin:password_change"), wrong).status_code for _ in range(6)]

    assert answers == [200] * 5 + [429]


def test_a_long_wait_is_said_in_minutes(db: None) -> None:
    """A wait of 1591 seconds was said in seconds (a player's pass, after a few sign-ups)."""
    url = reverse("games:signup")
    for n in range(11):
        fields = {"username": f"ann{n}", "password1": "x7!kQ2#w", "password2": "x7!kQ2#w"}
        response = Client().post(url, fields)

    assert response.status_code == 429
    assert re.search(r"please wait \d+ minutes? and try again", response.text), response.text
