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
from campfire.core.present import ActionChoice, Answer
from campfire.tui.launch import play_config
from campfire.tui.modes import mode_for, timed_answer
from campfire.tui.session import PlaySession, SeatSpec, default_record_path, parse_opponents


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
    presenter = get(game).presenter()

    def lines(seat: int | None) -> list[str]:
        return [m.text for m in presenter.messages(visible_events(seen, seat), names, seat)]

    assert session.log(0) == lines(0)[-500:]
    assert session.log(None) == lines(None)[-500:]
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
    assert config.options == {} and len(config.seats) == 3  # claim_order=reaction, the default
    config = play_config("tracker", opponents=["human"])
    assert [s.name for s in config.seats] == ["Player 1", "Player 2"]
    assert play_config(None).seats == []
    with pytest.raises(OptionError, match="--opponents: unknown agent"):
        play_config("dudab", opponents=["genius"])
    assert play_config("apache", opponents=["human"]).seats[1].human  # hot seat: turns
    with pytest.raises(CampfireError, match="need a GAME"):
        play_config(None, players=3)


# ----- resuming ------------------------------------------------------------------------------


def test_an_unfinished_game_resumes_with_its_seats_bots_and_logs() -> None:
    seats = [SeatSpec("Ann"), SeatSpec("Bot", "easy")]
    session = PlaySession(get("dudab"), seats, seed=4)
    for _ in range(12):
        human = session.human_to_act()
        if human is not None:
            session.play(human, session.legal_actions(human)[0])
        else:
            session.bot_step()
    record = Record.loads(session.record().dumps())
    again = PlaySession.resume(record)
    assert again.names == ["Ann", "Bot"] and again.bot_seed == session.bot_seed
    assert again.state.to_position() == session.state.to_position()
    assert again.log(0) == session.log(0)
    _play_out(again)
    assert again.is_over()


def test_a_finished_game_does_not_resume() -> None:
    session = PlaySession(get("tracker"), [SeatSpec("You"), SeatSpec("Bot", "random")], seed=3)
    _play_out(session)
    with pytest.raises(CampfireError, match="finished"):
        PlaySession.resume(session.record())


def test_rename_changes_the_record() -> None:
    session = PlaySession(get("tracker"), [SeatSpec("Player 1"), SeatSpec("Player 2")], seed=3)
    session.rename(1, "  Bob   the  Tracker ")
    assert session.record().players[1].name == "Bob the Tracker"


def test_modes_come_from_the_game_declaration() -> None:
    human_and_bot = [SeatSpec("You"), SeatSpec("Bot", "easy")]
    assert mode_for(get("apache"), human_and_bot).name == "realtime-claims"
    assert mode_for(get("apache"), [SeatSpec("A"), SeatSpec("B")]).name == "turns"
    assert mode_for(get("tracker"), human_and_bot).name == "timed-peek"
    assert mode_for(get("dudab"), human_and_bot).name == "turns"


def test_timed_answer_picks_the_nearest_reaction_time() -> None:
    chief = Answer("claim chief", "Claim with your chief", "chief")
    choices = [
        ActionChoice(i, f"claim chief {t}", "", answer=chief, delay_ms=t)
        for i, t in enumerate(range(0, 2001, 50))
    ]
    assert timed_answer(choices, 349).notation == "claim chief 350"
    assert timed_answer(choices, 99999).notation == "claim chief 2000"
