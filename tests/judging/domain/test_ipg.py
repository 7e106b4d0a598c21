"""The IPG's default penalties and its upgrades for a repeat, case by case from its text
(judging.domain.ipg cites the version): Game Play Errors upgrade on the third Warning of the
same infraction, Tournament Errors on the second, Unsporting Conduct — Minor on any second one,
Unsporting Conduct — Major to a Disqualification; Missed Trigger and Regular REL never."""

import pytest

from judging.domain import ipg
from judging.domain.ipg import DQ, GAME_LOSS, MATCH_LOSS, NONE, WARNING, expected_penalty

W = WARNING


@pytest.mark.parametrize(
    ("code", "earlier", "penalty", "upgraded"),
    [
        # Appendix A's defaults, first offense.
        ("GPE-MT", [], NONE, False),
        ("GPE-GRV", [], W, False),
        ("TE-T", [], GAME_LOSS, False),
        ("TE-OA", [], MATCH_LOSS, False),
        ("TE-DLP", [], GAME_LOSS, False),
        ("USC-MAJOR", [], MATCH_LOSS, False),
        ("USC-C", [], DQ, False),
        # IPG 2: "The third or subsequent Warning for a Game Play Error offense in the same
        # category is upgraded to a Game Loss."
        ("GPE-GRV", [("GPE-GRV", W)], W, False),
        ("GPE-GRV", [("GPE-GRV", W), ("GPE-GRV", W)], GAME_LOSS, True),
        ("GPE-GRV", [("GPE-GRV", W)] * 3, GAME_LOSS, True),
        # ... in the same category: two other GPEs do not count.
        ("GPE-GRV", [("GPE-LEC", W), ("GPE-HCE", W)], W, False),
        # ... Warnings: an earlier penalty that was not a Warning does not count.
        ("GPE-GRV", [("GPE-GRV", W), ("GPE-GRV", GAME_LOSS)], W, False),
        # ... "With the exception of Failure to Maintain Game State, which is never upgraded".
        ("GPE-FTMGS", [("GPE-FTMGS", W)] * 2, W, False),
        ("GPE-FTMGS", [("GPE-FTMGS", W)] * 5, W, False),
        # Missed Trigger has no penalty to upgrade.
        ("GPE-MT", [("GPE-MT", NONE)] * 5, NONE, False),
        # IPG 3: "A second or subsequent Warning for a Tournament Error offense in the same
        # category is upgraded to a Game Loss."
        ("TE-SP", [("TE-SP", W)], GAME_LOSS, True),
        ("TE-SP", [("TE-DP", W)], W, False),
        ("TE-DP", [("TE-DP", W)], GAME_LOSS, True),
        # Tardiness is a Game Loss already: no Warning to upgrade.
        ("TE-T", [("TE-T", GAME_LOSS)], GAME_LOSS, False),
        # IPG 4.1: "Subsequent Unsporting Conduct — Minor infractions, even for different
        # offenses, will result in a Game Loss."
        ("USC-MINOR", [("USC-MINOR", W)], GAME_LOSS, True),
        ("USC-MINOR", [("USC-MINOR", W), ("USC-MINOR", GAME_LOSS)], GAME_LOSS, True),
        ("USC-MINOR", [("GPE-GRV", W)], W, False),
        # IPG 4.2: "... or the offense is repeated at a later time, the penalty is upgraded to
        # Disqualification": the second one, whatever the first was given.
        ("USC-MAJOR", [("USC-MAJOR", MATCH_LOSS)], DQ, True),
        ("USC-MAJOR", [("USC-MAJOR", GAME_LOSS)], DQ, True),
        # ... other Unsporting Conduct before it is not a repeat of this offense.
        ("USC-MAJOR", [("USC-MINOR", W), ("USC-MINOR", GAME_LOSS)], MATCH_LOSS, False),
        # Regular REL: fixed, not upgraded.
        ("R-GE", [("R-GE", NONE)] * 4, NONE, False),
        ("R-USC", [("R-USC", W)] * 2, W, False),
        ("R-SERIOUS", [], DQ, False),
    ],
)
def test_expected_penalty(code, earlier, penalty, upgraded):
    expected = expected_penalty(code, earlier)
    assert (expected.penalty, expected.upgraded) == (penalty, upgraded)
    assert bool(expected.reason) == upgraded


def test_an_upgrade_says_which_offense_and_rule():
    expected = expected_penalty("GPE-GRV", [("GPE-GRV", W), ("GPE-GRV", W)])
    assert expected.reason == (
        "Game Play Error — Game Rule Violation for the third time at this event (IPG 2)"
    )
    assert expected.reason.params["infraction"].context == "IPG infraction"


def test_every_infraction_has_a_known_default_and_a_cited_version():
    assert "Infraction Procedure Guide" in ipg.IPG_VERSION
    assert {i.default for i in ipg.INFRACTIONS.values()} <= set(ipg.PENALTIES)
    assert len(ipg.COMPETITIVE) == 23  # Appendix A's rows
    assert {i.rel for i in ipg.REGULAR} == {"regular"}


def test_an_unknown_infraction_is_refused():
    with pytest.raises(ipg.UnknownInfraction):
        expected_penalty("GPE-XYZ", [])


def test_a_deviation_is_a_penalty_other_than_the_expected_one():
    expected = expected_penalty("GPE-GRV", [])
    assert not ipg.is_deviation(W, expected)
    assert ipg.is_deviation(GAME_LOSS, expected)


def test_a_first_major_may_be_a_disqualification_on_the_judges_finding():
    # IPG 4.2: "If the offense was committed with malicious intent, the player displays no
    # remorse, ... the penalty is upgraded to Disqualification."
    first = expected_penalty("USC-MAJOR", [])
    assert first.penalty == MATCH_LOSS
    assert not ipg.is_deviation(DQ, first)
    assert "malicious intent" in ipg.allowed_because(DQ, first)
    assert ipg.is_deviation(GAME_LOSS, first)
    # Nothing else has such a finding: a Disqualification for a Minor is a deviation.
    assert ipg.is_deviation(DQ, expected_penalty("USC-MINOR", []))
    assert ipg.allowed_because(DQ, expected_penalty("USC-MINOR", [])) == ""
