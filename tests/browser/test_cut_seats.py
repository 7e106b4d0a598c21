"""A cut pod whose seeds choose their seats: the TO records the choices on a phone, the
pairings show the pod in its new seat order."""

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.selectors import standings
from tournaments.services.events import tournament_create
from tournaments.services.topcut import top_cut_start

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_to_records_the_seats_the_seeds_chose(browser, live_server):
    league = LeagueFactory(name="cEDH League", slug="cedh")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = tournament_create(
        league=league, name="Cut", format="pods", swiss_rounds=1, top_cut=4, cut_seats="seed_picks"
    )
    register(event, *(f"Player {n}" for n in range(8)))
    play_round(event)
    seeds = standings(event).ranking[:4]
    final = top_cut_start(tournament=event).tables.get()
    names = dict(event.entries.values_list("player_id", "player__name"))
    entries = dict(event.entries.values_list("player_id", "pk"))

    to = Visit(browser, live_server, PHONE)
    to.login("jude")
    to.go(f"/events/{event.slug}/run/")
    form = to.page.locator(f"form[action$='/tables/{final.pk}/seats/']")
    expect(form).to_contain_text(f"Seed 1: {names[seeds[0]]}")
    # Seed 1 goes second, seed 2 first, seeds 3 and 4 swap too.
    for player, seat in zip(seeds, ("2", "1", "4", "3"), strict=True):
        form.locator(f"select[name='seat-{entries[player]}']").select_option(seat)
    to.shot("cut-seats-phone")
    assert to.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    form.locator("button:has-text('Save the seats')").click()
    to.page.wait_for_load_state("networkidle")
    expect(to.page.locator(".messages")).to_contain_text("the seeds' seats are recorded")

    to.go(f"/events/{event.slug}/")
    order = to.page.locator("#pod-1 .seat-order li").all_inner_texts()
    assert [line.split(" ·")[0] for line in order] == [
        names[seeds[1]],
        names[seeds[0]],
        names[seeds[3]],
        names[seeds[2]],
    ]
