"""Card names in the player's language (issue 45): an `all-cards` file's printings in other
languages resolve a list pasted in German, French, Spanish, Italian, Portuguese or Japanese
to the same Oracle cards as the English list."""

import io
import json

import pytest
from django.core.management import call_command

from cards.decks import decklist_check
from cards.domain.names import card_key
from cards.domain.printed import printed_key, printed_names
from cards.models import Card, PrintedName
from cards.selectors import cards_by_names

from .sample import SAMPLE

ALL_CARDS = SAMPLE.parent / "sample-all-cards.json"
BOLT = "4457ed35-7c10-48c8-9776-456485fdf070"


def load(path) -> str:
    out = io.StringIO()
    call_command("load_cards", str(path), stdout=out)
    return out.getvalue()


def test_printed_key_folds_latin_accents_but_keeps_japanese_voicing():
    assert printed_key("Précepteur  DÉMONIAQUE") == printed_key("precepteur demoniaque")
    assert printed_key("Force de Volonté") == card_key("Force de Volonté")
    assert printed_key("ギ") != printed_key("キ")  # card_key makes them one
    assert card_key("ギ") == card_key("キ")
    assert printed_key("ﾗﾉﾜｰﾙのエルフ") == printed_key("ラノワールのエルフ")  # half-width kana


def test_printed_names_reads_only_the_languages_read_and_both_names_of_faces():
    face = {"object": "card", "lang": "de", "oracle_id": BOLT, "card_faces": [
        {"printed_name": "Vorne"}, {"printed_name": "Hinten"}]}  # fmt: skip
    assert [p.name for p in printed_names(face)] == ["Vorne // Hinten", "Vorne"]
    assert list(printed_names({**face, "lang": "ko"})) == []
    assert list(printed_names({"object": "card", "lang": "ja", "oracle_id": BOLT})) == []
    assert (
        list(printed_names({"object": "card", "lang": "de", "oracle_id": "x", "printed_name": "A"}))
        == []
    )


@pytest.mark.django_db
def test_an_all_cards_file_loads_the_cards_and_their_printed_names():
    out = load(ALL_CARDS)
    assert "14 cards (14 new, 0 updated)" in out
    assert Card.objects.count() == 14  # a printing in another language is no second card
    # One row per (card, language, name), however many printings repeat it; no Korean, no
    # row for the Japanese printing without a printed name.
    rows = json.loads(ALL_CARDS.read_text())
    wanted = {
        (r["oracle_id"], r["lang"], r["printed_name"])
        for r in rows
        if r.get("lang") in {"de", "fr", "es", "it", "pt", "ja"} and r.get("printed_name")
    }
    stored = {
        (str(o), lang, n)
        for o, lang, n in PrintedName.objects.values_list("oracle_id", "lang", "name")
    }
    assert stored == wanted
    assert f"Loaded {len(wanted)} names printed in" in out
    # Loading it again changes nothing; an oracle-cards file keeps the printed names.
    assert "did not change" in load(ALL_CARDS)
    load(SAMPLE)
    assert PrintedName.objects.count() == len(wanted)


@pytest.mark.django_db
def test_a_list_in_each_language_resolves_to_the_english_list_s_cards():
    load(SAMPLE)
    load(ALL_CARDS)
    english = ["Lightning Bolt", "Counterspell", "Forest", "Dark Ritual", "Force of Will"]
    lists = {
        "de": ["Blitzschlag", "Gegenzauber", "Wald", "Dunkles Ritual", "Willenskraft"],
        "fr": ["foudre", "Contresort", "Forêt", "Rituel sombre", "FORCE DE VOLONTE"],
        "es": ["Rayo", "Contrahechizo", "Bosque", "Ritual oscuro", "Fuerza de voluntad"],
        "it": ["Fulmine", "Controincantesimo", "Foresta", "Rituale Oscuro", "Forza di Volontà"],
        "ja": ["稲妻", "対抗呪文", "森", "暗黒の儀式", "意志の力"],
    }
    oracle = [cards_by_names(english)[n].oracle_id for n in english]
    for lang, names in lists.items():
        found = cards_by_names(names)
        assert [found[n].oracle_id for n in names] == oracle, lang
    assert cards_by_names(["Relâmpago"])["Relâmpago"].oracle_id == BOLT  # Portuguese
    assert cards_by_names(["Blitzschlagg"]) == {}  # a misspelling is still unknown


@pytest.mark.django_db
def test_a_german_decklist_checks_like_the_english_one():
    load(SAMPLE)
    load(ALL_CARDS)
    german = decklist_check(text="1 Blitzschlag\n1 Gegenzauber\n1 Dunkles Ritual\n", fmt="legacy")
    english = decklist_check(text="1 Lightning Bolt\n1 Counterspell\n1 Dark Ritual\n", fmt="legacy")
    codes = [p.rule for p in german.problems]
    assert "unknown" not in codes and codes == [p.rule for p in english.problems]
    assert [c.card.oracle_id for c in german.cards] == [c.card.oracle_id for c in english.cards]
    assert len(german.cards) == 3
