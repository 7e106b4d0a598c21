"""The replay's float path (Elo systems) writes exactly the rows and tallies the general path
writes through `rate` and state objects: every bit, every row in the same order."""

import datetime
import random

import pytest

from leagues.domain.csvformat import GUILDMASTER_ORDER
from ratings.domain.base import Finish, RatingState, canonical
from ratings.domain.elo import Elo, GuildmasterElo
from ratings.domain.openskill_system import OpenSkill
from ratings.domain.replay import RatedGame, Tally, games_of, replay, replay_results


class StatesOnly:
    """The same system seen through the general contract only (no `rate_floats`)."""

    def __init__(self, inner):
        self.inner = inner

    def initial(self):
        return self.inner.initial()

    def rate(self, before, finish):
        return self.inner.rate(before, finish)

    def display(self, state):
        return self.inner.display(state)


def random_games(rng: random.Random, count: int, players: int) -> list[RatedGame]:
    games = []
    day = datetime.date(2026, 1, 1)
    for game_id in range(1, count + 1):
        pod = rng.sample(range(1, players + 1), rng.choice([2, 3, 4, 5]))
        places = sorted(rng.choice([1, 1, 2, 3, 4]) for _ in pod)
        places = [1 + sum(p < place for p in places) for place in places]  # ties, dense ranks
        finish = [Finish(player, place) for player, place in zip(pod, places, strict=True)]
        rng.shuffle(finish)  # input order is not canonical order
        games.append(RatedGame(game_id, day + datetime.timedelta(days=game_id // 7), finish))
    return games


@pytest.mark.parametrize(
    "system",
    [
        GuildmasterElo(),
        Elo(),
        Elo(k=32, d=400, initial=1200, scale_by_pod_size=True),
        Elo(tied_below_first="skip"),
    ],
    ids=repr,
)
def test_the_float_path_equals_the_general_path(system):
    assert hasattr(system, "rate_floats")
    rng = random.Random(20261123)
    games = random_games(rng, 600, 30)
    fast_rows, fast_tallies = replay(system, games, {})
    slow_rows, slow_tallies = replay(StatesOnly(system), games, {})
    assert fast_rows == slow_rows
    assert fast_tallies == slow_tallies
    # From tallies part-way, as an incremental catch-up starts: the rest of the same rows.
    cut = 400
    first_rows, midway = replay(StatesOnly(system), games[:cut], {})
    rest_rows, rest_tallies = replay(system, games[cut:], midway)
    assert rest_rows == slow_rows[len(first_rows) :]
    assert rest_tallies == slow_tallies


def test_the_float_path_keeps_tallies_of_players_who_did_not_play():
    idle = Tally(RatingState(1612.5), 9, 4, 1, datetime.date(2025, 12, 1), 77)
    game = RatedGame(100, datetime.date(2026, 1, 1), [Finish(1, 1), Finish(2, 2)])
    rows, tallies = replay(Elo(), [game], {3: idle})
    assert tallies[3] == idle
    # Two new players at 1500, K 40: the winner takes 40 * (1 - 1/2) = 20 from the loser.
    assert [(r[1], r[3], r[4], r[5], r[8], r[9], r[10]) for r in rows] == [
        (1, 1500.0, 1520.0, 20.0, 1, 1, 0),
        (2, 1500.0, 1480.0, -20.0, 1, 0, 0),
    ]


# Issue 31: a 1v1 player (1) who won, then drew intentionally (ID), then drew 1-1, and a
# 4-player pod drawn between players 1 and 3. Each row: (wins, draws) after the game.
DAY = datetime.date(2026, 1, 9)
W_ID_DRAW_THEN_A_DRAWN_POD = [
    RatedGame(1, DAY, [Finish(1, 1), Finish(2, 2)]),  # W
    RatedGame(2, DAY, [Finish(1, 1), Finish(3, 1)]),  # ID: both first
    RatedGame(3, DAY, [Finish(1, 1), Finish(4, 1)]),  # 1-1: both first
    RatedGame(4, DAY, [Finish(1, 1), Finish(3, 1), Finish(5, 3), Finish(6, 3)]),  # pod drawn
]


@pytest.mark.parametrize("system", [GuildmasterElo(), Elo(), OpenSkill()], ids=repr)
@pytest.mark.parametrize("path", ["games", "result rows"])
def test_a_shared_first_place_counts_as_a_draw_not_a_win(system, path):
    games = [
        RatedGame(g.game_id, g.played_on, canonical(g.finish)) for g in W_ID_DRAW_THEN_A_DRAWN_POD
    ]
    if path == "games":
        rows, tallies = replay(system, games, {})
    else:
        rows, tallies, _ = replay_results(system, result_rows(games), {})
    counts = {(r[0], r[1]): (r[8], r[9], r[10]) for r in rows}  # games, wins, draws
    # Player 1 after W, ID, 1-1: 1 win and 2 draws of 3 games (it was 3 wins of 3).
    assert [counts[(game, 1)] for game in (1, 2, 3)] == [(1, 1, 0), (2, 1, 1), (3, 1, 2)]
    # The pod drawn between 1 and 3: a draw each, not a win; 5 and 6 lost.
    assert counts[(4, 1)] == (4, 1, 3)
    assert counts[(4, 3)] == (2, 0, 2)
    assert counts[(4, 5)] == counts[(4, 6)] == (1, 0, 0)
    assert counts[(1, 2)] == (1, 0, 0)
    assert (tallies[1].games, tallies[1].wins, tallies[1].draws) == (4, 1, 3)
    assert (tallies[3].wins, tallies[3].draws) == (0, 2)


def result_rows(games: list[RatedGame]) -> list[tuple]:
    """The games as the ledger reads them for a full replay: one row per player in canonical
    order, stats None when empty, then a column the replay must ignore."""
    return [
        (game.game_id, game.played_on, f.player, f.place, f.stats or None, "ignored")
        for game in games
        for f in canonical(game.finish)
    ]


@pytest.mark.parametrize(
    "system",
    [
        GuildmasterElo(),
        Elo(),
        Elo(scale_by_pod_size=True),
        Elo(tied_below_first="skip"),
        OpenSkill(),
    ],
    ids=repr,
)
def test_replaying_result_rows_equals_replaying_the_games(system):
    """The full replay's path (flat rows, no game objects for the Elo systems) writes the
    rows, tallies and game count the general path writes, and reports its progress."""
    rng = random.Random(20261126)
    games = random_games(rng, 2500, 40)
    # Guildmaster rates a row that named a player twice by its columns (stats).
    games[7] = RatedGame(
        games[7].game_id,
        games[7].played_on,
        [Finish(1, 1, {GUILDMASTER_ORDER: [1, 3]}), Finish(2, 2, {GUILDMASTER_ORDER: [2]})],
    )
    # The ledger reads each game's players in canonical order: its rows come in that order.
    games = [RatedGame(g.game_id, g.played_on, canonical(g.finish)) for g in games]
    told = []
    rows, tallies, total = replay_results(
        system, result_rows(games), {}, progress=lambda done, of: told.append((done, of))
    )
    slow_rows, slow_tallies = replay(StatesOnly(system), games, {})
    assert (rows, tallies, total) == (slow_rows, slow_tallies, len(games))
    assert told == [(1000, 2500), (2000, 2500)]
    assert games_of(result_rows(games))[7].finish[0].stats == {GUILDMASTER_ORDER: [1, 3]}
