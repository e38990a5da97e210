"""``python -m games.rules``: deal, check (and solve) from the command line.

Exit codes: 0 done, 1 an illegal move in ``check``, 2 bad arguments or unreadable input.
Bad input never prints a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from .board import Board
from .deals import DEAL_DIGITS, not_deal_digits
from .errors import RulesError
from .record import GameRecord, ReplayError, play_words, split_record


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _deal_number(text: str) -> int:
    if not DEAL_DIGITS.fullmatch(text):
        raise argparse.ArgumentTypeError(not_deal_digits(text))
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m games.rules", description="Castle's rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    deal = commands.add_parser("deal", help="print a deal's layout")
    deal.add_argument("slug", metavar="game")
    deal.add_argument("number", type=_deal_number)
    check = commands.add_parser("check", help="play moves from a file or stdin")
    check.add_argument("slug", metavar="game")
    check.add_argument("number", type=_deal_number)
    check.add_argument("file", nargs="?", help="moves in RULES.md notation (default: stdin)")
    solve = commands.add_parser("solve", help="search for a winning line")
    solve.add_argument("slug", metavar="game")
    solve.add_argument("number", type=_deal_number)
    solve.add_argument("--seconds", type=float, default=10.0)
    solve.add_argument(
        "--record", action="store_true", help="print a won line as a game record to import"
    )
    return parser


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    args = build_parser().parse_args(argv)
    try:
        if args.command == "deal":
            out.write(Board(args.slug, args.number).layout())
            return 0
        if args.command == "check":
            return _check(args.slug, args.number, args.file, out)
        return _solve(args.slug, args.number, args.seconds, out, record=args.record)
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _check(slug: str, number: int, path: str | None, out: TextIO) -> int:
    Board(slug, number)  # an unknown game or deal fails before any input is read
    try:
        text = sys.stdin.read() if path is None else _read(path)
    except (OSError, UnicodeDecodeError) as error:
        print(f"error: cannot read {path or 'stdin'}: {error}", file=sys.stderr)
        return 2
    headers, words = split_record(text)
    # The command line names the game and deal; a record's option lines still apply.
    board = Board(slug, number, options=headers.get("option", []))
    try:
        play_words(board, words)
    except ReplayError as error:
        out.write(f"{error}\n")
        return 1
    if board.is_won():
        out.write(f"won in {board.ply} moves\n")
    else:
        out.write(
            f"not won: {board.ply} moves, {board.cards_on_foundations} cards on foundations\n"
        )
    return 0


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _solve(slug: str, number: int, seconds: float, out: TextIO, *, record: bool) -> int:
    if not 0 < seconds <= 3600:
        print("error: --seconds must be more than 0 and at most 3600", file=sys.stderr)
        return 2
    from .solver import solve

    board = Board(slug, number)
    result = solve(board, seconds=seconds)
    if result.solved and record:
        for move in result.moves:
            board.push(move)
        out.write(GameRecord.from_board(board).to_text())
    elif result.solved:
        out.write(f"solved in {len(result.moves)} moves\n")
        out.writelines(f"{move.notation()}\n" for move in result.moves)
    else:
        out.write(f"{result.verdict}\n")
    return 0
