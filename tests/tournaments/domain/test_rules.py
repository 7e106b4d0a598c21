"""Magic's rules to the letter (issue 16): drawn games, the 0.33 floors and the 1v1 bye.

Every expected value is worked by hand from the rule it cites: the Magic Tournament Rules'
Appendix C ("Tiebreaker Explanation") and section 2.4 ("Conceding or Intentionally Drawing
Games or Matches"), as published at blogs.magicjudges.org/rules, and Wizards' "Swiss
Pairings" page for the bye.
"""

from fractions import Fraction as F

import pytest

from tests.tournaments.domain.tables import W, bye, points_of
from tournaments.domain.pairing import PairingError, pair_round
from tournaments.domain.records import MAGIC, Table
from tournaments.domain.standings import (
    MTR_FLOOR,
    Context,
    compute_standings,
    game_win_percentage,
    match_points,
    match_win_percentage,
    opponents_game_win_percentage,
    opponents_match_win_percentage,
)


def match(a, b, games, draws=0):
    """A 1v1 match as the MTR writes it: match(1, 2, (2, 0), 1) is 1 winning 2-0-1."""
    winner = a if games[0] > games[1] else b if games[1] > games[0] else None
    return Table((a, b), winner, game_wins=games, game_draws=draws)


# --- MTR Appendix C, "Match Points". ---


@pytest.mark.parametrize(
    ("record", "points"),
    [
        # "A player's record is 6-2-0 (Wins-Losses-Draws). That player has 18 match points
        # (6*3, 2*0, 0*1)."
        ((6, 2, 0), 18),
        # "A player's record is 4-2-2. That player has 14 match points (4*3, 2*0, 2*1)."
        ((4, 2, 2), 14),
    ],
)
def test_appendix_c_match_points(record, points):
    wins, losses, draws = record
    results = [1] * wins + ["L"] * losses + [None] * draws
    others = iter(range(100, 200))
    rounds = []
    for result in results:
        other = next(others)
        rounds.append((W(1, other, {1: 1, "L": other, None: None}[result]),))
    ctx = Context(players=[1, *range(100, next(others))], rounds=rounds, scheme=MAGIC)
    assert match_points(ctx, 1) == points
    [row] = [
        r
        for r in compute_standings(
            players=[1, *range(100, 100 + len(results))],
            rounds=rounds,
            scheme=MAGIC,
            precedence=["points"],
        )
        if r.player == 1
    ]
    assert row.record == "{}-{}-{}".format(*record)


# --- Drawn games: MTR Appendix C, "Game Points". ---


@pytest.mark.parametrize(
    ("games", "draws", "points"),
    [
        # "A player wins a match 2-0-0, so they earn 6 game points and their opponent
        # receives 0 game points from the match."
        ((2, 0), 0, (6, 0)),
        # "A player wins a match 2-1-0, so they earn 6 game points and their opponent earns
        # 3 game points from the match."
        ((2, 1), 0, (6, 3)),
        # "A player wins a match 2-0-1, so they earn 7 game points and their opponent earns
        # 1 game point from the match."
        ((2, 0), 1, (7, 1)),
        # MTR 2.4: "Intentional draws where no games were played are always reported as
        # 0-0-3": three drawn games, 3 game points each.
        ((0, 0), 3, (3, 3)),
        # MTR 2.4's annotation: a drawn game "must be accurately reported ... (e.g., 2-1-1)".
        ((2, 1), 1, (7, 4)),
    ],
)
def test_appendix_c_game_points(games, draws, points):
    # Game-win % with no floor is game points / (3 x games played), so game points are it
    # times 3 x games.
    ctx = Context(
        players=[1, 2],
        rounds=[(match(1, 2, games, draws),)],
        scheme=MAGIC,
        params={"gw_floor": 0},
    )
    played = sum(games) + draws
    assert (game_win_percentage(ctx, 1) * 3 * played, game_win_percentage(ctx, 2) * 3 * played) == (
        points
    )


def test_an_intentional_draw_then_a_2_0_win_is_a_game_win_percentage_of_0_60():
    # Issue 16: 0-0-3 then 2-0 -> (3 x 1 + 2 x 3) / (3 x 5) = 9/15 = 0.60 (Appendix C); counted
    # as 1-1 then 2-0 (drawn games not kept) it was 9/12 = 0.75.
    rounds = [(match(1, 2, (0, 0), 3),), (match(1, 3, (2, 0)),)]
    ctx = Context(players=[1, 2, 3], rounds=rounds, scheme=MAGIC)
    assert game_win_percentage(ctx, 1) == F(3, 5)
    # Player 2's 0-0-3 is 3/9 = 1/3, above the 0.33 floor; player 3's 0-2 is floored.
    assert game_win_percentage(ctx, 2) == F(1, 3)
    assert game_win_percentage(ctx, 3) == MTR_FLOOR
    # OGW% (Appendix C: "the average game-win percentage of all of that player's
    # opponents", each floored at 0.33): player 1 met 2 (1/3) and 3 (0.33).
    assert opponents_game_win_percentage(ctx, 1) == (F(1, 3) + F(33, 100)) / 2


# --- Floors: MTR Appendix C, "If this number is lower than 0.33, use 0.33 instead". ---


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        # Appendix C's examples: "5-2-1 | 16 | 8 | 16/(8*3) = 0.667"; "1-3-0, then withdraws |
        # 3 | 4 | 3/(4*3) = 0.25, so 0.33 is used"; "3-2-0, including a first-round bye,
        # then withdraws | 9 | 5 | 9/(5*3) = 0.60".
        (["W"] * 5 + ["L", "L", "D"], F(16, 24)),
        (["W", "L", "L", "L"], F(33, 100)),
        (["bye", "W", "W", "L", "L"], F(9, 15)),
    ],
)
def test_appendix_c_match_win_percentages_with_the_default_floor(record, expected):
    rounds, others = [], iter(range(100, 200))
    for result in record:
        if result == "bye":
            rounds.append((bye(1),))
            continue
        other = next(others)
        rounds.append((W(1, other, {"W": 1, "L": other, "D": None}[result]),))
    players = [1, *range(100, next(others))]
    ctx = Context(players=players, rounds=rounds, scheme=MAGIC)  # no floor given: the MTR's
    assert match_win_percentage(ctx, 1) == expected


# Two 2-1 players, 1 and 2 (issue 16: "two 2-1 players whose opponents average 0.5544 and
# 0.5556"). 1 beat 3 (who went 0-3) and 4 (2-1) and lost to 5 (2-1); 2 beat 8 (1-2) and 6
# (2-1) and lost to 7 (2-1). Every other table is against a fresh filler (ids from 100).
# OMW% of 1 = (0.33 + 2/3 + 2/3) / 3 = 0.5544; of 2 = (1/3 + 2/3 + 2/3) / 3 = 5/9 = 0.5556.
# With the floor at exactly 1/3 both are 5/9 and GW% decides: 1 won 2-0, 2-0, lost 0-2 (2/3),
# 2 won 2-1, 2-1, lost 1-2 (15/27 = 0.556), so 1 ranks above 2; with 0.33, 2 ranks above 1.
def _floor_swap_event():
    f = iter(range(100, 200))
    r1 = [match(1, 3, (2, 0)), match(2, 8, (2, 1))]
    r2 = [match(1, 4, (2, 0)), match(2, 6, (2, 1))]
    r3 = [match(5, 1, (2, 0)), match(7, 2, (2, 1))]
    # 3: 0-3; 4: W, (L to 1), W; 5: W, L, (W over 1); 6: W, (L to 2), W; 7: W, L, (W over 2);
    # 8: (L to 2), W, L.
    r1 += [match(4, next(f), (2, 0)), match(5, next(f), (2, 0)), match(6, next(f), (2, 0))]
    r1 += [match(7, next(f), (2, 0))]
    r2 += [match(next(f), 3, (2, 0)), match(next(f), 5, (2, 0)), match(next(f), 7, (2, 0))]
    r2 += [match(8, next(f), (2, 0))]
    r3 += [match(next(f), 3, (2, 0)), match(4, next(f), (2, 0)), match(6, next(f), (2, 0))]
    r3 += [match(next(f), 8, (2, 0))]
    players = [*range(1, 9), *range(100, next(f))]
    return players, [tuple(r1), tuple(r2), tuple(r3)]


def test_the_floor_example_values():
    players, rounds = _floor_swap_event()
    ctx = Context(players=players, rounds=rounds, scheme=MAGIC)
    assert [match_win_percentage(ctx, p) for p in (3, 4, 5, 6, 7, 8)] == [
        F(33, 100),  # 0/9, floored
        *[F(2, 3)] * 4,
        F(1, 3),  # 3/9, above the floor
    ]
    assert round(float(opponents_match_win_percentage(ctx, 1)), 4) == 0.5544
    assert round(float(opponents_match_win_percentage(ctx, 2)), 4) == 0.5556


@pytest.mark.parametrize(
    ("params", "first"),
    [
        ({}, 2),  # the MTR's 0.33 (the default)
        ({"omw_floor": F(33, 100), "gw_floor": F(33, 100)}, 2),
        ({"omw_floor": F(1, 3), "gw_floor": F(1, 3)}, 1),  # OMW% tied at 5/9, GW% decides
    ],
)
def test_the_floor_swaps_two_players(params, first):
    players, rounds = _floor_swap_event()
    rows = compute_standings(
        players=players,
        rounds=rounds,
        scheme=MAGIC,
        precedence=("points", "omw", "gw", "ogw"),
        params=params,
    )
    order = [row.player for row in rows if row.player in (1, 2)]
    assert order == [first, 3 - first]


# --- The 1v1 bye: MTR (lowest-ranked without one) or moved up to avoid a rematch. ---

# Three rounds played: R1 4 beats 3, 2 beats 1, 5 has the bye; R2 5 beats 3, 2 beats 1, 4 has
# the bye; R3 3 beats 1, 4 beats 5, 2 has the bye. Points 2: 9, 4: 9, 5: 6, 3: 3, 1: 0; only 1
# and 3 have had no bye. The MTR's bye goes to 1 (the lowest-ranked of them); then 3, 4 and 5
# have all met one another, so of 2, 3, 4, 5 two of them must meet again: one rematch. Moved up
# to 3 instead, the bye leaves 2 v 4 and 1 v 5, neither met before.
BYE_HISTORY = [
    (W(3, 4, 4), W(2, 1, 2), bye(5)),
    (W(5, 3, 5), W(1, 2, 2), bye(4)),
    (W(3, 1, 3), W(4, 5, 4), bye(2)),
]
RANKING = [2, 4, 5, 3, 1]


def pair_fourth_round(rule):
    return pair_round(
        players=[1, 2, 3, 4, 5],
        history=BYE_HISTORY,
        ranking=RANKING,
        points=points_of(BYE_HISTORY),
        seed=1,
        round_number=4,
        bye_pairing=rule,
    )


@pytest.mark.parametrize(
    ("rule", "bye_to", "rematches"),
    [
        # Wizards' "Swiss Pairings": the bye goes to a player "who ha[s] the lowest score
        # and who ha[s] not yet received a bye".
        ("mtr", 1, 1),
        ("avoid_rematch", 3, 0),
    ],
)
def test_the_bye_rule(rule, bye_to, rematches):
    assert points_of(BYE_HISTORY) == {1: 0, 2: 9, 3: 3, 4: 9, 5: 6}
    result = pair_fourth_round(rule)
    assert result.byes == (bye_to,)
    assert len(result.rematches) == rematches
    seated = sorted(p for table in result.tables for p in table)
    assert seated == sorted({1, 2, 3, 4, 5} - {bye_to})


def test_the_mtr_bye_pairs_the_rest_with_the_fewest_rematches_and_says_so():
    result = pair_fourth_round("mtr")
    (rematch,) = result.rematches
    assert set(rematch) < {3, 4, 5}  # two of the three who all met
    assert 2 in next(t for t in result.tables if rematch != t)  # 2 meets the third anew
    assert "rematch" in result.warnings[-1]


def test_an_unknown_bye_pairing_is_refused():
    with pytest.raises(PairingError) as error:
        pair_round(
            players=[1, 2, 3],
            history=[],
            ranking=[],
            points={},
            seed=1,
            round_number=1,
            bye_pairing="random",
        )
    assert error.value.code == "bye_pairing"
