import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules.cli import main

from .helpers import GAME_SLUGS, GOLDEN, golden_layout

ROOT = Path(__file__).resolve().parents[2]
WON = GOLDEN / "citadel-3-won.txt"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    return code, out.getvalue()


def moves_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "moves.txt"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_deal_prints_the_layout_text(game: str) -> None:
    assert run("deal", game, "31999") == (0, golden_layout(game, 31999))


def test_deal_of_the_alias_prints_the_castle_layout() -> None:
    assert run("deal", "beleaguered-fortress", "2") == (0, golden_layout("beleaguered-castle", 2))


def test_check_reports_a_win_with_its_move_count() -> None:
    assert run("check", "citadel", "3", str(WON)) == (0, "won in 68 moves\n")


def test_check_reads_a_record_or_its_moves_alone(tmp_path: Path) -> None:
    moves = WON.read_text().split("\n", 2)[2]
    path = moves_file(tmp_path, "game: citadel\ndeal: 3\n\n" + moves)

    assert run("check", "citadel", "3", path) == (0, "won in 68 moves\n")
    assert run("check", "citadel", "3", moves_file(tmp_path, moves)) == (0, "won in 68 moves\n")


def test_check_refuses_a_header_line_a_record_does_not_have(tmp_path: Path, capsys) -> None:
    """A misspelt option was passed over, and the line checked without it (a review)."""
    path = moves_file(tmp_path, "game: beleaguered-castle\ndeal: 1\noptions: take-back\nt3-t6\n")

    assert run("check", "beleaguered-castle", "1", path)[0] == 2
    assert "line 3: a record has no 'options:' line" in capsys.readouterr().err


def test_check_reports_moves_and_foundation_cards_when_not_won(tmp_path: Path) -> None:
    path = moves_file(tmp_path, "t7-t6 t7-t1\nt7-f3\n")

    assert run("check", "citadel", "1", path) == (0, "not won: 3 moves, 12 cards on foundations\n")


def test_check_of_no_moves_reports_the_deal(tmp_path: Path) -> None:
    path = moves_file(tmp_path, "")

    assert run("check", "citadel", "1", path) == (0, "not won: 0 moves, 11 cards on foundations\n")


def test_check_reads_the_moves_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(WON.read_text()))

    assert run("check", "citadel", "3") == (0, "won in 68 moves\n")


def test_check_stops_at_an_illegal_move_with_its_number_and_reason(tmp_path: Path) -> None:
    path = moves_file(tmp_path, "game: citadel\ndeal: 1\nt3-t6 t6-t2 t1-f\n")

    assert run("check", "citadel", "1", path) == (
        1,
        "illegal move 2 (t6-t2): An 8 can only go on a 9, not on 4H\n",
    )


def test_check_reports_malformed_notation_as_an_illegal_move(tmp_path: Path) -> None:
    code, out = run("check", "citadel", "1", moves_file(tmp_path, "t3-t6 t6>t2\n"))

    assert code == 1
    assert out.startswith("illegal move 2 (t6>t2): 't6>t2' is not a move")


@pytest.mark.parametrize("kind", ["missing", "directory", "not utf-8"])
def test_unreadable_file_exits_2_with_a_message_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = {"missing": tmp_path / "nope.txt", "directory": tmp_path, "not utf-8": tmp_path / "b"}
    path["not utf-8"].write_bytes(b"\xff\xfe t1-f1")

    code, out = run("check", "citadel", "1", str(path[kind]))

    err = capsys.readouterr().err
    assert code == 2
    assert out == ""
    assert err.startswith(f"error: cannot read {path[kind]}: ")
    assert "Traceback" not in err


@pytest.mark.parametrize("command", [["deal"], ["check"]])
def test_unknown_game_exits_2(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(*command, "klondike", "1")

    assert code == 2
    assert out == ""
    assert capsys.readouterr().err.startswith("error: unknown game 'klondike': choose one of ")


@pytest.mark.parametrize("number", ["0", str(2**63)])
def test_deal_number_out_of_range_exits_2(number: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("deal", "citadel", number) == (2, "")
    assert f"error: deal number {number} is out of range" in capsys.readouterr().err


@pytest.mark.parametrize("number", ["-1", "one", "1.5", ""])
def test_deal_number_that_is_not_a_whole_number_exits_2(
    number: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run("deal", "citadel", number)

    assert exit_.value.code == 2
    assert "is not a deal number: use 1 to" in capsys.readouterr().err


def test_missing_command_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run()

    assert exit_.value.code == 2
    assert "usage:" in capsys.readouterr().err


def python_m(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "games.rules", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_python_m_games_rules_deals() -> None:
    result = python_m("deal", "citadel", "1")

    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        golden_layout("citadel", 1),
        "",
    )


def test_python_m_games_rules_checks_and_exits_1_on_an_illegal_move(tmp_path: Path) -> None:
    won = python_m("check", "citadel", "3", str(WON))
    illegal = python_m("check", "citadel", "1", moves_file(tmp_path, "t6-t2"))

    assert (won.returncode, won.stdout) == (0, "won in 68 moves\n")
    assert (illegal.returncode, illegal.stdout) == (
        1,
        "illegal move 1 (t6-t2): A 9 can only go on a 10, not on 4H\n",
    )


def test_python_m_games_rules_bad_input_prints_no_traceback(tmp_path: Path) -> None:
    for argv in [
        ("check", "citadel", "1", str(tmp_path / "nope.txt")),
        ("deal", "klondike", "1"),
        ("deal", "citadel", "0"),
        ("deal", "citadel", "x"),
    ]:
        result = python_m(*argv)
        assert result.returncode == 2, argv
        assert result.stdout == ""
        assert result.stderr
        assert "Traceback" not in result.stderr
