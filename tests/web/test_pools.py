"""Winnable deals by default: New game deals from pools of proved deals that background tasks
fill, never solving on the request path; typed deals get a verdict; nobody is dealt a dead
position."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from castle_site import messages
from games import dealing, pools, schedule, services
from games.models import DealChoice, DealVerdict, Game, Player
from games.rules import GAMES, Board, get_game
from games.rules.record import split_record
from games.rules.solver import ONE_LOOK, SolveResult, SolveStats, Techniques, difficulty, solve
from tests.rules.helpers import WON_DEALS

pytestmark = pytest.mark.django_db

SECOND = timedelta(seconds=1)

DEAD_FORTRESS = [26, 34, 46, 60]
"""Fortress deals with no legal move once the opening auto-play is done."""


@pytest.fixture
def pool(now: datetime) -> Callable[..., DealVerdict]:
    """Pool a deal as a fill task would (solving it here, in the test)."""

    def add(game: str, deal: int) -> DealVerdict:
        entry = pools.pool_add(slug=game, deal=deal, now=now)
        assert entry is not None, f"{game} {deal} should be won and playable"
        return entry

    return add


@pytest.fixture
def no_solver(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call it, and from then on any solver call fails the test (the request path must
    never solve)."""

    def refuse(*args: object, **kwargs: object) -> SolveResult:
        raise AssertionError("the solver ran on the request path")

    def forbid() -> None:
        monkeypatch.setattr(pools, "solve", refuse)
        monkeypatch.setattr("games.rules.solver.solve", refuse)
        monkeypatch.setattr("games.daily.solve", refuse)

    return forbid


def started(client: Client, url: str) -> Game:
    response = client.get(url)
    assert response.status_code == 302, response.content
    return Game.objects.get(pk=response["Location"].split("/")[2])


def replays_to_a_win(game: str, deal: int, line: list[str]) -> bool:
    board = Board(game, deal)
    for move in line:
        board.play(move)
    return board.is_won()


def fill_tasks(game: str | None = None) -> list[DBTaskResult]:
    tasks = DBTaskResult.objects.filter(task_path=pools.fill_pool.module_path, status="READY")
    if game:
        tasks = tasks.filter(args_kwargs__kwargs__slug=game)
    return list(tasks)


# -- New game deals proved deals ----------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_new_game_deals_a_pooled_deal_whose_proof_replays_to_a_win(
    game: str, pool: Callable[..., DealVerdict], owner_client: Client, no_solver: Callable[[], None]
) -> None:
    pool(game, WON_DEALS[game])
    no_solver()

    dealt = started(owner_client, f"/play/{game}/")

    assert dealt.deal == WON_DEALS[game]
    proof = DealVerdict.objects.get(slug=game, deal=dealt.deal)
    assert proof.verdict == "winnable" and proof.dealt == 1 and proof.pooled
    assert replays_to_a_win(game, dealt.deal, proof.line)
    assert proof.moves == len(proof.line)
    page = owner_client.get(dealt.get_absolute_url()).text
    assert f"deal {dealt.deal}" in page
    assert "<b>Winnable</b>" in page and "may be unwinnable" not in page


def test_new_game_prefers_fresh_deals_then_ones_the_player_has_not_had(
    pool: Callable[..., DealVerdict], owner_client: Client, no_solver: Callable[[], None]
) -> None:
    pool("citadel", 2)
    pool("citadel", 3)
    no_solver()

    first = started(owner_client, "/play/citadel/")
    second = started(owner_client, "/play/citadel/")
    third = started(owner_client, "/play/citadel/")

    assert {first.deal, second.deal} == {2, 3}
    assert third.deal not in {2, 3}  # both had: a random deal, with a note
    assert "may be unwinnable" in owner_client.get(third.get_absolute_url()).text


def test_an_empty_pool_falls_back_to_a_random_playable_deal_with_a_clear_note(
    owner_client: Client, no_solver: Callable[[], None]
) -> None:
    no_solver()
    game = started(owner_client, "/play/citadel/")

    assert not DealVerdict.objects.filter(pooled=True).exists()
    page = owner_client.get(game.get_absolute_url()).text
    assert "No proved Citadel deal was ready yet" in page and "may be unwinnable" in page
    assert "No proved" not in owner_client.get(game.get_absolute_url()).text  # said once


def test_the_winning_move_takes_a_pending_badge_away(
    owner_client: Client, no_solver: Callable[[], None]
) -> None:
    """The win's answer said nothing of the badge: "Checking whether this deal can be
    won…" stood beside "You won!" until the badge's next look."""
    no_solver()
    game = started(owner_client, "/play/citadel/3/?autoplay=0")
    assert DealVerdict.objects.get(slug="citadel", deal=3).verdict == "pending"
    line = split_record((Path(__file__).parents[1] / "browser/lines/citadel-3.txt").read_text())[1]
    for ply, notation in enumerate(line[:-1]):
        services.game_play_move(
            game_id=game.pk,
            player_id=game.owner_id,
            move=notation,
            expected_ply=ply,
            now=timezone.now(),
        )
    url = game.get_absolute_url() + "moves"
    last = {"move": line[-1], "ply": len(line) - 1}

    answer = owner_client.post(url, last, headers={"HX-Request": "true"})

    assert answer.status_code == 200 and "You won!" in answer.text
    assert '<p id="verdict" hidden></p>' in answer.text


def test_a_won_game_does_not_say_its_deal_is_being_checked(
    owner_client: Client, no_solver: Callable[[], None]
) -> None:
    no_solver()
    game = started(owner_client, "/play/citadel/7/")
    assert DealVerdict.objects.get(slug="citadel", deal=7).verdict == "pending"
    url = game.get_absolute_url()
    assert "Checking whether this deal can be won" in owner_client.get(url).text

    Game.objects.filter(pk=game.pk).update(status=Game.Status.WON)

    assert "Checking whether" not in owner_client.get(url).text
    badge = owner_client.get(reverse("games:verdict", args=[game.pk]) + "?poll=1").text
    assert 'id="verdict"' not in badge and "data-poll-url" not in badge


def test_notes_nobody_reads_do_not_pile_up(
    owner_client: Client, no_solver: Callable[[], None]
) -> None:
    """A script starting game after game and never loading one left every note in its
    cookie, then in its session row, which every request of it read: a week's worth made
    a move take 189 ms instead of 6."""
    no_solver()
    games = [started(owner_client, "/play/citadel/") for _ in range(12)]

    page = owner_client.get(games[-1].get_absolute_url()).text
    assert page.count("No proved Citadel deal was ready yet") == messages.KEEP


def test_any_deal_gives_random_deals_and_leaves_the_pool_alone(
    pool: Callable[..., DealVerdict], owner_client: Client, no_solver: Callable[[], None]
) -> None:
    entry = pool("citadel", 2)
    no_solver()

    deals = {started(owner_client, "/play/citadel/?deals=any").deal for _ in range(3)}

    assert len(deals) == 3 and 2 not in deals
    entry.refresh_from_db()
    assert entry.dealt == 0


def test_the_choice_is_remembered_only_when_the_home_form_says_so(
    pool: Callable[..., DealVerdict],
    owner_client: Client,
    player: Player,
    no_solver: Callable[[], None],
) -> None:
    pool("citadel", 2)
    no_solver()
    started(owner_client, "/play/citadel/?deals=any")
    player.refresh_from_db()
    assert player.new_deals == DealChoice.WINNABLE

    started(owner_client, "/play/fortress/?deals=any&remember=1")
    player.refresh_from_db()
    assert player.new_deals == DealChoice.ANY
    assert started(owner_client, "/play/citadel/").deal != 2  # the preference: any deal
    assert 'value="any" selected' in owner_client.get("/").text


def test_a_link_on_another_site_cannot_change_the_choice(
    pool: Callable[..., DealVerdict], owner_client: Client, player: Player
) -> None:
    """Starting a game is a GET (shareable deal links), so any site could link to
    ``?deals=any&remember=1`` and switch a visitor's New game to deals that may be lost."""
    pool("fortress", 2)
    response = owner_client.get(
        "/play/fortress/?deals=any&remember=1", HTTP_SEC_FETCH_SITE="cross-site"
    )

    assert response.status_code == 302  # the game starts, as the link asked
    player.refresh_from_db()
    assert player.new_deals == DealChoice.WINNABLE


@pytest.mark.parametrize("deals", ["easy", "medium", "hard"])
def test_a_difficulty_asked_for_is_dealt(
    deals: str,
    pool: Callable[..., DealVerdict],
    owner_client: Client,
    no_solver: Callable[[], None],
) -> None:
    by_label = {pool("beleaguered-castle", deal).difficulty: deal for deal in (2, 5, 8)}
    assert set(by_label) == {"easy", "medium", "hard"}
    no_solver()

    game = started(owner_client, f"/play/beleaguered-castle/?deals={deals}")

    assert game.deal == by_label[deals]
    assert "was ready" not in owner_client.get(game.get_absolute_url()).text


def test_a_deal_another_new_game_took_meanwhile_is_not_dealt_again(
    now: datetime, player: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two New games at once on PostgreSQL both read the same fresh deal: the one whose
    count goes up second picks again (a review dealt deal 1 twice, deal 2 left fresh)."""
    for deal in (1, 2):
        DealVerdict.objects.create(
            slug="beleaguered-castle",
            deal=deal,
            verdict="winnable",
            solution="t1-t2",
            difficulty="easy",
            pooled=True,
            requested_at=now,
        )
    monkeypatch.setattr("games.pools.secrets.choice", lambda rows: rows[0])
    read = pools._pooled

    def read_then_taken(slug: str, owner: Player, difficulty: str) -> DealVerdict | None:
        entry = read(slug, owner, difficulty)
        if entry is not None and entry.deal == 1:  # the other request counts it first
            DealVerdict.objects.filter(pk=entry.pk).update(dealt=F("dealt") + 1)
        return entry

    monkeypatch.setattr(pools, "_pooled", read_then_taken)

    picked = pools.pool_pick(slug="beleaguered-castle", player=player, choice="winnable")

    assert picked.deal == 2
    dealt = dict(DealVerdict.objects.values_list("deal", "dealt"))
    assert dealt == {1: 1, 2: 1}


def test_a_missing_difficulty_deals_another_proved_deal_and_says_so(
    pool: Callable[..., DealVerdict], owner_client: Client, no_solver: Callable[[], None]
) -> None:
    assert pool("beleaguered-castle", 2).difficulty == "easy"
    no_solver()

    game = started(owner_client, "/play/beleaguered-castle/?deals=hard")

    assert game.deal == 2
    page = owner_client.get(game.get_absolute_url()).text
    assert "No hard Beleaguered Castle deal was ready: this one is proved winnable, easy." in page


@pytest.mark.parametrize("query", ["?deals=impossible", "?deals=any&remember=maybe"])
def test_a_bad_choice_is_400_and_changes_nothing(
    query: str, owner_client: Client, player: Player
) -> None:
    response = owner_client.get("/play/citadel/" + query)

    assert response.status_code == 400
    assert Game.objects.count() == 0
    player.refresh_from_db()
    assert player.new_deals == DealChoice.WINNABLE


def test_home_page_offers_the_choice_on_every_new_game_button(client: Client) -> None:
    page = client.get("/").text

    assert '<select name="deals"' in page
    for value, label in DealChoice.choices:
        assert f'value="{value}"' in page and label in page
    assert 'value="winnable" selected' in page
    for slug in GAMES:
        assert f'form="new-game" formaction="/play/{slug}/"' in page


# -- New game's cost ----------------------------------------------------------------------


def grow(player: Player, other: Player, size: int, now: datetime) -> None:
    """Streets and Alleys pools ``size`` easy deals, each dealt once (the players outran the
    worker), and ``size`` games for each player: the player's on other deals, the other
    player's on the pooled ones."""
    have = DealVerdict.objects.filter(slug="streets-and-alleys", pooled=True).count()
    numbers = range(have + 1, size + 1)
    DealVerdict.objects.bulk_create(
        DealVerdict(
            slug="streets-and-alleys",
            deal=1000 + n,
            verdict="winnable",
            solution="t1-t2",
            moves=1,
            difficulty="easy",
            pooled=True,
            dealt=1,
            requested_at=now,
        )
        for n in numbers
    )
    layout = Board("streets-and-alleys", 1).layout()
    Game.objects.bulk_create(
        Game(slug="streets-and-alleys", deal=deal, owner=owner, position=layout)
        for n in numbers
        for owner, deal in ((player, 100_000 + n), (other, 1000 + n))
    )


def sqlite_steps(action: Callable[[], object]) -> int:
    """The work SQLite does for ``action``, in its virtual machine's steps: a count, not a
    time, the same on every run and machine."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0  # go on

    connection.ensure_connection()
    raw = connection.connection
    raw.set_progress_handler(count, 1)
    try:
        action()
    finally:
        raw.set_progress_handler(None, 1)
    return steps


def test_new_games_cost_does_not_grow_with_the_pool_or_the_games(
    player: Player, owner_client: Client, now: datetime
) -> None:
    """Every New game uses a fresh deal up and the worker pools another: a pool grows by the
    New games played, and so do the games. The pick reads a few rows in index order (no
    sort of every least dealt row at random, no read of every game of the slug), and the
    fresh and waiting verdicts are counted through their indexes. 10 against 1,000 deals
    and games: the same steps here (767); the old queries took 1,026 against 55,465 (a
    table scan or a sort of all of them each)."""
    if connection.vendor != "sqlite":
        pytest.skip("counts SQLite's steps")
    Player.objects.filter(pk=player.pk).update(autoplay=False)  # the same inserts each time
    other = Player.objects.create()
    new_game = "/play/streets-and-alleys/?deals=easy"
    grow(player, other, 10, now)
    started(owner_client, new_game)  # the first queues a refill: the others find it queued

    few = sqlite_steps(lambda: started(owner_client, new_game))
    grow(player, other, 1000, now)
    many = sqlite_steps(lambda: started(owner_client, new_game))

    assert many <= few * 1.1, (few, many)


def test_new_game_counts_and_queues_outside_its_transaction(
    monkeypatch: pytest.MonkeyPatch, pool: Callable[..., DealVerdict], owner_client: Client
) -> None:
    """On SQLite a transaction holds the write lock from its start, and every move on the
    server waits for it: only the pick, the game and the choice are written in it."""
    pool("citadel", 2)
    depth: dict[str, int] = {}

    def spy(name: str) -> None:
        real = getattr(pools, name)

        def call(*args: object, **kwargs: object) -> object:
            depth[name] = len(connection.atomic_blocks)
            return real(*args, **kwargs)

        monkeypatch.setattr(pools, name, call)

    for name in ("verdict_request", "fresh_counts"):
        spy(name)
    outside = len(connection.atomic_blocks)  # the test's own transaction

    started(owner_client, "/play/citadel/")

    assert depth == {"verdict_request": outside, "fresh_counts": outside}


# -- never dead on arrival ----------------------------------------------------------------


def test_no_dealt_game_starts_without_a_legal_move(
    monkeypatch: pytest.MonkeyPatch, owner_client: Client, no_solver: Callable[[], None]
) -> None:
    deals = iter([d - 1 for d in DEAD_FORTRESS] + [2])  # randbelow(n) + 1 is the deal
    monkeypatch.setattr(secrets, "randbelow", lambda n: next(deals))
    no_solver()

    game = started(owner_client, "/play/fortress/?deals=any")

    assert game.deal == 3
    board = Board("fortress", game.deal)
    board.autoplay()
    assert board.legal_moves()


def test_dead_deals_are_never_pooled(now: datetime) -> None:
    for deal in DEAD_FORTRESS:
        assert not dealing.is_playable(Board("fortress", deal))
        assert pools.pool_add(slug="fortress", deal=deal, now=now) is None
    assert not DealVerdict.objects.exists()


def test_a_typed_dead_deal_plays_as_asked_and_its_stuck_panel_offers_a_winnable_deal(
    owner_client: Client, run_tasks: Callable[[], None]
) -> None:
    game = started(owner_client, f"/play/fortress/{DEAD_FORTRESS[0]}/")
    assert game.deal == DEAD_FORTRESS[0]

    page = owner_client.get(game.get_absolute_url()).text

    assert "No way forward" in page and "Analyse: where was it lost?" in page
    advice = '<span id="stuck-advice">This deal cannot be won from its start: try another.</span>'
    assert f"No card can move. {advice}" in page
    assert "Undo or restart" not in page  # nothing to take back: they cannot help
    assert 'href="/play/fortress/?deals=winnable" rel="nofollow">New winnable deal</a>' in page


def test_a_typed_dead_deal_is_unwinnable_at_once_without_the_worker(
    owner_client: Client,
) -> None:
    """Its badge said "Checking whether this deal can be won…" beside the stuck panel's
    "This deal cannot be won from its start", until the worker came to it: on a server just
    started, minutes later, after every pool's batches."""
    game = started(owner_client, f"/play/fortress/{DEAD_FORTRESS[1]}/")

    row = DealVerdict.objects.get(slug="fortress", deal=DEAD_FORTRESS[1])
    assert row.verdict == "unwinnable" and row.solved_at is not None
    assert not DBTaskResult.objects.filter(task_path=pools.decide_deal.module_path).exists()
    page = owner_client.get(game.get_absolute_url()).text
    assert "<b>Unwinnable</b>" in page and "Checking whether" not in page


def test_new_winnable_deal_from_the_stuck_panel_deals_a_proved_deal(
    pool: Callable[..., DealVerdict],
    owner_client: Client,
    player: Player,
    no_solver: Callable[[], None],
) -> None:
    Player.objects.filter(pk=player.pk).update(new_deals=DealChoice.ANY)
    pool("fortress", 3)
    no_solver()

    assert started(owner_client, "/play/fortress/?deals=winnable").deal == 3
    player.refresh_from_db()
    assert player.new_deals == DealChoice.ANY


# -- typed deals get a verdict from the worker --------------------------------------------


@pytest.mark.parametrize(
    "game,deal,verdict,text",
    [
        ("fortress", 3, "winnable", "<b>Winnable</b> · Easy"),
        ("fortress", 4, "unwinnable", "<b>Unwinnable</b>"),
    ],
)
def test_a_typed_deal_plays_as_asked_and_gets_a_verdict_badge(
    game: str,
    deal: int,
    verdict: str,
    text: str,
    owner_client: Client,
    monkeypatch: pytest.MonkeyPatch,
    run_tasks: Callable[[], None],
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(pools, "solve", lambda *a, **k: pytest.fail("solved in the request"))
        played = started(owner_client, f"/play/{game}/{deal}/")
    assert played.deal == deal
    page = owner_client.get(played.get_absolute_url()).text
    assert "Checking whether this deal can be won" in page
    assert f'data-poll-url="/games/{played.pk}/verdict?poll=1" data-poll-delay="2"' in page
    assert "js/verdict.js" in page

    run_tasks()

    row = DealVerdict.objects.get(slug=game, deal=deal)
    assert row.verdict == verdict and not row.pooled
    badge = owner_client.get(reverse("games:verdict", args=[played.pk]) + "?poll=1")
    assert badge.status_code == 200 and text in badge.text and "data-poll" not in badge.text
    # A stuck panel's advice changes with the badge of a deal that cannot be won.
    assert ('<span id="stuck-advice">This deal cannot be won' in badge.text) == (
        verdict == "unwinnable"
    )
    assert text in owner_client.get(played.get_absolute_url()).text


def test_a_verdict_is_asked_once_per_deal(owner_client: Client, other_client: Client) -> None:
    started(owner_client, "/play/fortress/4/")
    started(other_client, "/play/fortress/4/")

    assert DealVerdict.objects.get().verdict == "pending"
    tasks = DBTaskResult.objects.filter(task_path=pools.decide_deal.module_path)
    assert tasks.count() == 1


def test_verdicts_waiting_are_bounded(
    owner_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pools, "MAX_PENDING", 2)
    for deal in (4, 5, 6):
        started(owner_client, f"/play/fortress/{deal}/")

    assert DealVerdict.objects.count() == 2
    assert DBTaskResult.objects.filter(task_path=pools.decide_deal.module_path).count() == 2


def test_the_badge_stops_polling_after_a_while(owner_client: Client) -> None:
    game = started(owner_client, "/play/fortress/4/")
    url = reverse("games:verdict", args=[game.pk])

    assert "?poll=5" in owner_client.get(url + "?poll=4").text
    assert "data-poll" not in owner_client.get(url + "?poll=99").text
    assert "?poll=1" in owner_client.get(url + "?poll=<script>").text


def test_the_badge_of_an_unknown_game_is_404(client: Client) -> None:
    url = reverse("games:verdict", args=["00000000-0000-0000-0000-000000000000"])
    assert client.get(url).status_code == 404


# -- pools fill in the background ---------------------------------------------------------


def test_fill_task_fills_a_short_pool_with_proved_playable_deals(
    monkeypatch: pytest.MonkeyPatch, now: datetime, run_tasks: Callable[[], None]
) -> None:
    monkeypatch.setattr(pools, "POOL_TARGET", 1)
    monkeypatch.setattr(pools, "BATCH_SECONDS", 60.0)  # one batch fills the pool
    assert pools.top_up_game("citadel", now=now)
    assert not pools.top_up_game("citadel", now=now)  # one batch waiting is enough
    assert len(fill_tasks("citadel")) == 1
    assert not DealVerdict.objects.exists()  # nothing solved before the worker runs

    run_tasks()

    assert all(n >= 1 for n in pools.fresh_counts("citadel").values())
    rules = get_game("citadel")
    for entry in DealVerdict.objects.filter(slug="citadel"):
        assert entry.pooled and entry.verdict == "winnable"
        assert replays_to_a_win("citadel", entry.deal, entry.line)
        assert dealing.is_playable(Board(rules, entry.deal))
        stats = solve(Board(rules, entry.deal), max_nodes=pools.POOL_NODES)
        assert stats.stats is not None
        assert entry.nodes == stats.nodes and entry.difficulty == difficulty(stats.stats)
    assert not fill_tasks("citadel")  # full: no next batch


def test_an_empty_pool_looks_for_its_first_deal_on_a_smaller_budget(
    monkeypatch: pytest.MonkeyPatch, now: datetime, run_tasks: Callable[[], None]
) -> None:
    """Until a pool holds a deal, a candidate the solver cannot settle costs a quarter as
    much: New game has a proved deal sooner, in every game."""
    budgets: list[tuple[object, bool]] = []

    def spy(board: Board, **kwargs: object) -> SolveResult:
        result = solve(board, **kwargs)  # type: ignore[arg-type]
        budgets.append((kwargs["max_nodes"], result.solved))
        return result

    monkeypatch.setattr(pools, "solve", spy)
    monkeypatch.setattr(pools, "POOL_TARGET", 1)
    monkeypatch.setattr(pools, "BATCH_SECONDS", 60.0)  # one batch fills the pool
    pools.top_up_game("citadel", now=now)
    run_tasks()
    first = next(i for i, (_, won) in enumerate(budgets) if won)
    assert {budget for budget, _ in budgets[: first + 1]} == {pools.FIRST_DEAL_NODES}
    assert {budget for budget, _ in budgets[first + 1 :]} == {pools.POOL_NODES}
    assert all(n >= 1 for n in pools.fresh_counts("citadel").values())


def test_pools_look_once_for_a_shorter_line(
    monkeypatch: pytest.MonkeyPatch,
    now: datetime,
    owner_client: Client,
    run_tasks: Callable[[], None],
) -> None:
    """The pools solve deal after deal: the second look's second heuristic, which often
    spends the look's whole budget, would halve the deals a batch pools. Fills, pooled
    deals and a typed deal's verdict all look once."""
    used: list[Techniques] = []

    def spy(board: Board, **kwargs: object) -> SolveResult:
        used.append(kwargs["techniques"])  # type: ignore[arg-type]
        return solve(board, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pools, "solve", spy)
    monkeypatch.setattr(pools, "POOL_TARGET", 1)
    assert pools.pool_add(slug="citadel", deal=3, now=now) is not None
    pools.top_up_game("beleaguered-castle", now=now)
    started(owner_client, reverse("games:play_deal", args=["citadel", 5]))
    run_tasks()
    assert DealVerdict.objects.get(slug="citadel", deal=5).verdict != "pending"
    assert len(used) >= 3  # pool_add, a fill and the typed deal's verdict
    assert all(techniques == ONE_LOOK for techniques in used)
    assert len(ONE_LOOK.looks) == 1


def test_dealing_from_a_short_pool_queues_a_refill_but_solves_nothing(
    monkeypatch: pytest.MonkeyPatch, pool: Callable[..., DealVerdict], owner_client: Client
) -> None:
    pool("citadel", 2)
    monkeypatch.setattr(pools, "solve", lambda *a, **k: pytest.fail("solved in the request"))

    started(owner_client, "/play/citadel/")

    assert len(fill_tasks("citadel")) == 1


@pytest.fixture
def fruitless(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fill batches that pool nothing (as a difficulty the solver seldom finds), quickly."""
    monkeypatch.setattr(pools, "label", lambda result: "")
    monkeypatch.setattr(pools, "BATCH_SECONDS", 0.1)


def run_one_batch(game: str) -> None:
    """The worker's part for a game's queued batch, and no more: claim it, run it, record
    what it returned."""
    (row,) = fill_tasks(game)
    row.claim("test-worker")
    row.set_successful(pools.fill_pool.call(slug=game))


def test_after_a_batch_that_pooled_nothing_the_next_waits(
    pool: Callable[..., DealVerdict], fruitless: None
) -> None:
    """A short pool that has deals does not keep the worker busy batch after batch: after
    one that pooled nothing, the schedule queues the next ``FRUITLESS_PAUSE`` later."""
    pool("citadel", 3)
    assert pools.top_up_game("citadel", now=timezone.now())

    run_one_batch("citadel")

    assert not fill_tasks("citadel")  # it queued no next batch itself
    done = timezone.now()
    assert not pools.top_up_game("citadel", now=done)
    assert not pools.top_up_game("citadel", now=done + pools.FRUITLESS_PAUSE - SECOND)
    assert pools.top_up_game("citadel", now=done + pools.FRUITLESS_PAUSE + SECOND)


def test_an_empty_pool_looks_again_at_once(fruitless: None) -> None:
    """New game needs a first proved deal soon: an empty pool's batch that pooled nothing
    queues the next one at once, and the schedule does not wait either."""
    assert pools.top_up_game("citadel", now=timezone.now())

    run_one_batch("citadel")

    (chained,) = fill_tasks("citadel")
    chained.delete()
    assert pools.top_up_game("citadel", now=timezone.now())


def test_the_schedule_tops_up_every_short_pool_once(now: datetime) -> None:
    assert "games.pools.top_up" in schedule.JOBS

    schedule.tick(now)
    schedule.tick(now)

    assert sorted(t.args_kwargs["kwargs"]["slug"] for t in fill_tasks()) == sorted(GAMES)


def test_the_schedule_asks_again_for_a_verdict_lost_with_its_worker(
    owner_client: Client, now: datetime
) -> None:
    game = started(owner_client, "/play/fortress/4/")
    DBTaskResult.objects.all().delete()  # the worker died with the task
    DealVerdict.objects.update(requested_at=now - pools.STALE * 2)

    pools.top_up(now)

    assert DBTaskResult.objects.filter(task_path=pools.decide_deal.module_path).count() == 1
    assert DealVerdict.objects.get(deal=game.deal).requested_at == now


# -- difficulty ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_difficulty_labels_follow_the_documented_rule(game: str, client: Client) -> None:
    rules = get_game(game)
    rule = pools.difficulty_rule(rules)
    assert (rule.easy, rule.medium) == (rules.difficulty.easy, rules.difficulty.medium)

    def label(nodes: int, verdict: str = "solved") -> str:
        result = SolveResult(verdict, nodes=nodes, slug=rules.slug)  # type: ignore[arg-type]
        return pools.label(result)

    assert label(1) == label(rule.easy) == "easy"
    assert label(rule.easy + 1) == label(rule.medium) == "medium"
    assert label(rule.medium + 1) == label(pools.POOL_NODES) == "hard"
    assert label(10, "unsolvable") == label(10, "unknown") == ""
    assert label(rule.easy + 1) == difficulty(SolveStats(game, rule.easy + 1, 90))
    page = client.get(reverse("games:rules", args=[game])).text
    assert f"<strong>easy</strong> when that takes at most {rule.easy} positions" in page
    assert f"<strong>medium</strong> up to {rule.medium}" in page


def test_a_refused_start_neither_deals_from_the_pool_nor_saves_the_choice(
    pool: Callable[..., DealVerdict], owner_client: Client, player: Player
) -> None:
    entry = pool("citadel", 2)

    response = owner_client.get("/play/citadel/?deals=easy&remember=1&option=take-back")

    assert response.status_code == 400  # Citadel has no take-back option
    entry.refresh_from_db()
    player.refresh_from_db()
    assert entry.dealt == 0 and player.new_deals == DealChoice.WINNABLE
    assert Game.objects.count() == 0


def test_the_pools_command_shows_each_games_fresh_deals(
    pool: Callable[..., DealVerdict], capsys: pytest.CaptureFixture[str]
) -> None:
    pool("fortress", 3)

    call_command("pools")

    lines = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines()}
    assert lines["fortress"] == ["1", "0", "0", "1"]
    assert lines["archway"] == ["0", "0", "0", "0"]


def test_an_empty_pools_batch_jumps_the_queue_and_a_short_ones_takes_its_turn(
    pool: Callable[..., DealVerdict], now: datetime
) -> None:
    pool("fortress", 3)

    pools.top_up(now)

    priorities = {t.args_kwargs["kwargs"]["slug"]: t.priority for t in fill_tasks()}
    assert priorities["fortress"] == 0
    assert priorities["citadel"] == priorities["archway"] == pools.EMPTY_POOL_PRIORITY
    assert schedule.JOBS[0] == "games.pools.top_up"  # queued before the days of dailies


def test_an_empty_pool_jumps_the_queue_only_so_often(
    monkeypatch: pytest.MonkeyPatch, now: datetime
) -> None:
    monkeypatch.setattr(pools, "EMPTY_POOL_BATCHES", 2)
    for _ in range(3):
        pools.top_up_game("archway", now=now)
        DBTaskResult.objects.filter(status="READY").update(status="SUCCESSFUL")

    priorities = list(
        DBTaskResult.objects.order_by("enqueued_at").values_list("priority", flat=True)
    )
    assert priorities == [pools.EMPTY_POOL_PRIORITY, pools.EMPTY_POOL_PRIORITY, 0]


def test_the_stuck_panel_of_a_deal_proved_unwinnable_does_not_send_the_player_back(
    owner_client: Client, no_solver: Callable[[], None]
) -> None:
    """It said "Undo or restart to try another line" beside the badge's "Unwinnable: the
    solver proved that no line wins this deal" (a player's pass, Beleaguered Castle 1)."""
    DealVerdict.objects.create(
        slug="beleaguered-castle", deal=1, verdict="unwinnable", requested_at=timezone.now()
    )
    game = started(owner_client, "/play/beleaguered-castle/1/?autoplay=1")
    for _ in range(2):
        game.refresh_from_db()
        move = {"move": "t6-t4", "ply": game.ply}
        assert owner_client.post(reverse("games:move", args=[game.pk]), move).status_code == 303

    page = owner_client.get(game.get_absolute_url()).text

    assert "No way forward" in page and "Undo or restart" not in page
    assert "This deal cannot be won from its start: try another." in page
