"""Infractions, their default penalties and the upgrade for a repeated infraction, as the
Magic Infraction Procedure Guide (IPG) gives them, and a short list for Regular REL.

Sources, read 28 November 2026 (IPG_VERSION):
- The Magic Infraction Procedure Guide effective April 15, 2024 (last updated June 18, 2024),
  the newest edition whose text could be read: the Annotated IPG (blogs.magicjudges.org/rules,
  page ipg) carries it. This table was first written from Appendix A "Penalty Quick
  Reference" of the edition effective October 4, 2019; the sections read in the 2024 text
  state the same penalties (3.4 Decklist Problem "Game Loss", page revised 25 January 2025;
  3.5 Deck Problem "Warning with potential upgrade", 30 September 2024; 4.1 Unsporting
  Conduct — Minor "Warning"; 4.2 Unsporting Conduct — Major "Match Loss", 30 November 2023;
  4.4 Bribery and Wagering "Match Loss", 11 March 2024), and the upgrade clauses below say
  the same rules; no default penalty was found changed. A later edition may exist (the
  Annotated IPG's section 1 page was revised 21 November 2025) but its text could not be read.
- The IPG's upgrade clauses, as worded in the Annotated IPG (pages ipg2, ipg3 (revised 11
  March 2024), ipg4-1, ipg4-2), quoted where they are applied:
  - 2. Game Play Errors: "With the exception of Failure to Maintain Game State, which is
    never upgraded, the third or subsequent warning for a Game Play Error offense in the
    same category should be upgraded to a Game Loss." Missed Trigger (2.1) carries no
    penalty, so nothing to upgrade.
  - 3. Tournament Errors: "A Warning for a Tournament Error offense is upgraded to a Game
    Loss if the player has already received a Warning for an offense in the same category"
    (the 2019 text: "A second or subsequent Warning ... in the same category is upgraded to a
    Game Loss"; the same rule). Tardiness, Outside Assistance and Decklist Problem start
    above a Warning: no Warning, no upgrade.
  - 4.1 Unsporting Conduct — Minor: "Subsequent Unsporting Conduct — Minor infractions, even
    for different offenses, will result in a Game Loss."
  - 4.2 Unsporting Conduct — Major (Match Loss): "If the offense was committed with
    malicious intent, the player displays no remorse, or the offense is repeated at a later
    time, the penalty is upgraded to Disqualification." A repeat is counted here; malice or
    no remorse is the judge's finding, so a first one allows a Disqualification
    (`Expected.allowed`) without it being a deviation.
  "Same category" is the same infraction: a Game Rule Violation and a Looking at Extra Cards
  are two categories. For multi-day tournaments the count resets between days (IPG 2 and 3);
  a Guildhall event is one day.
Regular REL is judged by the "Judging at Regular REL" document, which has no penalty table of
the same kind: REGULAR is a short list of its kinds of problem, with the fix as "no penalty"
where it asks only for a fix, and no upgrade (a judge may always give more, with a reason).
`expected_penalty` is what the judge is shown; giving anything else is a deviation the judge
writes a reason for (IPG 1.3 lets the Head Judge deviate in significant and exceptional
circumstances).

Why a penalty is upgraded (`Expected.reason`) is a `Note` (tournaments.domain.texts): as a
`str` the English, with its template and values kept, so the penalty keeps it as data and
each reader reads it in their language (`tournaments.errors.note_text`): the infraction by
its IPG name in that language, how many times in that language's own words ("for the second
time", "zum zweiten Mal", "2回目").
"""

from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.domain.texts import N_, Nn_, Note

IPG_VERSION = (
    "Magic Infraction Procedure Guide, effective April 15, 2024 (penalties of sections 2-4, "
    "as in Appendix A); upgrades as worded in the Annotated IPG (sections 2, 3, 4.1, 4.2), "
    "read 28 November 2026"
)

NONE, WARNING, GAME_LOSS, MATCH_LOSS, DQ = (
    "none",
    "warning",
    "game_loss",
    "match_loss",
    "disqualification",
)
PENALTIES = {
    NONE: "No penalty",
    WARNING: "Warning",
    GAME_LOSS: "Game Loss",
    MATCH_LOSS: "Match Loss",
    DQ: "Disqualification",
}
SEVERITY = {NONE: 0, WARNING: 1, GAME_LOSS: 2, MATCH_LOSS: 3, DQ: 4}

# How a repeat upgrades: after `after` earlier penalties counted by `counts` (the same
# infraction, or any infraction of the same `group`) the penalty becomes `to`.
GPE, TE, USC_MINOR, USC_MAJOR, SERIOUS, REGULAR_REL = (
    "gpe",
    "te",
    "usc_minor",
    "usc_major",
    "serious",
    "regular",
)


@dataclass(frozen=True)
class Infraction:
    code: str
    name: str
    section: str
    default: str  # the penalty of a first offense
    group: str
    rel: str  # "competitive" or "regular"


def _c(code: str, section: str, name: str, default: str, group: str) -> Infraction:
    return Infraction(code, name, section, default, group, "competitive")


COMPETITIVE = [
    _c("GPE-MT", "2.1", "Game Play Error — Missed Trigger", NONE, GPE),
    _c("GPE-LEC", "2.2", "Game Play Error — Looking at Extra Cards", WARNING, GPE),
    _c("GPE-HCE", "2.3", "Game Play Error — Hidden Card Error", WARNING, GPE),
    _c("GPE-MPE", "2.4", "Game Play Error — Mulligan Procedure Error", WARNING, GPE),
    _c("GPE-GRV", "2.5", "Game Play Error — Game Rule Violation", WARNING, GPE),
    _c("GPE-FTMGS", "2.6", "Game Play Error — Failure to Maintain Game State", WARNING, GPE),
    _c("TE-T", "3.1", "Tournament Error — Tardiness", GAME_LOSS, TE),
    _c("TE-OA", "3.2", "Tournament Error — Outside Assistance", MATCH_LOSS, TE),
    _c("TE-SP", "3.3", "Tournament Error — Slow Play", WARNING, TE),
    _c("TE-DLP", "3.4", "Tournament Error — Decklist Problem", GAME_LOSS, TE),
    _c("TE-DP", "3.5", "Tournament Error — Deck Problem", WARNING, TE),
    _c("TE-LPV", "3.6", "Tournament Error — Limited Procedure Violation", WARNING, TE),
    _c("TE-CPV", "3.7", "Tournament Error — Communication Policy Violation", WARNING, TE),
    _c("TE-MC", "3.8", "Tournament Error — Marked Cards", WARNING, TE),
    _c("TE-IS", "3.9", "Tournament Error — Insufficient Shuffling", WARNING, TE),
    _c("USC-MINOR", "4.1", "Unsporting Conduct — Minor", WARNING, USC_MINOR),
    _c("USC-MAJOR", "4.2", "Unsporting Conduct — Major", MATCH_LOSS, USC_MAJOR),
    _c(
        "USC-IDW",
        "4.3",
        "Unsporting Conduct — Improperly Determining a Winner",
        MATCH_LOSS,
        SERIOUS,
    ),
    _c("USC-BW", "4.4", "Unsporting Conduct — Bribery and Wagering", MATCH_LOSS, SERIOUS),
    _c("USC-AB", "4.5", "Unsporting Conduct — Aggressive Behavior", DQ, SERIOUS),
    _c("USC-TTM", "4.6", "Unsporting Conduct — Theft of Tournament Material", DQ, SERIOUS),
    _c("USC-S", "4.7", "Unsporting Conduct — Stalling", DQ, SERIOUS),
    _c("USC-C", "4.8", "Unsporting Conduct — Cheating", DQ, SERIOUS),
]


def _r(code: str, name: str, default: str) -> Infraction:
    return Infraction(code, name, "JAR", default, REGULAR_REL, "regular")


# Judging at Regular REL: most problems are fixed and explained, not penalized; the serious
# ones (cheating, aggression, theft, bribery) go to the Head Judge and end in a
# Disqualification.
REGULAR = [
    _r(
        "R-GE",
        "Regular — Game error (a rule broken, extra cards seen or drawn, a trigger missed)",
        NONE,
    ),
    _r("R-DP", "Regular — Deck or decklist problem", NONE),
    _r("R-SP", "Regular — Slow play or tardiness", NONE),
    _r("R-OA", "Regular — Outside assistance or communication", NONE),
    _r("R-USC", "Regular — Unsporting conduct", WARNING),
    _r("R-SERIOUS", "Regular — Serious problem (cheating, aggression, theft, bribery)", DQ),
]

INFRACTIONS = {i.code: i for i in [*COMPETITIVE, *REGULAR]}


class UnknownInfraction(ValueError):
    code = "unknown_infraction"


def infraction_get(code: str) -> Infraction:
    try:
        return INFRACTIONS[code]
    except KeyError:
        raise UnknownInfraction(f"Unknown infraction {code!r}.") from None


@dataclass(frozen=True)
class Expected:
    penalty: str
    upgraded: bool
    reason: str  # why it is upgraded, a `Note` ("" for the default)
    # Other penalties the IPG itself gives on a judge's finding, each with its condition.
    allowed: tuple[tuple[str, str], ...] = ()


# IPG 4.2: "If the offense was committed with malicious intent, the player displays no
# remorse, ... the penalty is upgraded to Disqualification."
MALICE = Note(
    # Translators: why a penalty is a Disqualification (the IPG's 4.2, Unsporting Conduct —
    # Major), as the judges' penalty list says it.
    N_("committed with malicious intent, or the player displays no remorse (IPG 4.2)")
)

# How a repeat reads, by how many times the player committed it at this event, the infraction
# (its IPG name) and the IPG's rule: an ordinal as each language writes it.
TIMES = {
    # Translators: why a penalty is upgraded: the infraction's IPG name, then how many times
    # the player committed it at this event; the rule is "IPG 2" and the like.
    2: N_("%(infraction)s for the second time at this event (%(rule)s)"),
    # Translators: why a penalty is upgraded: the infraction's IPG name, then how many times
    # the player committed it at this event; the rule is "IPG 2" and the like.
    3: N_("%(infraction)s for the third time at this event (%(rule)s)"),
    # Translators: why a penalty is upgraded: the infraction's IPG name, then how many times
    # the player committed it at this event; the rule is "IPG 2" and the like.
    4: N_("%(infraction)s for the fourth time at this event (%(rule)s)"),
}
# Translators: why a penalty is upgraded: the infraction's IPG name, then how many times the
# player committed it at this event (5 or more); the rule is "IPG 2" and the like.
MANY_TIMES = Nn_(
    "%(infraction)s, %(count)s time at this event (%(rule)s)",
    "%(infraction)s, %(count)s times at this event (%(rule)s)",
)


def expected_penalty(code: str, earlier: Iterable[tuple[str, str]]) -> Expected:
    """The penalty the IPG gives for infraction `code` when the player already had the
    `earlier` penalties of this event, each (infraction code, penalty given)."""
    infraction = infraction_get(code)
    earlier = list(earlier)
    default = infraction.default
    if infraction.code == "GPE-FTMGS":
        pass  # IPG 2: "Failure to Maintain Game State, which is never upgraded"
    elif infraction.group == GPE and default == WARNING:
        warnings = sum(1 for c, p in earlier if c == code and p == WARNING)
        if warnings >= 2:
            return Expected(GAME_LOSS, True, _times(warnings + 1, infraction, "IPG 2"))
    elif infraction.group == TE and default == WARNING:
        warnings = sum(1 for c, p in earlier if c == code and p == WARNING)
        if warnings >= 1:
            return Expected(GAME_LOSS, True, _times(warnings + 1, infraction, "IPG 3"))
    elif infraction.group == USC_MINOR:
        before = sum(1 for c, _ in earlier if infraction_get_or_none(c) is infraction)
        if before >= 1:
            return Expected(GAME_LOSS, True, _times(before + 1, infraction, "IPG 4.1"))
    elif infraction.group == USC_MAJOR:
        before = sum(1 for c, _ in earlier if c == code)
        if before >= 1:
            return Expected(DQ, True, _times(before + 1, infraction, "IPG 4.2"))
        return Expected(default, False, "", allowed=((DQ, MALICE),))
    return Expected(default, False, "")


def infraction_get_or_none(code: str) -> Infraction | None:
    return INFRACTIONS.get(code)


def _times(n: int, infraction: Infraction, rule: str) -> Note:
    """Why a penalty is upgraded: `infraction` for the `n`th time at this event (`rule`)."""
    # The infraction by its IPG name, as judging.labels gives it in each language.
    name = Note(infraction.name, context="IPG infraction")
    params = {"infraction": name, "count": n, "rule": rule}
    if n in TIMES:
        return Note(TIMES[n], params)
    return Note(MANY_TIMES, params, count=n)


def allowed_because(given: str, expected: Expected) -> str:
    """The IPG's own condition under which `given` is not a deviation ("" if none)."""
    return next((why for penalty, why in expected.allowed if penalty == given), "")


def is_deviation(given: str, expected: Expected) -> bool:
    return given != expected.penalty and not allowed_because(given, expected)
