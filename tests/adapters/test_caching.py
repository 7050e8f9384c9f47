"""The adapters' caches (seat to act, legal indices, masks, observations) never go stale."""

import pickle
import random

import numpy as np
import numpy.typing as npt
import pytest

import campfire
from campfire.adapters import session as session_module
from campfire.adapters.pettingzoo import env
from campfire.adapters.session import Session
from campfire.core import OptionError
from tests.compiled_build import skip_compiled

from .conftest import GAMES


def _fresh_legal(session: Session, seat: int) -> list[int]:
    """The legal indices of ``seat`` computed from scratch (no cache of the session)."""
    state = session.state
    if session.is_over() or seat != min(state.seats_to_act()):
        return []
    return sorted(session.game.action_index(a, session.players) for a in state.legal_actions(seat))


def _fresh_observation(session: Session, seat: int) -> npt.NDArray[np.float32]:
    return session.encoder.encode(session.state.view(seat), session.beliefs[seat])


def _player_counts(game: str) -> list[int]:
    spec = campfire.get_game(game)
    return sorted({spec.min_players, 3, spec.max_players})


@pytest.mark.parametrize("game", GAMES)
def test_mask_and_observation_after_every_step_equal_fresh_ones(game: str) -> None:
    for players in _player_counts(game):
        e = env(game, players=players)
        e.reset(seed=players)
        session = e.unwrapped.session
        rng = random.Random(players)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            for s, other in enumerate(e.possible_agents):
                seen = obs if other == agent else e.observe(other)
                legal = _fresh_legal(session, s)
                assert np.flatnonzero(seen["action_mask"]).tolist() == legal
                assert session.legal(s) == legal
                assert np.array_equal(seen["observation"], _fresh_observation(session, s))
            if terminated or truncated:
                e.step(None)
            else:
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert session.is_over()


@pytest.mark.parametrize("game", GAMES)
def test_copies_of_a_session_recompute_what_they_cached(game: str) -> None:
    session = Session(game, 3, seed=11)
    rng = random.Random(3)
    for step in range(60):
        seat = session.current_seat()
        if seat is None:
            break
        session.legal_mask(seat)  # fill the caches before copying
        session.observation(seat)
        for copy in (session.clone(), session.determinize(seat, random.Random(step))):
            assert copy.current_seat() == seat
            for s in range(3):
                assert copy.legal(s) == _fresh_legal(copy, s)
                assert np.array_equal(copy.observation(s), _fresh_observation(copy, s))
        session.apply(seat, rng.choice(session.legal(seat)))


def test_a_returned_mask_or_observation_may_be_changed_by_its_caller() -> None:
    e = env("apache", players=2)
    e.reset(seed=0)
    agent = e.agent_selection
    first = e.observe(agent)
    expected = {k: v.copy() for k, v in first.items()}
    first["action_mask"][:] = 0
    first["observation"][:] = 7.0
    again = e.observe(agent)
    assert np.array_equal(again["action_mask"], expected["action_mask"])
    assert np.array_equal(again["observation"], expected["observation"])


def test_the_wrapper_refuses_per_step_attributes_before_reset() -> None:
    e = env("tracker", players=2)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(e, name)
    e.reset(seed=1)
    assert e.agents == ["player_0", "player_1"] and e.agent_selection in e.agents
    assert str(e) == "campfire_tracker_v0"


def test_the_wrapper_keeps_pettingzoos_order_checks() -> None:
    e = env("dudab", players=2)
    with pytest.raises(AssertionError, match="before step"):
        e.step(0)
    with pytest.raises(AssertionError, match="before agent_iter"):
        e.agent_iter()
    e.reset(seed=2)
    agents = iter(e.agent_iter(max_iter=3))
    assert next(agents) == e.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)  # no step in between
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert next(agents) == e.agent_selection
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    with pytest.raises(StopIteration):
        next(agents)  # max_iter reached


def test_lazy_memories_are_told_every_move_when_asked() -> None:
    """A memory the encoder does not read catches up on its events, move by move."""
    lazy = Session("dudab", 3, seed=4)
    eager = Session("dudab", 3, seed=4)
    rng = random.Random(4)
    for _ in range(40):
        seat = lazy.current_seat()
        assert seat is not None
        index = rng.choice(lazy.legal(seat))
        events = lazy.apply(seat, index)
        eager.apply(seat, index)
        for belief in eager._beliefs:  # told at once, as a memory the encoder reads is
            belief.observe([e for e in events if e.to is None or belief.seat in e.to])
    assert lazy._pending  # nothing told yet
    for told, ref in zip(lazy.beliefs, eager._beliefs, strict=True):
        assert pickle.dumps(told) == pickle.dumps(ref)
    assert not lazy._pending


@pytest.mark.parametrize("game", ["dudab", "tracker"])
def test_a_session_without_history_plays_and_remembers_the_same(game: str) -> None:
    """keep_history=False: the same observations, masks and memories; no history to ask for."""
    kept = Session(game, 3, seed=6)
    bare = Session(game, 3, seed=6, keep_history=False)
    rng = random.Random(6)
    for _ in range(60):
        seat = kept.current_seat()
        if seat is None:
            break
        assert bare.current_seat() == seat
        assert np.array_equal(kept.observation(seat), bare.observation(seat))
        assert np.array_equal(kept.legal_mask(seat), bare.legal_mask(seat))
        index = rng.choice(kept.legal(seat))
        kept.apply(seat, index)
        bare.apply(seat, index)
    # no log, and nothing pending: its memories were told every move (kept's wait for beliefs)
    assert not bare._log and not bare._pending
    for told, ref in zip(bare.beliefs, kept.beliefs, strict=True):
        assert pickle.dumps(told) == pickle.dumps(ref)
    with pytest.raises(OptionError, match="keeps no history"):
        bare.history(0)
    with pytest.raises(OptionError, match="keeps no history"):
        bare.information_state_string(0)
    with pytest.raises(OptionError, match="keeps no history"):
        bare.determinize(0, random.Random(1))
    assert bare.clone().keep_history is False


@pytest.mark.parametrize("game", GAMES)
def test_a_session_that_follows_no_memories_plays_the_same(game: str) -> None:
    """follow_memories=False: the same observations, masks and returns, move by move.

    A memory the encoder does not read is told nothing (it stays as the game made it) and
    cannot be asked for; an encoder that reads the memories keeps them followed as before.
    """
    kept = Session(game, 3, seed=8, keep_history=False)
    bare = Session(game, 3, seed=8, keep_history=False, follow_memories=False)
    untold = [pickle.dumps(b) for b in bare._beliefs]
    rng = random.Random(8)
    for _ in range(80):
        seat = kept.current_seat()
        assert bare.current_seat() == seat
        if seat is None:
            break
        assert np.array_equal(kept.observation(seat), bare.observation(seat))
        assert np.array_equal(kept.legal_mask(seat), bare.legal_mask(seat))
        index = rng.choice(kept.legal(seat))
        kept.apply(seat, index)
        bare.apply(seat, index)
    assert kept.returns() == bare.returns()
    copy = pickle.loads(pickle.dumps(bare))
    assert copy.follow_memories is False and bare.clone().follow_memories is False
    if bare.encoder.uses_memory:  # followed all the same: the same memories as kept's
        for told, ref in zip(bare.beliefs, kept.beliefs, strict=True):
            assert pickle.dumps(told) == pickle.dumps(ref)
        return
    assert [pickle.dumps(b) for b in bare._beliefs] == untold  # told nothing
    with pytest.raises(OptionError, match="does not follow the seats' memories"):
        _ = bare.beliefs
    with pytest.raises(OptionError, match="does not follow the seats' memories"):
        bare.observation_string(0)


@skip_compiled("campfire.adapters.session")  # a compiled Session has no __dict__ to compare
def test_the_attribute_list_names_every_attribute_a_session_and_its_clone_hold() -> None:
    """``_ATTRIBUTES`` (what a Session pickles; a compiled one has no ``__dict__``) stays in
    step with what ``__init__`` and ``clone`` set: an attribute missing there is lost on
    the way through pickle."""
    session = Session("tracker", 2, seed=1)
    seat = session.current_seat()
    assert seat is not None
    session.apply(seat, session.legal(seat)[0])
    assert set(vars(session)) == set(session_module._ATTRIBUTES)
    assert set(vars(session.clone())) == set(session_module._ATTRIBUTES)


@pytest.mark.parametrize("game", GAMES)
def test_a_restarted_session_plays_as_a_new_one(game: str) -> None:
    """``Session.restart`` (a batch's next game in a slot): after a game, or part of one, the
    session holds what a new session with that seed holds, and plays the same game."""
    for kept in (True, False):  # a table's session, a batch's
        used = Session(game, 3, seed=4, keep_history=kept, follow_memories=kept)
        rng = random.Random(4)
        for _ in range(30):  # part of a game, with what it cached and remembered
            seat = used.current_seat()
            if seat is None:
                break
            used.observation(seat)
            used.apply(seat, rng.choice(used.legal(seat)))
        used.restart(9)
        new = Session(game, 3, seed=9, keep_history=kept, follow_memories=kept)
        assert used.seed == 9 and used.moves == 0 and not used._log
        for _ in range(80):
            seat = new.current_seat()
            assert used.current_seat() == seat
            assert used.state.to_position() == new.state.to_position()
            if seat is None:
                break
            assert np.array_equal(used.observation(seat), new.observation(seat))
            assert np.array_equal(used.legal_mask(seat), new.legal_mask(seat))
            index = rng.choice(new.legal(seat))
            used.apply(seat, index)
            new.apply(seat, index)
        assert [pickle.dumps(b) for b in used._beliefs] == [pickle.dumps(b) for b in new._beliefs]
        if kept:
            assert used.history(0) == new.history(0)
