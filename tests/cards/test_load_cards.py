"""`manage.py load_cards`: a Scryfall bulk file into the card data, updated in place; a bad
file is refused with where it went wrong and changes nothing."""

import functools
import gzip
import io
import json
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.models import Card
from cards.selectors import cards_by_names, commander_list

from .sample import SAMPLE

pytestmark = pytest.mark.django_db


def load(path) -> str:
    out = io.StringIO()
    call_command("load_cards", str(path), stdout=out)
    return out.getvalue()


def test_loads_the_sample_then_updates_in_place():
    first = load(SAMPLE)
    assert "50 cards (50 new, 0 updated)" in first
    thrasios = Card.objects.get(name="Thrasios, Triton Hero")
    assert (thrasios.color_identity, thrasios.can_be_commander, thrasios.pairing) == (
        "UG",
        True,
        "partner",
    )
    second = load(SAMPLE)
    assert "50 cards (0 new, 50 updated)" in second
    assert Card.objects.count() == 50


def test_a_changed_card_is_updated_and_tokens_are_skipped(tmp_path):
    cards = json.loads(SAMPLE.read_text())
    load(SAMPLE)
    crypt = next(c for c in cards if c["name"] == "Mana Crypt")
    crypt["legalities"]["commander"] = "legal"  # an unban, say
    token = {"object": "card", "layout": "token", "name": "Treasure", "oracle_id": "t"}
    path = tmp_path / "oracle-cards.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump([*cards, token], handle)
    assert "skipped 1 tokens" in load(path)
    assert Card.objects.get(name="Mana Crypt").legalities["commander"] == "legal"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"object": "list"}', "expected a JSON list"),
        ("", "an empty file"),
        ('[{"object": "card", "name": "X", "oracle_id": "5e1b8a8e-0c2a-4c8e-9d1e-2b8f0c6a9e11"',
         "not valid JSON"),
        ('[{"object": "set", "name": "Alpha"}]', "item 0 is not a Scryfall card object"),
        ("[]", "no card"),
    ],
)  # fmt: skip
def test_a_bad_file_is_refused_and_changes_nothing(tmp_path, text, message):
    load(SAMPLE)
    before = list(Card.objects.values_list("oracle_id", "updated_at"))
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CommandError, match=message) as error:
        load(path)
    assert "Nothing was changed" in str(error.value)
    assert list(Card.objects.values_list("oracle_id", "updated_at")) == before


def test_a_half_good_file_changes_nothing(tmp_path):
    """The first cards were good, then the file breaks: the transaction keeps none."""
    cards = json.loads(SAMPLE.read_text())
    path = tmp_path / "half.json"
    path.write_text(json.dumps(cards)[:-200])
    with pytest.raises(CommandError):
        load(path)
    assert Card.objects.count() == 0


@pytest.fixture
def web(tmp_path):
    """A local web server (no internet) serving tmp_path: the sample plain and gzipped."""
    data = SAMPLE.read_bytes()
    (tmp_path / "oracle-cards.json").write_bytes(data)
    (tmp_path / "oracle-cards.json.gz").write_bytes(gzip.compress(data))

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_loads_from_an_address_plain_or_gzipped(web):
    assert "50 cards (50 new, 0 updated)" in load(f"{web}/oracle-cards.json")
    assert "50 cards (0 new, 50 updated)" in load(f"{web}/oracle-cards.json.gz")
    assert Card.objects.get(name="Sol Ring").legalities["commander"] == "legal"
    with pytest.raises(CommandError, match=r"Cannot read .*404"):
        load(f"{web}/missing.json")
    assert Card.objects.count() == 50


def test_a_missing_file():
    with pytest.raises(CommandError, match="Cannot read"):
        load("/nonexistent/oracle-cards.json")


def test_names_resolve_whatever_the_spelling_and_by_front_face():
    load(SAMPLE)
    found = cards_by_names(["sol  ring", "Kytheon, Hero of Akros", "LIM-DUL'S COHORT", "Nope"])
    assert {name: card.name for name, card in found.items()} == {
        "sol  ring": "Sol Ring",
        "Kytheon, Hero of Akros": "Kytheon, Hero of Akros // Gideon, Battle-Forged",
        "LIM-DUL'S COHORT": "Lim-Dûl's Cohort",
    }


def test_commander_list_offers_legal_commanders_and_backgrounds():
    load(SAMPLE)
    names = [card.name for card in commander_list("")]
    assert "Thrasios, Triton Hero" in names and "Raised by Giants" in names
    assert "Golos, Tireless Pilgrim" not in names  # banned
    assert "Dockside Extortionist" not in names  # no legendary creature
    assert [card.name for card in commander_list("ty")][:1] == ["Tymna the Weaver"]
