"""A public deck's commanders as mana symbols beside its name, wherever decks show (the
standings, the pairings, the player's page, the deck page): one icon a color in WUBRG order,
hidden from screen readers, with the colors in words for them; the mana font's styles linked
from this site (the npm package copied by `make assets`, which the Makefile names file by
file) and nothing for a deck whose commanders are no known cards."""

import copy
import io
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from tests.cards.sample import SAMPLE
from tests.factories import TournamentFactory
from tests.tournaments.play import register
from tournaments.models import Entry
from tournaments.services.decks import entry_deck_set
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]

FOUR_COLORS = (
    '<span class="pips"><i class="ms ms-w ms-cost" aria-hidden="true"></i>'
    '<i class="ms ms-u ms-cost" aria-hidden="true"></i>'
    '<i class="ms ms-b ms-cost" aria-hidden="true"></i>'
    '<i class="ms ms-g ms-cost" aria-hidden="true"></i>'
    '<span class="visually-hidden"> White, Blue, Black, Green</span></span>'
)
COLORLESS = (
    '<span class="pips"><i class="ms ms-c ms-cost" aria-hidden="true"></i>'
    '<span class="visually-hidden"> Colorless</span></span>'
)
MANA_CSS = '<link rel="stylesheet" href="/static/vendor/mana/css/mana.min.css">'


@pytest.fixture
def cards(tmp_path):
    """The sample, and a made-up colorless commander (the sample has none: Golos's identity
    is five colors)."""
    data = copy.deepcopy(json.loads(SAMPLE.read_text()))
    data.append(
        {
            "object": "card",
            "oracle_id": "00000000-0000-4000-8000-00000000c01e",
            "name": "Test Golem, Colorless Commander",
            "layout": "normal",
            "type_line": "Legendary Artifact Creature — Golem",
            "oracle_text": "",
            "color_identity": [],
            "legalities": {"commander": "legal"},
        }
    )
    path = tmp_path / "oracle-cards.json"
    path.write_text(json.dumps(data))
    call_command("load_cards", str(path), stdout=io.StringIO())


@pytest.fixture
def event(league, cards):
    event = TournamentFactory(league=league, slug="cedh", pods=True, deck_visibility="public")
    register(event, "Ann", "Bob", "Cy", "Dee")
    decks = {
        "Ann": "Thrasios, Triton Hero / Tymna the Weaver",
        "Bob": "Test Golem, Colorless Commander",
    }
    for entry in Entry.objects.filter(tournament=event).select_related("player"):
        if entry.player.name in decks:
            entry_deck_set(entry=entry, name=decks[entry.player.name])
    # Named before the card data was loaded, and matched to no card: no symbols.
    Entry.objects.filter(tournament=event, player__name="Cy").update(deck_name="Some homebrew")
    return event


def test_the_standings_and_pairings_show_each_decks_colors(event, client):
    round_ = round_pair(tournament=event)
    table_report(table=round_.tables.get(), winner=Entry.objects.get(player__name="Ann"))
    for name in ("event_standings", "event_detail"):
        page = client.get(reverse(name, args=[event.slug])).content.decode()
        assert MANA_CSS in page, name
        assert FOUR_COLORS in page and COLORLESS in page, name
        # Two decks with colors, not the homebrew: on the pairings page, in its board (the
        # laptop's standings column beside it draws its own rows).
        board = page.split('id="aside-standings"')[0]
        assert board.count('class="pips"') == 2, name
        assert 'class="deck">Some homebrew</span>' in page, name


def test_the_players_page_and_deck_page_show_the_colors(event, client, organizer_client):
    ann = Entry.objects.get(tournament=event, player__name="Ann")
    page = client.get(reverse("event_player", args=[event.slug, ann.player_id])).content.decode()
    assert MANA_CSS in page and FOUR_COLORS in page
    bob = Entry.objects.get(tournament=event, player__name="Bob")
    deck = organizer_client.get(reverse("entry_deck", args=[event.slug, bob.pk])).content.decode()
    assert "Color identity: <strong>colorless</strong>" + COLORLESS in deck


def test_no_symbols_styles_where_no_deck_shows(league, client):
    event = TournamentFactory(league=league, slug="hidden", pods=True)  # decks hidden
    register(event, "Ann")
    page = client.get(reverse("event_standings", args=[event.slug])).content.decode()
    assert "mana.min.css" not in page


def test_the_makefile_copies_the_symbol_fonts_from_the_pinned_packages():
    """`make assets` needs npm, which the tests do not run: the Makefile names the CSS and the
    fonts it copies, the packages are pinned to exact versions, and the copies are ignored."""
    makefile = (ROOT / "Makefile").read_text()
    for name in ("css/mana.min.css", "css/keyrune.min.css", "node_modules/mana-font/"):
        assert name in makefile
    assert "fonts/$(f).,eot woff ttf svg" in makefile  # mana and mplantin, as mana.min.css names
    assert "fonts/keyrune.,eot woff2 woff ttf svg" in makefile
    assert re.search(r"^assets:.*\$\(SYMBOLS\)", makefile, re.MULTILINE)
    package = json.loads((ROOT / "package.json").read_text())["devDependencies"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", package["mana-font"])
    assert re.fullmatch(r"\d+\.\d+\.\d+", package["keyrune"])
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    assert lock["node_modules/mana-font"]["version"] == package["mana-font"]
    assert lock["node_modules/keyrune"]["version"] == package["keyrune"]
    assert "core/static/vendor/" in (ROOT / ".gitignore").read_text().split()


def test_the_fonts_load_from_this_site_under_the_csp():
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    assert directives.get("font-src", directives["default-src"]) == ["'self'"]
