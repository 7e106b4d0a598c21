"""Find my seat on a phone: 24 players, a name typed narrows the list as you type (htmx), and
the same search works with script off; the round tabs open the earlier round."""

import pytest
from playwright.sync_api import expect

from tests.factories import LeagueFactory
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

from .conftest import KEEP_SCREENSHOTS, PHONE, SCREENSHOTS, Visit

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [f"{first} {last}" for first in ("Ann", "Bo", "Cy", "Di") for last in "KLMNOP"]


@pytest.fixture
def event(db):
    league = LeagueFactory(name="cEDH League", slug="cedh")
    event = tournament_create(league=league, name="Big Friday", format="pods")
    for name in NAMES:
        entry_register(tournament=event, name=name, create_player=True)
    first = round_pair(tournament=event)
    for table in first.tables.all():
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    round_end(round_=first)
    round_pair(tournament=event)
    return event


def test_a_player_types_their_name_and_sees_their_seat(browser, live_server, event):
    phone = Visit(browser, live_server, PHONE)
    phone.go(f"/events/{event.slug}/")
    rows = phone.page.locator("#finder-rows tbody tr")
    expect(rows).to_have_count(24)
    phone.page.fill("#finder-q", "cy m")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Cy M")
    assert "q=cy%20m" in phone.page.url  # the address keeps the search (back, share, reload)
    phone.shot("find-my-seat-phone")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.page.click(".round-tabs a:has-text('R1')")
    phone.page.wait_for_load_state("networkidle")
    expect(phone.page.locator("h2").first).to_contain_text("Round 1")
    assert not phone.errors, phone.errors
    phone.context.close()


def test_the_search_works_with_script_off(browser, live_server, event):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{event.slug}/")
    page.fill("#finder-q", "Di P")
    page.click(".finder button:has-text('Find')")
    page.wait_for_load_state("load")
    expect(page.locator("#finder-rows tbody tr")).to_have_count(1)
    expect(page.locator("#finder-rows")).to_contain_text("Di P")
    context.close()


def test_the_projector_gives_each_player_one_line_at_1366(browser, live_server, event):
    """Names and "pod 1 · seat 1" used to wrap onto two lines each at 1366 px."""
    from tests.factories import PlayerFactory

    long_name = "Maximilian Alexander Worthington-Smythe"
    player = event.entries.order_by("player__name").first().player
    PlayerFactory._meta.model.objects.filter(pk=player.pk).update(name=long_name)
    tv = browser.new_context(viewport={"width": 1366, "height": 768})
    page = tv.new_page()
    page.goto(f"{live_server.url}/events/{event.slug}/projector/")
    heights = page.eval_on_selector_all(
        ".seats li", "items => items.map(li => li.getBoundingClientRect().height)"
    )
    assert len(heights) == 24 and max(heights) < 1.5 * min(heights), heights
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    # A to Z reads down each column, then the next column (issue 43: it read across the
    # columns, Ann K beside Ann L beside Ann M): in the list's order, each name is below the
    # one before it, or at the top of the column to its right.
    boxes = page.eval_on_selector_all(
        ".seats li", "items => items.map(li => [li.getBoundingClientRect().left, li.innerText])"
    )
    lefts = [round(left) for left, _ in boxes]
    assert len(set(lefts)) >= 2, lefts  # more than one column at 1366 px
    assert lefts == sorted(lefts), [text.split("\n")[0] for _, text in boxes]
    if KEEP_SCREENSHOTS:
        page.screenshot(path=str(SCREENSHOTS / "projector-1366.png"))
    tv.close()


def test_a_search_that_finds_nobody_says_so_in_view_on_a_phone(browser, live_server, event):
    """The league's standings are wider than a phone and scroll in their box: the "no player
    matches" row's words wrap to the box, not across the whole table with their end cut off,
    and stay in view when the table is scrolled."""
    phone = Visit(browser, live_server, PHONE)
    phone.go(f"/leagues/{event.league.slug}/?q=zzzz")
    words = phone.page.locator("td.empty > span")
    expect(words).to_contain_text('No player matches "zzzz": try part of the name.')
    wrap = phone.page.locator(".table-wrap").filter(has=words)
    assert wrap.evaluate("e => e.scrollWidth > e.clientWidth")  # the table is wider than its box
    box, seen = words.bounding_box(), wrap.bounding_box()
    assert seen["x"] <= box["x"] and box["x"] + box["width"] <= seen["x"] + seen["width"]
    wrap.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    box = words.bounding_box()
    assert seen["x"] <= box["x"] and box["x"] + box["width"] <= seen["x"] + seen["width"]
    phone.shot("standings-no-match-phone")
    assert not phone.errors, phone.errors
    phone.context.close()
