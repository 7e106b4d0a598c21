"""An achievement league from the phones at the table: after a pod of a Friday event, Ann
claims "First blood" on her phone (a second tap is safe), Bob, who sat at her pod, confirms
it on his, and the leaderboard shows it with the rule players read; then Cy claims
"Knockout" from a laptop and Dee confirms it there: claim, confirmation and board at 390 and
1366 px without sideways scroll. Screenshots are kept."""

import datetime

import pytest
from playwright.sync_api import expect

from achievements.models import Claim
from achievements.services import achievement_save, scoring_set
from seasons.services import season_create
from tests.factories import LeagueFactory, OrganizationFactory, UserFactory
from tests.tournaments.play import play_round, register
from tournaments.services.events import tournament_create

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)
LAPTOP = {"width": 1366, "height": 768}
FIRST_SCREEN = 200  # px: where a page's task starts at the latest on a phone (docs/design.md)
NAMES = ("Ann Archer", "Bob Baker", "Cy Cole", "Dee Drake")


def fits(visit: Visit, width: int) -> None:
    scroll = visit.page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{visit.page.url} is {scroll} px wide"


def claimed(visit, game, label: str, *, tap: str):
    """On `visit`'s "Your games", `game`'s achievement `label` chosen and claimed with `tap`
    ("click" or "dblclick"); the page says it waits for a podmate, and fits."""
    size = "phone" if visit.page.viewport_size["width"] == PHONE["width"] else "laptop"
    game.locator("select[name=achievement]").select_option(label=label)
    visit.shot(f"achievement-claim-{size}")
    fits(visit, visit.page.viewport_size["width"])
    getattr(game.locator("button:has-text('Claim')"), tap)()
    visit.page.wait_for_load_state("networkidle")
    expect(visit.page.locator("main")).to_contain_text("waiting for a podmate")
    visit.shot(f"achievement-claimed-{size}")
    fits(visit, visit.page.viewport_size["width"])


def confirmed_by(visit, username: str, claimer: str, achievement: str):
    """`username` logs in on `visit`, finds `claimer`'s claim of `achievement` waiting for
    them on "My achievements", confirms it, and the page says it counts."""
    visit.login(username)
    visit.go("/leagues/casual/achievements/me/")
    size = "phone" if visit.page.viewport_size["width"] == PHONE["width"] else "laptop"
    if size == "phone":
        expect(visit.page.locator("main")).to_contain_text(
            "1 claim from your podmates waits for you"
        )
    claim_line = visit.page.locator("li.claim", has_text=claimer)
    expect(claim_line).to_contain_text(achievement)
    visit.shot(f"achievement-confirm-{size}")
    fits(visit, visit.page.viewport_size["width"])
    claim_line.locator("button:has-text('Confirm')").click()
    visit.page.wait_for_load_state("networkidle")
    expect(visit.page.locator(".message")).to_contain_text("Confirmed: it counts.")
    expect(visit.page.locator("li.claim", has_text=claimer)).to_contain_text("confirmed")
    return visit


def test_a_claim_on_a_phone_confirmed_by_a_podmate_reaches_the_leaderboard(browser, live_server):
    store = OrganizationFactory(name="Dragon's Den", slug="dragons-den")
    league = LeagueFactory(organization=store, name="Casual Commander", slug="casual")
    season_create(
        league=league,
        name="Winter 2026",
        starts_on=datetime.date(2026, 11, 1),
        ends_on=datetime.date(2027, 1, 31),
    )
    first_blood = achievement_save(
        league=league,
        name="First blood",
        description="The first to deal combat damage to another player.",
        points=1,
        per="night",
    )
    achievement_save(league=league, name="Knockout", points=2, per="game")
    scoring_set(league=league, per_game=1, placings=[])
    event = tournament_create(
        league=league,
        name="Friday Commander",
        format="pods",
        date=datetime.date(2026, 11, 20),
        confirm_date=True,
    )
    entries = register(event, *NAMES)
    for entry in entries:  # each player's own account, linked by the store
        entry.player.user = UserFactory(username=entry.player.name.split()[0].lower())
        entry.player.save(update_fields=["user"])
    play_round(event)  # one pod of four, reported: a league game

    ann = Visit(browser, live_server, PHONE)
    ann.login("ann")
    ann.go("/leagues/casual/")
    ann.open_menu()
    ann.page.click(".league-nav a:has-text('Achievements')")
    ann.page.wait_for_load_state("networkidle")
    ann.page.click("a:has-text('Your games')")
    ann.page.wait_for_load_state("networkidle")
    game = ann.page.locator("section.my-game").first
    assert game.bounding_box()["y"] < FIRST_SCREEN  # the task starts on the first screen
    expect(game).to_contain_text("Friday Commander, round 1")
    expect(game.locator(".pod")).to_contain_text("Bob Baker")
    # A double tap: whichever answered last, there is one claim and the page says so.
    claimed(ann, game, "First blood (+1, once per night)", tap="dblclick")
    assert Claim.objects.filter(achievement=first_blood).count() == 1

    bob = confirmed_by(Visit(browser, live_server, PHONE), "bob", "Ann Archer", "First blood")

    # Ann's page says who confirmed it.
    ann.go("/leagues/casual/achievements/me/")
    expect(ann.page.locator("li.claim")).to_contain_text("confirmed")
    expect(ann.page.locator("li.claim")).to_contain_text("by Bob Baker")

    visitor = Visit(browser, live_server, PHONE)
    visitor.go("/leagues/casual/achievements/")
    rows = visitor.page.locator("table.achievement-table tbody tr")
    assert visitor.page.locator("table.achievement-table").bounding_box()["y"] < FIRST_SCREEN
    expect(rows).to_have_count(4)
    first = rows.first
    expect(first.locator("td.name")).to_have_text("Ann Archer")
    expect(first.locator("td.num").first).to_have_text("2")  # 1 for the game + First blood
    expect(first.locator("td.achieved")).to_contain_text("First blood")
    expect(visitor.page.locator(".achievement-list")).to_contain_text("once per night")
    visitor.shot("achievement-board-phone")
    fits(visitor, PHONE["width"])

    # The same from a laptop: Cy claims "Knockout" at 1366 px and Dee, his podmate, confirms.
    cy = Visit(browser, live_server, LAPTOP)
    cy.login("cy")
    cy.go("/leagues/casual/achievements/me/")
    game = cy.page.locator("section.my-game").first
    expect(game.locator(".pod")).to_contain_text("Dee Drake")
    claimed(cy, game, "Knockout (+2, once per game)", tap="click")

    dee = confirmed_by(Visit(browser, live_server, LAPTOP), "dee", "Cy Cole", "Knockout")
    assert Claim.objects.get(achievement__name="Knockout").status == "confirmed"

    laptop = Visit(browser, live_server, LAPTOP)
    laptop.go("/leagues/casual/achievements/")
    expect(laptop.page.locator("#id_season option:checked")).to_contain_text("Winter 2026")
    rows = laptop.page.locator("table.achievement-table tbody tr")
    expect(rows.first.locator("td.name")).to_have_text("Cy Cole")  # 1 for the game + 2
    expect(rows.first.locator("td.achieved")).to_contain_text("Knockout")
    expect(rows.nth(1).locator("td.achieved")).to_contain_text("First blood")
    laptop.shot("achievement-board-laptop")
    fits(laptop, LAPTOP["width"])
    for visit in (ann, bob, visitor, cy, dee, laptop):
        assert not visit.errors, visit.errors
        visit.context.close()
