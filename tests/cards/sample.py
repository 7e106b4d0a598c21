"""The shipped sample of real cards, as domain Cards and as a lookup for the legality
rules (no database)."""

import json
from functools import cache
from pathlib import Path

from cards.domain.card import Card, card_from_scryfall
from cards.domain.names import card_key, front_face

SAMPLE = Path(__file__).resolve().parents[2] / "cards" / "fixtures" / "sample-oracle-cards.json"


@cache
def sample_cards() -> dict[str, Card]:
    cards = [card_from_scryfall(obj, i) for i, obj in enumerate(json.loads(SAMPLE.read_text()))]
    by_key = {}
    for card in cards:
        by_key[card_key(card.name)] = card
        by_key.setdefault(card_key(front_face(card.name)), card)
    return by_key


def card(name: str) -> Card:
    return sample_cards()[card_key(name)]


def lookup(names):
    found = sample_cards()
    return {name: found[card_key(name)] for name in names if card_key(name) in found}
