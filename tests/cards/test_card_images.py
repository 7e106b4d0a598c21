"""`load_cards --images`: the art crops of the cards the commander picker offers, fetched once
into the media storage (a second run downloads nothing), each failure a line that changes
nothing; the pages show the stored copy with the artist and Scryfall credited, never the
address it came from. The images come from a local web server: no test reaches Scryfall."""

import base64
import copy
import functools
import io
import json
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from cards.images import card_images_fetch
from cards.models import Card
from tests.factories import TournamentFactory
from tests.tournaments.play import register
from tournaments.models import Entry
from tournaments.services.decks import entry_deck_set

from .sample import SAMPLE

pytestmark = pytest.mark.django_db

# A 1x1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
ARTISTS = {"Thrasios, Triton Hero": "Josu Hernaiz", "Tymna the Weaver": "Winona Nelson"}


class Counting(SimpleHTTPRequestHandler):
    """Serves the folder, counts the requests, and answers /slow/ late."""

    hits: list[str]

    def do_GET(self):
        self.hits.append(self.path)
        if self.path.startswith("/slow/"):
            time.sleep(1.5)
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def web(tmp_path):
    """(address, hits): a web server on this machine serving tmp_path/www."""
    root = tmp_path / "www"
    root.mkdir()
    (root / "thrasios.png").write_bytes(PNG)
    (root / "tymna.png").write_bytes(PNG)
    (root / "page.html").write_text("<p>not an image</p>")
    hits: list[str] = []
    handler = type("Handler", (Counting,), {"hits": hits})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def bulk_file(tmp_path, crops: dict[str, str]) -> str:
    """The shipped sample with Scryfall's `set`, `artist` and `image_uris.art_crop` added for
    the cards named in `crops` (name -> address)."""
    cards = copy.deepcopy(json.loads(SAMPLE.read_text()))
    for card in cards:
        if card["name"] in crops:
            card.update(set="PZ2", artist=ARTISTS.get(card["name"], "An Artist"))
            card["image_uris"] = {"art_crop": crops[card["name"]]}
    path = tmp_path / "oracle-cards.json"
    path.write_text(json.dumps(cards))
    return str(path)


def load(path, *args):
    out, err = io.StringIO(), io.StringIO()
    call_command("load_cards", path, *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_crops_are_fetched_once_and_only_for_commanders(tmp_path, web, media):
    address, hits = web
    path = bulk_file(
        tmp_path,
        {
            "Thrasios, Triton Hero": f"{address}/thrasios.png",
            "Tymna the Weaver": f"{address}/tymna.png",
            "Sol Ring": f"{address}/tymna.png",  # no commander: not fetched
        },
    )
    out, err = load(path, "--images")
    assert "Art crops: 2 fetched, 0 stored already." in out and err == ""
    assert sorted(hits) == ["/thrasios.png", "/tymna.png"]
    thrasios = Card.objects.get(name="Thrasios, Triton Hero")
    assert thrasios.art_crop.name == f"cards/art/{thrasios.oracle_id}.png"
    assert (media / thrasios.art_crop.name).read_bytes() == PNG
    assert (thrasios.set_code, thrasios.artist) == ("pz2", "Josu Hernaiz")
    assert Card.objects.get(name="Sol Ring").art_crop.name == ""

    out, _ = load(path, "--images")
    assert "Art crops: 0 fetched, 2 stored already." in out
    assert len(hits) == 2  # the second run downloaded nothing
    assert sorted(p.name for p in (media / "cards" / "art").iterdir()) == sorted(
        f"{c.oracle_id}.png" for c in Card.objects.exclude(art_crop="")
    )


def test_a_crop_moved_at_scryfall_is_fetched_again(tmp_path, web, media):
    address, hits = web
    load(bulk_file(tmp_path, {"Tymna the Weaver": f"{address}/tymna.png"}), "--images")
    load(bulk_file(tmp_path, {"Tymna the Weaver": f"{address}/tymna.png?2"}), "--images")
    assert hits == ["/tymna.png", "/tymna.png?2"]
    tymna = Card.objects.get(name="Tymna the Weaver")
    assert tymna.art_crop_source == f"{address}/tymna.png?2"
    assert (media / tymna.art_crop.name).read_bytes() == PNG


def test_a_failed_download_is_reported_and_changes_nothing_else(tmp_path, web, media):
    address, _ = web
    path = bulk_file(
        tmp_path,
        {
            "Thrasios, Triton Hero": f"{address}/thrasios.png",
            "Tymna the Weaver": f"{address}/missing.png",
            "Najeela, the Blade-Blossom": f"{address}/page.html",
        },
    )
    load(path)  # the card data first, to compare the rows with after
    before = {
        name: Card.objects.filter(name=name).values().get()
        for name in ("Tymna the Weaver", "Najeela, the Blade-Blossom")
    }
    with pytest.raises(CommandError, match=r"2 art crop.* could not be fetched"):
        load(path, "--images")
    for name, row in before.items():
        after = Card.objects.filter(name=name).values().get()
        assert {**after, "updated_at": None} == {**row, "updated_at": None}
    # Only the one that came is stored.
    thrasios = Card.objects.get(name="Thrasios, Triton Hero")
    assert [p.name for p in (media / "cards" / "art").iterdir()] == [f"{thrasios.oracle_id}.png"]


def test_each_failure_is_a_line_naming_the_card_and_why(tmp_path, web):
    address, _ = web
    load(
        bulk_file(
            tmp_path,
            {
                "Tymna the Weaver": f"{address}/missing.png",
                "Najeela, the Blade-Blossom": f"{address}/page.html",
                "Thrasios, Triton Hero": f"{address}/slow/thrasios.png",
            },
        )
    )
    lines: list[str] = []
    result = card_images_fetch(timeout=0.3, report=lines.append)
    assert result.fetched == 0
    assert lines == result.failed
    assert lines[0].startswith(
        f"Najeela, the Blade-Blossom: could not fetch its art crop from {address}/page.html:"
    )
    assert "text/html, not a JPEG or PNG image" in lines[0]
    assert lines[1].startswith("Thrasios, Triton Hero: could not fetch") and "timed out" in lines[1]
    assert lines[2].endswith(f"{address}/missing.png: HTTP 404 File not found.")


def test_the_pages_show_the_stored_crop_credited_never_the_source(tmp_path, web, league, client):
    address, _ = web
    load(
        bulk_file(
            tmp_path,
            {
                "Thrasios, Triton Hero": f"{address}/thrasios.png",
                "Tymna the Weaver": f"{address}/tymna.png",
            },
        ),
        "--images",
    )
    event = TournamentFactory(league=league, slug="cedh", pods=True, deck_visibility="public")
    register(event, "Ann")
    ann = Entry.objects.get(tournament=event)
    entry_deck_set(entry=ann, name="Tymna the Weaver / Thrasios, Triton Hero")
    page = client.get(reverse("event_player", args=[event.slug, ann.player_id])).content.decode()
    thrasios = Card.objects.get(name="Thrasios, Triton Hero")
    crop = f"/media/cards/art/{thrasios.oracle_id}.png"
    assert f'<img src="{crop}" alt="" width="626" height="457" loading="lazy">' in page
    assert "Art: Josu Hernaiz" in page and "Art: Winona Nelson" in page
    assert "Card images: Scryfall" in page
    assert '<i class="ss ss-pz2" aria-hidden="true"></i>' in page
    assert address not in page
    served = client.get(crop)
    assert served.status_code == 200 and b"".join(served.streaming_content) == PNG
    assert client.get("/media/cards/art/../../settings.py").status_code == 404


def test_no_crop_no_credit(tmp_path, league, client):
    load(bulk_file(tmp_path, {}))
    event = TournamentFactory(league=league, slug="cedh", pods=True, deck_visibility="public")
    register(event, "Ann")
    ann = Entry.objects.get(tournament=event)
    entry_deck_set(entry=ann, name="Thrasios, Triton Hero / Tymna the Weaver")
    page = client.get(reverse("event_player", args=[event.slug, ann.player_id])).content.decode()
    assert "Thrasios, Triton Hero" in page
    assert "/media/cards/art/" not in page and "Card images: Scryfall" not in page
