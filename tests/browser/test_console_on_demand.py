"""The TO console's on-demand pieces in a browser, at 390 px and on a desktop: "Change the
pairings" fetches its form when opened (the bye hides the second player), a double tap of the
change makes one change, and the register field suggests the store's names as the TO types.
"""

import pytest
from playwright.sync_api import expect

from audit.models import AuditEntry
from leagues.models import Role
from tests.factories import LeagueFactory, PlayerFactory, organizer_of
from tournaments.models import Seat
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]


@pytest.fixture
def event(db):
    from tests.tournaments.play import register

    league = LeagueFactory(name="Friday Magic", slug="friday-magic", game_label="Modern")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    for name in ["Annabel Lee", "Joanna", "Zed"]:  # the store's players not in the event
        PlayerFactory(organization=league.organization, name=name)
    event = tournament_create(league=league, name="Friday Swiss")
    register(event, *PLAYERS)
    round_pair(tournament=event)
    return event


def table_of(event, name: str) -> int:
    """The number of the table `name` sits at (a changed table is written anew)."""
    seat = Seat.objects.select_related("table").get(
        round__tournament=event, entry__player__name=name
    )
    return seat.table.number


def test_the_pairing_edit_form_comes_when_opened_and_a_double_tap_swaps_once(phone, event):
    page = phone.page
    phone.login("jude")
    phone.go(f"/events/{event.slug}/run/")
    # nothing fetched yet (the footer's language switch aside)
    assert page.locator("select:not(#language-switch)").count() == 0
    page.locator("details.pairing-edits summary").click()
    form = page.locator("#edit-form form")
    expect(form.locator("#edit-a")).to_be_visible()
    expect(form.locator("#edit-b")).to_be_visible()
    # The bye needs one player: the other select goes away, and comes back for a swap.
    form.locator("input[value=bye]").check()
    expect(form.locator("#edit-b")).to_be_hidden()
    form.locator("input[value=swap]").check()
    expect(form.locator("#edit-b")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("console-edit-form-phone")

    ann, hal = table_of(event, "Ann"), table_of(event, "Hal")
    form.locator("#edit-a").select_option(label="Ann")
    form.locator("#edit-b").select_option(label="Hal")
    form.locator("button[type=submit]").dblclick()
    page.wait_for_load_state("networkidle")
    expect(page.locator(".messages")).to_contain_text("Swapped Ann and Hal")
    if ann != hal:
        assert (table_of(event, "Ann"), table_of(event, "Hal")) == (hal, ann)
    assert AuditEntry.objects.filter(action="pairing.swap").count() == 1
    phone.shot("console-edit-swapped-phone")


def test_the_register_field_suggests_names_as_the_to_types(desktop, event):
    page = desktop.page
    desktop.login("jude")
    desktop.go(f"/events/{event.slug}/run/")
    assert page.locator("#player-names option").count() == 0
    with page.expect_response(lambda r: "/player-names/" in r.url) as answer:
        page.locator("#id_name").press_sequentially("ann")
    assert answer.value.status == 200
    expect(page.locator("#player-names option")).to_have_count(2)
    values = page.locator("#player-names option").evaluate_all("os => os.map(o => o.value)")
    assert values == ["Annabel Lee", "Joanna"]  # Ann is registered already
    page.locator("details.pairing-edits summary").click()
    expect(page.locator("#edit-a")).to_be_visible()
    desktop.shot("console-on-demand-desktop")
