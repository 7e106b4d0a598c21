"""One tap ends the round and pairs the next, from the round's header on a phone (issue 31).

A 17-player pod round (pods of 3, 3, 3, 4, 4) and an 8-player 1v1 round, at 390 px: the TO
scrolls to the last table, taps its result, and the header (sticky, still in view) now offers
"Pair round 2", which ends round 1 and pairs round 2 in one POST. A second press of the same
form (its POST sent again with the page's session) changes nothing and shows round 2. The
test counts the TO's taps and requests for a round both ways (End round + Pair round at the
foot of the page, as before; the one tap) and prints them.
"""

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.models import Round, Tournament
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

from .conftest import KEEP_SCREENSHOTS, PHONE, SCREENSHOTS

pytestmark = pytest.mark.django_db(transaction=True)


class Taps:
    """What the TO did on the page: taps (counted by the test), POSTs and page loads."""

    def __init__(self, page):
        self.taps = self.posts = self.loads = 0
        page.on("request", self._seen)

    def _seen(self, request):
        if request.method == "POST":
            self.posts += 1
        elif request.resource_type == "document":
            self.loads += 1

    def reset(self):
        self.taps = self.posts = self.loads = 0

    def figures(self) -> tuple[int, int, int]:
        return self.taps, self.posts, self.loads


def tap(taps: Taps, locator):
    taps.taps += 1
    locator.click()
    locator.page.wait_for_load_state("networkidle")


def view_shot(page, name: str) -> None:
    """What the phone shows (not the whole page): the sticky header over the last tables."""
    if not KEEP_SCREENSHOTS:
        return
    SCREENSHOTS.mkdir(exist_ok=True)
    # caret="initial": hiding the caret injects a style element, which the site's CSP refuses.
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), caret="initial")


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def event_of(fmt: str, count: int, slug: str) -> Tournament:
    league = LeagueFactory(name="Friday", slug=f"{slug}-league")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = tournament_create(
        league=league, name=slug.title(), format=fmt, swiss_rounds=3, round_minutes=50
    )
    for n in range(count):
        entry_register(tournament=event, name=f"Player {n + 1:02d} Longname", create_player=True)
    round_pair(tournament=event)
    return Tournament.objects.get(pk=event.pk)


def report_every_card(taps: Taps, page, card: str):
    """Tap each card's first result button (the first seat wins; a 1v1 2-0), last card last."""
    cards = page.locator(card)
    for index in range(cards.count()):
        if cards.nth(index).get_attribute("data-reported") == "1":
            continue
        button = cards.nth(index).locator("button").first
        button.scroll_into_view_if_needed()
        tap(taps, button)
        expect(cards.nth(index)).to_have_attribute("data-reported", "1")


def one_round_both_ways(phone, event: Tournament, card: str, noun: str) -> dict:
    page = phone.page
    taps = Taps(page)
    phone.login("jude")
    console = f"/events/{event.slug}/run/"
    phone.go(console)

    # Round 1, the one tap. The header stays in view while the TO scrolls to the last table.
    taps.reset()
    report_every_card(taps, page, card)
    assert in_view(page, ".round-head"), "the round's header scrolled away"
    expect(page.locator("#round-status")).to_contain_text(f"Every {noun} has a result")
    one_tap = page.locator("#round-next button")
    expect(one_tap).to_have_text("Pair round 2 · ends round 1")
    assert in_view(page, "#round-next button")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    view_shot(page, f"one-tap-{event.slug}-ready-390")
    form = page.locator("#round-next form")
    action = form.get_attribute("action")
    fields = {
        "csrfmiddlewaretoken": form.locator("[name=csrfmiddlewaretoken]").get_attribute("value")
    }
    base = phone.base
    tap(taps, one_tap)
    expect(page.locator(".round-head h2")).to_contain_text("Round 2")
    expect(page.locator(".messages")).to_contain_text("Round 1 is complete. Round 2 is paired")
    after = taps.figures()
    view_shot(page, f"one-tap-{event.slug}-round2-390")

    # A second press of the same form (a double tap, or a judge's second phone): the same
    # POST again, from this browser with its session, changes nothing and shows round 2.
    again = page.request.post(base + action, form=fields)
    text = again.text()
    assert again.ok and "nothing was changed again" in text
    assert '<h2>Round 2<span id="round-time"' in text  # playing: its clock, not "Playing"
    assert list(event.rounds.order_by("number").values_list("number", "status")) == [
        (1, Round.Status.COMPLETE),
        (2, Round.Status.PLAYING),
    ]

    phone.go(console)
    taps.reset()
    # Round 2 the old way: End round 2 at the foot of the page, then Pair round 3.
    report_every_card(taps, page, card)
    end = page.locator("button:has-text('End round 2')")
    end.scroll_into_view_if_needed()
    scroll = page.evaluate("window.scrollY")
    tap(taps, end)
    tap(taps, page.locator(".actions button:has-text('Pair round 3')"))
    expect(page.locator(".round-head h2")).to_contain_text("Round 3")
    before = taps.figures()

    # Round 3: the tables still waiting, the others folded away (htmx; the address too).
    first = page.locator(card).first
    first.locator("button").first.click()
    expect(first).to_have_attribute("data-reported", "1")
    # On a phone the filter is the round head's "Show only these" (the row of both lists
    # would push the first table off the first screen).
    page.click("#round-status a:has-text('Show only these')")
    expect(page.locator("details.done-tables > summary")).to_have_text(f"1 {noun} with a result")
    assert page.url.endswith("?tables=open")
    waiting = page.locator(f"#round-board > .matches > {card}")
    expect(waiting).to_have_count(page.locator(card).count() - 1)
    view_shot(page, f"one-tap-{event.slug}-waiting-390")

    return {"after": after, "before": before, "scroll_to_end_round": scroll}


def test_one_tap_pairs_round_two_of_a_17_player_pod_night_on_a_phone(phone):
    event = event_of("pods", 17, "pods-night")
    sizes = sorted(t.seats.count() for t in event.rounds.get().tables.all())
    assert sizes == [3, 3, 3, 4, 4]
    figures = one_round_both_ways(phone, event, "article.pod", "pod")
    print(f"\n17-player pods, one round (taps, POSTs, page loads): {figures}")
    # 5 result taps either way; the round's end: 1 tap instead of 2, and no scrolling.
    assert figures["after"][:2] == (6, 6) and figures["before"][:2] == (7, 7)


def test_one_tap_pairs_round_two_of_an_8_player_1v1_night_on_a_phone(phone):
    event = event_of("1v1", 8, "duel-night")
    figures = one_round_both_ways(phone, event, "article.match", "table")
    print(f"\n8-player 1v1, one round (taps, POSTs, page loads): {figures}")
    assert figures["after"][:2] == (5, 5) and figures["before"][:2] == (6, 6)
