"""Ratings in the browser, by clicking: two people sign up, play a rated game, and see their new
ratings, the game in their history (with its replay) and the game's leaderboard.

The game itself is played over the table's socket with the seats the pages hold, the pages
following it (``people.play_by_socket``): a whole game by clicks is ``test_play``'s."""

from __future__ import annotations

import random
import re
import secrets
from typing import Any

from .people import join_table, must, over, play_by_socket, sign_up, start
from .test_axe import at_each_size

#: a short game
GAME = "tracker"


def test_two_people_play_a_rated_game_and_see_their_ratings_history_and_leaderboard(
    server: Any, new_page: Any
) -> None:
    tag = secrets.token_hex(3)
    ann_name, bob_name = f"Ann{tag}", f"Bob{tag}"
    ann, bob = new_page(), new_page()
    sign_up(ann, server.base, ann_name)
    sign_up(bob, server.base, bob_name)

    # Ann makes a rated table in the lobby: the box is there because she is signed in
    ann.get_by_role("link", name="Lobby").click()
    ann.wait_for_url(f"{server.base}/")
    rated = ann.get_by_label(re.compile("^Rated"))
    rated.wait_for()
    ann.get_by_label("Game").select_option(GAME)
    ann.get_by_label("Players").select_option("2")
    ann.get_by_label("Seat 2", exact=True).select_option("open")
    rated.check()
    assert ann.get_by_label(re.compile("^Hints")).is_disabled()  # never at a rated table
    ann.get_by_role("button", name="Create table").click()
    ann.wait_for_url(re.compile(r"/t/\d+$"))
    table = int(ann.url.rsplit("/", 1)[1])

    join_table(bob, server.base, table, bob_name)
    for page in (ann, bob):  # the table says it is rated
        page.locator("#cf-rated").get_by_text(re.compile("^Rated: ")).wait_for()
    start(ann)
    assert play_by_socket(server.ws, table, [ann, bob], random.Random(7)) > 0
    for page in (ann, bob):
        must(page, lambda: over(page), "the end of the game")  # noqa: B023 (called now)

    # Ann's page: her rating (provisional after one game), its graph, the game with its replay
    ann.goto(f"{server.base}/")
    ann.get_by_role("link", name="My profile").click()
    ann.wait_for_url(f"**/player/{ann_name}")
    rating = ann.locator(f'.cf-rating[data-game="{GAME}"][data-players="0"]')
    must(ann, lambda: rating.count() == 1, "Ann's rating")
    assert re.fullmatch(r"Rating \d+\?", rating.locator(".cf-rating-value").inner_text())
    assert "1 game" in rating.inner_text()
    graph = rating.get_by_role("img", name=re.compile("the rating after each rated game"))
    assert graph.locator("circle").count() == 2  # before and after the one game
    at_each_size(ann, "a player's page")  # axe-core: no serious or critical violation
    game = ann.locator(f'.cf-game-item[data-table="{table}"]')
    assert "rated" in game.inner_text() and bob_name in game.inner_text()
    game.get_by_role("link", name="Replay").click()
    ann.wait_for_url(re.compile(rf"/replay\?table={table}&game=1"))

    # Bob's "my games": the finished game, with its result and his rating change
    bob.goto(f"{server.base}/account")
    bob.get_by_role("link", name="My games").click()
    bob.wait_for_url("**/games")
    finished = bob.locator("#cf-finished")
    must(bob, lambda: finished.locator(f'[data-table="{table}"]').count() == 1, "the game")
    assert re.search(r"rating [+-]?\d+", finished.inner_text())
    assert "No games yet." in bob.locator("#cf-running").inner_text()
    at_each_size(bob, "my games")

    # the leaderboard: both of them, each a link to their page, ranked
    bob.get_by_role("link", name="Leaderboards").click()
    bob.get_by_label("Game").select_option(GAME)
    bob.wait_for_url(f"**/leaderboard/{GAME}")
    board = bob.locator("table.cf-board")
    must(bob, lambda: board.count() == 1, "the leaderboard")
    names = board.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert {ann_name, bob_name} <= set(names)
    values = [int(v.rstrip("?")) for v in board.locator(".cf-board-rating").all_inner_texts()]
    assert values == sorted(values, reverse=True)
    at_each_size(bob, "a leaderboard")
    board.get_by_role("link", name=ann_name).click()
    bob.wait_for_url(f"**/player/{ann_name}")
