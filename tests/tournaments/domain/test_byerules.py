"""Byes in the opponent-based tiebreakers, rule by rule, with the worked examples of each source.

Sources: TopDeck.gg's cEDH Competitive REL addendum, MTRA 3.1 (three phantom opponents at 0.2
per bye; 0.33 in an older copy); FIDE Handbook C.07, the tie-break regulations applied from
2023 (an unplayed round against a dummy opponent with the participant's own score; voluntarily
unplayed rounds cut first) and the earlier C.07 text (2009 Congress) with its two worked
examples of the virtual opponent; pairings_edh's per-round OMW% (player.py `get_OMWP`).
"""

from fractions import Fraction as F

import pytest

from tournaments.domain import byerules
from tournaments.domain.byerules import ByeRound
from tournaments.domain.records import CEDH_PODS, CHESS, Table
from tournaments.domain.standings import (
    POD_OMW_FLOOR,
    Context,
    StandingsError,
    buchholz,
    buchholz_cut1,
    compute_standings,
    opponents_match_win_percentage,
    opponents_match_win_percentage_per_round,
    sonneborn_berger,
)

from .tables import W, bye


def pod(*players, winner):
    return Table(tuple(players), winner)


def half_bye(p):
    return Table((p,), None, requested=True)


# --- cEDH: MTRA 3.1's phantom opponents ---------------------------------------------------------

# Player 1 has the bye in round 1; in round 2 they win a pod against 2, 3 and 4, who each won
# their round-1 pod: 5 of 10 points, MW% 0.50 each, so 1's real opponents average 0.50.
PHANTOM_EVENT = [
    (
        Table((1,), 1),
        pod(2, 5, 6, 7, winner=2),
        pod(3, 8, 9, 10, winner=3),
        pod(4, 11, 12, 13, winner=4),
    ),
    (
        pod(1, 2, 3, 4, winner=1),
        pod(5, 6, 7, 8, winner=5),
        pod(9, 10, 11, 12, winner=9),
        Table((13,), 13),
    ),
]


@pytest.mark.parametrize(
    "rule, expected",
    [
        # Today's rule (MTR Appendix C): the bye adds no opponent, so it never lowers OMW%.
        (byerules.NONE, F(1, 2)),
        # MTRA 3.1: (3 x 0.50 + 3 x 0.2) / 6 = 2.1 / 6 = 0.35 (the example).
        (byerules.MTRA_PHANTOMS, F(35, 100)),
        # The older copy: (3 x 0.50 + 3 x 0.33) / 6 = 2.49 / 6 = 0.415.
        (byerules.MTRA_PHANTOMS_033, F(415, 1000)),
        # The FIDE rules leave OMW% alone (they act on Buchholz and Sonneborn-Berger).
        (byerules.FIDE_2023, F(1, 2)),
    ],
)
def test_mtra_phantoms_in_omw(rule, expected):
    ctx = Context(
        players=range(1, 14),
        rounds=PHANTOM_EVENT,
        scheme=CEDH_PODS,
        params={"omw_floor": POD_OMW_FLOOR, "bye_rule": rule},
    )

    assert opponents_match_win_percentage(ctx, 1) == expected
    # Three opponents a round: the per-round mean is the same here (a bye round: the rate).
    assert opponents_match_win_percentage_per_round(ctx, 1) == expected


def test_the_pods_preset_defaults_to_the_addendum():
    assert byerules.PRESET_DEFAULTS == {
        "magic": byerules.NONE,
        "chess": byerules.FIDE_2023,
        "pods": byerules.MTRA_PHANTOMS,
    }


# --- pairings_edh's per-round OMW% against cedh_matching's per-opponent OMW% -------------------

# X sits at a pod of 3 in round 1 (opponents A, B) and a pod of 4 in round 2 (C, D, E).
# After two rounds (10 points possible): A 5, B 5, C 5 -> 0.50; D, E, F 0 -> floored 0.25.
X, A, B, C, D, E, FF = range(1, 8)
SIZES_EVENT = [
    (pod(X, A, B, winner=A), pod(C, D, E, FF, winner=C)),
    (pod(X, C, D, E, winner=X), pod(A, B, FF, winner=B)),
]


@pytest.mark.parametrize(
    "metric, expected",
    [
        # cedh_matching: every opponent once: (0.5 + 0.5 + 0.5 + 0.25 + 0.25) / 5 = 0.40.
        (opponents_match_win_percentage, F(2, 5)),
        # pairings_edh: round 1 (0.5 + 0.5) / 2 = 0.5, round 2 (0.5 + 0.25 + 0.25) / 3 = 1/3;
        # (0.5 + 1/3) / 2 = 5/12.
        (opponents_match_win_percentage_per_round, F(5, 12)),
    ],
)
def test_omw_per_opponent_and_per_round(metric, expected):
    ctx = Context(
        players=range(1, 8),
        rounds=SIZES_EVENT,
        scheme=CEDH_PODS,
        params={"omw_floor": POD_OMW_FLOOR},
    )

    assert metric(ctx, X) == expected


# --- chess: FIDE C.07 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "example, bye_round, expected",
    [
        # C.07 (2009 rule), Example 1: "in Round 3 of a nine-round tournament Player P did not
        # show up. Player P's score after 2 rounds is 1.5. ... Svon = 1.5 + (1 - 0) + 0.5 * (9 -
        # 3) = 5.5 at the end of the tournament".
        ([F(1), F(1, 2), F(0)] + [F(1, 2)] * 6, ByeRound(2, F(0), False), F(11, 2)),
        # Example 2: "in Round 6 of a nine-round tournament player P's opponent does not show
        # up. Player P's score after 5 rounds is 3.5. ... Svon = 3.5 + (1 - 1) + 0.5 * (9 - 6)
        # = 5.0 at the end of the tournament".
        ([F(1)] * 3 + [F(1, 2)] + [F(0)] + [F(1)] + [F(0)] * 3, ByeRound(5, F(1), False), F(5)),
    ],
)
def test_fide_2009_virtual_opponent_worked_examples(example, bye_round, expected):
    [virtual] = byerules.unplayed_opponents(
        byerules.FIDE_2009, byes=[bye_round], points_by_round=example, win=F(1), draw=F(1, 2)
    )

    assert virtual.score == expected


# Five players, three rounds, chess points (1, ½, 0; bye 1). P = 1, Q = 2, R = 3, S = 4, T = 5.
# R1: P beats Q, R beats S, T bye.  R2: P bye, Q draws R, S beats T.  R3: P draws R, Q beats S,
# T bye. Final scores: P 2.5, Q 1.5, R 2, S 1, T 2.
P, Q, R, S, T = 1, 2, 3, 4, 5
CHESS_EVENT = [
    (W(P, Q, P), W(R, S, R), bye(T)),
    (bye(P), W(Q, R, None), W(S, T, S)),
    (W(P, R, None), W(Q, S, Q), bye(T)),
]


def chess_ctx(rule, rounds=CHESS_EVENT):
    return Context(players=range(1, 6), rounds=rounds, scheme=CHESS, params={"bye_rule": rule})


@pytest.mark.parametrize(
    "rule, player, metric, expected",
    [
        # RSwiss: the bye adds nothing. P met Q (1.5) and R (2): 3.5.
        (byerules.NONE, P, buchholz, F(7, 2)),
        # FIDE 2023: plus a dummy opponent with P's own final score, 2.5: 6.
        (byerules.FIDE_2023, P, buchholz, F(6)),
        # FIDE 2009: the virtual opponent of round 2: 1 (P after round 1) + (1 - 1) + 0.5 x 1
        # = 1.5; 3.5 + 1.5 = 5.
        (byerules.FIDE_2009, P, buchholz, F(5)),
        # Cut-1: none cuts Q's 1.5 from (1.5, 2) -> 2; FIDE 2023 cuts 1.5 from (1.5, 2, 2.5).
        (byerules.NONE, P, buchholz_cut1, F(2)),
        (byerules.FIDE_2023, P, buchholz_cut1, F(9, 2)),
        # Sonneborn-Berger: beat Q (1.5 x 1) + drew R (2 x ½) = 2.5; FIDE 2023 adds the dummy
        # times the bye's point, 2.5 x 1 = 2.5 -> 5; FIDE 2009 its virtual 1.5 x 1 -> 4.
        (byerules.NONE, P, sonneborn_berger, F(5, 2)),
        (byerules.FIDE_2023, P, sonneborn_berger, F(5)),
        (byerules.FIDE_2009, P, sonneborn_berger, F(4)),
        # S met R (2), T (2) and Q (1.5). FIDE 2009 counts T's two byes as draws: T's 2
        # becomes 2 - 2 x (1 - ½) = 1, so 2 + 1 + 1.5 = 4.5; the other rules 5.5.
        (byerules.NONE, S, buchholz, F(11, 2)),
        (byerules.FIDE_2023, S, buchholz, F(11, 2)),
        (byerules.FIDE_2009, S, buchholz, F(9, 2)),
    ],
)
def test_fide_rules_on_a_hand_worked_event(rule, player, metric, expected):
    assert metric(chess_ctx(rule), player) == expected


def test_fide_2023_cuts_a_requested_bye_first():
    # The same event with P's round-2 bye requested (½): P ends on 2. Values (1.5, 2, 2 as a
    # voluntarily unplayed round): Cut-1 removes the requested bye, not Q's 1.5: 3.5.
    rounds = [CHESS_EVENT[0], (half_bye(P), *CHESS_EVENT[1][1:]), CHESS_EVENT[2]]
    ctx = chess_ctx(byerules.FIDE_2023, rounds)

    assert ctx.points(P) == 2
    assert buchholz(ctx, P) == F(11, 2)  # 1.5 + 2 + 2
    assert buchholz_cut1(ctx, P) == F(7, 2)  # 1.5 + 2


def test_a_requested_bye_scores_a_draw_and_is_no_bye_in_the_record():
    rounds = [CHESS_EVENT[0], (half_bye(P), *CHESS_EVENT[1][1:]), CHESS_EVENT[2]]

    rows = compute_standings(
        players=range(1, 6), rounds=rounds, scheme=CHESS, precedence=["points"]
    )

    [p] = [row for row in rows if row.player == P]
    assert (p.points, p.byes, p.requested_byes, p.played) == (2.0, 0, 1, 3)
    assert p.record == "1-0-1"  # won R1, drew R3; the half-point bye is neither


def test_a_requested_bye_must_be_a_table_of_one():
    with pytest.raises(ValueError, match="table of one"):
        Table((1, 2), 1, requested=True)


def test_an_unknown_bye_rule_is_refused():
    with pytest.raises(StandingsError) as error:
        chess_ctx("fide_1999")
    assert error.value.code == "bad_bye_rule"
    assert "fide_2023" in str(error.value)
