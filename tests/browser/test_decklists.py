"""A player picks their commanders on the deck page (suggested as they type, from the card
data), pastes a Commander list with a color-identity error, a duplicate, a banned card and an
unknown line (with markup in it), and sees each problem with its line, escaped; the TO sees
the entry among those without a legal list, and a deck named before the card data that
matches no card. At 390 px and 1366 px, without sideways scroll."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from leagues.models import Role
from tests.cards.sample import SAMPLE
from tests.factories import LeagueFactory, PlayerFactory, UserFactory, organizer_of
from tournaments.models import Entry
from tournaments.services.decks import deck_settings_set
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 768}
LIST = """Deck
1 Sol Ring
1 Sol Ring
1 Mana Crypt
1 Lightning Bolt
1 <img src=x onerror=alert(1)>
93 Island
"""


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1366"])
def test_a_commander_list_with_its_problems_shown_to_the_player(browser, live_server, viewport):
    call_command("load_cards", str(SAMPLE), stdout=io.StringIO())
    league = LeagueFactory(name="cEDH League", slug="cedh")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    user = UserFactory(username="ann")
    PlayerFactory(organization=league.organization, name="Ann", user=user)
    event = tournament_create(league=league, name="cEDH Friday", format="pods")
    deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                      decklist_format="commander", decklist_required=True)  # fmt: skip
    for name in ("Ann", "Bob", "Cy", "Dee"):
        entry_register(tournament=event, name=name, create_player=True)

    player = Visit(browser, live_server, viewport)
    player.login("ann")
    player.go(f"/events/{event.slug}/my-deck/")
    expect(player.page.locator("#deck-check")).to_contain_text("No list yet")
    player.page.locator("#id_commander").press_sequentially("thras", delay=30)
    option = player.page.locator("#commander-names option[value='Thrasios, Triton Hero']")
    expect(option).to_have_count(1)
    assert "UG · Partner" in option.inner_text()
    player.page.fill("#id_commander", "Thrasios, Triton Hero")
    player.page.locator("#id_partner").press_sequentially("ty", delay=30)
    expect(player.page.locator("#partner-names option[value='Tymna the Weaver']")).to_have_count(1)
    expect(
        player.page.locator("#partner-names option[value='Prime Speaker Zegana']")
    ).to_have_count(0)
    player.page.fill("#id_partner", "Tymna the Weaver")
    player.page.fill("#id_text", LIST)
    player.page.click("button:has-text('Save the deck')")
    player.page.wait_for_load_state("networkidle")
    expect(player.page.locator(".messages")).to_contain_text("Saved: Ann's deck.")
    expect(player.page.locator(".deck-identity")).to_contain_text("WUBG")
    problems = player.page.locator(".deck-problems li")
    expect(problems).to_have_count(5)
    expect(problems.nth(0)).to_contain_text("The list: The deck has 99 cards with its commanders")
    expect(problems.nth(1)).to_contain_text("Line 3: 2 copies of Sol Ring (first on line 2)")
    expect(problems.nth(2)).to_contain_text("Line 4: Mana Crypt is banned in commander.")
    expect(problems.nth(3)).to_contain_text("Line 5: Lightning Bolt (R) is outside")
    expect(problems.nth(4)).to_contain_text("Line 6: No card named “<img src=x onerror=alert(1)>”")
    assert player.page.locator(".deck-problems img").count() == 0  # shown as text, not markup
    name = "legal-list-phone" if viewport is PHONE else "legal-list-laptop"
    player.shot(name)
    assert player.page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    # A commander that cannot lead a deck is refused on its field, without script too.
    player.page.fill("#id_commander", "Sol Ring")
    player.page.fill("#id_partner", "")
    player.page.click("button:has-text('Save the deck')")
    player.page.wait_for_load_state("networkidle")
    expect(player.page.locator(".field.has-error")).to_contain_text(
        "Sol Ring cannot be a commander"
    )

    # Bob's deck, named before the card data was loaded, matches no card.
    Entry.objects.filter(player__name="Bob").update(deck_name="Kinnan's Homebrew Combo Pile")
    to = Visit(browser, live_server, viewport)
    to.login("jude")
    to.go(f"/events/{event.slug}/run/registration/")
    expect(to.page.locator("#without-legal-list")).to_contain_text(
        "Without a legal Commander list (required)"
    )
    expect(to.page.locator(".without-legal-list")).to_contain_text("Ann: 5 problems")
    expect(to.page.locator(".without-legal-list")).to_contain_text("Bob: no list")
    expect(to.page.locator(".decks-not-matched")).to_contain_text(
        "Bob: “Kinnan's Homebrew Combo Pile”: no card named exactly Kinnan's Homebrew Combo Pile"
    )
    to.shot("decks-not-matched-phone" if viewport is PHONE else "decks-not-matched-laptop")
    assert to.page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    for visit in (player, to):
        assert not visit.errors, visit.errors
        visit.context.close()
