"""``manage.py find_winnable_deals GAME --from A --to B``: grow a game's pool of deals proved
winnable (games/winnable/GAME.txt), for games whose winnable deals are too rare to find
within a day's budget. Each line is the deal and the solver's winning line: the proof."""

from django.core.management.base import BaseCommand, CommandParser

from games.daily import POOLS, pool
from games.rules import GAMES, Board
from games.rules.solver import solve


class Command(BaseCommand):
    help = "Search deals A..B with the solver and append the winnable ones to the pool."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", choices=list(GAMES))
        parser.add_argument("--from", dest="start", type=int, default=1)
        parser.add_argument("--to", dest="end", type=int, default=1000)
        parser.add_argument("--nodes", type=int, default=20_000)

    def handle(
        self, *args: object, game: str, start: int, end: int, nodes: int, **_: object
    ) -> None:
        known = {deal for deal, _ in pool(game)}
        POOLS.mkdir(exist_ok=True)
        found = 0
        with (POOLS / f"{game}.txt").open("a") as out:
            for deal in range(start, end + 1):
                if deal in known:
                    continue
                result = solve(Board(game, deal), seconds=60, max_nodes=nodes)
                if result.solved:
                    found += 1
                    out.write(f"{deal} {' '.join(m.notation() for m in result.moves)}\n")
                    out.flush()
                    self.stdout.write(f"deal {deal}: won in {len(result.moves)} moves")
        self.stdout.write(f"{found} winnable deals found in {start}..{end}")
