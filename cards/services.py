"""Writes of the card data: `cards_load` reads a Scryfall bulk `oracle-cards` stream and
upserts every card by its Oracle id in one transaction, in batches (a bad file anywhere
changes nothing; a second load of the same file changes nothing but `updated_at`). An
`all-cards` file (every printing in every language) loads the same cards from its English
printings and, from the others, the names printed in German, French, Spanish, Italian,
Portuguese and Japanese (domain.printed), which then replace the ones stored. A load
that changed the cards sends `signals.cards_changed` in the same transaction, so that the
lists checked against the old data are checked again (tournaments listens). A card's looks
(set code, art crop address, artist: `domain.images`) are stored with it but are no change
of the card data: no rule reads them."""

from dataclasses import dataclass, replace
from typing import IO

from django.db import connection, transaction

from .domain.bulk import BulkFileError, iter_objects
from .domain.card import Card as DomainCard
from .domain.card import CardDataError, card_from_scryfall, front_key
from .domain.images import Looks, card_looks
from .domain.printed import printed_key, printed_names
from .models import Card, PrintedName
from .signals import cards_changed

BATCH = 1000
FIELDS = [
    "name", "name_key", "front_key", "type_line", "oracle_text", "color_identity",
    "legalities", "layout", "can_be_commander", "pairing", "in_picker", "updated_at",
]  # fmt: skip
LOOKS_FIELDS = ["set_code", "art_crop_url", "artist"]  # updated too, not in the fingerprint


class CardLoadError(ValueError):
    """The file is no Scryfall bulk card file; nothing was changed."""


@dataclass(frozen=True)
class LoadResult:
    cards: int
    new: int
    skipped: int  # tokens, emblems, art cards and the like
    printed: int = 0  # names printed in other languages (an all-cards file), else 0
    changed: bool = False  # any card new or different (not only `updated_at`)
    notes: tuple[str, ...] = ()  # what the listeners of `cards_changed` did, one line each


def _row(card: DomainCard, looks: Looks) -> Card:
    return Card(
        set_code=looks.set_code,
        art_crop_url=looks.art_crop_url,
        artist=looks.artist,
        oracle_id=card.oracle_id,
        name=card.name[:200],
        name_key=card.key[:200],
        front_key=front_key(card)[:200],
        type_line=card.type_line[:200],
        oracle_text=card.oracle_text,
        color_identity=card.color_identity,
        legalities=dict(card.legalities),
        layout=card.layout[:30],
        can_be_commander=card.can_be_commander,
        pairing=card.pairing[:220],
        in_picker=(card.can_be_commander or card.is_background)
        and card.legality("commander") == "legal",
    )


def _fingerprint() -> str:
    """One digest of every card's loaded fields (not `updated_at`), computed in PostgreSQL:
    equal before and after a load exactly when the load changed nothing the rules read."""
    columns = ", ".join(
        connection.ops.quote_name(Card._meta.get_field(f).column)
        for f in ["oracle_id", *FIELDS]
        if f != "updated_at"
    )
    table = connection.ops.quote_name(Card._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT md5(coalesce(string_agg(md5(row({columns})::text), '' ORDER BY oracle_id),"
            f" '')) FROM {table}"
        )
        return cursor.fetchone()[0]


def _flush(rows: list[Card]) -> None:
    Card.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["oracle_id"],
        update_fields=FIELDS + LOOKS_FIELDS,
    )
    rows.clear()


def _printed_replace(printed: set[tuple[str, str, str]]) -> bool:
    """Store exactly these printed names (in the load's transaction); whether they differ
    from the ones stored (then the lists checked before are checked again)."""
    stored = set(PrintedName.objects.values_list("oracle_id", "lang", "name"))
    if {(str(o), lang, name) for o, lang, name in stored} == printed:
        return False
    PrintedName.objects.all().delete()
    PrintedName.objects.bulk_create(
        (
            PrintedName(oracle_id=o, lang=lang, name=name, key=printed_key(name)[:200])
            for o, lang, name in sorted(printed)
        ),
        batch_size=BATCH,
    )
    return True


@transaction.atomic
def cards_load(*, stream: IO[str]) -> LoadResult:
    """Upsert each card of the bulk file `stream` (text) by Oracle id; when that changed
    the card data, tell the listeners of `cards_changed` (in this transaction)."""
    before = Card.objects.count()
    fingerprint = _fingerprint()
    rows: list[Card] = []
    seen: set[str] = set()
    printed: set[tuple[str, str, str]] = set()
    count = skipped = 0
    try:
        for index, obj in enumerate(iter_objects(stream)):
            if isinstance(obj, dict) and obj.get("lang", "en") != "en":
                # A printing in another language: its printed name, not another card row.
                printed.update((p.oracle_id, p.lang, p.name[:200]) for p in printed_names(obj))
                continue
            card = card_from_scryfall(obj, index)
            if card is None:
                skipped += 1
                continue
            if card.oracle_id in seen:  # one row per Oracle id: the first one wins
                continue
            seen.add(card.oracle_id)
            rows.append(_row(card, card_looks(obj)))
            count += 1
            if len(rows) >= BATCH:
                _flush(rows)
    except (BulkFileError, CardDataError) as error:
        raise CardLoadError(str(error)) from None
    if rows:
        _flush(rows)
    if count == 0:
        raise CardLoadError("the file holds no card")
    names_changed = bool(printed) and _printed_replace(printed)
    result = LoadResult(
        cards=count, new=Card.objects.count() - before, skipped=skipped, printed=len(printed)
    )
    if _fingerprint() == fingerprint and not names_changed:
        return result
    responses = cards_changed.send(sender=Card)
    notes = tuple(note for _receiver, note in responses if note)
    return replace(result, changed=True, notes=notes)
