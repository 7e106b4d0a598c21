"""The seven catalogues (locale/<lang>/LC_MESSAGES/): how much of each is translated, and that
no translation loses a placeholder or a tag of its English (msgfmt --check, which `make
catalogues` runs, checks the python-format placeholders of entries flagged so; this checks
every entry, and the markup too)."""

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parent.parent.parent / "locale"
LANGUAGES = ["de", "fr", "es", "it", "pt_BR", "ja", "pl"]
PLACEHOLDER = re.compile(r"%\([a-zA-Z_0-9]+\)[sdifr]|%[sdif]|\{[a-zA-Z_0-9]*\}")
TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")


def catalogues(lang: str) -> list[polib.POFile]:
    return [polib.pofile(str(p)) for p in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po"))]


def coverage(lang: str) -> tuple[int, int]:
    """(translated, total) over the language's catalogues, fuzzy entries counted untranslated."""
    done = total = 0
    for catalogue in catalogues(lang):
        for entry in catalogue:
            if entry.obsolete:
                continue
            total += 1
            done += entry.translated()
    return done, total


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_its_catalogue_with_its_plural_forms(lang):
    (django,) = [c for c in catalogues(lang) if c.fpath.endswith("/django.po")]
    assert django.metadata["Language"] == lang
    assert "nplurals=" in django.metadata["Plural-Forms"]
    assert not django.metadata_is_fuzzy  # msgfmt would drop the Plural-Forms


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_translation_loses_a_placeholder_or_a_tag(lang):
    wrong = []
    for catalogue in catalogues(lang):
        for entry in catalogue.translated_entries():
            english = {entry.msgid, entry.msgid_plural} - {""}
            wanted = [sorted(set(PLACEHOLDER.findall(e))) for e in english]
            forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
            for form in forms:
                if sorted(set(PLACEHOLDER.findall(form))) not in wanted:
                    wrong.append((entry.msgid, form, "placeholders"))
                if not entry.msgid_plural and sorted(TAG.findall(form)) != sorted(
                    TAG.findall(entry.msgid)
                ):
                    wrong.append((entry.msgid, form, "tags"))
    assert not wrong, wrong[:10]


def test_the_check_finds_a_lost_placeholder(tmp_path):
    entry = polib.POEntry(msgid="Table %(table)s", msgstr="Tisch")
    assert sorted(set(PLACEHOLDER.findall(entry.msgstr))) != sorted(
        set(PLACEHOLDER.findall(entry.msgid))
    )
