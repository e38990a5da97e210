"""The solver bench: quick to run on a few deals, and it prints what the issue asks for."""

from __future__ import annotations

import pytest

from games.rules.solver import Techniques
from tools.bench_solver import build_parser, main, techniques_from


def test_bench_prints_archway_rate_and_decided_share(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "citadel", "--deals", "2", "--seconds", "1", "--jobs", "1"]
    assert main([*argv, "--no-fc-solve", "--archway-deals", "464-466"]) == 0
    out = capsys.readouterr().out
    assert "deals 464-466: 1 winnable" in out
    assert "winnable: 465" in out
    assert "decided 100.0%" in out


@pytest.mark.parametrize("deals", ["5", "9-3", "0-4", "a-b"])
def test_bench_refuses_a_malformed_archway_range(
    deals: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--archway-deals", deals]) == 2
    assert "--archway-deals" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["x", "0", "-5"])
def test_bench_refuses_a_depth_first_switch_that_is_no_count(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--depth-first-after", value])
    assert exit_.value.code == 2
    assert "neither a count of positions nor none" in capsys.readouterr().err


@pytest.mark.parametrize(("value", "expected"), [("none", None), ("NONE", None), ("5000", 5000)])
def test_bench_sets_the_depth_first_switch(value: str, expected: int | None) -> None:
    args = build_parser().parse_args(["--depth-first-after", value])
    assert techniques_from(args).depth_first_after == expected
    assert techniques_from(build_parser().parse_args([])) == Techniques()


def test_bench_turns_the_probes_off() -> None:
    args = build_parser().parse_args(["--without", "probes", "--without", "shorten"])
    techniques = techniques_from(args)
    assert techniques.probes == ()
    assert techniques.shorten is False
    assert Techniques().probes  # on by default


def test_bench_sets_and_turns_off_the_late_scans() -> None:
    args = build_parser().parse_args(["--late-scans", "dfs,random-dfs:3:2", "--late-after", "5000"])
    techniques = techniques_from(args)
    assert techniques.late_scans == (("dfs", 1), ("random-dfs:3", 2))
    assert techniques.late_after == 5000
    assert techniques_from(build_parser().parse_args(["--without", "late_scans"])).late_scans == ()


def test_bench_says_none_when_no_archway_deal_is_winnable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Deals 1-100 hold no winnable Archway deal: no "1 in 100" rate."""
    argv = ["--games", "citadel", "--deals", "1", "--seconds", "1", "--jobs", "1"]
    assert main([*argv, "--no-fc-solve", "--archway-deals", "1-100"]) == 0
    out = capsys.readouterr().out
    assert "0 winnable (0.000%, none)" in out
    assert "1 in" not in out


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--scans", "bogus"], "unknown scan 'bogus'"),
        (["--late-scans", "dfs:x"], "a scan's share is a count"),
        (["--late-scans", "random-dfs:0"], "a scan's share is a count"),
        (["--late-scans", "random-dfs:1"], "unknown scan 'random-dfs'"),
        (["--late-after", "-5"], "is not a count of positions"),
    ],
)
def test_bench_refuses_malformed_scans_with_the_reason(
    argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert reason in capsys.readouterr().err
