"""The judges' desk in the browser, at 390 px (a phone) and 1366 px: a call from a player's
phone reaches a judge's phone without a reload, is taken ("a judge is coming" on the player's
page) and closed with a time extension; a penalty that escalates on its repeat, and a deviation
refused until it has its reason; a deck-check round from the picker to the table's extension."""

import pytest
from playwright.sync_api import expect

from judging.models import DeckCheck, JudgeCall, Penalty
from judging.services.calls import call_create, call_take
from leagues.models import Role
from tests.factories import LeagueFactory, UserFactory, organizer_of
from tests.judging.helpers import playing, seated, table
from tournaments.selectors.reports import walk_in_token

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 768}
WIDTHS = pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1366"])


def no_sideways_scroll(visit: Visit, viewport) -> None:
    assert visit.page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def judged_event():
    league = LeagueFactory(name="Modern League", slug="modern")
    organizer_of(league.organization, role=Role.JUDGE, username="judy")
    return playing(league, name="Modern Friday")


@WIDTHS
def test_a_call_from_a_players_phone_reaches_the_judges_phone(browser, live_server, viewport):
    event = judged_event()
    t2 = table(event, 2)
    ann = seated(t2)[0]
    player = Visit(browser, live_server, PHONE)
    judge = Visit(browser, live_server, viewport)
    try:
        judge.login("judy")
        judge.go(f"/events/{event.slug}/judge/")
        expect(judge.page.locator("#judge-queue")).to_contain_text("No call waiting")

        player.go(f"/events/{event.slug}/me/{walk_in_token(ann)}/")
        box = player.page.locator("#judge-call-box")
        box.get_by_label("Why").select_option("ruling")
        box.get_by_role("button", name="Call a judge").click()
        player.page.wait_for_load_state("networkidle")
        expect(player.page.locator(".judge-state")).to_contain_text("waiting for a judge")
        player.shot(f"judge-call-player-{viewport['width']}")

        # The judge's page, never reloaded, shows the call within a poll or two.
        call = judge.page.locator(".judge-call[data-table='2']")
        expect(call).to_be_visible(timeout=5_000)
        expect(judge.page.locator(".new-call")).to_be_visible()
        expect(call).to_contain_text("A ruling")
        expect(call).to_contain_text(ann.player.name)
        judge.shot(f"judge-desk-call-{viewport['width']}")
        no_sideways_scroll(judge, viewport)

        call.get_by_role("button", name="On my way").click()
        judge.page.wait_for_load_state("networkidle")
        call = judge.page.locator(".judge-call[data-table='2']")
        expect(call.locator(".taken-by")).to_have_text("you are on the way")
        # The player's page updates by itself (its poll) to say a judge is coming.
        expect(player.page.locator(".judge-state")).to_have_text(
            "A judge is coming.", timeout=20_000
        )
        player.shot(f"judge-coming-player-{viewport['width']}")

        call.get_by_label("Time extension for the table (minutes, added)").fill("3")
        call.get_by_label("Note").fill("Stack resolved, Bolt was on the stack first")
        call.get_by_role("button", name="Done").click()
        judge.page.wait_for_load_state("networkidle")
        expect(judge.page.locator(".messages")).to_contain_text("+3 min for the table")
        expect(judge.page.locator("#judge-queue")).to_contain_text("No call waiting")
        expect(judge.page.locator("table.judge-closed")).to_contain_text("+3 min")
        judge.shot(f"judge-desk-done-{viewport['width']}")
        no_sideways_scroll(judge, viewport)
        t2.refresh_from_db()
        assert t2.extra_minutes == 3
        assert JudgeCall.objects.get().status == "done"
    finally:
        player.context.close()
        judge.context.close()
    assert not player.errors and not judge.errors, (player.errors, judge.errors)


@WIDTHS
def test_a_penalty_that_escalates(browser, live_server, viewport):
    event = judged_event()
    ann = seated(table(event, 1))[0]
    judge = Visit(browser, live_server, viewport)
    try:
        judge.login("judy")
        judge.go(f"/events/{event.slug}/judge/penalties/")
        page = judge.page
        for _ in range(2):
            page.get_by_label("Player", exact=True).select_option(label=ann.player.name)
            page.get_by_label("Infraction").select_option("TE-SP")
            page.get_by_role("button", name="Give the penalty").click()
            page.wait_for_load_state("networkidle")
        expect(page.locator(".messages")).to_contain_text("Game Loss for Tournament Error")
        expect(page.locator(".messages")).to_contain_text(
            "Upgraded: Tournament Error — Slow Play for the second time at this event (IPG 3)"
        )
        rows = page.locator("table.penalty-log tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.first).to_contain_text("Game Loss")
        expect(rows.first.locator(".upgraded")).to_be_visible()

        # A deviation without its reason: refused, named, nothing written.
        page.get_by_label("Player", exact=True).select_option(label=ann.player.name)
        page.get_by_label("Infraction").select_option("GPE-GRV")
        page.get_by_label("Penalty", exact=True).select_option("match_loss")
        page.get_by_role("button", name="Give the penalty").click()
        page.wait_for_load_state("networkidle")
        expect(page.locator(".error-summary")).to_contain_text("say why you give a Match Loss")
        assert Penalty.objects.count() == 2
        judge.shot(f"judge-penalty-refused-{viewport['width']}")
        page.get_by_label("Reason, when you give another penalty").fill("Obvious repeat")
        page.get_by_role("button", name="Give the penalty").click()
        page.wait_for_load_state("networkidle")
        expect(page.locator(".messages")).to_contain_text("Result entered")
        expect(rows.first).to_contain_text("deviation: IPG Warning")
        judge.shot(f"judge-penalties-{viewport['width']}")
        no_sideways_scroll(judge, viewport)
    finally:
        judge.context.close()
    assert not judge.errors, judge.errors


@WIDTHS
def test_a_deck_check_round(browser, live_server, viewport):
    event = judged_event()
    judge = Visit(browser, live_server, viewport)
    try:
        judge.login("judy")
        judge.go(f"/events/{event.slug}/judge/deck-checks/")
        page = judge.page
        page.get_by_label("Tables to check").fill("2")
        page.get_by_label("From the top of the standings").check()
        page.get_by_label("Top % of the standings").fill("100")
        page.get_by_role("button", name="Propose tables").click()
        page.wait_for_load_state("networkidle")
        proposals = page.locator(".deck-proposal")
        expect(proposals).to_have_count(2)
        number = int(proposals.first.get_attribute("data-table"))
        proposals.first.get_by_role("button", name="Start the check").click()
        page.wait_for_load_state("networkidle")
        check = page.locator(f".deck-check[data-table='{number}']")
        check.get_by_label("Minutes it took").fill("5")
        check.get_by_role("button", name="Done").click()
        page.wait_for_load_state("networkidle")
        expect(page.locator(f".deck-check[data-table='{number}']")).to_contain_text("+5 min")
        expect(page.locator(f".deck-proposal[data-table='{number}']")).to_have_count(0)
        judge.shot(f"judge-deck-checks-{viewport['width']}")
        no_sideways_scroll(judge, viewport)
        assert table(event, number).extra_minutes == 5
        assert DeckCheck.objects.get().minutes == 5
    finally:
        judge.context.close()
    assert not judge.errors, judge.errors


@WIDTHS
def test_the_consoles_table_card_shows_an_open_call(browser, live_server, viewport):
    """The TO's console, never reloaded, at the site's own poll: a player's call puts "judge
    called · 0 min" on the table's card within 5 s (the issue's promise), and "judge on the
    way: NAME" once a judge takes it."""
    event = judged_event()
    t2 = table(event, 2)
    console = Visit(browser, live_server, viewport)
    try:
        console.login("judy")
        console.go(f"/events/{event.slug}/run/")
        card = console.page.locator(f"#table-{t2.pk}")
        expect(card).to_be_visible()
        expect(card.locator(".card-note")).to_have_count(0)
        call_create(table=t2, entry=seated(t2)[0], reason="ruling")
        badge = card.locator(".tag.judge-call")
        expect(badge).to_contain_text("judge called · 0 min", timeout=5_000)
        console.shot(f"console-judge-called-{viewport['width']}")
        no_sideways_scroll(console, viewport)
        call_take(call=JudgeCall.objects.get(), by=UserFactory(username="tess"))
        expect(card.locator(".tag.judge-call")).to_have_text(
            "judge on the way: tess", timeout=5_000
        )
        console.shot(f"console-judge-on-the-way-{viewport['width']}")
    finally:
        console.context.close()
    assert not console.errors, console.errors
