"""One deck, one name (domain.decknames; issue 31 #9): a key whatever the case, spacing or
partner order, and the most used spelling shown with its partners in a stable order."""

import pytest

from tournaments.domain.decknames import deck_key, display_names, partners, stable_order


@pytest.mark.parametrize(
    "one, other",
    [
        ("kinnan, bonder prodigy", "Kinnan, Bonder Prodigy"),
        ("Kinnan,  Bonder Prodigy ", "KINNAN, BONDER PRODIGY"),
        ("Thrasios / Tymna", "Tymna / Thrasios"),
        ("Thrasios, Triton Hero/Tymna the Weaver", "tymna the weaver / thrasios, triton hero"),
        ("Rograkh + Silas Renn", "Silas Renn / Rograkh"),
        ("Kraum, Ludevic\u2019s Opus / Tymna", "Tymna / Kraum, Ludevic's Opus"),
    ],
)
def test_one_deck_whatever_the_case_spacing_or_partner_order(one, other):
    assert deck_key(one) == deck_key(other)


@pytest.mark.parametrize(
    "one, other",
    [
        ("Kinnan, Bonder Prodigy", "Kenrith, the Returned King"),
        ("Thrasios / Tymna", "Thrasios / Kraum"),
        ("Thrasios", "Thrasios / Tymna"),
    ],
)
def test_different_decks_stay_apart(one, other):
    assert deck_key(one) != deck_key(other)


def test_a_double_faced_name_is_one_name():
    name = "Esika, God of the Tree // The Prismatic Bridge"
    assert partners(name) == [name]
    assert stable_order(name) == name


def test_partners_show_in_a_stable_order():
    assert stable_order("Tymna the Weaver/Thrasios, Triton Hero") == (
        "Thrasios, Triton Hero / Tymna the Weaver"
    )
    assert stable_order("Thrasios / Tymna") == stable_order("Tymna / Thrasios")


def test_the_most_used_spelling_is_shown_the_first_given_on_a_tie():
    names = display_names(
        [
            ("kinnan, bonder prodigy", 1),
            ("Kinnan, Bonder Prodigy", 3),
            ("Tymna / Thrasios", 2),
            ("thrasios / tymna", 2),
            ("", 4),
        ]
    )
    assert names == {
        "kinnan, bonder prodigy": "Kinnan, Bonder Prodigy",
        "thrasios / tymna": "Thrasios / Tymna",
    }
