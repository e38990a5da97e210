"""One hostile client against the task worker (one per machine): the verdicts of typed deals
wait behind the work players wait on, and one address can queue only so many new verdicts
and analyses, so it can neither starve the worker nor lock others out of Analyse."""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import daily_tasks, limits, pools, services, solver_jobs
from games.models import Analysis, DealVerdict, Game, Player
from games.rules import GAMES, solver
from games.rules.solver import SolveResult

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
ATTACKER = "198.51.100.7"
SOMEONE_ELSE = "203.0.113.5"


def allowed(limit: tuple[limits.Limit, ...]) -> int:
    """How many a limit lets through in its window (``"40/h"``: 40)."""
    return int(limit[0].rate.split("/")[0])


def play(url: str, address: str = ATTACKER) -> Game:
    """Start a game as a script does: a fresh cookie (a new player) each time, one address."""
    response = Client(REMOTE_ADDR=address).get(url)
    assert response.status_code == 302, response.content
    return Game.objects.get(pk=response["Location"].split("/")[2])


@pytest.fixture
def analyse(client_for: Callable[..., Client], now: datetime) -> Callable[..., Any]:
    """``analyse(deal, address)``: a new player (a fresh session) at ``address`` asks for the
    analysis of a new game of Beleaguered Castle ``deal``, with htmx as the board script
    asks (``hx=False``: as a plain form, answered with a redirect to the analysis's page)."""

    def ask(deal: int, address: str, *, hx: bool = True) -> Any:
        player = Player.objects.create()
        game = services.game_start(
            player=player, slug="beleaguered-castle", deal=deal, autoplay=False, now=now
        )
        client = client_for(player, REMOTE_ADDR=address)
        return client.post(reverse("games:analyse", args=[game.pk]), headers=HX if hx else {})

    return ask


def claim_order() -> list[str]:
    """The waiting tasks, by name, in the order the worker takes them: db_worker's own query
    (``DBTaskResult.objects.ready()``, then ``get_locked()``), claimed one after another."""
    names = []
    while (task := DBTaskResult.objects.ready().get_locked()) is not None:
        task.claim("test-worker")
        names.append(task.task_path.rsplit(".", 1)[-1])
    return names


def verdict_tasks() -> int:
    return DBTaskResult.objects.filter(task_path=pools.decide_deal.module_path).count()


# -- the order of the worker's work -------------------------------------------------------


def test_after_a_burst_of_typed_deals_the_worker_runs_the_waiting_analysis_next(
    owner_client: Client, game: Game, monkeypatch: pytest.MonkeyPatch, keep_connection: None
) -> None:
    monkeypatch.setattr(solver, "first_losing_ply", lambda *args, **kwargs: 0)
    unknown = SolveResult("unknown", nodes=1, slug="fortress")
    monkeypatch.setattr(pools, "solve", lambda *args, **kwargs: unknown)
    owner_client.post(reverse("games:analyse", args=[game.pk]))
    for deal in range(4, 24):  # "any deal" keeps the pools out of it: one kind of work
        play(f"/play/fortress/{deal}/?deals=any")
    assert verdict_tasks() == 20

    call_command(
        "db_worker",
        batch=True,
        max_tasks=1,
        interval=0,
        startup_delay=False,
        reload=False,
        verbosity=0,
    )

    assert Analysis.objects.get().done
    assert set(DealVerdict.objects.values_list("verdict", flat=True)) == {"pending"}


def test_empty_pools_dailies_analyses_and_pool_batches_all_run_before_verdicts(
    owner_client: Client, game: Game, now: datetime
) -> None:
    pools.fill_pool.enqueue(slug="citadel")  # a short pool's batch
    assert daily_tasks.daily_request(date=now.date() + timedelta(days=1), now=now)
    assert daily_tasks.daily_request(date=now.date(), now=now)
    owner_client.post(reverse("games:analyse", args=[game.pk]))
    for deal in range(4, 24):  # each asks for fortress's empty pool too (queued once)
        play(f"/play/fortress/{deal}/")

    assert claim_order() == [
        "fill_pool",  # fortress: its pool is empty
        "prepare_day",  # today
        "analyse_line",
        "fill_pool",  # citadel
        "prepare_day",  # tomorrow: it has a day to run, a player waits on an analysis
        *["decide_deal"] * 20,
    ]


def test_a_drained_pool_waits_its_turn_behind_dailies_and_analyses(
    owner_client: Client, game: Game, now: datetime
) -> None:
    """Starting games without playing them dealt every pooled deal once (95 requests in
    90 s, every game): the refills then jumped the queue, 40 an hour per game, ahead of the
    dailies and the players' analyses. New game still deals those deals (the least dealt
    one a player has not had), so their refill takes its turn."""
    assert pools.pool_add(slug="fortress", deal=3, now=now) is not None
    DealVerdict.objects.update(dealt=1)  # no fresh deal: drained
    assert daily_tasks.daily_request(date=now.date(), now=now)
    owner_client.post(reverse("games:analyse", args=[game.pk]))

    play("/play/fortress/")

    assert claim_order() == ["prepare_day", "analyse_line", "fill_pool"]


def test_a_verdict_waiting_its_turn_is_not_queued_again(now: datetime) -> None:
    """Verdicts run last and may wait longer than ``STALE``: the schedule must not take a
    waiting one for lost and queue it again every minute."""
    play("/play/fortress/4/")
    DealVerdict.objects.update(requested_at=now - pools.STALE * 2)

    pools.top_up(now)
    pools.top_up(now + pools.STALE * 2)

    assert verdict_tasks() == 1


def test_a_typed_deals_verdict_stays_within_its_budget_of_positions(
    monkeypatch: pytest.MonkeyPatch, now: datetime
) -> None:
    budgets: dict[str, int] = {}

    def solve(board, *, seconds: float, max_nodes: int | None, techniques) -> SolveResult:
        assert max_nodes is not None
        budgets[board.rules.slug] = max_nodes
        return SolveResult("unknown", nodes=max_nodes, slug=board.rules.slug)

    monkeypatch.setattr(pools, "solve", solve)
    for slug in GAMES:
        pools.verdict_request(slug=slug, deal=2, now=now)
        pools.decide_deal.call(slug=slug, deal=2)

    assert budgets == {slug: pools.verdict_nodes(slug) for slug in GAMES}
    assert budgets["selective-castle"] == budgets["penelopes-web"] == pools.POOL_NODES
    assert budgets["streets-and-alleys"] == pools.VERDICT_NODES
    assert max(budgets.values()) == pools.VERDICT_NODES


# -- what one address may queue -----------------------------------------------------------


def test_one_address_queues_only_so_many_new_verdicts_and_every_game_still_starts() -> None:
    limit = allowed(limits.NEW_VERDICT)
    games = [play(f"/play/fortress/{deal}/") for deal in range(1, limit + 4)]
    games.append(play("/play/fortress/?deals=any"))  # a random deal asks for a verdict too

    assert len(games) == limit + 4  # every one started
    assert DealVerdict.objects.count() == limit
    # A deal with no move after its opening is settled at once, without a task, and counted.
    dead = DealVerdict.objects.exclude(verdict="pending")
    assert dead.count() == limit - verdict_tasks() > 0
    assert set(dead.values_list("verdict", flat=True)) == {"unwinnable"}
    badge = Client().get(reverse("games:verdict", args=[games[-2].pk]))
    assert badge.status_code == 200 and 'id="verdict"' not in badge.text  # no badge, no error
    # A deal already known costs nothing, even over the limit.
    known = play("/play/fortress/1/")
    badge = Client().get(reverse("games:verdict", args=[known.pk]))
    assert "Checking whether this deal can be won" in badge.text
    # Another address still has its own.
    play(f"/play/fortress/{limit + 10}/", address=SOMEONE_ELSE)
    assert DealVerdict.objects.count() == limit + 1
    assert verdict_tasks() == limit + 1 - dead.count()


def test_one_address_cannot_fill_the_analysis_queue(analyse: Callable[..., Any]) -> None:
    """30 fresh sessions from one address used to fill ``MAX_PENDING_ANALYSES`` and lock
    every player out of Analyse."""
    limit = allowed(limits.NEW_ANALYSIS)
    assert 2 * limit < solver_jobs.MAX_PENDING_ANALYSES  # even across a window's edge

    statuses = [
        analyse(deal, ATTACKER).status_code
        for deal in range(1, solver_jobs.MAX_PENDING_ANALYSES + 1)
    ]

    assert statuses == [200] * limit + [429] * (solver_jobs.MAX_PENDING_ANALYSES - limit)
    assert Analysis.objects.count() == limit
    refused = analyse(40, ATTACKER)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "You asked for many analyses in a short time" in html.unescape(refused.text)
    # The next analysis, from someone else, is queued.
    answer = analyse(41, SOMEONE_ELSE)
    assert answer.status_code == 200 and "Analysing…" in answer.text
    # A line someone already asked about costs nothing, even over the limit.
    assert analyse(1, ATTACKER).status_code == 200
    assert Analysis.objects.count() == limit + 1


def test_asking_again_while_ones_analysis_runs_spends_no_new_analysis(
    owner_client: Client, start_game: Callable[..., Game], analyse: Callable[..., Any]
) -> None:
    first, second = start_game("beleaguered-castle", 1), start_game("beleaguered-castle", 3)
    owner_client.post(reverse("games:analyse", args=[first.pk]))
    for _ in range(5):
        refused = owner_client.post(reverse("games:analyse", args=[second.pk]))
        assert refused.status_code == 429 and "still running" in refused.text

    statuses = {
        analyse(deal, "127.0.0.1").status_code
        for deal in range(10, 10 + allowed(limits.NEW_ANALYSIS) - 1)
    }

    assert statuses == {200}


def test_an_analysis_queued_again_while_it_waited_is_searched_once(
    owner_client: Client, game: Game, monkeypatch: pytest.MonkeyPatch, run_tasks
) -> None:
    """Analyses wait behind empty pools and dailies, and one still waiting after
    ``ANALYSIS_RETRY`` is queued again: the second task must not search again."""
    searches: list[str] = []
    monkeypatch.setattr(solver, "first_losing_ply", lambda *args, **kwargs: searches.append("x"))
    url = reverse("games:analyse", args=[game.pk])
    owner_client.post(url)
    Analysis.objects.update(requested_at=timezone.now() - solver_jobs.ANALYSIS_RETRY * 2)
    owner_client.post(url)
    assert DBTaskResult.objects.filter(task_path=solver_jobs.analyse_line.module_path).count() == 2

    run_tasks()

    assert searches == ["x"] and Analysis.objects.get().done
