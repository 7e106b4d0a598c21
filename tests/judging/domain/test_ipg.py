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
        # Missed Trigger has no penalty to upgrade.
        ("GPE-MT", [("GPE-MT", NONE)] * 5, NONE, False),
        # IPG 3: "A second or subsequent Warning for a Tournament Error offense in the same
        # category is upgraded to a Game Loss."
        ("TE-SP", [("TE-SP", W)], GAME_LOSS, True),
        ("TE-SP", [("TE-DP", W)], W, False),
        ("TE-DP", [("TE-DP", W)], GAME_LOSS, True),
        # Tardiness is a Game Loss already: no Warning to upgrade.
        ("TE-T", [("TE-T", GAME_LOSS)], GAME_LOSS, False),
        # IPG 4.1: a second Unsporting Conduct — Minor is a Game Loss.
        ("USC-MINOR", [("USC-MINOR", W)], GAME_LOSS, True),
        ("USC-MINOR", [("GPE-GRV", W)], W, False),
        # IPG 4.2: after an Unsporting Conduct — Major, the next is a Disqualification.
        ("USC-MAJOR", [("USC-MAJOR", MATCH_LOSS)], DQ, True),
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
    assert expected.reason == "the third Game Rule Violation of this event (IPG 2)"


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
