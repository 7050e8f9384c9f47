import random

import numpy as np
import pytest

import campfire
from campfire.adapters.encoders import encoder_for
from campfire.adapters.session import Session, win_share_returns
from campfire.core import IllegalActionError, OptionError, UnknownGameError

from .conftest import GAME_PLAYERS, GAMES


@pytest.mark.parametrize(("game", "players"), GAME_PLAYERS)
def test_determinisations_encode_like_the_state(game: str, players: int) -> None:
    """The hidden-information guarantee: an encoding is a function of what the seat knows."""
    session = Session(game, players, seed=players)
    rng = random.Random(players)
    step = 0
    while not session.is_over():
        if step % 9 == 0:
            for seat in range(players):
                obs = session.observation(seat)
                assert obs.shape == (session.encoder.size,)
                assert np.isfinite(obs).all()
                for k in range(2):
                    other = session.determinize(seat, random.Random(step * 7 + k))
                    assert np.array_equal(other.observation(seat), obs)
                    assert other.observation_string(seat) == session.observation_string(seat)
                    assert other.information_state_string(seat) == session.information_state_string(
                        seat
                    )
        mover = session.current_seat()
        assert mover is not None
        session.apply(mover, rng.choice(session.legal(mover)))
        step += 1
    assert session.state.is_terminal()


def test_tracker_encoding_holds_the_seats_memory_of_its_peeks() -> None:
    session = Session("tracker", 2, seed=5)
    board = session.encoder.slot("board")
    me = session.current_seat()
    assert me is not None
    other = 1 - me
    before = session.observation(me).copy()
    peek = session.legal(me)[0]  # peek 0
    session.apply(me, peek)
    known = board.offset + peek * board.shape[1] + 3
    assert before[known] == 0.0
    assert session.observation(me)[known] == 1.0
    assert session.observation(other)[known] == 0.0  # the other seat only saw the peek
    interest = board.offset + peek * board.shape[1] + 12
    assert session.observation(other)[interest] > 0.0


@pytest.mark.parametrize("game", GAMES)
def test_encoder_shape_is_the_same_for_every_player_count(game: str) -> None:
    spec = campfire.get_game(game)
    sizes = {encoder_for(game, n).size for n in range(spec.min_players, spec.max_players + 1)}
    assert len(sizes) == 1
    enc = encoder_for(game, spec.min_players)
    assert sum(int(np.prod(shape)) for _, shape, _ in enc.slots) == enc.size


def test_unknown_game_has_no_encoder() -> None:
    with pytest.raises(UnknownGameError, match="encoders exist for apache"):
        encoder_for("chess", 2)


def test_session_refuses_a_seat_out_of_turn_and_keeps_the_state() -> None:
    session = Session("dudab", 3, seed=1)
    seat = session.current_seat()
    assert seat is not None
    other = (seat + 1) % 3
    position = session.state.to_position()
    with pytest.raises(IllegalActionError, match="seat to act"):
        session.apply(other, session.legal(seat)[0])
    assert session.state.to_position() == position


def test_session_rejects_a_bad_move_cap() -> None:
    with pytest.raises(OptionError, match="max_moves"):
        Session("tracker", 2, max_moves=0)


def test_move_cap_ends_the_game_as_a_draw() -> None:
    session = Session("tracker", 2, seed=1, max_moves=5)
    while not session.is_over():
        seat = session.current_seat()
        assert seat is not None
        session.apply(seat, session.legal(seat)[0])
    assert session.moves == 5 and session.truncated
    assert session.returns() == [0.0, 0.0]
    assert session.current_seat() is None and session.legal(0) == []


def test_win_share_returns_are_zero_sum() -> None:
    for n in range(2, 7):
        for winners in [(0,), (1, 2), tuple(range(n))]:
            winners = tuple(w for w in winners if w < n)
            assert abs(sum(win_share_returns(winners, n))) < 1e-12
