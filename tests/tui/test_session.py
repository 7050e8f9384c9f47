"""The terminal UI's session, real-time Apache and texts, without a terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from campfire.core import (
    CampfireError,
    Event,
    IllegalActionError,
    OptionError,
    Record,
    get,
    replay,
    visible_events,
)
from campfire.tui.clock import FakeClock
from campfire.tui.launch import play_config
from campfire.tui.realtime import RealtimeApache
from campfire.tui.session import PlaySession, SeatSpec, default_record_path, parse_opponents
from campfire.tui.views import render_view
from campfire.tui.words import describe


def _play_out(session: PlaySession) -> None:
    while not session.is_over():
        human = session.human_to_act()
        if human is not None:
            session.play(human, session.legal_actions(human)[0])
        else:
            assert session.bot_step() is not None


@pytest.mark.parametrize("game", ["tracker", "dudab", "manitou", "apache"])
def test_a_seat_log_holds_exactly_the_events_it_may_see(game: str) -> None:
    session = PlaySession(get(game), [SeatSpec("You"), SeatSpec("Bot", "random")], seed=7)
    seen: list[Event] = []
    session.listeners.append(lambda seat, events: seen.extend(events))
    _play_out(session)
    names = session.names
    assert session.log(0) == [describe(game, e, names) for e in visible_events(seen, 0)][-500:]
    assert (
        session.log(None) == [describe(game, e, names) for e in visible_events(seen, None)][-500:]
    )
    assert session.log(1) == []  # a bot seat has no screen
    assert any(e.to is not None and 0 not in e.to for e in seen) or game == "tracker"


def test_the_tracker_log_never_repeats_a_peeked_card() -> None:
    session = PlaySession(get("tracker"), [SeatSpec("You"), SeatSpec("Bot", "random")], seed=1)
    cards: list[str] = []
    session.listeners.append(
        lambda seat, events: cards.extend(e.data["card"] for e in events if e.type == "peek_card")
    )
    _play_out(session)
    assert cards
    log = "\n".join(session.log(0))
    assert not any(card in log for card in cards)


def test_a_finished_session_saves_a_record_that_replays(tmp_path: Path) -> None:
    session = PlaySession(get("manitou"), [SeatSpec("You"), SeatSpec("Bot", "easy")], seed=3)
    _play_out(session)
    path = session.save(directory=tmp_path)
    assert path.parent == tmp_path and path.name.startswith("manitou-")
    record = Record.load(path)
    assert record.outcome == session.outcome()
    assert record.meta["client"] == "campfire play"
    assert replay(record).state.position_equal(session.state)


def test_saving_to_a_bad_place_is_a_clear_error(tmp_path: Path) -> None:
    session = PlaySession(get("tracker"), [SeatSpec("You"), SeatSpec("Bot", "random")], seed=3)
    (tmp_path / "file").write_text("x")
    with pytest.raises(CampfireError, match="cannot save the record"):
        session.save(tmp_path / "file" / "game.json")


def test_default_record_path_is_in_the_user_data_directory() -> None:
    path = default_record_path("tracker", 12)
    assert path.parent.name == "records" and "campfire" in str(path).lower()
    assert path.name.startswith("tracker-") and path.name.endswith("-12.json")


def test_a_seat_that_may_not_act_is_refused() -> None:
    session = PlaySession(get("tracker"), [SeatSpec("You"), SeatSpec("Bot", "random")], seed=1)
    bot = session.bot_to_act()
    assert bot == 1
    with pytest.raises(IllegalActionError):
        session.play(0, "peek 0")
    assert session.match.actions == []


def test_opponents_and_play_config() -> None:
    assert [s.agent for s in parse_opponents([], 3)] == [None, "easy", "easy"]
    config = play_config("apache", opponents=["hard", "easy"])
    assert config.options == {"claim_order": "arrival"} and len(config.seats) == 3
    config = play_config("tracker", opponents=["human"])
    assert [s.name for s in config.seats] == ["Player 1", "Player 2"]
    assert play_config(None).seats == []
    with pytest.raises(OptionError, match="--opponents: unknown agent"):
        play_config("dudab", opponents=["genius"])
    with pytest.raises(CampfireError, match="one human"):
        play_config("apache", opponents=["human"])
    with pytest.raises(CampfireError, match="need a GAME"):
        play_config(None, players=3)


# ----- real-time Apache ----------------------------------------------------------------------


def _realtime(seed: int = 3, protect_me: bool = False) -> tuple[RealtimeApache, FakeClock]:
    session = PlaySession(
        get("apache"),
        [SeatSpec("You"), SeatSpec("Bot", "random")],
        {"claim_order": "arrival"},
        seed=seed,
    )
    clock = FakeClock()
    rt = RealtimeApache(session, clock, reveal_delay=1.0, window=3.0, protect_me=protect_me)
    hunter = get("apache").parse_action("claim hunter")
    for bot in rt.bots.values():
        bot.decide = lambda obs: (hunter, 0.5)  # type: ignore[method-assign]
    return rt, clock


def test_the_next_card_is_revealed_on_the_timer() -> None:
    rt, clock = _realtime()
    rt.tick()
    assert rt.phase() == "reveal" and rt.seconds_left() == 1.0
    clock.advance(0.9)
    rt.tick()
    assert rt.phase() == "reveal"
    clock.advance(0.1)
    rt.tick()
    assert rt.phase() == "claim" and rt.seconds_left() == 3.0


def test_the_human_who_claims_first_is_first_in_the_queue() -> None:
    rt, clock = _realtime()
    rt.tick()
    clock.advance(1.0)
    rt.tick()
    clock.advance(0.2)
    rt.claim(0, "chief")  # before the bot's 0.5 s
    clock.advance(0.4)
    rt.tick()
    closed = [e for e in rt.session.log(0) if e.startswith("The window closes")]
    assert closed == ["The window closes: You (chief), Bot (hunter)."]


def test_a_faster_bot_is_first_in_the_queue_and_silence_is_a_pass() -> None:
    rt, clock = _realtime()
    rt.tick()
    clock.advance(1.0)
    rt.tick()
    clock.advance(0.5)
    rt.tick()
    assert rt.session.view(0)["answers"] == [None, "claim hunter"]
    with pytest.raises(CampfireError):
        rt.pass_(1)  # the bot has answered already
    clock.advance(2.5)  # the window closes: the human passes
    rt.tick()
    log = rt.session.log(0)
    assert "You pass." in log
    assert "The window closes: Bot (hunter)." in log


def test_protect_me_refuses_a_claim_that_would_be_penalised() -> None:
    rt, clock = _realtime(protect_me=True)
    rt.tick()
    clock.advance(1.0)
    rt.tick()
    protect = rt.session.view(0)["protect_me"]
    refused = [t for t, ok in protect.items() if not ok]
    assert refused
    with pytest.raises(CampfireError, match="protect me"):
        rt.claim(0, refused[0])
    assert rt.session.view(0)["answers"][0] is None


def test_real_time_needs_arrival_order() -> None:
    session = PlaySession(get("apache"), [SeatSpec("You"), SeatSpec("Bot", "random")], seed=1)
    with pytest.raises(OptionError, match="claim_order=arrival"):
        RealtimeApache(session, FakeClock())


# ----- texts ---------------------------------------------------------------------------------


def test_views_show_only_the_view() -> None:
    state = get("dudab").new_game(2, seed=1)
    mine = render_view(state.view(0), ["Ann", "Bob"])
    assert "your hand: " + " ".join(state.view(0)["hand"]) in mine
    assert "your hand" not in render_view(state.view(None), ["Ann", "Bob"])


def test_tracker_board_shows_a_peek_and_learning_marks() -> None:
    view = get("tracker").new_game(2, seed=1).view(0)
    text = render_view(view, ["Ann", "Bob"], shown={5: "S-T3-1"}, marked={7})
    assert "S:T3" in text and "+7" in text and " 5 " not in text


def test_unknown_events_are_still_described() -> None:
    assert describe("tracker", Event("odd_thing", {"seat": 1, "x": 2}), ["A", "B"]) == (
        "odd thing: seat B, x 2."
    )
