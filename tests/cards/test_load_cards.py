"""`manage.py load_cards`: a Scryfall bulk file into the card data, updated in place; a bad
file is refused with where it went wrong and changes nothing."""

import functools
import gzip
import io
import json
import re
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


def _with(**fields):
    """Sol Ring from the sample with `fields` replaced (None: the field left out)."""
    card = next(c for c in json.loads(SAMPLE.read_text()) if c["name"] == "Sol Ring")
    card.update(fields)
    return {k: v for k, v in card.items() if v is not None}


FACES = [{"name": "A", "type_line": "Instant", "oracle_text": "x"},
         {"name": "B", "type_line": "Sorcery", "oracle_text": "y"}]  # fmt: skip
# (what is wrong, the second card of the file, the reason the message gives)
MALFORMED = [
    ("an oracle_id that is no UUID", _with(oracle_id="not-a-uuid"),
     r"item 1 \(Sol Ring\): oracle_id 'not-a-uuid' is not a UUID"),
    ("an oracle_id that is a number", _with(oracle_id=12),
     r"item 1 \(Sol Ring\): oracle_id 12 is not a UUID"),
    ("card_faces of strings", _with(oracle_id=None, card_faces=["a", "b"]),
     r"item 1 \(Sol Ring\): card_faces is not a list of card face objects"),
    ("card_faces an object", _with(card_faces={"name": "A"}),
     r"item 1 \(Sol Ring\): card_faces is not a list of card face objects"),
    ("a face's type_line a number", _with(type_line=None, card_faces=[{**FACES[0],
                                          "type_line": 7}, FACES[1]]),
     r"item 1 \(Sol Ring\): card_faces\[0\]\.type_line is not text"),
    ("an object type_line", _with(type_line={"types": ["Artifact"]}),
     r"item 1 \(Sol Ring\): type_line is not text"),
    ("a list oracle_text", _with(oracle_text=["{T}: Add {C}{C}."]),
     r"item 1 \(Sol Ring\): oracle_text is not text"),
    ("a list layout", _with(layout=["normal"]), r"item 1 \(Sol Ring\): layout is not text"),
    ("an object legality", _with(legalities={"commander": {"status": "legal"}}),
     r"item 1 \(Sol Ring\): legalities\['commander'\] is not text"),
    ("a color identity of numbers", _with(color_identity=[1, 2]),
     r"item 1 \(Sol Ring\): color_identity is not a list of color letters"),
    ("a NUL in the name", _with(name="Sol\u0000Ring"), r"item 1: name holds a NUL character"),
    ("a lone surrogate in the name", _with(name="Sol Ring \ud800"),
     r"item 1: name holds a lone surrogate, which is no UTF-8 text"),
    ("a NUL in the rules text", _with(oracle_text="{T}: Add \u0000."),
     r"item 1 \(Sol Ring\): oracle_text holds a NUL character"),
]  # fmt: skip


@pytest.mark.parametrize(("wrong", "card", "reason"), MALFORMED)
def test_a_malformed_card_object_is_refused_with_where_and_why(tmp_path, wrong, card, reason):
    load(SAMPLE)
    cards = json.loads(SAMPLE.read_text())
    before = list(Card.objects.order_by("oracle_id").values_list("oracle_id", "updated_at"))
    crypt = next(c for c in cards if c["name"] == "Mana Crypt")
    crypt["legalities"]["commander"] = "legal"  # a good first card, which must not be written
    path = tmp_path / "malformed.json"
    path.write_text(json.dumps([crypt, card]), encoding="utf-8")  # ensure_ascii: \u0000, \ud800
    with pytest.raises(CommandError) as error:
        load(path)
    message = str(error.value)
    assert message.startswith(f"{path} is not a Scryfall bulk card file: "), wrong
    assert re.search(reason, message), (wrong, message)
    assert message.endswith(". Nothing was changed."), wrong
    message.encode("utf-8")  # printable: no lone surrogate in the message itself
    assert list(Card.objects.order_by("oracle_id").values_list("oracle_id", "updated_at")) == (
        before
    )
    assert Card.objects.get(name="Mana Crypt").legalities["commander"] == "banned"


def test_nesting_too_deep_is_refused_with_where(tmp_path):
    load(SAMPLE)
    before = Card.objects.count()
    path = tmp_path / "deep.json"
    good = json.dumps(_with())
    path.write_text(f"[{good}, " + '{"object": "card", "x": ' + "[" * 20_000 + "]" * 20_000 + "}]")
    with pytest.raises(CommandError) as error:
        load(path)
    message = str(error.value)
    assert f"item 1: nested too deep, near character {len(good) + 3:,}" in message, message
    assert message.endswith(". Nothing was changed.")
    assert Card.objects.count() == before


def test_an_upper_case_oracle_id_is_the_same_card(tmp_path):
    card = _with()
    twin = _with(oracle_id=card["oracle_id"].upper())
    path = tmp_path / "twice.json"
    path.write_text(json.dumps([card, twin]))
    assert "1 cards (1 new, 0 updated)" in load(path)
    assert str(Card.objects.get().oracle_id) == card["oracle_id"]
