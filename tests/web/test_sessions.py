"""Sessions live on the server and can be ended: a copied cookie is only as good as the
session it names."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import get_random_string

from games.models import AccountSession, Game, Player
from games.players import MAX_ACCOUNT_SESSIONS

PASSWORD = "correct horse battery"
NEW_PASSWORD = "another staple battery"


def copy_of(client: Client) -> Client:
    """A second browser holding the same session cookie (an attacker's copy)."""
    thief = Client()
    thief.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return thief


def signup(client: Client, username: str = "alice") -> None:
    response = client.post(
        reverse("games:signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302


def login(client: Client, username: str = "alice", password: str = PASSWORD) -> int:
    response = client.post(reverse("games:login"), {"username": username, "password": password})
    return response.status_code


def powerless(thief: Client, game: Game) -> None:
    """The copied cookie cannot list, move, rename or delete the account's games."""
    assert str(game.pk) not in thief.get(reverse("games:my_games")).text
    move = thief.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6", "ply": 0})
    assert move.status_code == 403
    thief.post(reverse("games:profile"), {"display_name": "Mallory"})
    thief.post(reverse("games:delete", args=[game.pk]))
    game.refresh_from_db()
    assert game.ply == 0
    assert not Player.objects.filter(pk=game.owner_id, display_name="Mallory").exists()
    assert Game.objects.filter(pk=game.pk).exists()


def test_an_anonymous_cookie_copied_before_sign_up_is_powerless_afterwards(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    owner = client_for(player)
    game = start_game()
    thief = copy_of(owner)
    assert str(game.pk) in thief.get(reverse("games:my_games")).text  # the same player, yet

    signup(owner)
    owner.post(reverse("games:logout"))
    elsewhere = Client()
    assert login(elsewhere) == 302
    response = elsewhere.post(
        reverse("games:password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302

    powerless(thief, game)
    assert str(game.pk) in elsewhere.get(reverse("games:my_games")).text


def test_a_copied_cookie_of_the_anonymous_player_dies_at_sign_up(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    owner = client_for(player)
    game = start_game()
    thief = copy_of(owner)

    signup(owner)

    powerless(thief, game)
    assert owner.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"}).status_code == 303


def test_logging_out_ends_the_accounts_other_sessions(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    owner = client_for(player)
    game = start_game()
    signup(owner)
    laptop = Client()
    assert login(laptop) == 302
    stolen = copy_of(laptop)

    owner.post(reverse("games:logout"))

    powerless(stolen, game)
    assert str(game.pk) not in laptop.get(reverse("games:my_games")).text


def test_a_password_change_ends_the_other_sessions_but_not_this_one(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    owner = client_for(player)
    game = start_game()
    signup(owner)
    stolen = Client()
    assert login(stolen) == 302

    owner.post(
        reverse("games:password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    powerless(stolen, game)
    assert owner.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"}).status_code == 303


def test_a_session_naming_an_account_player_without_its_log_in_has_no_player(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    game = start_game()
    player.user = User.objects.create_user("bob", password=PASSWORD)
    player.save()

    forged = client_for(player)  # a server-side session naming the player, not logged in

    assert str(game.pk) not in forged.get(reverse("games:my_games")).text
    forged.post(reverse("games:profile"), {"display_name": "Mallory"})
    player.refresh_from_db()
    assert player.display_name == ""


def test_logging_out_is_a_post(client: Client, db: None) -> None:
    assert client.get(reverse("games:logout")).status_code == 405


def test_password_guessing_is_throttled_per_address(client: Client, db: None) -> None:
    """One address guessing many accounts (one account from many addresses:
    ``test_limits_hold``)."""
    User.objects.create_user("carol", password=PASSWORD)
    statuses = [login(client, f"nobody{attempt}", "wrong password") for attempt in range(31)]

    assert statuses[0] == 200  # the form again, with its error
    assert statuses[-1] == 429
    refused = client.post(reverse("games:login"), {"username": "carol", "password": PASSWORD})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "try again" in refused.text


def test_pages_made_for_one_visitor_are_private_to_shared_caches(client: Client, db: None) -> None:
    """A page read from the session (a player's games, a live position, a form's token)
    said only ``Vary: Cookie``, which many CDNs and proxies ignore."""
    signup(client)
    game_url = client.get(reverse("games:play_deal", args=["citadel", 5]))["Location"]

    for url in [reverse("games:profile"), reverse("games:import"), game_url]:
        response = client.get(url)
        assert response.status_code == 200
        assert "private" in response["Cache-Control"], url
    assert "Cache-Control" not in client.get(reverse("games:health")).headers


def test_deactivating_an_account_ends_its_sessions(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    """The site reads a session's player without its account: a deactivated account's open
    session went on playing (an attacker's pass ranked its daily win 1st)."""
    owner = client_for(player)
    game = start_game()
    signup(owner)
    laptop = Client()
    assert login(laptop) == 302

    user = User.objects.get(username="alice")
    user.is_active = False
    user.save()

    powerless(owner, game)
    powerless(laptop, game)


def test_a_password_set_elsewhere_ends_the_accounts_sessions(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    """A moderator's reset in the admin (or ``changepassword``) ended no session: a copied
    cookie went on moving, hinting and ranking a daily win with htmx requests, which never
    draw the page that would check it (an attacker's pass)."""
    owner = client_for(player)
    game = start_game()
    signup(owner)
    stolen = copy_of(owner)

    user = User.objects.get(username="alice")
    user.set_password(NEW_PASSWORD)
    user.save()

    powerless(stolen, game)


def test_a_stronger_hash_of_the_same_password_ends_nothing(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    """What Django saves at a log-in when its hasher grew stronger: the same password."""
    owner = client_for(player)
    game = start_game()
    signup(owner)

    user = User.objects.get(username="alice")
    user.set_password(PASSWORD)
    user.save(update_fields=["password"])

    assert owner.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"}).status_code == 303


def test_a_session_the_admin_gives_a_new_key_still_ends_with_the_account(db: None) -> None:
    """The admin's password forms give the session that uses them a new key, which no index
    of the account's sessions knew: a copied staff cookie, rekeyed so, outlived a log-out
    everywhere, a deactivation and a password reset (an attacker's pass)."""
    User.objects.create_user("staff", password=PASSWORD, is_staff=True, is_superuser=True)
    other = User.objects.create_user("bob", password=PASSWORD)
    owner = Client()
    assert login(owner, "staff") == 302
    thief = copy_of(owner)
    form = {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}

    rekeyed = thief.post(reverse("admin:auth_user_password_change", args=[other.pk]), form)
    assert rekeyed.status_code == 302
    assert thief.cookies[settings.SESSION_COOKIE_NAME].value != (
        owner.cookies[settings.SESSION_COOKIE_NAME].value
    )

    laptop = Client()  # the owner, logged in elsewhere, logs out: every session ends
    assert login(laptop, "staff") == 302
    laptop.post(reverse("games:logout"))

    assert thief.get(reverse("admin:index")).status_code == 302  # to the admin's log-in


def test_deleting_an_account_ends_its_sessions(
    client_for: Callable[..., Client], player: Player, start_game
) -> None:
    owner = client_for(player)
    game = start_game()
    signup(owner)
    stolen = copy_of(owner)

    User.objects.get(username="alice").delete()

    assert "alice" not in stolen.get(reverse("games:profile")).text
    assert str(game.pk) not in stolen.get(reverse("games:my_games")).text


def logged_in_sessions(user: User, count: int) -> list[str]:
    """``count`` sessions logged in to ``user``, indexed as log-ins leave them (an
    attacker's pass wrote 20,000 so, the rows 20,000 log-ins without a cookie leave)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    data = store().encode(
        {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )
    keys = [get_random_string(32, VALID_KEY_CHARS) for _ in range(count)]
    expiry = timezone.now() + timedelta(days=400)
    Session.objects.bulk_create(Session(k, data, expiry) for k in keys)
    AccountSession.objects.bulk_create(AccountSession(user=user, session_key=k) for k in keys)
    return keys


def logged_in(key: str) -> bool:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return "alice" in client.get(reverse("games:profile")).text


def test_an_account_keeps_its_latest_sessions_only(
    client_for: Callable[..., Client], player: Player
) -> None:
    """Each log-in without a cookie left one more session, for 400 days, without end."""
    signup(client_for(player))
    user = User.objects.get(username="alice")
    old = logged_in_sessions(user, MAX_ACCOUNT_SESSIONS)
    AccountSession.objects.filter(session_key=old[0]).update(
        created_at=datetime(2026, 1, 1, tzinfo=UTC)
    )

    laptop = Client()
    assert login(laptop) == 302

    assert AccountSession.objects.filter(user=user).count() == MAX_ACCOUNT_SESSIONS
    assert not logged_in(old[0]) and not Session.objects.filter(session_key=old[0]).exists()
    assert logged_in(old[1])
    assert "alice" in laptop.get(reverse("games:profile")).text


def test_many_sessions_end_in_a_few_queries(
    client_for: Callable[..., Client],
    player: Player,
    django_assert_max_num_queries: Callable[[int], AbstractContextManager[object]],
) -> None:
    """Logging out everywhere, a password change and a deactivation ended an account's
    sessions one by one: past about 7,000 they ran into the server's 30 s timeout, and the
    password change's 500 came after its new password was saved, a copied cookie still
    playing (an attacker's pass)."""
    owner = client_for(player)
    signup(owner)
    user = User.objects.get(username="alice")
    keys = logged_in_sessions(user, 2_000)

    with django_assert_max_num_queries(40):
        owner.post(reverse("games:logout"))

    assert not Session.objects.filter(session_key__in=keys).exists()
    assert not AccountSession.objects.filter(user=user).exists()
    assert not logged_in(keys[-1])


def test_a_game_page_is_never_stored(owner_client: Client, game: Game) -> None:
    """Back after a reload showed the browser's stored copy of the game page, moves behind
    the game (a player's pass): a live position is fetched afresh every time."""
    response = owner_client.get(game.get_absolute_url())

    assert response.status_code == 200
    assert {"private", "no-store"} <= set(response["Cache-Control"].replace(" ", "").split(","))


def test_a_log_in_looks_up_only_the_accounts_own_sessions(
    client_for: Callable[..., Client], player: Player
) -> None:
    """A log-in forgot the account's expired sessions with a NOT IN over every live session
    of the site: 3 s of CPU a log-in at 500,000 sessions, SQLite's write lock held meanwhile
    (an attacker's pass saw another player's move wait 9.5 s)."""
    signup(client_for(player))
    user = User.objects.get(username="alice")
    keys = logged_in_sessions(user, 3)
    Session.objects.filter(session_key=keys[0]).update(expire_date=timezone.now())

    with CaptureQueriesContext(connection) as queries:
        assert login(Client()) == 302

    # Each look at the sessions' table names the keys it looks for.
    looks = [m for q in queries for m in re.findall(r'FROM "django_session"(.*?WHERE.*)', q["sql"])]
    assert looks and all("session_key" in where.split(")")[0] for where in looks), looks
    assert not AccountSession.objects.filter(session_key=keys[0]).exists()  # expired: gone
    assert AccountSession.objects.filter(user=user).count() == 4  # signup's, 2, the new one
