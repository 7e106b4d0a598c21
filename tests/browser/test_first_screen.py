"""The first screen is the task (issue 33): on a 390x844 phone, what a page is for starts within
the first 200 px: the seat on "Your seat", the round's first table on the TO's console (below
its round head; the clock's buttons wait under the tables), the round on the pairings,
the league's standings table and the sign-up form, below a header of one row that carries the
store's logo and name on its pages and scrolls no page sideways. The console keeps the round,
its clock and what is left in view while the TO scrolls the tables (sticky). The same pages in
the dark scheme keep their text readable (axe's colour-contrast rule) with a store's own accent
in the header, which the crawl in test_long_names.py (both schemes) has not.
"""

import datetime

import pytest

from leagues.models import Organization
from tests.factories import UserFactory
from tests.leagues.domain.test_images import png
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

from .a11y import axe_missing, axe_violations
from .conftest import PHONE, Visit, friday_league

pytestmark = pytest.mark.django_db(transaction=True)

FIRST_SCREEN = 200  # px from the top of the page
HEADER_ROW = 60  # px: the header is one row, the store's name on two short lines at most


@pytest.fixture
def scene(db) -> dict:
    """Friday Commander, and an event in its second round (being played) of eight players;
    the store has a logo, an accent and a name too long for a phone's header."""
    scene = friday_league()
    Organization.objects.filter(pk=scene["league"].organization_id).update(
        name="Dragon's Den Games and Coffee House",
        logo=png(4, 4),
        logo_type="image/png",
        logo_version=1,
        accent="#1f5f7a",
    )
    event = tournament_create(
        league=scene["league"], name="Friday Open", date=datetime.date.today(), swiss_rounds=3
    )
    for player in scene["players"]:
        entry_register(tournament=event, name=player.name)
    for name in ("Gus Green", "Hal Hunt"):
        entry_register(tournament=event, name=name, create_player=True)
    first = round_pair(tournament=event)
    for table in first.tables.all():
        seats = list(table.seats.order_by("position"))
        table_report(table=table, winner=seats[0].entry)
    round_end(round_=first)
    # Mid-round, as a TO sees it most of the night: one table reported, the others waiting.
    second = round_pair(tournament=event)
    reported = second.tables.order_by("number").first()
    table_report(table=reported, winner=reported.seats.order_by("position").first().entry)
    ann = scene["players"][0]
    ann.user = UserFactory(username="pat")
    ann.save(update_fields=["user"])
    return {**scene, "event": event}


def pages(scene) -> list[tuple[str, str | None, str, str]]:
    """(what, who signs in, address, the element the page is for)."""
    event = scene["event"].slug
    return [
        ("Your seat", "pat", f"/events/{event}/me/", ".seat-card"),
        ("the console's first table", "olive", f"/events/{event}/run/", ".matches .card"),
        ("the pairings", None, f"/events/{event}/", ".finder"),
        ("the standings", None, "/leagues/friday/", "#standings"),
        ("the sign-up form", None, "/accounts/signup/", "form.signup"),
    ]


def test_what_each_page_is_for_starts_on_the_first_screen(browser, live_server, scene):
    problems = []
    visits: dict[str | None, Visit] = {}
    try:
        for what, who, address, selector in pages(scene):
            if who not in visits:
                visits[who] = Visit(browser, live_server, PHONE)
                if who:
                    visits[who].login(who)
            visit = visits[who]
            visit.go(address)
            top = visit.page.locator(selector).first.bounding_box()["y"]
            if top > FIRST_SCREEN:
                problems.append(f"{what} ({address}) starts at {top:.0f} px")
            header = visit.page.locator(".site-header").bounding_box()["height"]
            if header > HEADER_ROW:
                problems.append(f"{what} ({address}): the header is {header:.0f} px high")
            if "signup" not in address and not visit.page.locator(".store-name").is_visible():
                problems.append(f"{what} ({address}): no store name in the header")
            width = visit.page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                problems.append(f"{what} ({address}) scrolls sideways: {width} px")
            visit.shot(f"first-screen-{selector.strip('.#').replace(' ', '-')}-phone")
    finally:
        for visit in visits.values():
            visit.context.close()
    assert not problems, "\n".join(problems)


def test_the_console_keeps_the_round_in_view_while_scrolling(phone, scene):
    phone.login("olive")
    phone.go(f"/events/{scene['event'].slug}/run/")
    page = phone.page
    page.mouse.wheel(0, 1200)
    page.wait_for_function("window.scrollY > 300")
    head = page.locator(".round-head").bounding_box()
    assert 0 <= head["y"] < 100, head  # stuck at the top
    text = page.locator(".round-head").inner_text()
    assert "Round 2" in text and "time is up at" in text and "Waiting for 3 tables: 2, 3, 4" in text
    phone.shot("first-screen-console-scrolled-phone")


def test_the_first_screens_read_well_in_the_dark_scheme(browser, live_server, scene):
    assert not axe_missing(), axe_missing()
    problems = []
    visits: dict[str | None, Visit] = {}
    try:
        for what, who, address, _ in pages(scene):
            if who not in visits:
                visits[who] = Visit(browser, live_server, PHONE)
                visits[who].page.emulate_media(color_scheme="dark")
                if who:
                    visits[who].login(who)
            visits[who].go(address)
            found = axe_violations(visits[who].page, rules=["color-contrast"])
            problems += [f"{what} ({address}), dark: {v}" for v in found]
            visits[who].shot(f"dark-{what.replace(' ', '-')}-phone")
    finally:
        for visit in visits.values():
            visit.context.close()
    assert not problems, "\n".join(problems)
