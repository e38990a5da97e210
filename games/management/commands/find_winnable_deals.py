"""``manage.py find_winnable_deals GAME --from A --to B``: which deals in A..B the solver wins
within a node budget, with the time each verdict took (for tuning a game's daily budget in
``games.daily.BUDGETS``). It prints; it stores nothing: dailies come from secret-seeded
candidates, never from a list of answers."""

import time

from django.core.management.base import BaseCommand, CommandParser

from games.daily import BUDGETS
from games.rules import GAMES, MAX_DEAL, Board
from games.rules.solver import solve


class Command(BaseCommand):
    help = "Search deals A..B with the solver and print the winnable ones."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="game", choices=list(GAMES))
        parser.add_argument("--from", dest="start", type=int, default=1)
        parser.add_argument("--to", dest="end", type=int, default=1000)
        parser.add_argument("--nodes", type=int, help="default: the game's daily budget")

    def handle(
        self, *args: object, slug: str, start: int, end: int, nodes: int | None, **_: object
    ) -> None:
        if not 1 <= start <= end <= MAX_DEAL:
            self.stderr.write(f"--from must be at least 1 and at most --to, at most {MAX_DEAL}")
            raise SystemExit(2)
        if nodes is not None and nodes < 1:
            self.stderr.write("--nodes must be at least 1")
            raise SystemExit(2)
        budget = BUDGETS[slug].nodes if nodes is None else nodes
        found, times = 0, []
        for deal in range(start, end + 1):
            began = time.process_time()
            result = solve(Board(slug, deal), seconds=60, max_nodes=budget)
            times.append(time.process_time() - began)
            if result.solved:
                found += 1
                self.stdout.write(f"deal {deal}: won in {len(result.moves)} moves")
        times.sort()
        median = times[len(times) // 2] * 1000
        self.stdout.write(
            f"{found} winnable deals found in {start}..{end}; median {median:.1f} ms CPU a deal"
        )
