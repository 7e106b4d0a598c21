"""A color identity as mana symbols and the words for them (cards.domain.colors)."""

import pytest

from cards.domain.colors import pips


@pytest.mark.parametrize(
    ("identity", "symbols", "label"),
    [
        ("WU", ("w", "u"), "White, Blue"),
        ("GUBW", ("w", "u", "b", "g"), "White, Blue, Black, Green"),  # WUBRG order
        ("WUBRG", ("w", "u", "b", "r", "g"), "White, Blue, Black, Red, Green"),
        ("C", ("c",), "Colorless"),
    ],
)
def test_identity_as_symbols_in_wubrg_order(identity, symbols, label):
    assert (pips(identity).symbols, pips(identity).label) == (symbols, label)


def test_a_deck_without_known_commanders_has_none():
    assert not pips("")
    assert pips("").symbols == ()
