"""``make loadtest``: two gunicorn servers on one PostgreSQL database, many players at once.

Creates a fresh database, starts servers A and B (``--workers`` each: the site's default)
on 127.0.0.1 and runs ``--players`` threads for ``--seconds``. Each simulated player plays
real games through the site, alternating its requests between A and B (sessions live in
the shared database and cache, so either server knows it), as the board script sends them:
new game (``GET /play/...``), a card move (one ``POST moves``: the selected card, where it
goes and the ply it saw), now and then an undo, and now and then a double click (the same
move POST again, which must be refused with 409). It keeps the game on its own engine
board, auto-play and auto-finish included, and checks the ply of every answer (``#play``'s)
against it.

Mid-load it SIGKILLs one worker of server A; the master boots a new one. Requests lost with
the worker are settled by reading the game back: a move is either fully stored or absent.

Then an abuse phase (``--abuse-seconds``, 0 to skip): ``--abuse-players`` honest players
play one action every 0.2 s, first alone (the baseline), then while 4 attackers hammer
Hint and Analyse on fresh deals, old daily dates, 2,000-move imports and game creation. Each
attacker is a process of its own, as it would be another machine: as threads of this
process, their own work (building requests, reading answers) held the honest players'
threads off the interpreter, and the players' clocks counted that wait as the servers'.
Honest moves' p99 under attack must stay within 3x the baseline's p99, with no 5xx anywhere
(attackers are expected to get 429s). Every simulated client sends its own
address in ``X-Real-IP`` (the servers trust it, as behind a proxy), so per-address limits
apply to each; the servers share a Redis cache (``--cache-url``) as in production, and a
task worker (``manage.py worker``, at lower CPU priority) runs the analyses.

It prints throughput, latency, errors, the kill window's figures, and the replay check over
every game in the database (stored position = checked replay of its moves, plies
contiguous); it exits non-zero on any error or mismatch. Then it drops the database.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode, urlsplit, urlunsplit

from castle_site.capacity import web_concurrency
from games.rules import GAMES, MAX_DEAL, Board, Move
from tools.bench import SERVER_ENV, Browser, free_port, panel_after, percentile, serve, stop

if TYPE_CHECKING:
    from multiprocessing.queues import SimpleQueue

    from django.db.models import QuerySet

    from games.models import Game

ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
MAX_PLY = 120
"""A player abandons a game this long and starts another (most deals are not won)."""
UNDO_SHARE = 0.08
DOUBLE_CLICK_SHARE = 0.03
PLY = re.compile(rb'<div id="play" hidden data-ply="(\d+)"')
"""The ply a game page and every action's answer show (``games/game.html#play``)."""
CONTROLS = re.compile(rb'<span id="actions" class="actions" data-key="(\d+)"')
"""The controls' key, which the board script sends back (``Castle-Controls``) so that an
answer leaves out buttons that did not change."""

OK, EXPECTED, ERROR, LOST = "ok", "expected", "error", "lost"


# -- consistency ----------------------------------------------------------------------------


def replay_problems(games: QuerySet[Game] | None = None) -> tuple[int, list[str]]:
    """Check every stored game (or ``games``): (games checked, one line per problem found).

    A game is consistent when its current line's plies are exactly 1..``ply``, its undone
    rows (the redo stack) follow them contiguously and number ``redo``, and its stored
    ``position`` equals the checked replay of its moves. On PostgreSQL, outside a
    transaction, the check reads one repeatable-read snapshot, so it may run while players
    are still moving.
    """
    from django.db import connection, transaction

    from games import services
    from games.models import Game
    from games.rules import RulesError

    problems: list[str] = []
    checked = 0
    snapshot = connection.vendor == "postgresql" and not connection.in_atomic_block
    with transaction.atomic():
        if snapshot:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        chosen = Game.objects.all() if games is None else games
        for game in chosen.order_by("created_at", "pk").iterator(chunk_size=200):
            checked += 1
            rows = list(game.played_moves.order_by("ply").values_list("ply", "undone"))
            line = [ply for ply, undone in rows if not undone]
            redo = [ply for ply, undone in rows if undone]
            if line != list(range(1, game.ply + 1)):
                problems.append(f"{game.pk}: ply {game.ply} but current line plies {line}")
            if redo != list(range(game.ply + 1, game.ply + 1 + len(redo))):
                problems.append(f"{game.pk}: redo plies {redo} do not follow ply {game.ply}")
            if len(redo) != game.redo:
                problems.append(f"{game.pk}: redo counter {game.redo}, {len(redo)} undone rows")
            try:
                replay = services.game_board(game, checked=True).layout()
            except RulesError as error:
                problems.append(f"{game.pk}: its moves do not replay: {error}")
                continue
            if replay != game.position:
                problems.append(f"{game.pk}: stored position differs from the replay")
    return checked, problems


# -- simulated players ----------------------------------------------------------------------


class Lost(Exception):
    """The connection died before the answer (a killed worker)."""


class OutOfStep(Exception):
    """The server's game and the player's board disagree."""


@dataclass
class Sample:
    server: int
    kind: str
    start: float
    seconds: float
    outcome: str
    status: int | None = None


@dataclass
class SimulatedPlayer:
    number: int
    ports: list[int]
    deadline: float
    budget: int
    pause: float = 0.0
    """Seconds between actions (0: as fast as the servers answer)."""
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    settled: Counter[str] = field(default_factory=Counter)

    @property
    def address(self) -> str:
        """This player's own client address (``X-Real-IP``)."""
        return f"10.{self.number // 65536 % 256}.{self.number // 256 % 256}.{self.number % 256}"

    def __post_init__(self) -> None:
        self.rng = random.Random(self.number)
        cookies: dict[str, str] = {}
        self.browsers = [Browser(port, cookies=cookies, timeout=10) for port in self.ports]
        self.turn = self.number
        self.url = ""
        self.board = Board("beleaguered-castle", 1)
        self.autoplay = False
        self.controls = ""
        self.panel = ""
        self.groups: list[int] = []
        """How many plies each player move added (the move and its auto-play)."""

    def run(self) -> None:
        try:
            self.new_game()
            while time.perf_counter() < self.deadline and len(self.samples) < self.budget:
                try:
                    self.step()
                    if self.pause:
                        time.sleep(self.pause)
                except Lost:
                    pass  # a lost GET changes nothing; lost POSTs are settled where sent
                except OutOfStep as error:
                    self.errors.append(f"player {self.number}: {error}")
                    self.new_game()
        except Lost:
            self.errors.append(f"player {self.number}: could not start a game")
        except Exception as error:  # a bug in the simulation: report it, do not hang
            self.errors.append(f"player {self.number}: {error!r}")

    def step(self) -> None:
        moves = self.board.legal_moves()
        if not moves or self.board.is_won() or self.board.ply >= MAX_PLY:
            self.new_game()
        elif self.groups and self.rng.random() < UNDO_SHARE:
            self.undo()
        else:
            self.move(self.rng.choice(moves))

    def new_game(self) -> None:
        for _ in range(3):
            slug = self.rng.choice(list(GAMES))
            deal = self.rng.randrange(1, MAX_DEAL + 1)
            autoplay = self.rng.random() < 0.5
            try:
                _, headers, _ = self.send(
                    "new", "GET", f"/play/{slug}/{deal}/?autoplay={int(autoplay)}", ok=302
                )
                self.url = headers["Location"]
                _, _, page = self.send("page", "GET", self.url, htmx=False)
            except Lost:
                continue
            self.board = Board(slug, deal)
            self.autoplay = autoplay
            if autoplay:
                self.board.autoplay()
            self.groups = []
            self.controls = ""
            self.panel = panel_after(page, "")
            self.check_ply(page, "new game")
            return
        raise Lost("three new games lost in a row")

    def move(self, move: Move) -> None:
        from games.services import auto_finish

        before = self.board.ply
        body = urlencode({"select": self.board.selection(move), "to": move.target, "ply": before})
        self.board.play(move)
        if self.autoplay:
            self.board.autoplay()
            auto_finish(self.board)
        group = self.board.ply - before
        try:
            _, _, answer = self.send("move", "POST", f"{self.url}moves", body)
        except Lost:
            if not self.settle(before, self.board.ply):
                for _ in range(group):
                    self.board.pop()
                return
        else:
            self.check_ply(answer, f"move {move.notation()}")
        self.groups.append(group)
        if self.rng.random() < DOUBLE_CLICK_SHARE:
            try:
                _, _, answer = self.send("double", "POST", f"{self.url}moves", body, ok=409)
            except Lost:
                self.settle(self.board.ply, -1)
            else:
                self.check_ply(answer, "double click")

    def undo(self) -> None:
        group = self.groups.pop()
        before = self.board.ply
        popped = [self.board.pop() for _ in range(group)]
        try:
            _, _, answer = self.send("undo", "POST", f"{self.url}undo", urlencode({"ply": before}))
        except Lost:
            if not self.settle(before, self.board.ply):
                for raw in reversed(popped):
                    self.board.push(raw)
                self.groups.append(group)
            return
        self.check_ply(answer, "undo")

    def settle(self, old: int, new: int) -> bool:
        """After a lost POST: whether the server stored it (its ply is ``new``) or not
        (``old``). Anything else would be a partially stored action."""
        for _ in range(5):
            try:
                _, _, page = self.send("page", "GET", self.url, htmx=False)
                break
            except Lost:
                time.sleep(0.1)
        else:
            raise OutOfStep("the game page stayed unreachable after a lost request")
        self.panel = panel_after(page, "")  # the page the script would now run on
        ply = self.ply_in(page)
        if ply not in (old, new):
            self.settled["partial"] += 1
            raise OutOfStep(f"partial action: ply {ply} after a lost POST from ply {old}")
        self.settled["stored" if ply == new else "not stored"] += 1
        return ply == new

    def send(
        self,
        kind: str,
        method: str,
        path: str,
        body: str = "",
        *,
        ok: int = 200,
        htmx: bool = True,
    ) -> tuple[int, dict[str, str], bytes]:
        """One request to the next server in turn; an answer other than ``ok`` (a 409 only
        where the simulation expects one) is an error."""
        server = self.turn % len(self.browsers)
        self.turn += 1
        browser = self.browsers[server]
        headers = {"HX-Request": "true"} if htmx else {}
        headers["X-Real-IP"] = self.address
        if method == "POST":
            headers["X-CSRFToken"] = browser.cookies.get("csrftoken", "")
            headers["Castle-Controls"] = self.controls
            headers["Castle-Panel"] = self.panel
        start = time.perf_counter()
        try:
            status, response_headers, data = browser.request(method, path, body, headers)
        except (OSError, http.client.HTTPException) as error:
            self.samples.append(Sample(server, kind, start, time.perf_counter() - start, LOST))
            raise Lost(str(error)) from error
        outcome = (EXPECTED if ok == 409 else OK) if status == ok else ERROR
        self.samples.append(
            Sample(server, kind, start, time.perf_counter() - start, outcome, status)
        )
        if outcome == ERROR:
            snippet = data[:200].decode(errors="replace").strip()
            raise OutOfStep(f"{method} {path} on {'AB'[server]}: {status} (wanted {ok}) {snippet}")
        if controls := CONTROLS.search(data):
            self.controls = controls[1].decode()
        if htmx and method == "POST":
            self.panel = panel_after(data, self.panel)
        return status, response_headers, data

    def ply_in(self, answer: bytes) -> int:
        match = PLY.search(answer)
        if match is None:
            raise OutOfStep("no ply in the answer")
        return int(match[1])

    def check_ply(self, answer: bytes, action: str) -> None:
        ply = self.ply_in(answer)
        if ply != self.board.ply:
            raise OutOfStep(
                f"after {action} the server says ply {ply}, the player {self.board.ply}"
            )


# -- the attack -----------------------------------------------------------------------------

ATTACKERS = 4
ABUSE_PAUSE = 0.2
"""Honest players act every 0.2 s during the abuse phase (a fast human)."""
ABUSE_P99_FACTOR = 3.0
IMPORT_MOVES = 2000
ATTACKS = ("hint", "analyse", "old_daily", "flood_import", "create")
"""The attacks (``Attacker``'s methods); each attacker picks one at random, again and again."""
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def long_record(moves: int) -> str:
    """Beleaguered Castle deal 13: one card sent back and forth, ``moves`` plies long."""
    line = ["t5-t4" if index % 2 == 0 else "t4-t5" for index in range(moves)]
    rows = [" ".join(line[i : i + 10]) for i in range(0, len(line), 10)]
    return "game: beleaguered-castle\ndeal: 13\n" + "\n".join(rows) + "\n"


@dataclass
class Attacker:
    """Hammers the costly endpoints from one address, dropping its cookie whenever that
    dodges a per-player limit. Every answer is tallied by kind and status."""

    number: int
    ports: list[int]
    deadline: float
    kinds: tuple[str, ...] = ()
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    seconds: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    lost: int = 0

    def run(self) -> None:
        rng = random.Random(10_000 + self.number)
        attacks = [getattr(self, kind) for kind in self.kinds or ATTACKS]
        while time.perf_counter() < self.deadline:
            browser = Browser(self.ports[rng.randrange(len(self.ports))], timeout=30)
            try:
                rng.choice(attacks)(browser, rng)
            except (OSError, http.client.HTTPException):
                self.lost += 1

    def send(
        self, kind: str, browser: Browser, method: str, path: str, body: str = ""
    ) -> tuple[int, dict[str, str], bytes]:
        headers = {"X-Real-IP": f"192.0.2.{self.number + 1}"}
        if kind != "page":  # the whole page: it sets the CSRF cookie
            headers["HX-Request"] = "true"
        if method == "POST":
            headers["X-CSRFToken"] = browser.cookies.get("csrftoken", "")
        start = time.perf_counter()
        status, response_headers, data = browser.request(method, path, body, headers)
        self.statuses[(kind, status)] += 1
        self.seconds.setdefault((kind, status), []).append(time.perf_counter() - start)
        return status, response_headers, data

    def fresh_game(self, browser: Browser, rng: random.Random) -> str | None:
        """A new game of a random deal (a position no cache has seen), or None if refused."""
        slug = rng.choice(["beleaguered-castle", "citadel", "streets-and-alleys"])
        status, headers, _ = self.send(
            "create", browser, "GET", f"/play/{slug}/{rng.randrange(1, MAX_DEAL)}/"
        )
        if status != 302:
            return None
        self.send("page", browser, "GET", headers["Location"])  # the CSRF cookie
        return headers["Location"]

    def hint(self, browser: Browser, rng: random.Random) -> None:
        if url := self.fresh_game(browser, rng):
            for _ in range(3):
                self.send("hint", browser, "POST", f"{url}hint", "x=1")

    def analyse(self, browser: Browser, rng: random.Random) -> None:
        if url := self.fresh_game(browser, rng):
            for _ in range(3):
                self.send("analyse", browser, "POST", f"{url}analyse", "x=1")

    def old_daily(self, browser: Browser, rng: random.Random) -> None:
        year, day = rng.randrange(1, 2020), rng.randrange(1, 29)
        self.send(
            "old daily", browser, "GET", f"/daily/{year:04d}-{rng.randrange(1, 13):02d}-{day:02d}/"
        )

    def flood_import(self, browser: Browser, rng: random.Random) -> None:
        self.send("import page", browser, "GET", "/import/")
        body = urlencode({"record": long_record(IMPORT_MOVES), "then": "replay"})
        self.send("import", browser, "POST", "/import/", body)

    def create(self, browser: Browser, rng: random.Random) -> None:
        for _ in range(5):
            self.send("create", browser, "GET", f"/play/citadel/{rng.randrange(1, MAX_DEAL)}/")


def _attack(attacker: Attacker, results: SimpleQueue[Attacker]) -> None:
    """Run one attacker (in a process of its own) and send it back with its tallies."""
    attacker.run()
    results.put(attacker)


@dataclass
class Abuse:
    baseline: list[Sample]
    attacked: list[Sample]
    attackers: list[Attacker]
    honest_errors: list[str]

    def show(self, seconds: float) -> int:
        """Print the phase's figures; return how many failures they hold."""
        base = [s.seconds for s in self.baseline if s.kind == "move" and s.outcome == OK]
        hit = [s.seconds for s in self.attacked if s.kind == "move" and s.outcome == OK]
        honest_5xx = sum(
            1 for s in self.baseline + self.attacked if s.status is not None and s.status >= 500
        )
        statuses = sum((a.statuses for a in self.attackers), Counter())
        attack_5xx = sum(count for (_, status), count in statuses.items() if status >= 500)
        print(
            f"\nabuse: {len(self.attackers)} attacker"
            f" processes for {seconds:g} s after a {seconds:g} s baseline; honest players act"
            f" every {ABUSE_PAUSE:g} s"
        )
        if not base or not hit:
            print("  no honest moves measured")
            return 1
        p99_base, p99_hit = percentile(base, 0.99), percentile(hit, 0.99)
        row = "  honest POST moves, {:<14} {:>6,}   p50 {:>6.1f} ms   p99 {:>6.1f} ms"
        print(row.format("baseline:", len(base), percentile(base, 0.5) * 1000, p99_base * 1000))
        print(row.format("under attack:", len(hit), percentile(hit, 0.5) * 1000, p99_hit * 1000))
        ratio = p99_hit / max(p99_base, 1e-9)
        print(f"  p99 under attack / baseline p99: {ratio:.2f} (limit {ABUSE_P99_FACTOR:g})")
        kinds: dict[str, Counter[int]] = {}
        for (kind, status), count in statuses.items():
            kinds.setdefault(kind, Counter())[status] += count
        timings: dict[tuple[str, int], list[float]] = {}
        for attacker in self.attackers:
            for answer, times in attacker.seconds.items():
                timings.setdefault(answer, []).extend(times)
        for kind, counts in sorted(kinds.items()):
            answers = ", ".join(
                f"{n:,} x {status} (p50 {percentile(timings[kind, status], 0.5) * 1000:.0f} ms)"
                for status, n in sorted(counts.items())
            )
            print(f"  attacker {kind:<12} {answers}")
        lost = sum(a.lost for a in self.attackers)
        print(
            f"  5xx: {honest_5xx} honest, {attack_5xx} attackers; attacker connections lost:"
            f" {lost}; honest player checks failed: {len(self.honest_errors)}"
        )
        for message in self.honest_errors[:5]:
            print(f"    {message}")
        too_slow = ratio > ABUSE_P99_FACTOR
        return too_slow + honest_5xx + attack_5xx + lost + len(self.honest_errors)


def abuse(args: argparse.Namespace, ports: list[int]) -> Abuse:
    """The baseline, then the same honest load under attack."""

    def honest(first: int, deadline: float) -> list[SimulatedPlayer]:
        return [
            SimulatedPlayer(first + i, ports, deadline, 10**9, pause=ABUSE_PAUSE)
            for i in range(args.abuse_players)
        ]

    def play(players: list[SimulatedPlayer]) -> None:
        threads = [threading.Thread(target=player.run, daemon=True) for player in players]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(args.abuse_seconds + 60)

    calm = honest(100_000, time.perf_counter() + args.abuse_seconds)
    play(calm)
    # Started afresh (not forked from this process and its threads); the clock they share
    # with the players is the system's monotonic one.
    spawn = multiprocessing.get_context("spawn")
    results = spawn.SimpleQueue()
    deadline = time.perf_counter() + args.abuse_seconds
    processes = [
        spawn.Process(
            target=_attack,
            args=(Attacker(i, ports, deadline, tuple(args.attacks)), results),
            daemon=True,
        )
        for i in range(ATTACKERS)
    ]
    for process in processes:
        process.start()
    attacked = honest(200_000, deadline)
    play(attacked)
    attackers = [results.get() for _ in processes]
    for process in processes:
        process.join()
    return Abuse(
        baseline=[s for p in calm for s in p.samples],
        attacked=[s for p in attacked for s in p.samples],
        attackers=attackers,
        honest_errors=[m for p in calm + attacked for m in p.errors],
    )


# -- the fault ------------------------------------------------------------------------------


def children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (gunicorn's workers, for its master)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, parent = stat.rpartition(")")[2].split()[:2]
        if int(parent) == pid and state != "Z":
            found.add(int(entry.name))
    return found


@dataclass
class Kill:
    at: float = 0.0
    victim: int = 0
    replacement: int = 0
    respawn: float | None = None


def kill_a_worker(master: int, at: float, kill: Kill) -> None:
    """At ``at`` (perf_counter), SIGKILL one worker of ``master``; note when another boots."""
    time.sleep(max(0.0, at - time.perf_counter()))
    workers = children(master)
    if not workers:
        return
    kill.victim = min(workers)
    os.kill(kill.victim, signal.SIGKILL)
    kill.at = time.perf_counter()
    while time.perf_counter() < kill.at + 15:
        now = children(master)
        if kill.victim not in now and now - workers:
            kill.replacement = min(now - workers)
            kill.respawn = time.perf_counter() - kill.at
            return
        time.sleep(0.01)


# -- the run --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.loadtest", description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0, help="load duration (20)")
    parser.add_argument("--players", type=int, default=50, help="concurrent players (50)")
    parser.add_argument(
        "--workers",
        type=int,
        default=web_concurrency(),
        help=f"gunicorn workers per server (the site's default here: {web_concurrency()})",
    )
    parser.add_argument(
        "--max-requests", type=int, default=200_000, help="stop after this many requests"
    )
    parser.add_argument("--kill-at", type=float, default=0.4, help="share of the run (0.4)")
    parser.add_argument("--kill-window", type=float, default=3.0, help="seconds counted (3)")
    parser.add_argument("--no-kill", action="store_true", help="leave the workers alone")
    parser.add_argument("--port", type=int, default=0, help="server A's port, B's is next (free)")
    parser.add_argument(
        "--abuse-seconds", type=float, default=20.0, help="each abuse phase half (20; 0: none)"
    )
    parser.add_argument(
        "--abuse-players", type=int, default=8, help="honest players in the abuse phase (8)"
    )
    parser.add_argument(
        "--attacks",
        nargs="+",
        choices=ATTACKS,
        default=list(ATTACKS),
        help="the attackers' attacks (all): one alone shows what it costs the honest players",
    )
    parser.add_argument(
        "--cache-url",
        default=os.environ.get("LOADTEST_CACHE_URL", "redis://127.0.0.1:6379/0"),
        help="the cache the servers share (redis://127.0.0.1:6379/0)",
    )
    parser.add_argument(
        "--admin-url",
        default=os.environ.get("LOADTEST_ADMIN_URL", ADMIN_URL),
        help=f"a PostgreSQL database to create the test database from ({ADMIN_URL})",
    )
    args = parser.parse_args(argv)
    if not _reachable(args.cache_url):
        print(f"Redis is not reachable at {args.cache_url}.", file=sys.stderr)
        print(
            "The load test needs it: several workers share their rate limits there, as in"
            " production (see README, Deployment).",
            file=sys.stderr,
        )
        return 2

    import psycopg

    name = f"castle_loadtest_{os.getpid()}"
    try:
        admin = psycopg.connect(args.admin_url, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        print(f"PostgreSQL is not reachable at {args.admin_url}: {error}".strip(), file=sys.stderr)
        print("The load test needs PostgreSQL (see README, Deployment).", file=sys.stderr)
        return 2
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            database_url = urlunsplit(urlsplit(args.admin_url)._replace(path=f"/{name}"))
            return run(args, name, database_url)
        finally:
            _close_django()
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            print(f"dropped database {name}")


def _reachable(cache_url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(cache_url, socket_connect_timeout=2).ping())
    except (redis.RedisError, ValueError):
        return False


def run(args: argparse.Namespace, name: str, database_url: str) -> int:
    os.environ.update({**SERVER_ENV, "DATABASE_URL": database_url})
    os.environ.update(
        {
            # As behind a proxy: each simulated client is its own address.
            "CLIENT_IP_HEADER": "HTTP_X_REAL_IP",
            "CACHE_URL": args.cache_url,
            "CACHE_KEY_PREFIX": name,
            "WEB_CONCURRENCY": str(args.workers),
            "SOLVER_LOCK_DIR": tempfile.mkdtemp(prefix="castle-loadtest-locks-"),
        }
    )
    os.environ["DJANGO_SETTINGS_MODULE"] = "castle_site.settings"
    import django

    django.setup()

    servers = []
    worker = None
    abused = None
    with tempfile.TemporaryDirectory() as folder:
        logs = [Path(folder, "a.log"), Path(folder, "b.log")]
        try:
            ports = [args.port, args.port + 1] if args.port else [free_port(), free_port()]
            for index, port in enumerate(ports):
                servers.append(
                    serve(
                        database_url, port, workers=args.workers, log=logs[index], prepare=not index
                    )
                )
            report = drive(args, ports, servers[0].pid)
            if args.abuse_seconds > 0:
                worker = start_worker(Path(folder, "worker.log"))
                abused = abuse(args, ports)
        finally:
            for server in [*servers, *([worker] if worker else [])]:
                stop(server)
            _clear_cache(args.cache_url, name)
        gunicorn_log = [
            line
            for line in logs[0].read_text().splitlines()
            if "SIGKILL" in line or "Booting worker" in line
        ]
    checked, problems = replay_problems()

    print(f"\nLoad test: 2 gunicorn servers x {args.workers} workers, PostgreSQL {name}")
    print(
        f"  {args.players} players for {args.seconds:g} s on 127.0.0.1,"
        " each alternating its requests between A and B"
    )
    failures = report.show(args)
    if gunicorn_log:
        print("  gunicorn (A):")
        for line in gunicorn_log[-4:]:
            print(f"    {line}")
    print(
        f"consistency: {checked} games replayed (checked), {len(problems)} mismatches"
        " (stored position vs replay, ply gaps, redo stack)"
    )
    for problem in problems[:10]:
        print(f"  {problem}")
    if abused is not None:
        failures += abused.show(args.abuse_seconds)
    return 1 if failures or problems else 0


def start_worker(log: Path) -> subprocess.Popen[bytes]:
    """``manage.py worker`` for the analyses (no schedule: preparing dailies ahead is not
    what is measured), niced: background work yields to the web, as it should in
    production."""
    with log.open("ab") as output:
        return subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--interval", "0.2", "--no-schedule"],
            cwd=Path(__file__).resolve().parent.parent,
            stdout=output,
            stderr=output,
            preexec_fn=lambda: os.nice(10),
        )


def _clear_cache(url: str, prefix: str) -> None:
    """Drop the run's keys from the shared cache (sessions would otherwise stay a year)."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return
    import redis

    client = redis.Redis.from_url(url)
    for key in client.scan_iter(match=f"{prefix}:*", count=1000):
        client.delete(key)


@dataclass
class Report:
    players: list[SimulatedPlayer]
    begin: float
    elapsed: float
    kill: Kill | None
    snapshot: tuple[int, list[str]] | None
    stragglers: int
    window: float
    """Seconds from the kill that count as its window."""

    def show(self, args: argparse.Namespace) -> int:
        """Print the figures; return how many failures they hold."""
        samples = [s for player in self.players for s in player.samples]
        messages = [m for player in self.players for m in player.errors]
        answered = [s for s in samples if s.outcome != LOST]
        done = [s for s in answered if s.outcome in (OK, EXPECTED)]
        errors = [s for s in answered if s.outcome == ERROR]
        in_window = self._in_window
        lost = [s for s in samples if s.outcome == LOST]
        stray_lost = [s for s in lost if not in_window(s)]
        row = "  {:<22} {:>7,}   p50 {:>6.1f} ms   p99 {:>6.1f} ms"
        print(
            f"requests: {len(samples):,} in {self.elapsed:.1f} s ="
            f" {len(answered) / self.elapsed:,.0f} answered/s"
        )
        print(row.format("all answered", len(answered), *_ms(answered)))
        for kind, label in [
            ("new", "GET /play/ (new game)"),
            ("page", "GET game page"),
            ("move", "POST moves"),
            ("undo", "POST undo"),
            ("double", "POST moves, stale ply"),
        ]:
            chosen = [s for s in answered if s.kind == kind]
            if chosen:
                print(row.format(label, len(chosen), *_ms(chosen)))
        for server in (0, 1):
            ok = sum(1 for s in done if s.server == server)
            print(f"  server {'AB'[server]}: {ok:,} answered as expected")
        conflicts = sum(1 for s in done if s.outcome == EXPECTED)
        print(f"  expected 409s (double clicks refused): {conflicts:,}")
        settled = sum((p.settled for p in self.players), Counter())
        failures = len(errors) + len(messages) + len(stray_lost) + self.stragglers
        print(
            f"errors: {failures} ({len(errors)} unexpected statuses, {len(messages)} player"
            f" checks failed, {len(stray_lost)} connections lost outside the kill window,"
            f" {self.stragglers} players still running at the end)"
        )
        for message in messages[:10]:
            print(f"  {message}")
        if self.kill is not None:
            failures += self._show_kill(args, samples, lost, settled)
        return failures

    def _in_window(self, sample: Sample) -> bool:
        if self.kill is None or not self.kill.at:
            return False
        end = self.kill.at + self.window
        return self.kill.at <= sample.start + sample.seconds and sample.start <= end

    def _show_kill(
        self,
        args: argparse.Namespace,
        samples: list[Sample],
        lost: list[Sample],
        settled: Counter[str],
    ) -> int:
        kill = self.kill
        assert kill is not None
        if not kill.at:
            print("fault: server A had no worker to kill")
            return 1
        start = kill.at - self.begin
        print(
            f"fault: SIGKILL worker {kill.victim} of server A at {start:.1f} s;"
            + (
                f" its master booted worker {kill.replacement} {kill.respawn * 1000:.0f} ms later"
                if kill.respawn is not None
                else " no replacement worker within 15 s"
            )
        )
        window = [s for s in samples if self._in_window(s)]
        b_ok = [s for s in window if s.server == 1 and s.outcome in (OK, EXPECTED)]
        b_bad = [s for s in window if s.server == 1 and s.outcome in (ERROR, LOST)]
        a_ok = [s for s in window if s.server == 0 and s.outcome in (OK, EXPECTED)]
        b_all = [s for s in samples if s.server == 1 and s.outcome in (OK, EXPECTED)]
        seconds = self.window
        rate_outside = (len(b_all) - len(b_ok)) / max(self.elapsed - seconds, 1e-9)
        print(
            f"  kill window ({start:.1f}-{start + seconds:.1f} s): server B {len(b_ok):,} OK"
            f" ({len(b_ok) / seconds:,.0f}/s; {rate_outside:,.0f}/s outside the window),"
            f" {len(b_bad)} failed; server A {len(a_ok):,} OK (its other workers, then the new one)"
        )
        print(
            f"  requests lost with the killed worker: {len(lost)};"
            f" lost writes settled by reading the game back: {settled['stored']} fully stored,"
            f" {settled['not stored']} not stored, {settled['partial']} partial"
        )
        if self.snapshot is not None:
            checked, problems = self.snapshot
            print(
                f"  snapshot right after the window, players still moving: {checked} games,"
                f" {len(problems)} mismatches"
            )
        failures = len(b_bad) + (kill.respawn is None) + (not b_ok)
        return failures + (len(self.snapshot[1]) if self.snapshot else 0)


def drive(args: argparse.Namespace, ports: list[int], master: int) -> Report:
    begin = time.perf_counter()
    deadline = begin + args.seconds
    budget = max(1, args.max_requests // args.players)
    players = [SimulatedPlayer(i, ports, deadline, budget) for i in range(args.players)]
    threads = [threading.Thread(target=p.run, daemon=True) for p in players]
    for thread in threads:
        thread.start()
    kill = None
    snapshot = None
    if not args.no_kill:
        kill = Kill()
        kill_a_worker(master, begin + args.seconds * args.kill_at, kill)
        if kill.at:
            time.sleep(max(0.0, kill.at + args.kill_window - time.perf_counter()))
            snapshot = replay_problems()
            _close_django()
    for thread in threads:
        thread.join(max(0.0, deadline + 30 - time.perf_counter()))
    elapsed = time.perf_counter() - begin
    stragglers = sum(thread.is_alive() for thread in threads)
    return Report(players, begin, elapsed, kill, snapshot, stragglers, args.kill_window)


def _ms(samples: list[Sample]) -> tuple[float, float]:
    latencies = [s.seconds for s in samples]
    return percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000


def _close_django() -> None:
    if "django.db" in sys.modules:
        from django.db import connections

        connections.close_all()


if __name__ == "__main__":
    sys.exit(main())
