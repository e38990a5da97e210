"""The HTTP bench's CPU figures: what each measurement cost the server and the players."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest

from tools.bench import CpuMeter, cpu_seconds

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
    busy(0.1)
    said = meter.per_request(10)
    match = re.fullmatch(
        r"server ([\d,]+) us/req \((\d+) % of a core\)  players ([\d,]+) us/req", said
    )
    assert match, said
    server, share, players = (int(group.replace(",", "")) for group in match.groups())
    assert server >= 9_000 and players >= 9_000  # 0.1 s over 10 requests, each side
    assert 50 <= share <= 150  # clock ticks are coarse


def test_without_a_server_the_meter_says_the_players_cost_alone() -> None:
    meter = CpuMeter(None)
    meter.start()
    assert re.fullmatch(r"players [\d,]+ us/req", meter.per_request(3))
