"""The paper pack printed by Chromium to PDF, on A4 and on Letter, as a TO's browser prints it
(print media): each sheet alone and the whole pack, for a 17-player pod event (pods of 4 and
of 3, one with a time extension, two with a result) and a 9-player 1v1 event (a bye).

Checked in the PDF itself, read back with pypdf: the number of pages, and that no result slip
is split across two pages. A slip is found by its first line ("Pod 3 Round 1") and its last
(the format's line on filling it in); a slip cut by a page break would leave its first line on
one page and its last on the next, so every page must hold as many of one as of the other, and
each slip's players must be on the page of its first line. (Reading the PDF checks what is
printed; measuring the boxes on the screen in print media would check Chromium's layout
before it is cut into pages, which is where a slip gets split.) The PDFs are kept in /tmp
(paper-<event>-<sheet>-<size>.pdf) for a person to look at, with the console at 390 px.
"""

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tests.tournaments.console.test_paper import MATCH_NAMES, POD_NAMES
from tests.tournaments.play import register
from tournaments.services.clock import table_extension_set
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

from .conftest import KEEP_SCREENSHOTS, PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path("/tmp")
SIZES = ("A4", "Letter")
SHEETS = ("pairings", "seats", "slips", "standings")
# The last words of each format's slip ("how" to fill it in), as Format.slip writes them.
SLIP_END = {"pods": "tick their 1st alone.", "1v1": "and 3 drawn)."}


@pytest.fixture
def events(db) -> dict:
    league = LeagueFactory(name="Friday Night", slug="friday")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    pods = tournament_create(league=league, name="Pod Night", format="pods", swiss_rounds=3)
    register(pods, *POD_NAMES)
    round_ = round_pair(tournament=pods)
    table_extension_set(round_=round_, number=2, minutes=10)
    for table in round_.tables.order_by("number")[:2]:
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    matches = tournament_create(league=league, name="Modern Open", swiss_rounds=3)
    register(matches, *MATCH_NAMES)
    round_pair(tournament=matches)
    return {"pods": pods, "1v1": matches}


def slips_of(event) -> list[tuple[int, list[str]]]:
    """(number, players) of the round's tables with a slip (two seats or more), as stored."""
    out = []
    for table in event.rounds.get().tables.order_by("number"):
        names = [s.entry.player.name for s in table.seats.order_by("position")]
        if len(names) > 1:
            out.append((table.number, names))
    return out


def pdf_pages(visit, path: str, size: str, name: str) -> list[str]:
    """Print `path` to /tmp/paper-<name>-<size>.pdf as the browser prints it; each page's text
    with its whitespace collapsed."""
    visit.go(path)
    visit.page.emulate_media(media="print")
    target = OUT / f"paper-{name}-{size.lower()}.pdf"
    visit.page.pdf(path=str(target), format=size)
    visit.page.emulate_media(media="screen")
    return [" ".join((page.extract_text() or "").split()) for page in PdfReader(target).pages]


def check_slips(pages: list[str], event, kind: str) -> None:
    """Every slip whole on one page: its first line, its players and its last line together."""
    noun = "Pod" if kind == "pods" else "Table"
    end = SLIP_END[kind]
    for number, text in enumerate(pages, 1):
        heads = len(re.findall(rf"\b{noun} \d+ Round 1 ·", text))
        assert heads == text.count(end), f"page {number}: a slip is cut ({heads} heads)"
    for table, names in slips_of(event):
        on = [i for i, text in enumerate(pages) if re.search(rf"\b{noun} {table} Round 1 ·", text)]
        assert len(on) == 1, f"{noun} {table}'s slip is on pages {on}"
        assert all(name in pages[on[0]] for name in names), f"{noun} {table} is split"


def test_each_sheet_prints_on_a4_and_letter_with_no_slip_split(browser, live_server, events):
    visit = Visit(browser, live_server, PHONE)
    counts: dict[tuple, int] = {}
    try:
        visit.login("jude")
        for kind, event in events.items():
            tables = slips_of(event)
            for size in SIZES:
                alone = {}
                for sheet in SHEETS:
                    pages = pdf_pages(
                        visit, f"/events/{event.slug}/run/paper/{sheet}/", size, f"{kind}-{sheet}"
                    )
                    alone[sheet] = len(pages)
                    assert not any("Print the paper pack" in p for p in pages)  # no console
                    if sheet == "slips":
                        check_slips(pages, event, kind)
                pack = pdf_pages(visit, f"/events/{event.slug}/run/paper/", size, f"{kind}-pack")
                # A page break before each sheet and none more: the pack is the sheets alone.
                assert len(pack) == sum(alone.values())
                check_slips(pack, event, kind)
                # 17 or 9 players: one page each for the pairings, the wall and the standings;
                # the slips several to a page (at least three), so two pages at most.
                assert alone["pairings"] == alone["seats"] == alone["standings"] == 1
                assert 1 <= alone["slips"] <= -(-len(tables) // 3)
                counts.update({(kind, size, s): n for s, n in alone.items()})
                counts[(kind, size, "pack")] = len(pack)
        print("pages:", counts)
    finally:
        visit.context.close()
    assert not visit.errors, visit.errors


def test_the_console_links_the_pack_on_a_phone_and_the_pack_fits_it(browser, live_server, events):
    visit = Visit(browser, live_server, PHONE)
    try:
        visit.login("jude")
        for kind, event in events.items():
            visit.go(f"/events/{event.slug}/run/")
            link = visit.page.get_by_role("link", name="Print the paper pack")
            box = link.bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"]
            for name in ("Result slips", "Standings"):
                other = visit.page.locator(".paper-links").get_by_role("link", name=name)
                box = other.bounding_box()
                assert box["x"] + box["width"] <= PHONE["width"], name
            assert visit.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            visit.page.locator(".paper-links").scroll_into_view_if_needed()
            if KEEP_SCREENSHOTS:
                visit.page.screenshot(path=str(OUT / f"paper-console-{kind}-390.png"))
            link.click()
            visit.page.wait_for_load_state("networkidle")
            assert visit.page.get_by_role("button", name="Print").is_visible()  # the script ran
            width = visit.page.evaluate("document.documentElement.scrollWidth")
            from .test_long_names import overflow

            assert width <= PHONE["width"], f"the {kind} pack is {overflow(visit)}"
            visit.shot(f"paper-pack-{kind}-390")
    finally:
        visit.context.close()
    assert not visit.errors, visit.errors
