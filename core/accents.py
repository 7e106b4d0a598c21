"""Accents taken off Latin letters only: "Zoë" is "Zoe", "Précepteur" is "Precepteur", but
"ギ" stays "ギ" (a Japanese voicing mark is no accent: ギ and キ are two letters). Pure
Python, no Django: the card names' keys (cards.domain.printed) and the names' search
(core.search) fold the same way."""

import unicodedata


def _is_latin(ch: str) -> bool:
    return ch.isascii() or "LATIN" in unicodedata.name(ch, "")


def without_latin_accents(text: str) -> str:
    """`text` (NFC) with the combining marks of its Latin letters dropped."""
    kept: list[str] = []
    latin = False
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if latin:
                continue
        else:
            latin = _is_latin(ch)
        kept.append(ch)
    return unicodedata.normalize("NFC", "".join(kept))
