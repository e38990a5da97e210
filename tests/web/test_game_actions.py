import random
import subprocess
import sys

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from games.rules import Board

HX = {"HX-Request": "true"}


def act(client: Client, game: Game, action: str, ply: int | None = None, **headers: str):
    data = {} if ply is None else {"ply": str(ply)}
    return client.post(reverse(f"games:{action}", args=[game.pk]), data, headers=headers)


def play(client: Client, game: Game, move: str):
    return client.post(reverse("games:move", args=[game.pk]), {"move": move})


def test_undo_takes_back_the_player_move_with_its_autoplay(
    owner_client: Client, start_game, stored_moves
) -> None:
    game = start_game("beleaguered-castle", 1, autoplay=True)
    play(owner_client, game, "t3-t6")
    game.refresh_from_db()
    line = [m for m in stored_moves(game) if not m[3]]
    assert line[1] == (2, "t3-t6", False, False)

    response = act(owner_client, game, "undo", game.ply, **HX)

    assert response.status_code == 200
    game.refresh_from_db()
    assert game.ply == 1 and game.undos == 1
    assert [m[1] for m in stored_moves(game) if not m[3]] == ["t7-f3"]
    assert game.position == services.game_board(game).layout()


def test_undo_counts_every_move_it_takes_back(owner_client: Client, start_game) -> None:
    """RULES.md: every move taken back counts one undo, as a restart counts them; an undo
    that took back a move and the card auto-play sent up after it counted one."""
    game = start_game("beleaguered-castle", 4, autoplay=True)
    play(owner_client, game, "t3-t7")  # auto-play then sends 3 of t3's suit up (t3-f3)
    game.refresh_from_db()
    assert game.ply == 3

    act(owner_client, game, "undo", 3, **HX)

    game.refresh_from_db()
    assert (game.ply, game.undos) == (1, 2)


def test_without_javascript_the_status_says_what_a_move_did(
    owner_client: Client, start_game
) -> None:
    """The board script's live region reads each move's sentence; a plain form's post is
    redirected to the page, whose status line said nothing."""
    game = start_game("beleaguered-castle", 4, autoplay=True)

    moved = owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t7", "ply": 1})
    assert moved.status_code == 303
    page = owner_client.get(moved["Location"]).text

    status = page[page.index('<div id="status"') :]
    status = status[: status.index("</div>")]
    assert '<p class="message">' in status and "Auto-play:" in status
    assert 'class="deal-note"' not in page
    again = owner_client.get(game.get_absolute_url()).text  # said once
    assert "Auto-play:" not in again


def test_unread_status_notes_never_pile_up(owner_client: Client, start_game) -> None:
    """A script posting plain forms without following the redirects piled a note a request
    into its session: 10,000 of them made each request take 195 ms."""
    game = start_game("beleaguered-castle", 4, autoplay=True)
    moves = reverse("games:move", args=[game.pk])
    for _ in range(10):
        assert owner_client.post(moves, {"move": "t3-t7", "ply": 1}).status_code == 303
        undo = owner_client.post(reverse("games:undo", args=[game.pk]), {"ply": 3})
        assert undo.status_code == 303

    page = owner_client.get(game.get_absolute_url()).text

    assert page.count('<p class="message">') == 1  # the last action's only


def test_the_opening_autoplay_cannot_be_undone(owner_client: Client, start_game) -> None:
    game = start_game("beleaguered-castle", 1, autoplay=True)

    response = act(owner_client, game, "undo", 1, **HX)

    assert response.status_code == 422
    assert "no move to undo" in response.content.decode()


def test_redo_plays_the_undone_move_again(owner_client: Client, game: Game, stored_moves) -> None:
    play(owner_client, game, "t3-t6")
    act(owner_client, game, "undo", 1)

    response = act(owner_client, game, "redo", 0)

    assert response.status_code == 303
    game.refresh_from_db()
    assert game.ply == 1
    assert stored_moves(game) == [(1, "t3-t6", False, False)]


def test_a_new_move_after_undo_replaces_the_redo_line(
    owner_client: Client, game: Game, stored_moves
) -> None:
    play(owner_client, game, "t3-t6")
    act(owner_client, game, "undo", 1)

    play(owner_client, game, "t7-f3")

    assert stored_moves(game) == [(1, "t7-f3", False, False)]
    assert act(owner_client, game, "redo", 1, **HX).status_code == 422


def test_restart_goes_back_to_the_deal_and_one_undo_returns(
    owner_client: Client, game: Game
) -> None:
    for _ in range(3):
        game.refresh_from_db()
        move = services.game_board(game).legal_moves()[0]
        assert play(owner_client, game, move.notation()).status_code == 303
    game.refresh_from_db()
    before = game.position

    assert act(owner_client, game, "restart", 3).status_code == 303
    game.refresh_from_db()
    assert game.ply == 0 and game.position == Board("beleaguered-castle", 1).layout()

    assert act(owner_client, game, "undo", 0).status_code == 303
    game.refresh_from_db()
    assert game.ply == 3 and game.position == before
    # RULES.md: each move taken back counts one undo; the Undo of a restart takes back none.
    assert game.undos == 3


@pytest.mark.parametrize("moves", [1, 3])
def test_an_undone_restart_says_so(owner_client: Client, game: Game, moves: int) -> None:
    """Undo after a restart said the move it played again ("Eight of hearts to free cell
    1."), as if a new move, beside "Undos 1" (a player's pass)."""
    for _ in range(moves):
        game.refresh_from_db()
        move = services.game_board(game).legal_moves()[0]
        assert play(owner_client, game, move.notation()).status_code == 303
    assert act(owner_client, game, "restart", moves, **HX).status_code == 200

    answer = act(owner_client, game, "undo", 0, **HX)

    assert answer.status_code == 200
    assert f"Restart taken back: back at move {moves}." in answer.text


def test_a_restart_to_an_opening_auto_play_played_says_what_the_counter_holds(
    owner_client: Client, start_game
) -> None:
    """Restart said "Back to the opening deal" beside "Moves 1": the opening's auto-play
    counted again, and nothing said so (a player's pass)."""
    game = start_game(autoplay=True)  # the opening plays t7-f3
    assert play(owner_client, game, "t3-t6").status_code == 303

    answer = act(owner_client, game, "restart", 2, **HX)

    game.refresh_from_db()
    assert game.ply == 1
    said = "Back to the opening deal: the card auto-play sent up counts as a move."
    assert said in answer.text
    assert len(said) <= 72  # a phone's two lines of status (a player's pass)


def test_play_on_from_a_move_of_the_replay(owner_client: Client, game: Game, other_client) -> None:
    """Analyse links the replay of the last winnable position, which offered only "Resume
    playing", the lost position: a player counted Undos to get back there (a player's pass).
    "Go back to this move" takes the game back to the move shown, each move an undo."""
    positions = [game.position]
    for _ in range(4):
        game.refresh_from_db()
        move = services.game_board(game).legal_moves()[0]
        assert play(owner_client, game, move.notation()).status_code == 303
        game.refresh_from_db()
        positions.append(game.position)
    replay = reverse("games:replay", args=[game.pk])
    assert "Go back to this move" in owner_client.get(replay, {"ply": 2}).text
    assert "Go back to this move" not in owner_client.get(replay, {"ply": 4}).text
    assert "Go back to this move" not in other_client.get(replay, {"ply": 2}).text

    answer = owner_client.post(reverse("games:restart", args=[game.pk]), {"ply": 4, "to": 2})

    assert answer.status_code == 303
    game.refresh_from_db()
    assert (game.ply, game.position, game.undos) == (2, positions[2], 2)
    assert "Back to move 2." in owner_client.get(answer["Location"]).text
    assert act(owner_client, game, "undo", 2).status_code == 303  # one undo brings it back
    game.refresh_from_db()
    assert (game.ply, game.position) == (4, positions[4])


@pytest.mark.parametrize("to", ["4", "9", "-1", "x"])
def test_play_on_from_a_move_the_game_has_not_passed_is_refused(
    owner_client: Client, game: Game, to: str
) -> None:
    for _ in range(4):
        game.refresh_from_db()
        move = services.game_board(game).legal_moves()[0]
        assert play(owner_client, game, move.notation()).status_code == 303

    answer = owner_client.post(reverse("games:restart", args=[game.pk]), {"ply": 4, "to": to})

    assert answer.status_code in (400, 422)
    game.refresh_from_db()
    assert game.ply == 4 and game.undos == 0


@pytest.mark.parametrize("action", ["undo", "redo", "restart", "autoplay"])
def test_actions_on_someone_elses_game_are_403(
    other_client: Client, game: Game, action: str
) -> None:
    assert act(other_client, game, action, 0).status_code == 403


@pytest.mark.parametrize("action", ["undo", "redo", "restart", "autoplay", "hint"])
def test_stale_actions_are_409(owner_client: Client, game: Game, action: str) -> None:
    """A Hint or the auto-play switch from a tab behind the game answered for the game as
    it stood, over the tab's old piles: a card picked up there was not the card the server
    moved (a player's pass). Like a move, each now gets the board as it is."""
    play(owner_client, game, "t3-t6")
    game.refresh_from_db()
    before = (game.ply, game.hints, game.autoplay, game.version)

    stale = act(owner_client, game, action, 0, **HX)

    assert stale.status_code == 409 and "moved on in another tab" in stale.text
    assert 'id="pile-t6"' in stale.text  # the board as it stands
    game.refresh_from_db()
    assert (game.ply, game.hints, game.autoplay, game.version) == before


def test_switching_autoplay_on_plays_safe_moves_and_saves_the_preference(
    owner_client: Client, game: Game, player
) -> None:
    response = owner_client.post(reverse("games:autoplay", args=[game.pk]), {"autoplay": "1"})

    assert response.status_code == 303
    game.refresh_from_db()
    player.refresh_from_db()
    assert game.autoplay and player.autoplay
    assert list(game.played_moves.values_list("notation", "auto")) == [("t7-f3", True)]


def test_record_is_plain_text_that_the_command_line_accepts(
    owner_client: Client, game: Game
) -> None:
    for move in ("t3-t6", "t7-f3"):
        play(owner_client, game, move)

    response = owner_client.get(reverse("games:record", args=[game.pk]))

    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode() == "game: beleaguered-castle\ndeal: 1\nt3-t6 t7-f3\n"
    checked = subprocess.run(
        [sys.executable, "-m", "games.rules", "check", "beleaguered-castle", "1"],
        input=response.content.decode(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.stdout == "not won: 2 moves, 5 cards on foundations\n"


@pytest.mark.parametrize("slug", ["citadel", "fortress", "chessboard", "archway"])
def test_cached_position_always_equals_the_replay_of_the_moves(
    slug: str, player, now, owner_client: Client
) -> None:
    rng = random.Random(slug)
    game = services.game_start(player=player, slug=slug, deal=7, autoplay=True, now=now)
    for _ in range(40):
        game.refresh_from_db()
        board = services.game_board(game)
        roll = rng.random()
        if roll < 0.15 and game.ply:
            act(owner_client, game, "undo", game.ply)
        elif roll < 0.25:
            act(owner_client, game, "redo", game.ply)
        elif moves := board.legal_moves():
            play(owner_client, game, rng.choice(moves).notation())
        game.refresh_from_db()
        replay = services.game_board(game, checked=True)  # from the rows, through the rules
        assert services.game_board(game).layout() == replay.layout()  # the board cache
        assert game.position == replay.layout()
        assert game.ply == replay.ply == game.played_moves.filter(undone=False).count()
        plies = list(game.played_moves.filter(undone=False).values_list("ply", flat=True))
        assert plies == list(range(1, game.ply + 1))
