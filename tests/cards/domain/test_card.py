"""What each card of the shipped sample may do in a deck, card by card."""

import pytest

from cards.domain.card import ANY_NUMBER, CardDataError, card_from_scryfall
from cards.domain.names import card_key

from ..sample import card, sample_cards


@pytest.mark.parametrize(
    ("name", "commander", "pairing", "identity"),
    [
        ("Thrasios, Triton Hero", True, "partner", "UG"),
        ("Tymna the Weaver", True, "partner", "WB"),
        ("Kraum, Ludevic's Opus", True, "partner", "UR"),
        ("Rograkh, Son of Rohgahh", True, "partner", "R"),
        ("Silas Renn, Seeker Adept", True, "partner", "UB"),
        ("Pir, Imaginative Rascal", True, "partner_with:Toothy, Imaginary Friend", "G"),
        ("Toothy, Imaginary Friend", True, "partner_with:Pir, Imaginative Rascal", "U"),
        ("Karlach, Fury of Avernus", True, "choose_background", "R"),
        ("Raised by Giants", False, "background", "G"),
        ("Nahiri, the Lithomancer", True, "", "W"),
        ("Kinnan, Bonder Prodigy", True, "", "UG"),
        ("Najeela, the Blade-Blossom", True, "", "WUBRG"),
        ("Esika, God of the Tree // The Prismatic Bridge", True, "", "WUBRG"),
        ("Golos, Tireless Pilgrim", True, "", "WUBRG"),
        ("Bolas's Citadel", False, "", "B"),
        ("Dockside Extortionist", False, "", "R"),
        ("Sol Ring", False, "", ""),
        ("Brazen Borrower // Petty Theft", False, "", "U"),
    ],
)
def test_commander_and_pairing(name, commander, pairing, identity):
    found = card(name)
    assert (found.can_be_commander, found.pairing, found.color_identity) == (
        commander,
        pairing,
        identity,
    )


@pytest.mark.parametrize(
    ("name", "basic", "copies"),
    [
        ("Island", True, None),
        ("Wastes", True, None),
        ("Snow-Covered Island", True, None),
        ("Relentless Rats", False, ANY_NUMBER),
        ("Shadowborn Apostle", False, ANY_NUMBER),
        ("Persistent Petitioners", False, ANY_NUMBER),
        ("Rat Colony", False, ANY_NUMBER),
        ("Seven Dwarves", False, 7),
        ("Nazgûl", False, 9),
        ("Lightning Bolt", False, None),
    ],
)
def test_copies(name, basic, copies):
    assert (card(name).is_basic, card(name).copies_allowed) == (basic, copies)


@pytest.mark.parametrize(
    ("name", "fmt", "status"),
    [
        ("Mana Crypt", "commander", "banned"),
        ("Dockside Extortionist", "commander", "banned"),
        ("Jeweled Lotus", "commander", "banned"),
        ("Sol Ring", "commander", "legal"),
        ("Sol Ring", "vintage", "restricted"),
        ("Sol Ring", "legacy", "banned"),
        ("Ponder", "modern", "banned"),
        ("Lightning Bolt", "modern", "legal"),
        ("Lightning Bolt", "pioneer", "not_legal"),
        ("Thoughtseize", "pioneer", "legal"),
        ("Island", "standard", "legal"),
        ("Island", "no-such-format", "not_legal"),
    ],
)
def test_legalities(name, fmt, status):
    assert card(name).legality(fmt) == status


def test_names_are_keys_whatever_the_spelling():
    assert card_key("  LIGHTNING   bolt ") == card_key("Lightning Bolt")
    assert card_key("Nazgul") == card_key("Nazgûl")
    assert card_key("Kraum, Ludevic\u2019s Opus") == card_key("Kraum, Ludevic's Opus")
    assert card_key("Fire/Ice") == card_key("Fire // Ice")
    assert card("esika, god of the tree").name.startswith("Esika")
    assert len(sample_cards()) >= 50


def test_tokens_are_skipped_and_non_cards_refused():
    assert card_from_scryfall({"object": "card", "layout": "token", "name": "Treasure"}) is None
    with pytest.raises(CardDataError, match="item 3"):
        card_from_scryfall({"object": "set"}, 3)
    with pytest.raises(CardDataError, match="no oracle_id"):
        card_from_scryfall({"object": "card", "name": "X"}, 0)
    reversible = card_from_scryfall(
        {"object": "card", "name": "A // B", "layout": "reversible_card",
         "card_faces": [{"oracle_id": "x", "type_line": "Creature", "oracle_text": "Flying"},
                        {"oracle_id": "x", "type_line": "Creature", "oracle_text": ""}]}
    )  # fmt: skip
    assert reversible.oracle_id == "x" and reversible.type_line == "Creature // Creature"
