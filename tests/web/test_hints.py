from django.test import Client
from django.urls import reverse

from games.models import Game

HX = {"HX-Request": "true"}


def test_hint_highlights_the_next_move_of_a_winning_line_and_counts(
    owner_client: Client, start_game
) -> None:
    game = start_game("beleaguered-castle", 2)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert response.status_code == 200
    assert "Hint: " in response.text and "moves to win" in response.text
    assert 'class="card h hint-from" aria-label="Ten of hearts, top of right pile 3, hinted' in (
        response.text
    )
    assert 'class="pile right t hint-to n6" data-pile="t8"' in response.text
    assert (
        "selecting" not in response.text
        and "Ten of hearts from right pile 3 to right pile 4" in (response.text)
    )
    game.refresh_from_db()
    assert game.hints == 1 and game.ply == 0


def test_without_javascript_the_hinted_card_comes_selected(
    owner_client: Client, start_game
) -> None:
    game = start_game("beleaguered-castle", 2)

    response = owner_client.post(reverse("games:hint", args=[game.pk]))

    assert "selecting" in response.text and 'value="t7-t8"' in response.text
    assert "hint-to" in response.text


def test_hint_says_when_the_position_can_no_longer_be_won(owner_client: Client, start_game) -> None:
    game = start_game("beleaguered-castle", 1)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert "can no longer be won" in response.text


def test_hints_are_for_the_owner_only(other_client: Client, game: Game) -> None:
    response = other_client.post(reverse("games:hint", args=[game.pk]))

    assert response.status_code == 403
    game.refresh_from_db()
    assert game.hints == 0


def test_analyse_finds_where_the_game_was_lost(owner_client: Client, game: Game) -> None:
    response = owner_client.get(reverse("games:analyse", args=[game.pk]))

    assert response.status_code == 200
    assert "could not be won from the start" in response.text


def test_only_the_owner_may_analyse(other_client: Client, game: Game) -> None:
    assert other_client.get(reverse("games:analyse", args=[game.pk])).status_code == 403
