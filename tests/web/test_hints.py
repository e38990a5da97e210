import os
import re
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import pools, services, solver_jobs
from games.models import Analysis, Daily, DealVerdict, Game, Player
from games.presentation import analysis_message, hint_message
from games.rules import Board, Move, solver
from games.rules.solver import Hint
from tests.web.test_board_partials import keeps_the_panel

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
    assert 'id="pile-t8" class="pile right t hint-to n6"' in response.text
    assert (
        "selecting" not in response.text
        and "Ten of hearts from right pile 3 to right pile 4" in (response.text)
    )
    game.refresh_from_db()
    assert game.hints == 1 and game.ply == 0


@pytest.mark.parametrize("remaining,words", [(1, "(1 move to win)"), (2, "(2 moves to win)")])
def test_the_hint_counts_the_moves_left_in_words(remaining: int, words: str) -> None:
    """The last move's hint read "(1 moves to win)" (a player's pass)."""
    board = Board("beleaguered-castle", 1)
    move = board.legal_moves()[0]

    message, bad = hint_message(board, Hint(solver.SOLVED, move=move, remaining=remaining))

    assert message.endswith(f" {words}.") and not bad


def test_a_solved_hint_settles_a_pending_verdict_of_the_deal(
    owner_client: Client, start_game, now
) -> None:
    """A player's pass: "Checking whether this deal can be won…" stood beside a hint's
    "(109 moves to win)", the worker not having come to the deal. The hint's line, after
    the game's moves, proves the deal winnable, and the hint's answer says so."""
    game = start_game("beleaguered-castle", 2)
    services.game_play_move(
        game_id=game.pk, player_id=game.owner_id, move="t7-t8", expected_ply=0, now=now
    )
    DealVerdict.objects.create(slug=game.slug, deal=game.deal, requested_at=now)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    verdict = DealVerdict.objects.get()
    assert verdict.verdict == DealVerdict.Verdict.WINNABLE and verdict.hinted
    assert verdict.line[0] == "t7-t8" and verdict.moves == len(verdict.line)
    board = Board(game.slug, game.deal)
    for move in verdict.line:
        board.play(move)
    assert board.is_won()
    assert 'id="verdict" class="verdict winnable"' in response.text
    # Every game of the deal shows the badge: it names no game's moves.
    assert "<b>Winnable</b>: proved by a hint." in response.text

    # It guides no other game's hints: it begins with this player's moves, any detour too.
    other = Player.objects.create()
    theirs = services.game_start(player=other, slug=game.slug, deal=game.deal, now=now)
    *_, searched_for_them = services.game_hint(game_id=theirs.pk, player_id=other.pk, now=now)
    assert searched_for_them

    assert pools.decide_deal.call(slug=game.slug, deal=game.deal) == "winnable"
    searched = DealVerdict.objects.get()  # the worker's own search replaces the hint's proof
    assert searched.nodes > 0 and searched.difficulty and not searched.hinted


def test_a_hint_proving_the_opening_lost_settles_a_pending_verdict(
    owner_client: Client, start_game, now, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player's pass: "This deal cannot be won, whatever the moves" stood beside
    "Checking whether this deal can be won…" for 12 minutes."""
    monkeypatch.setattr(
        solver, "hint_and_line", lambda board, seconds=1.0: (Hint("unsolvable"), [])
    )
    game = start_game("beleaguered-castle", 2)
    DealVerdict.objects.create(slug=game.slug, deal=game.deal, requested_at=now)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert DealVerdict.objects.get().verdict == DealVerdict.Verdict.UNWINNABLE
    assert 'id="verdict" class="verdict unwinnable"' in response.text


def test_without_javascript_the_hinted_card_comes_selected(
    owner_client: Client, start_game
) -> None:
    """After a redirect: the page stayed at /hint, where a reload sent the form again (and
    counted another hint), and a link to it was a bare 405."""
    game = start_game("beleaguered-castle", 2)

    response = owner_client.post(reverse("games:hint", args=[game.pk]))

    assert response.status_code == 303
    assert response["Location"] == game.get_absolute_url() + "?hint=t7-t8"
    page = owner_client.get(response["Location"]).text
    assert "selecting" in page and 'value="t7-t8"' in page and "hint-to" in page
    assert "Hint: " in page and "moves to win" in page
    again = owner_client.get(response["Location"]).text  # a reload: the hint, not counted
    assert "hint-to" in again and "moves to win" not in again
    game.refresh_from_db()
    assert game.hints == 1


@pytest.mark.parametrize("hint", ["t1-t2", "t7-t8x9", "nonsense", "t" * 40, ""])
def test_a_hint_link_naming_no_legal_move_marks_nothing(
    owner_client: Client, start_game, hint: str
) -> None:
    game = start_game("beleaguered-castle", 2)
    page = owner_client.get(game.get_absolute_url(), {"hint": hint})
    assert page.status_code == 200 and "hint-to" not in page.text


def test_without_javascript_bad_news_comes_as_a_warning(owner_client: Client, start_game) -> None:
    game = start_game("beleaguered-castle", 1)
    owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"}, headers=HX)

    page = owner_client.post(reverse("games:hint", args=[game.pk]), follow=True).text

    assert '<p class="message error">This position can no longer be won' in page


def test_hint_says_when_the_position_can_no_longer_be_won(owner_client: Client, start_game) -> None:
    game = start_game("beleaguered-castle", 1)
    owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"}, headers=HX)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert "This position can no longer be won: undo or restart." in response.text
    game.refresh_from_db()
    assert game.hints == 1 and game.ply == 1


@pytest.mark.parametrize("autoplay", [False, True])
def test_a_hint_at_the_start_of_a_lost_deal_says_the_deal_is_lost(
    owner_client: Client, start_game, autoplay: bool
) -> None:
    """Where nothing can be taken back (the deal's opening: its safe auto-play loses
    nothing), a lost position is a lost deal: Undo and Restart cannot help."""
    game = start_game("beleaguered-castle", 1, autoplay=autoplay)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert "This deal cannot be won, whatever the moves: start a new game." in response.text
    assert "undo or restart" not in response.text
    game.refresh_from_db()
    assert game.hints == 1


@pytest.mark.parametrize("back", ["undo", "restart"])
def test_back_at_the_start_a_lost_hint_says_the_deal_is_lost(
    owner_client: Client, start_game, back: str
) -> None:
    """After a restart, Undo would take the restart back: to a position that is lost too."""
    game = start_game("beleaguered-castle", 1)
    owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"}, headers=HX)
    owner_client.post(reverse(f"games:{back}", args=[game.pk]), headers=HX)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert "This deal cannot be won, whatever the moves: start a new game." in response.text


def test_hints_are_for_the_owner_only(other_client: Client, game: Game) -> None:
    response = other_client.post(reverse("games:hint", args=[game.pk]))

    assert response.status_code == 403
    game.refresh_from_db()
    assert game.hints == 0


def test_analyse_finds_where_the_game_was_lost(owner_client: Client, game: Game, run_tasks) -> None:
    owner_client.post(reverse("games:analyse", args=[game.pk]))
    run_tasks()
    response = owner_client.get(reverse("games:analysis", args=[game.pk]))

    assert response.status_code == 200
    assert "could not be won from the start" in response.text


def test_analyse_is_a_post_a_get_changes_nothing(owner_client: Client, run_tasks) -> None:
    """Analyse queues the worker's search and, on a daily game, counts a hint: as a link (a
    GET), a page of another site could make a player's browser ask for it."""
    url = owner_client.get("/play/fortress/26/")["Location"]  # no legal move from the start
    game = Game.objects.get(pk=url.split("/")[2])
    analyse = reverse("games:analyse", args=[game.pk])

    assert owner_client.get(analyse).status_code == 405
    analyses = DBTaskResult.objects.filter(task_path=solver_jobs.analyse_line.module_path)
    assert not Analysis.objects.exists() and not analyses.exists()
    page = owner_client.get(url).text
    assert '<form class="analyse" method="post" action="analyse">' in page
    assert 'name="csrfmiddlewaretoken"' in page.split('class="analyse"')[1].split("</form>")[0]

    answer = owner_client.post(analyse)  # the form without the board script
    assert answer.status_code == 303
    assert answer["Location"] == reverse("games:analysis", args=[game.pk])
    assert Analysis.objects.count() == analyses.count() == 1


def test_only_the_owner_may_analyse(other_client: Client, game: Game) -> None:
    assert other_client.post(reverse("games:analyse", args=[game.pk])).status_code == 403


# -- solver work: cached, capped, in the background ---------------------------------------


@pytest.fixture
def solver_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every solver run a hint or an analysis starts (the real solver still answers)."""
    calls: list[str] = []
    real_hint, real_first = solver.hint_and_line, solver.first_losing_ply

    def hint(board, seconds=1.0):
        calls.append("hint")
        return real_hint(board, seconds=seconds)

    def first_losing_ply(*args, **kwargs):
        calls.append("analyse")
        return real_first(*args, **kwargs)

    monkeypatch.setattr(solver, "hint_and_line", hint)
    monkeypatch.setattr(solver, "first_losing_ply", first_losing_ply)
    return calls


def test_the_same_position_gets_the_same_hint_from_one_solver_run(
    client_for, player: Player, now, solver_calls: list[str]
) -> None:
    other = Player.objects.create()
    games = [
        services.game_start(player=who, slug="beleaguered-castle", deal=2, autoplay=False, now=now)
        for who in (player, other, player)
    ]
    texts = [
        client_for(game.owner).post(reverse("games:hint", args=[game.pk]), headers=HX).text
        for game in games
    ]

    assert solver_calls == ["hint"]
    hints = {text[text.index("Hint: ") :].split("<", 1)[0] for text in texts}
    assert len(hints) == 1
    assert [g.hints for g in Game.objects.filter(pk__in=[g.pk for g in games])] == [1, 1, 1]


def test_a_player_gets_one_solver_job_at_a_time(
    owner_client: Client, player: Player, start_game, solver_calls: list[str]
) -> None:
    game = start_game("beleaguered-castle", 2)
    cache.add(f"solving:{player.pk}", 1)  # a hint of theirs is running in another tab

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert "still being worked out" in response.text
    # The wait changes nothing: the status keeps the panel it has (a stuck game's Analyse).
    assert keeps_the_panel(response.text)
    assert solver_calls == []
    game.refresh_from_db()
    assert game.hints == 0


def test_hints_wait_for_no_one_when_the_solver_slots_are_taken(
    owner_client: Client, start_game, settings, solver_calls: list[str]
) -> None:
    settings.WEB_CONCURRENCY = 4
    game = start_game("beleaguered-castle", 2)
    started = time.monotonic()
    with solver_jobs.solver_slot() as first, solver_jobs.solver_slot() as second:
        assert first and second  # half of 4 workers: two slots, both taken
        response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert time.monotonic() - started < 0.5
    assert response.status_code == 429
    assert "busy with other players" in response.text
    assert solver_calls == []
    assert owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX).status_code == 200


def test_the_solver_slots_are_shared_by_processes(tmp_path, settings) -> None:
    """Another process (another gunicorn worker) holding the only slot leaves none."""
    settings.WEB_CONCURRENCY = 2
    script = (
        "import fcntl, sys, time; f = open(sys.argv[1], 'a');"
        " fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)"
    )
    path = solver_jobs._lock_dir() / "slot-0.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with solver_jobs.solver_slot() as got:
            assert not got
    finally:
        holder.kill()
        holder.wait()
    with solver_jobs.solver_slot() as got:
        assert got  # a dead holder's lock is gone with it


def test_analyse_says_analysing_then_fills_in(
    owner_client: Client, game: Game, run_tasks, solver_calls: list[str]
) -> None:
    response = owner_client.post(reverse("games:analyse", args=[game.pk]), headers=HX)

    assert solver_calls == []  # nothing ran inside the request
    assert "Analysing…" in response.text
    # The game page's status, renewed in place (static/js/verdict.js), reads out what it gains.
    assert 'aria-live="polite" aria-atomic="false"' in response.text
    assert f'data-poll-url="{reverse("games:analysis", args=[game.pk])}"' in response.text
    plain = owner_client.get(reverse("games:analysis", args=[game.pk]))
    assert '<meta http-equiv="refresh"' in plain.text  # JavaScript off: the page refreshes

    run_tasks()

    assert solver_calls == ["analyse"]
    done = owner_client.get(reverse("games:analysis", args=[game.pk]), headers=HX)
    assert "could not be won from the start" in done.text
    assert "Analysing" not in done.text


@pytest.mark.parametrize("options", [False, True])
def test_an_analysis_lost_from_the_start_settles_the_deals_pending_badge(
    owner_client: Client, player: Player, run_tasks, options: bool
) -> None:
    """ "Checking whether this deal can be won…" stood beside the analysis's "This deal could
    not be won from the start" until the worker came to the deal's own verdict, after all
    other work (a player's pass). With an easing option the analysis proves nothing of the
    deal itself (Beleaguered Castle 1: lost from the start either way)."""
    game = services.game_start(
        player=player,
        slug="beleaguered-castle",
        deal=1,
        autoplay=False,
        options=["take-back"] if options else [],
        now=timezone.now(),
    )
    DealVerdict.objects.create(slug="beleaguered-castle", deal=1, requested_at=timezone.now())
    owner_client.post(reverse("games:analyse", args=[game.pk]), headers=HX)

    run_tasks()
    done = owner_client.get(reverse("games:analysis", args=[game.pk]), headers=HX).text

    assert "could not be won from the start" in done
    verdict = DealVerdict.objects.get(slug="beleaguered-castle", deal=1).verdict
    assert verdict == ("pending" if options else "unwinnable")
    assert ('id="verdict"' in done) is not options
    assert (
        "<b>Unwinnable</b>: the solver proved that no line wins this deal." in done
    ) is not options


def test_many_analyse_requests_queue_one_task(
    owner_client: Client, game: Game, run_tasks, solver_calls: list[str]
) -> None:
    for _ in range(5):
        owner_client.post(reverse("games:analyse", args=[game.pk]))

    assert DBTaskResult.objects.count() == 1
    run_tasks()
    assert solver_calls == ["analyse"]


def test_toggling_auto_play_does_not_defeat_the_analysis_cache(
    owner_client: Client, game: Game, run_tasks, solver_calls: list[str]
) -> None:
    owner_client.post(reverse("games:analyse", args=[game.pk]))
    run_tasks()
    owner_client.post(reverse("games:autoplay", args=[game.pk]), {"autoplay": "0"})
    owner_client.post(reverse("games:autoplay", args=[game.pk]), {"autoplay": "0"})

    response = owner_client.post(reverse("games:analyse", args=[game.pk]), follow=True)

    assert "could not be won from the start" in response.text
    assert solver_calls == ["analyse"]
    assert DBTaskResult.objects.count() == 1


def test_analyse_racing_an_undo_is_never_a_500(owner_client: Client, start_game, run_tasks) -> None:
    game = start_game("beleaguered-castle", 1)
    owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"})
    owner_client.post(reverse("games:analyse", args=[game.pk]))
    run_tasks()
    game.refresh_from_db()
    line = services.game_line(game)
    Analysis.objects.filter(key=solver_jobs.analysis_key(game, line)).update(ply=1)
    owner_client.post(reverse("games:undo", args=[game.pk]))
    # The poll reads the line after the undo: its own analysis, not the old line's move.
    assert owner_client.get(reverse("games:analysis", args=[game.pk])).status_code == 200
    # An answer read for a line the undo then shortens still names its own move.
    assert "move 1 (t3-t6)" in analysis_message(line, 1)


@pytest.mark.parametrize("dead", [False, True])
def test_an_analysis_out_of_time_says_no_more_than_the_board_does(dead: bool) -> None:
    """Under "No card can move" it said the game "may still be winnable"."""
    end = Board("fortress", 26)  # no legal move once the opening auto-play is done
    if dead:
        end.autoplay()
    said = analysis_message(["t3-t6"], None, end=end)

    assert ("may still be winnable" in said) is not dead
    assert "ran out of time" in said


def test_analyse_names_the_move_as_the_board_does_and_leads_to_its_replay(
    owner_client: Client, start_game, run_tasks
) -> None:
    """It said ``until move 7 (t2-t4)``: nothing on the board is called t2 or t4."""
    game = start_game("beleaguered-castle", 1)
    owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6"})
    owner_client.post(reverse("games:analyse", args=[game.pk]))
    run_tasks()
    game.refresh_from_db()
    Analysis.objects.filter(key=solver_jobs.analysis_key(game, services.game_line(game))).update(
        ply=1
    )

    answer = owner_client.get(reverse("games:analysis", args=[game.pk]), headers=HX).text

    assert "could still be won until move 1 (" in answer and "t3-t6" not in answer
    replay = reverse("games:replay", args=[game.pk])
    link = f'<a href="{replay}?ply=0">Replay from the last winnable position</a></p>'
    assert link in answer  # in the message's box: alone, it lay on the felt, over the cards
    page = owner_client.get(reverse("games:analysis", args=[game.pk])).text  # no JavaScript
    assert "Replay from the last winnable position" in page
    assert 'href="/play/beleaguered-castle/?deals=winnable"' in page  # as the stuck panel's


def test_analyse_keeps_the_stuck_panel(owner_client: Client, run_tasks) -> None:
    """The answer replaced the status, and with it "No way forward" and its New winnable
    deal: the board looked like a game still going."""
    url = owner_client.get("/play/fortress/26/")["Location"]  # no legal move from the start
    game = Game.objects.get(pk=url.split("/")[2])
    owner_client.post(reverse("games:analyse", args=[game.pk]), headers=HX)
    run_tasks()

    answer = owner_client.get(reverse("games:analysis", args=[game.pk]), headers=HX).text

    assert "This deal could not be won from the start." in answer
    assert "No way forward" in answer and "New winnable deal" in answer
    # An answer, not a refusal: it came in the red ⚠ box of a refused move.
    assert '<div id="status" class="status" ' in answer and "status error" not in answer
    # Not offered again beside its answer, which asking again would only repeat.
    assert "Analyse: where was it lost?" not in answer


def test_an_analysis_finding_the_deal_lost_changes_the_panels_advice(
    owner_client: Client, start_game, run_tasks
) -> None:
    """The answer "This deal could not be won from the start." stood above the panel's
    "Undo or restart to try another line." (a player's pass)."""
    game = start_game("beleaguered-castle", 21)
    for move in ("t8-t3", "t3-t7"):  # no way forward after these
        owner_client.post(reverse("games:move", args=[game.pk]), {"move": move})
    owner_client.post(reverse("games:analyse", args=[game.pk]), headers=HX)
    run_tasks()

    answer = owner_client.get(reverse("games:analysis", args=[game.pk]), headers=HX).text

    assert "This deal could not be won from the start." in answer
    assert "This deal cannot be won from its start: try another." in answer
    assert "Undo or restart" not in answer


def test_a_dead_workers_analysis_is_queued_again(owner_client: Client, game: Game, now) -> None:
    owner_client.post(reverse("games:analyse", args=[game.pk]))
    Analysis.objects.update(requested_at=now - timedelta(hours=1))

    owner_client.post(reverse("games:analyse", args=[game.pk]))
    owner_client.post(reverse("games:analyse", args=[game.pk]))

    assert DBTaskResult.objects.count() == 2


def test_without_javascript_an_unfinished_analysis_refreshes_less_and_less_often_then_stops(
    owner_client: Client, game: Game
) -> None:
    """No worker runs here: each refresh names the next look, further apart, until the
    player's "Check again" is all that is left."""
    owner_client.post(reverse("games:analyse", args=[game.pk]))
    url = reverse("games:analysis", args=[game.pk])
    refresh = re.compile(r'<meta http-equiv="refresh" content="(\d+); url=([^"]+)">')

    waits, page = [], owner_client.get(url)
    while found := refresh.search(page.text):
        waits.append(int(found[1]))
        page = owner_client.get(found[2])
        assert page.status_code == 200 and "Analysing…" in page.text

    assert waits == [1, 1, 2, 3, 5, 8, 13, 21, 30]
    assert "Check again" in page.text


@pytest.mark.parametrize("look", ["x", "-1", "1e3", "100", "٣"])
def test_a_look_that_is_not_a_count_is_refused(owner_client: Client, game: Game, look: str) -> None:
    owner_client.post(reverse("games:analyse", args=[game.pk]))

    page = owner_client.get(reverse("games:analysis", args=[game.pk]), {"look": look})

    assert page.status_code == 400


def test_hint_and_analyse_on_a_daily_game_both_count_as_hints(
    owner_client: Client, player: Player, now, run_tasks
) -> None:
    daily = Daily.objects.create(
        slug="beleaguered-castle", date=now.date(), deal=2, par=90, solution="-"
    )
    game = services.game_start(
        player=player, slug="beleaguered-castle", deal=2, autoplay=False, daily=daily, now=now
    )
    owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)
    owner_client.post(reverse("games:analyse", args=[game.pk]), headers=HX)
    owner_client.get(reverse("games:analysis", args=[game.pk]), headers=HX)  # polls: free
    owner_client.post(reverse("games:analyse", args=[game.pk]), headers=HX)  # same line

    game.refresh_from_db()
    assert game.hints == 2


def test_analyse_on_a_game_that_is_not_a_daily_keeps_nothing_in_the_cache(
    owner_client: Client, game: Game, run_tasks
) -> None:
    """Every Analyse kept a marker for 30 days, only a daily game's needs (its hint count):
    from one address, 60 a minute, some 435 MB in a cache that never evicts."""
    owner_client.post(reverse("games:analyse", args=[game.pk]), headers=HX)

    key = solver_jobs.analysis_key(game, services.game_line(game))
    assert Analysis.objects.filter(key=key).exists()
    assert cache.get(f"analysed:{game.pk}:{key}") is None


def test_a_player_waits_for_their_last_analysis_before_queueing_another(
    owner_client: Client, player: Player, start_game, run_tasks
) -> None:
    first, second = start_game("beleaguered-castle", 1), start_game("beleaguered-castle", 3)
    owner_client.post(reverse("games:analyse", args=[first.pk]))

    refused = owner_client.post(reverse("games:analyse", args=[second.pk]), headers=HX)

    assert refused.status_code == 429 and "still running" in refused.text
    assert DBTaskResult.objects.count() == 1
    run_tasks()
    assert owner_client.post(reverse("games:analyse", args=[second.pk])).status_code == 303
    assert DBTaskResult.objects.count() == 2


def test_a_full_analysis_queue_refuses_new_analyses(
    owner_client: Client, game: Game, now, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solver_jobs, "MAX_PENDING_ANALYSES", 3)
    for index in range(3):
        Analysis.objects.create(key=f"other-{index}", requested_at=timezone.now())

    response = owner_client.post(reverse("games:analyse", args=[game.pk]))

    assert response.status_code == 429 and "busy with other games" in response.text
    assert DBTaskResult.objects.count() == 0


def test_hints_on_new_positions_have_a_budget_cached_ones_do_not(
    owner_client: Client, start_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each new position costs up to a second of solver: 10 a minute per player."""
    monkeypatch.setattr(solver, "hint_and_line", lambda board, seconds=1.0: (Hint("unknown"), []))
    games = [start_game("beleaguered-castle", deal) for deal in range(100, 112)]
    statuses = [
        owner_client.post(reverse("games:hint", args=[g.pk]), headers=HX).status_code
        for g in games[:11]
    ]

    assert statuses == [200] * 10 + [429]
    again = owner_client.post(reverse("games:hint", args=[games[0].pk]), headers=HX)
    assert again.status_code == 200  # a position already solved costs nothing
    refused = owner_client.post(reverse("games:hint", args=[games[11].pk]), headers=HX)
    assert refused.status_code == 429 and "many new positions" in refused.text
    assert int(refused["Retry-After"]) >= 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness is Linux's")
def test_a_hints_search_yields_the_cpu_to_other_requests(
    owner_client: Client, start_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search runs in the web request: at a lower priority, other players' requests on
    the machine go first. The request's own thread keeps its priority."""
    priorities: list[int] = []
    real_hint = solver.hint_and_line

    def hint(board, seconds=1.0):
        priorities.append(os.getpriority(os.PRIO_PROCESS, 0))  # this thread's, on Linux
        return real_hint(board, seconds=seconds)

    monkeypatch.setattr(solver, "hint_and_line", hint)
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    game = start_game("beleaguered-castle", 2)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert response.status_code == 200
    assert priorities == [min(mine + solver_jobs.SOLVER_NICENESS, 19)]
    assert os.getpriority(os.PRIO_PROCESS, 0) == mine


def test_a_search_that_fails_fails_the_request_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise ValueError("the search broke")

    with pytest.raises(ValueError, match="the search broke"):
        solver_jobs.yielding(broken)


# -- hints from what is known of the deal: no search --------------------------------------


@pytest.fixture(scope="module")
def proof() -> list[str]:
    """A winning line of Beleaguered Castle 2 from its deal, as a pool stores its proof."""
    result = solver.solve(Board("beleaguered-castle", 2), seconds=10)
    assert result.solved
    return [move.notation() for move in result.moves]


def deal_verdict(slug: str, deal: int, verdict: str, line: list[str], now) -> DealVerdict:
    return DealVerdict.objects.create(
        slug=slug, deal=deal, verdict=verdict, solution=" ".join(line), requested_at=now
    )


def hinted(game: Game) -> Move:
    """The move the game's last hint named: the answer it gets again without a search."""
    answer, _ = solver_jobs.position_hint(
        services.game_board(game), player_id=game.owner_id, may_solve=False, game=game
    )
    assert answer.move is not None
    return answer.move


def test_a_proved_deal_is_hinted_from_its_proof_without_a_search(
    owner_client: Client, start_game, proof: list[str], now, solver_calls: list[str]
) -> None:
    """Hard proved deals are the ones a one-second search misses: their hint never fails."""
    deal_verdict("beleaguered-castle", 2, DealVerdict.Verdict.WINNABLE, proof, now)
    game = start_game("beleaguered-castle", 2)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert response.status_code == 200
    assert f"({len(proof)} moves to win)" in response.text
    assert hinted(game).notation() == proof[0]
    assert solver_calls == []


def test_a_hint_read_from_a_proof_is_kept_an_hour_not_a_week(
    owner_client: Client, start_game, proof: list[str], now, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hint may be asked 120 times a minute from one address, each on a new position:
    answers kept a week came to some 1.2 million keys an address in the shared cache."""
    deal_verdict("beleaguered-castle", 2, DealVerdict.Verdict.WINNABLE, proof, now)
    game = start_game("beleaguered-castle", 2)
    kept: dict[str, int] = {}
    keep = cache.set

    def recording(key: str, value: object, timeout: int) -> None:
        kept[key] = timeout
        keep(key, value, timeout)

    monkeypatch.setattr(cache, "set", recording)
    owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert kept == {solver_jobs.hint_key(services.game_board(game)): 3600}


def test_a_daily_is_hinted_from_its_proof_without_a_search(
    owner_client: Client, player: Player, proof: list[str], now, solver_calls: list[str]
) -> None:
    daily = Daily.objects.create(
        slug="beleaguered-castle", date=now.date(), deal=2, par=len(proof), solution=" ".join(proof)
    )
    game = services.game_start(
        player=player, slug="beleaguered-castle", deal=2, autoplay=True, daily=daily, now=now
    )

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert response.status_code == 200 and "moves to win" in response.text
    assert solver_calls == []
    game.refresh_from_db()
    assert game.hints == 1


def test_a_deal_known_lost_says_so_at_once(
    owner_client: Client, start_game, now, solver_calls: list[str]
) -> None:
    """Every position of a deal proved unwinnable is lost: no search, and the advice is a
    new game, not an undo."""
    deal_verdict("streets-and-alleys", 5, DealVerdict.Verdict.UNWINNABLE, [], now)
    game = start_game("streets-and-alleys", 5)

    response = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)

    assert response.status_code == 200
    assert "This deal cannot be won, whatever the moves: start a new game." in response.text
    assert solver_calls == []


def test_a_player_who_follows_the_hints_gets_them_from_one_search(
    owner_client: Client, start_game, solver_calls: list[str]
) -> None:
    """The line the first hint's search found is remembered for the game: the next hints
    follow it (one line, not a new search's at every step), auto-play and all."""
    game = start_game("beleaguered-castle", 2, autoplay=True)
    hint_url = reverse("games:hint", args=[game.pk])
    for _ in range(12):
        assert owner_client.post(hint_url, headers=HX).status_code == 200
        game.refresh_from_db()
        move = {"move": hinted(game).notation(), "ply": game.ply}
        played = owner_client.post(reverse("games:move", args=[game.pk]), move, headers=HX)
        assert played.status_code == 200

    assert solver_calls == ["hint"]
    game.refresh_from_db()
    assert game.hints == 12
