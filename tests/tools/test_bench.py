"""The HTTP bench's CPU figures: what each measurement cost the server and the players."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time

import pytest

from games.rules import Board
from tools.bench import CpuMeter, Player, cpu_seconds

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs /proc")


def busy(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_cpu_seconds_counts_a_process_and_its_children() -> None:
    spin = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {spin!r}])",
        ]
    )
    try:
        seen = 0.0
        while parent.poll() is None:
            seen = max(seen, cpu_seconds(parent.pid) or 0.0)
            time.sleep(0.01)
    finally:
        parent.wait()
    assert seen >= 0.2  # the child's spinning, seen through its parent


def test_cpu_seconds_of_no_process_is_none() -> None:
    assert cpu_seconds(2**22 + 12345) is None


def test_the_meter_says_each_sides_cost_per_request() -> None:
    meter = CpuMeter(os.getpid())
    meter.start()
    wall, cpu = time.perf_counter(), time.process_time()
    busy(0.1)
    said = meter.per_request(10)
    # The share this process had of a core, however busy the machine was.
    had = (time.process_time() - cpu) / (time.perf_counter() - wall) * 100
    match = re.fullmatch(
        r"server ([\d,]+) us/req \((\d+) % of a core\)  players ([\d,]+) us/req", said
    )
    assert match, said
    server, share, players = (int(group.replace(",", "")) for group in match.groups())
    assert server >= 9_000 and players >= 9_000  # 0.1 s over 10 requests, each side
    assert abs(share - had) <= 50  # the kernel counts CPU in coarse clock ticks


def test_without_a_server_the_meter_says_the_players_cost_alone() -> None:
    meter = CpuMeter(None)
    meter.start()
    assert re.fullmatch(r"players [\d,]+ us/req", meter.per_request(3))


class _Answers:
    """A browser stand-in: every request answers 200 with an empty body."""

    def request(self, *args: object, **kwargs: object) -> tuple[int, dict[str, str], bytes]:
        return 200, {}, b""


def test_a_player_passes_over_deals_that_open_without_a_move() -> None:
    """Beleaguered Castle 18 and 25 open without a legal move (auto-play off): the player
    takes the next waiting game instead of failing to choose a move."""
    player = object.__new__(Player)
    player.browser = _Answers()  # type: ignore[assignment]
    player.rng = random.Random(1)
    player.token = player.controls = ""
    player.waiting = [("/games/c/", Board("beleaguered-castle", 2))]
    player.waiting.append(("/games/b/", Board("beleaguered-castle", 25)))
    player.url, player.board = "/games/a/", Board("beleaguered-castle", 18)
    assert player.move() == (200, 0)
    assert (player.url, player.board.ply) == ("/games/c/", 1)
