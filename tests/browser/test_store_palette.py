"""A store's own colour and the laptop's width (issue 43).

One palette: on a store's pages every accent (the header, primary and secondary buttons, a
player's report buttons, the current round, links, Guildhall's mark) comes from the store's one
colour, readable in the light and the dark scheme (axe's rules, 0 serious or critical) for a
very light yellow and a very dark navy alike. The store's name is whole on a phone's header
(wrapped, or its short name). On a laptop the TO's desk is the round's board beside the players'
column and the pairings sit beside the standings; a phone keeps its one column.
"""

import datetime

import pytest

from leagues.models import Organization
from tests.factories import UserFactory
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

from .a11y import axe_missing, axe_violations, checker_reports_dropped
from .conftest import PHONE, Visit, friday_league

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 900}
PALE_YELLOW, DARK_NAVY = "#fff9c4", "#0a1230"
MAROON = "rgb(122, 46, 31)"  # Guildhall's brand, #7a2e1f
LONG_NAME = "Dragon's Den Games and Coffee House"
HEADER_ROW = 60  # px: the header on a phone, a name of two lines included


@pytest.fixture
def scene(db) -> dict:
    """Friday Commander's store with a long name, an event in its second round of eight
    players (one table reported, not Ann's), and Ann's account (pat)."""
    scene = friday_league()
    Organization.objects.filter(pk=scene["league"].organization_id).update(name=LONG_NAME)
    event = tournament_create(
        league=scene["league"], name="Friday Open", date=datetime.date.today(), swiss_rounds=3
    )
    for player in scene["players"]:
        entry_register(tournament=event, name=player.name)
    for name in ("Gus Green", "Hal Hunt"):
        entry_register(tournament=event, name=name, create_player=True)
    first = round_pair(tournament=event)
    for table in first.tables.all():
        table_report(table=table, winner=table.seats.order_by("position").first().entry)
    round_end(round_=first)
    second = round_pair(tournament=event)
    ann = scene["players"][0]
    # One table reported, not Ann's: her seat card keeps its report buttons.
    reported = second.tables.exclude(seats__entry__player=ann).order_by("number").first()
    table_report(table=reported, winner=reported.seats.order_by("position").first().entry)
    ann.user = UserFactory(username="pat")
    ann.save(update_fields=["user"])
    return {**scene, "event": event}


def pages(scene) -> list[tuple[str, str | None, str]]:
    """(what, who signs in, address)."""
    slug = scene["event"].slug
    return [
        ("the console", "olive", f"/events/{slug}/run/"),
        ("the pairings", None, f"/events/{slug}/"),
        ("the seat card", "pat", f"/events/{slug}/me/"),
    ]


# The page's accents as drawn: what each is, and the colour it must be (a token's value).
ACCENTS = """() => {
  const root = getComputedStyle(document.documentElement);
  const probe = document.createElement("span");
  document.body.append(probe);
  const token = (name) => {
    probe.style.color = root.getPropertyValue(name);
    return getComputedStyle(probe).color;
  };
  const header = document.querySelector(".site-header");
  const tile = document.querySelector(".brand-mark .mark-tile");
  const drawn = [
    ["the header", getComputedStyle(header).backgroundColor, token("--store")],
    ["Guildhall's mark", getComputedStyle(tile).fill, getComputedStyle(header).color],
  ];
  const accents = "main button.secondary, main .round-tabs [aria-current]";
  for (const el of document.querySelectorAll(accents)) {
    if (!el.checkVisibility()) continue;
    const style = getComputedStyle(el);
    const label = el.textContent.trim().slice(0, 20);
    if (el.matches(".secondary")) {
      drawn.push([`a secondary button ${label}`, style.color, token("--brand-text")]);
    } else {
      drawn.push([`the current round ${label}`, style.backgroundColor, token("--brand")]);
    }
  }
  probe.remove();
  return drawn;
}"""


def test_a_stores_colour_carries_every_accent_readably_in_both_schemes(browser, live_server, scene):
    assert not axe_missing(), axe_missing()
    problems = []
    store = Organization.objects.get(pk=scene["league"].organization_id)
    for colour in (PALE_YELLOW, DARK_NAVY):
        store.accent = colour
        store.save(update_fields=["accent"])  # as the profile form does: the pages follow
        visits: dict[str | None, Visit] = {}
        try:
            for what, who, address in pages(scene):
                if who not in visits:
                    visits[who] = Visit(browser, live_server, LAPTOP)
                    if who:
                        visits[who].login(who)
                visit = visits[who]
                for scheme in ("light", "dark"):
                    visit.page.emulate_media(color_scheme=scheme)
                    visit.go(address)
                    where = f"{what} ({address}), {colour}, {scheme}"
                    drawn = visit.page.evaluate(ACCENTS)
                    assert len(drawn) > 3, (where, drawn)  # the header, the mark, buttons
                    for part, value, expected in drawn:
                        if value != expected or value == MAROON:
                            problems.append(f"{where}: {part} is {value}, not {expected}")
                    with checker_reports_dropped(visit):
                        problems += [f"{where}: {v}" for v in axe_violations(visit.page)]
                    visit.shot(f"palette-{what.replace(' ', '-')}-{colour[1:]}-{scheme}")
        finally:
            for visit in visits.values():
                visit.context.close()
    assert not problems, "\n".join(problems)


def _box(page, selector: str) -> dict | None:
    locator = page.locator(selector).first
    return locator.bounding_box() if locator.is_visible() else None


def test_a_laptop_shows_two_columns_where_a_phone_has_one(browser, live_server, scene):
    slug = scene["event"].slug
    for viewport in (LAPTOP, PHONE):
        visit = Visit(browser, live_server, viewport)
        try:
            visit.login("olive")
            visit.go(f"/events/{slug}/run/")
            board, side = _box(visit.page, ".desk-board"), _box(visit.page, ".desk-side")
            visit.shot(f"desk-{viewport['width']}")
            if viewport is LAPTOP:
                # The players' column beside the board, both from the top of the desk.
                assert side["x"] >= board["x"] + board["width"], (board, side)
                assert abs(side["y"] - board["y"]) < 2, (board, side)
                cards = visit.page.locator(".matches .card")
                tops = {round(cards.nth(i).bounding_box()["y"]) for i in range(3)}
                assert len(tops) == 1, "the board's first row holds three tables"
            else:
                assert side["y"] >= board["y"] + board["height"] - 1, (board, side)
                assert side["width"] == pytest.approx(board["width"], abs=1)
            visit.go(f"/events/{slug}/")
            pairings, standings = _box(visit.page, ".event-main"), _box(visit.page, ".event-aside")
            visit.shot(f"pairings-{viewport['width']}")
            if viewport is LAPTOP:
                assert standings["x"] >= pairings["x"] + pairings["width"], (pairings, standings)
                aside = visit.page.locator(".event-aside")
                assert aside.locator("tbody tr").count() == 8
                # Rank, name, points, record: the tiebreakers wait on the standings page.
                assert aside.locator("thead th:visible").count() == 4
            else:
                assert standings is None  # a phone's pairings are as they were
            width = visit.page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"scrolls sideways at {viewport['width']} px"
        finally:
            visit.context.close()


def test_the_stores_name_is_whole_on_a_phones_header(browser, live_server, scene):
    slug = scene["event"].slug
    store = Organization.objects.get(pk=scene["league"].organization_id)
    visit = Visit(browser, live_server, PHONE)
    try:
        visit.go(f"/events/{slug}/")
        name = visit.page.locator(".site-header .store-name:visible")
        assert name.inner_text().replace("\n", " ") == LONG_NAME
        clipped = name.evaluate("(el) => el.scrollWidth > el.clientWidth + 1")
        lines = name.evaluate(
            "(el) => Math.round(el.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(el).lineHeight))"
        )
        assert not clipped and lines == 2, (clipped, lines)
        assert visit.page.locator(".site-header").bounding_box()["height"] <= HEADER_ROW
        visit.shot("header-long-name-phone")
        store.short_name = "Dragon's Den"
        store.save(update_fields=["short_name"])
        visit.go(f"/events/{slug}/")
        assert name.inner_text() == "Dragon's Den"
        visit.shot("header-short-name-phone")
        visit.page.set_viewport_size(LAPTOP)
        assert name.inner_text() == LONG_NAME  # the whole name where there is room
    finally:
        visit.context.close()
