import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import DealVerdict, Game, Player
from games.services import game_board

from .browsers import FROM_THIS_SITE

HX = {"HX-Request": "true"}


def move_url(game: Game) -> str:
    return reverse("games:move", args=[game.pk])


def test_htmx_move_returns_the_piles_it_touched_counter_controls_and_status(
    owner_client: Client, game: Game, stored_moves
) -> None:
    response = owner_client.post(move_url(game), {"move": "t3-t6", "ply": "0"}, headers=HX)

    assert response.status_code == 200
    body = response.content.decode()
    ids = re.findall(r'<[a-z]+ id="([\w-]+)"', body)
    assert ids == ["pile-t3", "pile-t6", "move-count", "clock", "actions", "status", "play"]
    assert 'id="board"' not in body
    assert stored_moves(game) == [(1, "t3-t6", False, False)]


def test_plain_form_move_redirects_to_the_game_page(
    owner_client: Client, game: Game, stored_moves
) -> None:
    response = owner_client.post(move_url(game), {"move": "t3-t6", "ply": "0"})

    assert response.status_code == 303
    assert response["Location"] == game.get_absolute_url()
    assert stored_moves(game) == [(1, "t3-t6", False, False)]


@pytest.mark.parametrize("htmx", [True, False])
def test_illegal_move_is_explained_with_422_and_changes_nothing(
    owner_client: Client, game: Game, htmx: bool, stored_moves
) -> None:
    response = owner_client.post(
        move_url(game), {"move": "t6-t2", "ply": "0", "select": "t6"}, headers=HX if htmx else {}
    )

    assert response.status_code == 422
    assert "A 9 can only go on a 10, not on 3♦" in shown(response.content.decode())
    assert stored_moves(game) == []
    game.refresh_from_db()
    assert game.ply == 0
    if htmx:
        assert response["HX-Retarget"] == "#status"
    else:
        assert re.search(
            r'class="[^"]*\bselected\b[^"]*" data-pile="t6"', response.content.decode()
        )


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("t7-f1", "Only clubs go to the clubs foundation, not 2♥"),
        ("t1-f", "No foundation takes 6♣"),
    ],
)
def test_a_refusal_names_piles_as_the_board_does(
    owner_client: Client, game: Game, move: str, reason: str
) -> None:
    """The engine says ``f1`` (the notation); the player reads the board's words."""
    response = owner_client.post(move_url(game), {"move": move, "ply": "0"}, headers=HX)

    assert response.status_code == 422
    message = re.search(r'<p class="message">(.*?)</p>', response.content.decode())
    assert message is not None
    assert shown(message.group(1)) == reason


def test_a_foundations_first_card_is_named_without_the_choosers_word(db: None) -> None:
    """ "Only a card of the base rank ace can start a foundation" (Ten by One): the base rank
    is a choice in Chessboard and Selective Castle, jargon in the games whose foundations
    always start from an ace (a player's pass)."""
    client = Client(headers=FROM_THIS_SITE)
    response = client.get(reverse("games:play_deal", args=["ten-by-one", 5]) + "?autoplay=0")
    game = Game.objects.get(pk=response["Location"].rstrip("/").rsplit("/", 1)[-1])

    response = client.post(move_url(game), {"move": "t1-f1", "ply": "0"}, headers=HX)

    assert response.status_code == 422
    message = re.search(r'<p class="message">(.*?)</p>', response.content.decode())
    assert message is not None
    assert shown(message.group(1)) == "Only an ace can start the clubs foundation"


def test_a_malformed_moves_help_is_said_as_written(owner_client: Client, game: Game) -> None:
    """The help names the notation's piles (``t1``, ``f2``): renamed as the board's, it read
    "write FROM-TO with piles left pile 1, the diamonds foundation, … r:7♥seven of
    hearts-the hearts foundation" (an attacker's pass)."""
    response = owner_client.post(move_url(game), {"move": "t1-t2x-1", "ply": "0"}, headers=HX)

    assert response.status_code == 422
    message = re.search(r'<p class="message">(.*?)</p>', response.content.decode())
    assert message is not None
    assert "write FROM-TO with piles t1, f2, r3, c1" in shown(message.group(1))
    assert "foundation" not in message.group(1) and "pile 1" not in message.group(1)


def shown(html: str) -> str:
    """What the eye reads of ``html``: its text, less what only a screen reader hears (a
    card's name beside its symbols: the ``for_people`` filter)."""
    return re.sub(r"<[^>]+>", "", re.sub(r'<span class="visually-hidden">[^<]*</span>', "", html))


@pytest.mark.parametrize(
    "data",
    [
        {"move": "zz", "ply": "0"},
        {"move": "t99-t1", "ply": "0"},
        {"move": "x-r99.", "ply": "0"},  # its refusal quotes it: r99 named no pile (a 500)
        {"move": "x-f9.", "ply": "0"},
        {"move": "t3-r1", "ply": "0"},
        {"move": "r:7H-f3", "ply": "0"},
        {"move": "", "ply": "0"},
        {"ply": "0"},
        {"move": "t3-t6", "ply": "-1"},
        {"move": "t3-t6", "ply": "abc"},
        {"move": "t3-t6", "ply": str(10**30)},
        {"move": "x" * 5000, "ply": "0"},
    ],
)
def test_bad_move_input_gets_4xx_and_changes_nothing(
    owner_client: Client, game: Game, data: dict[str, str], stored_moves
) -> None:
    response = owner_client.post(move_url(game), data, headers=HX)

    assert 400 <= response.status_code < 500
    assert stored_moves(game) == []


@pytest.mark.parametrize("htmx", [True, False])
def test_stale_ply_gets_409_and_the_current_board(
    owner_client: Client, game: Game, htmx: bool, stored_moves
) -> None:
    owner_client.post(move_url(game), {"move": "t3-t6", "ply": "0"})

    response = owner_client.post(
        move_url(game), {"move": "t7-f3", "ply": "0"}, headers=HX if htmx else {}
    )

    assert response.status_code == 409
    assert "moved on in another tab" in response.content.decode()
    # The page's ply (the script copies it into the controls' form), or the form's own.
    assert re.search(r'data-ply="1"|name="ply" value="1"', response.content.decode())
    assert stored_moves(game) == [(1, "t3-t6", False, False)]


def test_a_refusals_page_keeps_the_deals_badge(owner_client: Client, game: Game, now) -> None:
    """Without JavaScript a refusal (here a stale move, as from a replay's old "Go back to
    this move") draws the whole game page: its verdict badge was missing (a player's pass)."""
    DealVerdict.objects.create(
        slug=game.slug, deal=game.deal, verdict=DealVerdict.Verdict.UNWINNABLE, requested_at=now
    )
    owner_client.post(move_url(game), {"move": "t3-t6", "ply": "0"})

    refused = owner_client.post(move_url(game), {"move": "t7-f3", "ply": "0"})

    assert refused.status_code == 409
    assert '<p id="verdict" class="verdict unwinnable">' in refused.text


def test_a_double_click_stores_the_move_once(
    owner_client: Client, game: Game, stored_moves
) -> None:
    first = owner_client.post(move_url(game), {"move": "t3-t6", "ply": "0"}, headers=HX)
    second = owner_client.post(move_url(game), {"move": "t3-t6", "ply": "0"}, headers=HX)

    assert (first.status_code, second.status_code) == (200, 409)
    assert stored_moves(game) == [(1, "t3-t6", False, False)]


def test_move_without_ply_is_played_on_the_current_position(
    owner_client: Client, game: Game, stored_moves
) -> None:
    response = owner_client.post(move_url(game), {"move": "t7-f"})

    assert response.status_code == 303
    assert stored_moves(game) == [(1, "t7-f3", False, False)]


def test_someone_elses_game_answers_403_and_changes_nothing(
    other_client: Client, game: Game, stored_moves
) -> None:
    for htmx in (True, False):
        response = other_client.post(
            move_url(game), {"move": "t3-t6", "ply": "0"}, headers=HX if htmx else {}
        )
        assert response.status_code == 403
    assert stored_moves(game) == []


def test_missing_csrf_token_is_refused(
    player: Player, game: Game, client_for, stored_moves
) -> None:
    client = client_for(player, enforce_csrf_checks=True)

    response = client.post(move_url(game), {"move": "t3-t6", "ply": "0"})
    scripted = client.post(move_url(game), {"move": "t3-t6", "ply": "0"}, headers=HX)

    assert response.status_code == 403
    # In the site's words and styles, not Django's page (whose inline style the CSP blocks).
    assert "reload the page and try again" in response.text
    assert "<style" not in response.text
    assert scripted.status_code == 403 and scripted["HX-Retarget"] == "#status"
    assert "reload the page and try again" in scripted.text
    assert "data-panel-kept" in scripted.text  # nothing changed: a stuck panel stays
    assert stored_moves(game) == []


def test_unknown_game_id_is_404(owner_client: Client, db: None) -> None:
    url = reverse("games:move", args=["00000000-0000-0000-0000-000000000000"])

    assert owner_client.post(url, {"move": "t3-t6"}).status_code == 404
    assert owner_client.post("/games/not-a-uuid/moves", {"move": "t3-t6"}).status_code == 404


def test_get_on_the_move_endpoint_is_405(owner_client: Client, game: Game) -> None:
    assert owner_client.get(move_url(game)).status_code == 405


def test_autoplay_sends_safe_cards_up_and_records_them(
    owner_client: Client, start_game, player: Player, stored_moves
) -> None:
    game = start_game("beleaguered-castle", 1, autoplay=True)
    assert stored_moves(game) == [(1, "t7-f3", True, False)]

    owner_client.post(move_url(game), {"move": "t3-t6", "ply": "1"})

    game.refresh_from_db()
    assert game.ply == game_board(game).ply == len(stored_moves(game))


def test_htmx_moves_carry_the_pages_csrf_header_and_every_form_keeps_its_token(
    player: Player, game: Game, client_for, stored_moves
) -> None:
    """The board script sends the X-CSRFToken header that base.html sets on <body>; every
    form it swaps in still carries its token, so no post of one can fail CSRF (403)."""
    client = client_for(player, enforce_csrf_checks=True)
    page = client.get(game.get_absolute_url()).content.decode()
    header = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page)
    assert header and 'name="csrfmiddlewaretoken"' in page

    response = client.post(
        move_url(game), {"move": "t3-t6", "ply": "0"}, headers={**HX, "X-CSRFToken": header[1]}
    )

    assert response.status_code == 200
    # The control buttons are swapped inside the page's form, which keeps its token.
    assert 'id="actions"' in response.content.decode() and "<form" not in response.content.decode()
    assert stored_moves(game) == [(1, "t3-t6", False, False)]
    selecting = client.get(game.get_absolute_url(), {"select": "t7"}, headers=HX)
    assert 'name="csrfmiddlewaretoken"' in selecting.content.decode()  # the move form
