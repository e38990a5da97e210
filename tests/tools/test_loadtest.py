"""The load test's simulated player plays as the board script does and keeps in step with
the site: if the site's answers change shape, this fails here rather than in a load test
nobody runs on every change."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest

from games.models import Game
from tools.loadtest import SimulatedPlayer, replay_problems

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_simulated_player_plays_in_step_with_the_site(live_server) -> None:
    port = urlsplit(live_server.url).port
    assert port is not None
    player = SimulatedPlayer(7, [port, port], time.perf_counter() + 60, budget=60)

    player.run()

    assert player.errors == []
    kinds = {sample.kind for sample in player.samples}
    assert {"new", "page", "move"} <= kinds
    assert sum(sample.kind == "move" for sample in player.samples) >= 20
    assert replay_problems() == (Game.objects.count(), [])
