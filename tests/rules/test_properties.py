"""Invariants of random legal play in every game (engine only: no database)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from games.rules import TAKE_BACK, Board, GameRecord, IllegalMove, Move, NotationError

from .helpers import VARIANTS, all_cards, played_boards

IDS = [game + ("+" + "+".join(options) if options else "") for game, options in VARIANTS]
SETTINGS = settings(max_examples=20, deadline=None)


def variant_boards(variant: tuple[str, frozenset[str]]) -> st.SearchStrategy[Board]:
    game, options = variant
    return played_boards(game, options=options, max_moves=50)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_random_play_never_creates_or_loses_a_card(
    variant: tuple[str, frozenset[str]], data: st.DataObject
) -> None:
    board = data.draw(variant_boards(variant))

    assert all_cards(board) == all_cards(Board(board.rules, board.deal_number))


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_undo_restores_the_exact_position(
    variant: tuple[str, frozenset[str]], data: st.DataObject
) -> None:
    board = data.draw(variant_boards(variant))
    layouts = []
    keys = []
    replay = Board(board.rules, board.deal_number, options=board.options)
    for move in board.move_stack:
        layouts.append(replay.layout())
        keys.append(replay.position_key())
        replay.play(move)

    while board.ply:
        board.undo()
        assert board.layout() == layouts.pop()
        assert board.position_key() == keys.pop()
    assert board.layout() == Board(board.rules, board.deal_number, options=board.options).layout()


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_replaying_the_game_record_gives_the_live_position(
    variant: tuple[str, frozenset[str]], data: st.DataObject
) -> None:
    board = data.draw(variant_boards(variant))

    replayed = GameRecord.from_text(GameRecord.from_board(board).to_text()).replay()

    assert replayed.layout() == board.layout()
    assert replayed.position_key() == board.position_key()
    assert replayed.move_stack == board.move_stack


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_layout_text_round_trips(variant: tuple[str, frozenset[str]], data: st.DataObject) -> None:
    board = data.draw(variant_boards(variant))

    read = Board.from_layout(board.layout())

    assert read.layout() == board.layout()
    assert read.position_key() == board.position_key()
    assert read.legal_moves() == board.legal_moves()
    assert read.base_rank == board.base_rank


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_every_legal_move_is_accepted_by_play_in_notation_too(
    variant: tuple[str, frozenset[str]], data: st.DataObject
) -> None:
    board = data.draw(variant_boards(variant))
    legal = board.legal_moves()

    assert len(set(legal)) == len(legal)
    for move in legal:
        assert board.is_legal(move)
        for given_as in (move, move.notation()):
            copy = board.copy()
            assert copy.play(given_as) == move
            assert copy.ply == board.ply + 1
            assert copy.move_stack[-1] == move


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_a_move_not_in_legal_moves_is_refused_and_changes_nothing(
    variant: tuple[str, frozenset[str]], data: st.DataObject
) -> None:
    board = data.draw(variant_boards(variant))
    legal = set(board.legal_moves())
    sources = [name for name in board.pile_names if board.pile(name)]
    before = board.layout()

    for _ in range(10):
        source = data.draw(st.sampled_from(sources))
        target = data.draw(st.sampled_from(board.pile_names))
        card = data.draw(st.sampled_from(board.pile(source))) if source[0] == "r" else None
        move = Move(source, target, card)
        if move in legal:
            continue
        assert not board.is_legal(move)
        with pytest.raises(IllegalMove) as error:
            board.play(move)
        assert error.value.reason
        assert "None" not in error.value.reason
        assert board.layout() == before


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_stuck_means_no_legal_move_and_implies_cycle_stuck(
    variant: tuple[str, frozenset[str]], data: st.DataObject
) -> None:
    board = data.draw(variant_boards(variant))

    assert board.is_stuck() == (not board.is_won() and not board.legal_moves())
    if board.is_stuck():
        assert board.is_cycle_stuck()
    if board.is_cycle_stuck():
        seen = set(board.positions_seen())
        for move in board.legal_moves():
            copy = board.copy()
            copy.play(move)
            assert copy.position_key() in seen


@st.composite
def shuttled_boards(draw: st.DrawFn, variant: tuple[str, frozenset[str]]) -> Board:
    """A board after random play, then moves between piles that often take the last move
    back: a line that comes back to positions it has had."""
    board = draw(variant_boards(variant))
    for _ in range(draw(st.integers(min_value=0, max_value=30))):
        moves = [m for m in board.legal_moves() if not m.to_foundation]
        if not moves:
            break
        last = board.move_stack[-1] if board.ply else None
        back = [m for m in moves if last and (m.source, m.target) == (last.target, last.source)]
        take_back = bool(back) and draw(st.booleans())
        board.play(draw(st.sampled_from(back if take_back else moves)))
    return board


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_each_move_is_found_among_the_seen_positions_exactly_when_it_returns_to_one(
    variant: tuple[str, frozenset[str]], data: st.DataObject
) -> None:
    """The walk back through the undo stack (no key per position) against the keys of every
    position seen, one move at a time, and the stuck verdict against its definition."""
    board = data.draw(shuttled_boards(variant))
    seen = set(board.positions_seen())
    returns = []
    for raw in board.raw_legal_moves():
        copy = board.copy()
        copy.push(raw)
        returns.append(copy.position_key() in seen)
        if TAKE_BACK not in board.options and not board.book.is_foundation(raw[1]):
            assert board._every_move_returns_since_foundation([raw]) == returns[-1], raw
    assert board.is_cycle_stuck() == (not board.is_won() and all(returns))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_foundation_move_text_resolves_when_exactly_one_foundation_takes_it(
    data: st.DataObject,
) -> None:
    board = data.draw(played_boards(max_moves=30))

    for name in board.pile_names:
        if name[0] != "t" or not board.pile(name):
            continue
        targets = [m.target for m in board.legal_moves() if m.source == name and m.to_foundation]
        if len(targets) == 1:
            assert board.parse_move(f"{name}-f") == Move(name, targets[0])
        else:
            with pytest.raises((IllegalMove, NotationError)):
                board.parse_move(f"{name}-f")


class RandomGame(RuleBasedStateMachine):
    """Play, undo and auto-play at random; the position must stay whole and replayable."""

    @initialize(
        variant=st.sampled_from(VARIANTS),
        number=st.integers(min_value=1, max_value=2**63 - 1),
    )
    def deal(self, variant: tuple[str, frozenset[str]], number: int) -> None:
        game, options = variant
        self.board = Board(game, number, options=options)
        self.cards = all_cards(self.board)
        self.moves: list[Move] = []

    @precondition(lambda self: bool(self.board.legal_moves()))
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        move = data.draw(st.sampled_from(self.board.legal_moves()))
        self.moves.append(self.board.play(move))

    @precondition(lambda self: self.board.ply > 0)
    @rule()
    def undo(self) -> None:
        assert self.board.undo() == self.moves.pop()

    @rule()
    def autoplay(self) -> None:
        self.moves += self.board.autoplay()

    @invariant()
    def no_card_is_created_or_lost(self) -> None:
        assert all_cards(self.board) == self.cards

    @invariant()
    def ply_counts_every_move_on_the_line(self) -> None:
        assert self.board.ply == len(self.moves)
        assert self.board.move_stack == self.moves

    @invariant()
    def layout_round_trips(self) -> None:
        layout = self.board.layout()
        assert Board.from_layout(layout).layout() == layout

    @invariant()
    def record_replays_to_the_live_position(self) -> None:
        record = GameRecord.from_text(GameRecord.from_board(self.board).to_text())
        assert record.replay().position_key() == self.board.position_key()

    @invariant()
    def won_means_every_card_is_up(self) -> None:
        assert self.board.is_won() == (self.board.cards_on_foundations == self.board.rules.cards)


RandomGame.TestCase.settings = settings(max_examples=25, stateful_step_count=30, deadline=None)
test_random_game = RandomGame.TestCase
