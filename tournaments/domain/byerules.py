"""How a bye counts in the opponent-based tiebreakers: one event option, each value a named rule.

A bye (a table of one: the pairer's odd player out, or a requested "half-point" bye) has no
opponent, so every metric that averages or sums opponents has to say what the bye round
contributes. The rules, by their `BYE_RULES` key:

- ``none`` — nothing: the round adds no opponent. MTR Appendix C ("ignoring the rounds in
  which the player received a bye") and RSwiss (a bye "adds no opponent (so it gives in the
  score, but takes in every other criteria)"). The Magic default.
- ``mtra_phantoms`` — TopDeck.gg's cEDH Competitive REL addendum, MTRA 3.1: a bye adds three
  phantom opponents at a 0.2 match-win rate to OMW%, so a bye lowers OMW% as a pod of weak
  opponents would (a player whose one real pod had opponents averaging 0.50 has
  (3 x 0.50 + 3 x 0.2) / 6 = 0.35, not 0.50). The pods default.
- ``mtra_phantoms_033`` — the same with 0.33, as an older copy of MTRA 3.1 has it.
- ``fide_2023`` — FIDE Handbook C.07, Play-off and Tie-Break Regulations approved by the
  FIDE Council on 01/08/2023 (applied from 1 September 2023, to every FIDE-rated event from
  1 April 2024), Article 16 "Unplayed Rounds Management", for Buchholz, its Cut/Median
  modifiers and Sonneborn-Berger. The chess default. In this record model an unplayed round
  is a pairing-allocated bye (16.2.1), a requested (half-point) bye, or a round the player
  was not seated in (a late entry's first rounds, every round after a drop: a zero-point
  bye, which 16.1.1 counts as a requested bye). Requested byes are the voluntary unplayed
  rounds, VURs (16.1.2). Then:
  16.3 (the player as someone's opponent): the player's score counts each unplayed round at
  its points, except a requested bye followed only by VURs or in the last round (16.2.5,
  e.g. every round after a withdrawal), which counts as a draw (16.3.2).
  16.4 (the player's own tie-break): each unplayed round is a game against a dummy whose
  score is the player's own final score, with the round's result (a bye's points).
  16.5.1 (Cut-1 exception): a low cut removes the lowest contribution from a VUR first.
  Forfeits (16.2.2, 16.2.4) have no place in this record model. The 2026 revision caps the
  dummy's score (16.4.1, 16.4.2); that cap is not in the 2023 text and not applied here.
- ``fide_2009`` — the earlier C.07 rule (FIDE Congress 2009, in C.07 until 2023): a virtual
  opponent who starts the round with the participant's score, takes the other side of the
  round's result and draws every later round, S_von = S_before + (1 - S_round) + 0.5 x
  (n - R); and an opponent's own unplayed rounds count as draws in the participant's
  Buchholz ("all unplayed games in which players are indirectly involved ... are considered
  to have been drawn"). Unplayed rounds are the byes and, as under fide_2023, the rounds not
  seated (the player "has no opponent" in them). In points of any scheme: 1 is a win's
  points, 0.5 a draw's.

The MTRA rules act on OMW% (both its averages: per opponent and per round) and leave
Buchholz-style sums alone; the FIDE rules act on the Buchholz family and Sonneborn-Berger and
leave OMW% alone (chess has no OMW%). Pure Python, exact fractions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.domain.texts import N_, Refusal

NONE = "none"
MTRA_PHANTOMS = "mtra_phantoms"
MTRA_PHANTOMS_033 = "mtra_phantoms_033"
FIDE_2023 = "fide_2023"
FIDE_2009 = "fide_2009"

BYE_RULES: dict[str, str] = {
    NONE: N_("A bye adds no opponent (MTR Appendix C; RSwiss)"),
    MTRA_PHANTOMS: N_("Three phantom opponents at 0.2 per bye in OMW% (cEDH addendum, MTRA 3.1)"),
    MTRA_PHANTOMS_033: N_(
        "Three phantom opponents at 0.33 per bye in OMW% (older copy of MTRA 3.1)"
    ),
    FIDE_2023: N_("Unplayed round vs a dummy with the player's own score (FIDE C.07, 2023)"),
    FIDE_2009: N_("Unplayed round vs a virtual opponent who then draws (FIDE C.07, 2009)"),
}
# The default of each standings preset (domain.standings.PRESETS).
PRESET_DEFAULTS: dict[str, str] = {"magic": NONE, "chess": FIDE_2023, "pods": MTRA_PHANTOMS}

PHANTOMS_PER_BYE = 3  # MTRA 3.1: a bye is a pod of three phantom opponents
_PHANTOM_RATE = {MTRA_PHANTOMS: Fraction(1, 5), MTRA_PHANTOMS_033: Fraction(33, 100)}


class ByeRuleError(Refusal):
    """A bye rule that is not one of BYE_RULES."""

    def __init__(self, message: str, params: dict | None = None):
        super().__init__("bye_rule", message, params)


def check(rule: str) -> str:
    if rule not in BYE_RULES:
        raise ByeRuleError(
            N_("Unknown bye rule %(rule)s: choose one of %(rules)s."),
            {"rule": repr(rule), "rules": ", ".join(BYE_RULES)},
        )
    return rule


@dataclass(frozen=True, slots=True)
class ByeRound:
    """A round a player sat out with a bye: 0-based round index, points it scored, requested?"""

    index: int
    points: Fraction
    requested: bool


@dataclass(frozen=True, slots=True)
class Unplayed:
    """What an unplayed round adds to the Buchholz family: an opponent score, and whether the
    round was voluntarily unplayed (a requested bye: cut first by FIDE 2023 modifiers)."""

    score: Fraction
    voluntary: bool


def phantom_rate(rule: str) -> Fraction | None:
    """The match-win rate of a phantom opponent, or None when the rule adds no phantoms."""
    return _PHANTOM_RATE.get(check(rule))


def phantom_opponents(rule: str, byes: int) -> list[Fraction]:
    """The phantom opponents' match-win rates a player's `byes` add to OMW% (MTRA 3.1)."""
    rate = phantom_rate(rule)
    return [] if rate is None else [rate] * (PHANTOMS_PER_BYE * byes)


def unplayed_rounds(rule: str, *, byes: list[ByeRound], absent: Sequence[int]) -> list[ByeRound]:
    """A player's unplayed rounds as the rule counts them, chronological.

    Every rule counts the byes (tables of one). The FIDE rules add the rounds the player was
    not seated in (`absent`, 0-based), as zero-point requested byes: C.07 (2023) 16.1.1 makes
    each a zero-point bye, a requested bye ("any round after a participant withdraws is a
    zero-point-bye"), and 15.1 makes any round "in which a participant, paired or not, did not
    play a game" an unplayed round; the 2009 text's virtual opponent is for "a player who has
    no opponent".
    """
    if check(rule) not in (FIDE_2023, FIDE_2009) or not absent:
        return byes
    zero_point = [ByeRound(index, Fraction(0), True) for index in absent]
    return sorted([*byes, *zero_point], key=lambda bye: bye.index)


def unplayed_opponents(
    rule: str,
    *,
    byes: list[ByeRound],
    points_by_round: list[Fraction],
    win: Fraction,
    draw: Fraction,
) -> list[Unplayed]:
    """The virtual opponents a player's unplayed rounds add to Buchholz-style sums (FIDE rules).

    fide_2023 (C.07 16.4): each is a dummy whose score is the player's own final score; the
    requested ones are voluntary (16.1.2), cut first (16.5.1). fide_2009: S_before +
    (win - S_round) + draw x (rounds after it), with win and draw in the event's points.
    """
    check(rule)
    if rule == FIDE_2023:
        own = sum(points_by_round, Fraction(0))
        return [Unplayed(own, bye.requested) for bye in byes]
    if rule == FIDE_2009:
        rounds = len(points_by_round)
        return [
            Unplayed(
                sum(points_by_round[: bye.index], Fraction(0))
                + (win - bye.points)
                + draw * (rounds - bye.index - 1),
                bye.requested,
            )
            for bye in byes
        ]
    return []


def opponent_score_adjustment(
    rule: str, *, byes: list[ByeRound], rounds: int, draw: Fraction
) -> Fraction:
    """What to add to an opponent's score, in a player's tiebreakers, for the opponent's own
    unplayed rounds (`byes`, as `unplayed_rounds` gives them; `rounds` in the event so far).

    fide_2023 (C.07 16.3): unplayed rounds count at their points (16.3.1) except the requested
    byes "followed only by VURs or in the last round" (16.2.5), which count as draws (16.3.2):
    walking back from the last round, every round that is a requested bye (a VUR here) is one
    of them, and the first round that is not stops the walk. A player who withdrew after
    round 2 of 5 thus counts 0.5 + 0.5 + 0.5 for rounds 3-5 in their opponents' Buchholz.
    fide_2009: every unplayed round counts as a draw (so a 1-point bye adds draw - 1, a round
    not seated draw). 0 under the rest.
    """
    check(rule)
    if rule == FIDE_2009:
        return sum((draw - bye.points for bye in byes), Fraction(0))
    if rule != FIDE_2023:
        return Fraction(0)
    voluntary = {bye.index: bye for bye in byes if bye.requested}
    adjustment = Fraction(0)
    index = rounds - 1
    while index in voluntary:
        adjustment += draw - voluntary[index].points
        index -= 1
    return adjustment


def adjusts_sonneborn_berger(rule: str) -> bool:
    """Whether opponents' scores in Sonneborn-Berger carry `opponent_score_adjustment`: C.07
    16.3 adjusts them "for the sole purpose of calculating the tie-break of their opponents",
    every Article 16 tie-break (Sonneborn-Berger included). The 2009 rule is read, as most
    programs of its time did, for Buchholz only."""
    return check(rule) == FIDE_2023


def cut_order(scores: list[Unplayed], rule: str) -> list[Unplayed]:
    """Lowest first, the order a Cut/Median modifier removes values from the bottom in. Under
    fide_2023 (C.07 16.5.1, the Cut-1 exception, applied again for each further low cut by
    16.5.2) the contributions of voluntarily unplayed rounds go first, lowest first, whatever
    their value; the rest by score."""
    if check(rule) == FIDE_2023:
        return sorted(scores, key=lambda u: (not u.voluntary, u.score))
    return sorted(scores, key=lambda u: u.score)
