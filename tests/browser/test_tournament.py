"""A TO runs a Swiss round from a phone; players find their seat; the wall screen shows it."""

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def league(db):
    league = LeagueFactory(name="Friday Magic", slug="friday-magic", game_label="Modern")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    return league


def test_a_judge_runs_round_one_on_a_phone(phone, league):
    page = phone.page
    phone.login("jude")
    phone.go("/leagues/friday-magic/events/new/")
    page.fill("#id_name", "Friday Swiss")
    page.click("button:has-text('Create the event')")
    slug = f"{league.organization.slug}-friday-swiss"  # the store's slug, then the name
    page.wait_for_url(f"**/events/{slug}/run/")
    for name in ["Ann", "Bob", "Cy", "Dee", "Eve"]:
        page.fill("#id_name", name)
        page.click("button:has-text('Register')")
        page.wait_for_load_state("networkidle")
        # A name that is not a player of the store yet is asked about first.
        assert f"New player? {name} is not a player" in page.locator(".errorlist").inner_text()
        page.check("#id_new_player")
        page.click("button:has-text('Register')")
        page.wait_for_load_state("networkidle")
    assert "Registered Eve" in page.locator(".messages").inner_text()
    page.click("button:has-text('Pair round 1')")
    page.wait_for_load_state("networkidle")
    assert "Waiting for 2 tables" in page.content()
    phone.shot("event-run-round1-phone")
    for card in page.locator("article.match").all():
        card.locator("button", has_text="2-1").click()
    expect(page.locator("article.match.reported")).to_have_count(2)
    # The "waiting for" line follows each tap without a reload.
    assert "Every table has a result" in page.locator("#round-status").inner_text()
    phone.shot("event-run-reported-phone")
    page.click("button:has-text('End round 1')")
    page.wait_for_load_state("networkidle")
    event = Tournament.objects.get(slug=slug)
    assert Round.objects.get(tournament=event, number=1).status == Round.Status.COMPLETE
    assert page.locator("button", has_text="Pair round 2").is_visible()


def test_players_see_pairings_standings_and_the_projector(desktop, phone, league):
    from tournaments.services.entries import entry_register
    from tournaments.services.events import tournament_create
    from tournaments.services.results import table_report
    from tournaments.services.rounds import round_pair

    event = tournament_create(league=league, name="Open Swiss")
    for name in ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn"]:
        entry_register(tournament=event, name=name, create_player=True)
    round_ = round_pair(tournament=event)
    for table in round_.tables.all():
        table_report(table=table, winner=table.seats.order_by("position").first().entry)
    phone.go(f"/events/{event.slug}/")
    assert phone.page.locator("li.pairing").count() == 3
    assert phone.page.locator(".finder tbody tr").count() == 6
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 390
    phone.shot("event-pairings-phone")
    phone.go(f"/events/{event.slug}/standings/")
    assert phone.page.locator("table.event-standings tbody tr").count() == 6
    phone.shot("event-standings-phone")
    desktop.go(f"/events/{event.slug}/projector/")
    assert desktop.page.locator("ol.seats li").count() == 6
    desktop.shot("event-projector-desktop")


def test_the_bracket_and_a_players_night(phone, league):
    from tests.tournaments.play import play_round, register
    from tournaments.services.events import tournament_create
    from tournaments.services.results import table_report
    from tournaments.services.topcut import top_cut_start

    event = tournament_create(league=league, name="Cut Night", top_cut=4)
    register(event, "Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")
    for _ in range(3):
        play_round(event)
    semis = top_cut_start(tournament=event)
    first = semis.tables.first()
    table_report(table=first, winner=first.seats.get(position=1).entry)
    phone.go(f"/events/{event.slug}/bracket/")
    assert phone.page.locator(".bracket-round").count() == 2
    assert phone.page.locator(".slot.won").count() == 1
    phone.shot("event-bracket-phone")
    phone.go(f"/events/{event.slug}/standings/")
    phone.page.locator("table.event-standings a").first.click()
    phone.page.wait_for_load_state("networkidle")
    assert phone.page.locator("tbody tr").count() >= 3
    phone.shot("event-player-phone")


def test_a_half_point_bye_is_marked_on_a_phone_and_shown_as_a_bye_of_half(phone, desktop, league):
    """The TO gives Ann a requested bye for round 1 from the player list (twice: the second
    tap says it is done), pairs, and the pairings show her bye of ½."""
    from tournaments.services.entries import entry_register
    from tournaments.services.events import tournament_create

    event = tournament_create(league=league, name="Chess Open", points="chess")
    for name in ["Ann", "Bob", "Cy", "Dee", "Eve"]:
        entry_register(tournament=event, name=name, create_player=True)
    page = phone.page
    phone.login("jude")
    phone.go(f"/events/{event.slug}/run/")
    ann = page.locator("ul.entries li", has_text="Ann")
    ann.locator("summary", has_text="½ bye").click()
    ann.locator("input[type=number][name=round]").fill("1")
    phone.shot("event-run-half-bye-phone")
    ann.locator("button", has_text="Give the bye").click()
    page.wait_for_load_state("networkidle")
    assert "Ann sits out round 1 with a half-point bye." in page.locator(".messages").inner_text()
    assert "½ bye in round 1" in page.locator("ul.entries li", has_text="Ann").inner_text()
    # A second tap from the same (stale) form changes nothing and says so.
    page.go_back()
    page.locator("ul.entries li", has_text="Ann").locator("summary", has_text="½ bye").click()
    page.locator("ul.entries li", has_text="Ann").locator("input[type=number][name=round]").fill(
        "1"
    )
    page.locator("ul.entries li", has_text="Ann").locator("button", has_text="Give the bye").click()
    page.wait_for_load_state("networkidle")
    assert "Ann already has a bye in round 1." in page.content()
    page.click("button:has-text('Pair round 1')")
    page.wait_for_load_state("networkidle")
    assert "Bye ½ (requested): Ann" in page.content()
    phone.shot("event-run-half-bye-paired-phone")
    desktop.go(f"/events/{event.slug}/")
    assert "Bye ½" in desktop.page.content()
    desktop.shot("event-pairings-half-bye-desktop")
