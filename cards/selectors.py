"""Reads of the card data: whether any is loaded, cards by the names a list gives
(resolved by `domain.names.card_key`, a multi-face card by its front face too), the
commanders a picker offers, and how cards look (set code, stored art crop) by Oracle id."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.files.storage import default_storage
from django.db.models import Q

from .domain.card import Card as DomainCard
from .domain.names import card_key
from .domain.printed import printed_key
from .models import Card, PrintedName


def cards_loaded() -> bool:
    return Card.objects.exists()


def cards_by_names(names: Iterable[str]) -> dict[str, DomainCard]:
    """Name as given -> card, for the names the card data knows: by the English (Oracle)
    name in one query, and the names that are none by the names printed in other languages
    in one more ("Blitzschlag", "稲妻": Lightning Bolt; domain.printed)."""
    keys = {name: card_key(name) for name in names}
    wanted = set(keys.values()) - {""}
    if not wanted:
        return {}
    by_key: dict[str, DomainCard] = {}
    rows = Card.objects.filter(Q(name_key__in=wanted) | Q(front_key__in=wanted)).order_by(
        "-can_be_commander", "name"
    )
    for row in rows:
        card = row.as_card()
        # A full name wins over a front face of the same spelling.
        by_key.setdefault(row.name_key, card)
        if row.front_key:
            by_key.setdefault(row.front_key, card)
    found = {name: by_key[key] for name, key in keys.items() if key in by_key}
    missing = {name: printed_key(name) for name in keys if name not in found and keys[name]}
    if missing:
        found.update(_cards_by_printed_names(missing))
    return found


def _cards_by_printed_names(keys: dict[str, str]) -> dict[str, DomainCard]:
    """Name as given -> card, by the names printed in other languages (one query)."""
    oracle_of: dict[str, str] = {}
    for key, oracle_id in (
        PrintedName.objects.filter(key__in=set(keys.values()))
        .order_by("key", "lang", "oracle_id")
        .values_list("key", "oracle_id")
    ):
        oracle_of.setdefault(key, oracle_id)  # one key, one card: the first by language
    if not oracle_of:
        return {}
    cards = {
        str(row.oracle_id): row.as_card()
        for row in Card.objects.filter(oracle_id__in=set(oracle_of.values()))
    }
    return {
        name: cards[str(oracle_of[key])]
        for name, key in keys.items()
        if key in oracle_of and str(oracle_of[key]) in cards
    }


def commander_list(query: str = "", *, limit: int = 20) -> list[Card]:
    """Legal commanders and Backgrounds whose name contains `query` (case-insensitive), those
    whose name starts with it first."""
    key = card_key(query)
    rows = Card.objects.filter(in_picker=True)
    if key:
        rows = rows.filter(name_key__contains=key)
    found = list(rows.order_by("name")[: limit * 5])
    found.sort(key=lambda card: (not card.name_key.startswith(key), card.name))
    return found[:limit]


def cards_by_exact_names(names: Iterable[str]) -> dict[str, DomainCard]:
    """Name -> card, for names spelled exactly as a card's (one query)."""
    return {row.name: row.as_card() for row in Card.objects.filter(name__in=set(names))}


@dataclass(frozen=True)
class CardLooks:
    name: str
    set_code: str  # for its set symbol; "" if the card data has none
    art_url: str  # the stored crop's address on this site (never Scryfall's); "" if none
    artist: str


def card_looks_by_ids(oracle_ids: Iterable[str]) -> list[CardLooks]:
    """The looks of these cards (their commanders, for a deck), in the order given, those the
    card data lacks left out; no query for no ids, else one."""
    ids = [str(oracle_id) for oracle_id in oracle_ids]
    if not ids:
        return []
    rows = Card.objects.filter(oracle_id__in=ids).values_list(
        "oracle_id", "name", "set_code", "art_crop", "artist"
    )
    found = {
        str(oracle_id): CardLooks(
            name, set_code, default_storage.url(path) if path else "", artist if path else ""
        )
        for oracle_id, name, set_code, path, artist in rows
    }
    return [found[i] for i in ids if i in found]
