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
    median_buchholz,
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


# --- FIDE C.07 (2023), Article 16: the FIDE TEC's tie-break exercise -----------------------------
#
# The crosstable of the tie-break exercise the FIDE Technical Commission published for the 2023
# regulations (tec.fide.com, 18 March 2024), five rounds; player 12's own row is not in our copy,
# so nothing below reads 12's score. "+W9": won against 9; "=": drew; "-": lost; "+BYE": a
# pairing-allocated bye; "=BYE": a requested half-point bye; "--": not paired; "+F9" / "-F11": a
# forfeit win / loss. This record model has no forfeits, so a forfeit win is entered as a
# pairing-allocated bye and a forfeit loss as a round not seated (a zero-point bye). Under
# Article 16 (no 2026 caps) that is exact for these rounds: a forfeit win (16.2.2) and a
# pairing bye (16.2.1) both count as a win for the opponents (16.3.1) and against a dummy with
# the player's own score for the player (16.4); a forfeit loss and a zero-point bye are both
# VURs (16.1.2), cut first (16.5.1), and both count at their 0 points for the opponents (16.3.1)
# when a round that is not a VUR follows them (16.2.3, 16.2.4), as it does for 9 and 14 here.
TEC_2023 = """
1 +W9 =B13 =W2 +B15 =W4
2 +B10 +W7 =B1 +W16 =B3
3 =W11 +B6 +W8 =B4 =W2
4 +B12 =BYE +W13 =W3 =B1
5 -W13 -B15 +W11 =B7 +W10
6 -B14 -W3 +BYE +W10 +B8
7 +W15 -B2 -B16 =W5 -B11
8 =B16 +W14 -B3 +W13 -W6
9 -B1 -W10 =BYE -F11 +BYE
10 -W2 +B9 -W15 -B6 -B5
11 =B3 -W16 -B5 +F9 +W7
13 +B5 =W1 -B4 -B8 -W14
14 +W6 -B8 -F12 -- +B13
15 -B7 +W5 +B10 -W1 -B16
16 =W8 +B11 +W7 -B2 +W15
"""
TEC_PLAYERS = list(range(1, 17))


def crosstable_rounds(text):
    """The crosstable's rounds as tables, with the forfeit mapping described above."""
    rows = [line.split() for line in text.strip().splitlines()]
    rounds = [[] for _ in rows[0][1:]]
    for row in rows:
        player = int(row[0])
        for index, cell in enumerate(row[1:]):
            if cell == "--" or cell.startswith("-F"):
                continue  # not seated
            if cell == "=BYE":
                rounds[index].append(half_bye(player))
            elif cell in ("+BYE",) or cell.startswith("+F"):
                rounds[index].append(bye(player))
            else:
                opponent = int(cell[2:])
                if opponent < player and str(opponent) in {r[0] for r in rows}:
                    continue  # entered from the opponent's row
                winner = {"+": player, "-": opponent, "=": None}[cell[0]]
                rounds[index].append(W(player, opponent, winner))
    return [tuple(tables) for tables in rounds]


def tec_ctx(rule=byerules.FIDE_2023):
    return Context(
        players=TEC_PLAYERS,
        rounds=crosstable_rounds(TEC_2023),
        scheme=CHESS,
        params={"bye_rule": rule},
    )


def test_the_tec_crosstable_reads_as_printed():
    # Final scores straight from the rows (12 played only round 1 here, so it is left out).
    ctx = tec_ctx()
    scores = {p: ctx.points(p) for p in TEC_PLAYERS if p != 12}

    assert scores == {
        1: F(7, 2), 2: F(4), 3: F(7, 2), 4: F(7, 2), 5: F(5, 2), 6: F(3), 7: F(3, 2), 8: F(5, 2),
        9: F(3, 2), 10: F(1), 11: F(5, 2), 13: F(3, 2), 14: F(2), 15: F(2), 16: F(7, 2),
    }  # fmt: skip


@pytest.mark.parametrize(
    "metric, player, expected",
    [
        # Exercise 1: BH(2) = 10 (1) + 7 (1.5) + 1 (3.5) + 16 (3.5) + 3 (3.5) = 13.
        (buchholz, 2, F(13)),
        # Exercise 2: BH(1) = 9 + 13 + 2 + 15 + 4 = 1.5 + 1.5 + 4 + 2 + 3.5 = 12.5: 9's
        # half-point bye (R3) and 4's (R2) are followed by rounds that are not VURs (16.2.3),
        # so they count at their 0.5 (16.3.1), and 9's R5 pairing bye at its 1.
        (buchholz, 1, F(25, 2)),
        # BH(3) = 11 + 6 + 8 + 4 + 2 = 2.5 + 3 + 2.5 + 3.5 + 4 = 15.5: 11's forfeit win and 6's
        # pairing bye count as wins (16.3.1), not as draws (the 2009 rule gave 14.5).
        (buchholz, 3, F(31, 2)),
        # Exercise 3: BH(5) = 13 + 15 + 11 + 7 + 10 = 1.5 + 2 + 2.5 + 1.5 + 1 = 8.5.
        (buchholz, 5, F(17, 2)),
        # BH(8) = 16 + 14 + 3 + 13 + 6 = 3.5 + 2 + 3.5 + 1.5 + 3 = 13.5: 14's forfeit loss (R3)
        # and unpaired R4 are followed by a played R5, so they count at 0.
        (buchholz, 8, F(27, 2)),
        # BH(11) = 3 + 16 + 5 + dummy + 7 = 3.5 + 3.5 + 2.5 + 2.5 + 1.5 = 13.5: R4 (the forfeit
        # win) is played against a dummy with 11's own score, 2.5 (16.4).
        (buchholz, 11, F(27, 2)),
        # Exercise 4: BH(16) = 8 + 11 + 7 + 2 + 15 = 2.5 + 2.5 + 1.5 + 4 + 2 = 12.5.
        (buchholz, 16, F(25, 2)),
        # Exercise 5, Buchholz Cut-1: 5 cuts 10's 1 -> 7.5; 8 cuts 13's 1.5 -> 12; 11 has no
        # VUR (a forfeit win is none), so it cuts 7's 1.5 -> 12.
        (buchholz_cut1, 5, F(15, 2)),
        (buchholz_cut1, 8, F(12)),
        (buchholz_cut1, 11, F(12)),
        # Hand-computed on the same crosstable (not among the exercises):
        # BH(9) = 1 (3.5) + 10 (1) + three dummies at 9's own 1.5 (R3 half-point bye, R4
        # forfeit loss, R5 pairing bye; 16.4) = 9.
        (buchholz, 9, F(9)),
        # BH(14) = 6 (3) + 8 (2.5) + dummies for R3 and R4 at 14's own 2 + 13 (1.5) = 11.
        # Cut-1 cuts a VUR's 2 before 13's lower 1.5 (16.5.1): 9, not 9.5.
        (buchholz, 14, F(11)),
        (buchholz_cut1, 14, F(9)),
        # Median1 (5 rounds: one cut each end): the VUR's 2 from the bottom, then the highest
        # left, 6's 3, from the top: 2.5 + 2 + 1.5 = 6.
        (median_buchholz, 14, F(6)),
        # Sonneborn-Berger (16.4: the dummy with the points awarded): 11 drew 3 (3.5 x ½), lost
        # to 16 and 5 (0), beat the R4 dummy (2.5 x 1) and 7 (1.5): 1.75 + 2.5 + 1.5 = 5.75.
        (sonneborn_berger, 11, F(23, 4)),
        # 9: beat nobody over the board; half-point bye 1.5 x ½, R4 0, R5 bye 1.5 x 1 = 2.25.
        (sonneborn_berger, 9, F(9, 4)),
    ],
)
def test_fide_2023_on_the_tec_exercise(metric, player, expected):
    assert metric(tec_ctx(), player) == expected


# A hand-worked withdrawal (C.07 16.3.2). Chess points, three rounds, A = 1 ... E = 5.
# R1: A beats B, C draws D, E bye.  R2: A beats C, D beats E; B has withdrawn.  R3: A draws D,
# C beats E. Final scores: A 2.5, B 0, C 1.5, D 2, E 1.
A, B, C, D, E = 1, 2, 3, 4, 5
WITHDRAWAL = [
    (W(A, B, A), W(C, D, None), bye(E)),
    (W(A, C, A), W(D, E, D)),
    (W(A, D, None), W(C, E, C)),
]


@pytest.mark.parametrize(
    "rule, metric, player, expected",
    [
        # B's rounds 2 and 3 are zero-point byes (16.1.1) followed only by VURs and in the last
        # round (16.2.5): they count as draws, so B is worth 0 + ½ + ½ = 1 to A (16.3.2).
        # BH(A) = 1 + C 1.5 + D 2 = 4.5; without the rule (none) 3.5. The 2009 rule counts
        # every unplayed round of an opponent as a draw: 4.5 as well.
        (byerules.FIDE_2023, buchholz, A, F(9, 2)),
        (byerules.NONE, buchholz, A, F(7, 2)),
        (byerules.FIDE_2009, buchholz, A, F(9, 2)),
        # B's own under 2009: A 2.5, then a virtual opponent per missed round, S_before +
        # (1 - S_round) + ½ x (rounds after): R2 0 + 1 + ½ = 1.5, R3 0 + 1 + 0 = 1; 5.
        (byerules.FIDE_2009, buchholz, B, F(5)),
        # Sonneborn-Berger reads the same adjusted score: beat B (1 x 1), beat C (1.5 x 1),
        # drew D (2 x ½) = 3.5; without it 2.5.
        (byerules.FIDE_2023, sonneborn_berger, A, F(7, 2)),
        (byerules.NONE, sonneborn_berger, A, F(5, 2)),
        # B's own Buchholz: A's 2.5 plus two dummies at B's own 0 (16.4).
        (byerules.FIDE_2023, buchholz, B, F(5, 2)),
        # E's R1 pairing bye counts as a win for E's opponents (16.2.1, 16.3.1): BH(D) = C 1.5
        # + E 1 + A 2.5 = 5; E's own: dummy at 1 + D 2 + C 1.5 = 4.5.
        (byerules.FIDE_2023, buchholz, D, F(5)),
        (byerules.FIDE_2023, buchholz, E, F(9, 2)),
    ],
)
def test_fide_2023_a_withdrawn_opponent_counts_draws(rule, metric, player, expected):
    ctx = Context(
        players=[A, B, C, D, E], rounds=WITHDRAWAL, scheme=CHESS, params={"bye_rule": rule}
    )

    assert metric(ctx, player) == expected


def test_fide_2023_a_late_entrys_first_rounds_count_at_their_points():
    # C.07 16.2.3: a requested (zero-point) bye followed by a round that is not a VUR counts at
    # its points. Round 1: A beats B. Round 2: 6, a late entry, beats B. 6's round 1 (not
    # seated) counts at 0, not ½: 6 is worth 1 to B.
    rounds = [(W(A, B, A),), (W(6, B, 6),)]
    ctx = Context(
        players=[A, B, 6], rounds=rounds, scheme=CHESS, params={"bye_rule": byerules.FIDE_2023}
    )

    assert ctx.adjusted_points(6) == 1
    # A, not seated in round 2 (the last round: 16.2.5), is worth 1 + ½ (16.3.2).
    assert ctx.adjusted_points(A) == F(3, 2)
    assert buchholz(ctx, B) == F(5, 2)  # A 1.5 + 6 1
    # 6's own: B 0 plus a dummy at 6's own 1 for round 1 (16.4).
    assert buchholz(ctx, 6) == F(1)


def test_fide_2023_median_cuts_a_vur_low_then_the_highest_value_left():
    # Chess points, five rounds. 1 takes half-point byes in rounds 1 and 2, then beats 2, 3, 4.
    # R1: 2 beats 3, 4 bye. R2: 2 draws 4, 3 bye. R3: 1 beats 2, 3 beats 4. R4: 1 beats 3,
    # 2 beats 4. R5: 1 beats 4, 2 draws 3. Scores: 1 4, 2 3, 3 2.5, 4 1.5 (the pairer's byes
    # of 3 and 4 count at their point, 16.3.1). 1's values: two dummies at 1's own 4 (VURs,
    # 16.4), then 3, 2.5, 1.5: Buchholz 15. Median1 (one cut each end, C.07 14.3) cuts a VUR's
    # 4 from the bottom first (16.5.1), then the highest left, the other 4: 3 + 2.5 + 1.5 = 7.
    rounds = [
        (half_bye(1), W(2, 3, 2), bye(4)),
        (half_bye(1), W(2, 4, None), bye(3)),
        (W(1, 2, 1), W(3, 4, 3)),
        (W(1, 3, 1), W(2, 4, 2)),
        (W(1, 4, 1), W(2, 3, None)),
    ]
    ctx = Context(
        players=[1, 2, 3, 4], rounds=rounds, scheme=CHESS, params={"bye_rule": byerules.FIDE_2023}
    )

    assert [ctx.points(p) for p in (1, 2, 3, 4)] == [4, 3, F(5, 2), F(3, 2)]
    assert buchholz(ctx, 1) == 15
    assert buchholz_cut1(ctx, 1) == 11  # a VUR's 4 cut, not 4's 1.5
    assert median_buchholz(ctx, 1) == 7
