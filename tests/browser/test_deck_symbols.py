"""A public Commander deck on a phone and a laptop: its colors as mana symbols beside the deck
on the standings, and on the player's page the commanders with their set symbols and their
art crops (fetched once by `load_cards --images` from a web server on this machine, shown
from this site) credited to the artist and Scryfall; the symbol fonts load from this site
(a missing static file or a CSP refusal fails the visit), no sideways scroll."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.cards import test_card_images as images
from tests.factories import LeagueFactory
from tournaments.models import Entry
from tournaments.services.decks import deck_settings_set, entry_deck_set
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 768}
web = images.web  # the web server on this machine that serves the crops
# The font families loaded once the page's fonts are settled.
FONTS_READY = """document.fonts.ready.then(() => [...document.fonts]
    .filter(f => f.status === "loaded").map(f => f.family.replaceAll('"', '')))"""


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1366"])
def test_a_commander_deck_shows_its_colors_set_symbols_and_art(
    browser,
    live_server,
    viewport,
    tmp_path,
    web,
    settings,
):
    settings.MEDIA_ROOT = tmp_path / "media"
    address, _ = web
    crops = {
        "Thrasios, Triton Hero": f"{address}/thrasios.png",
        "Tymna the Weaver": f"{address}/tymna.png",
    }
    call_command("load_cards", images.bulk_file(tmp_path, crops), "--images", stdout=io.StringIO())
    league = LeagueFactory(name="cEDH League", slug="cedh")
    event = tournament_create(league=league, name="cEDH Friday", format="pods")
    deck_settings_set(tournament=event, deadline=None, visibility="public")
    for name in ("Ann", "Bob", "Cy", "Dee"):
        entry_register(tournament=event, name=name, create_player=True)
    ann = Entry.objects.get(tournament=event, player__name="Ann")
    entry_deck_set(entry=ann, name="Thrasios, Triton Hero / Tymna the Weaver")
    round_ = round_pair(tournament=event)
    table_report(table=round_.tables.get(), winner=ann)

    visit = Visit(browser, live_server, viewport)
    visit.go(f"/events/{event.slug}/standings/")
    pips = visit.page.locator(".event-standings .pips").first
    expect(pips.locator("i.ms")).to_have_count(4)
    expect(pips.locator(".visually-hidden")).to_have_text(" White, Blue, Black, Green")
    assert "Mana" in visit.page.evaluate(FONTS_READY)
    assert visit.page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    visit.go(f"/events/{event.slug}/players/{ann.player_id}/")
    art = visit.page.locator(".card-art img")
    expect(art).to_have_count(2)
    for n in range(2):
        assert art.nth(n).evaluate("img => img.complete && img.naturalWidth") == 1
        assert art.nth(n).get_attribute("src").startswith("/media/cards/art/")
    expect(visit.page.locator(".card-art")).to_contain_text("Art: Josu Hernaiz")
    expect(visit.page.locator(".card-credit")).to_have_text("Card images: Scryfall")
    expect(visit.page.locator(".card-art i.ss.ss-pz2")).to_have_count(2)
    families = visit.page.evaluate(FONTS_READY)
    assert "Mana" in families and "Keyrune" in families
    assert visit.page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    visit.shot(f"deck-symbols-{viewport['width']}")
    assert not visit.errors, visit.errors
    visit.context.close()
