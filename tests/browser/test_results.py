"""A finished 17-player pod night with a top 4, on a phone: the winner banner on the event page,
a finalist's "2nd of 17" on their event player page and on their own event page, and the
final standings' place column; no page wider than the phone."""

import pytest
from playwright.sync_api import expect

from leagues.models import Player
from tests.factories import LeagueFactory, UserFactory
from tests.tournaments.play import play_round, register
from tournaments.models import Entry, Tournament
from tournaments.selectors import standings
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end
from tournaments.services.topcut import top_cut_start

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_finished_pod_night_reads_like_a_tournament(browser, live_server):
    league = LeagueFactory(name="Friday Commander", slug="friday-cmd")
    event = tournament_create(
        league=league, name="Commander Night", format="pods", swiss_rounds=3, top_cut=4
    )
    # A fixed seed: the night is the same every run (the event's own seed is random).
    Tournament.objects.filter(pk=event.pk).update(seed=17)
    event.refresh_from_db()
    register(event, *(f"Pilot {n:02}" for n in range(1, 17)), "Maximiliana Throckmorton-Vasquez")
    for _ in range(3):
        play_round(event)
    seeds = standings(event).ranking
    final = top_cut_start(tournament=event).tables.get()
    entries = {s.entry.player_id: s.entry for s in final.seats.select_related("entry")}
    # Seed 3 wins the final pod; seed 1 is 2nd, seed 4 3rd, seed 2 4th.
    order = {seeds[2]: 1, seeds[0]: 2, seeds[3]: 3, seeds[1]: 4}
    table_report(table=final, places={entries[p].pk: q for p, q in order.items()})
    Player.objects.filter(pk=seeds[2]).update(name="Ezra Cole")
    Entry.objects.filter(tournament=event, player_id=seeds[2]).update(
        deck_name="Kinnan, Bonder Prodigy"
    )
    round_end(round_=final.round)  # the event finishes: its pages are drawn afresh
    user = UserFactory(username="seed1")
    Player.objects.filter(pk=seeds[0]).update(user=user)
    second = Player.objects.get(pk=seeds[0]).name

    phone = Visit(browser, live_server, PHONE)
    phone.go(f"/events/{event.slug}/")
    banner = phone.page.locator(".winner-banner")
    expect(banner).to_contain_text("Winner: Ezra Cole")
    expect(banner).to_contain_text("Kinnan, Bonder Prodigy")
    phone.shot("results-event-phone")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    phone.go(f"/events/{event.slug}/players/{seeds[0]}/")
    expect(phone.page.locator(".player-finish")).to_have_text("Finished 2nd of 17")
    phone.shot("results-player-phone")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    phone.go(f"/events/{event.slug}/standings/")
    places = phone.page.locator("td.place").all_inner_texts()
    # The cut's four are placed alone; the Swiss ranks follow from 5th, where two players level
    # on every tiebreaker share a place ("5th-6th" with an en dash), as the standings show any tie.
    assert places[:4] == ["1st", "2nd", "3rd", "4th"] and len(places) == 17
    assert places[4] in ("5th", "5th\u20136th"), places[4]
    phone.shot("results-standings-phone")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    phone.login("seed1")
    phone.go(f"/events/{event.slug}/me/")
    expect(phone.page.locator(".player-finish")).to_have_text("You finished 2nd of 17")
    expect(phone.page.locator("h1")).to_contain_text(second)
    phone.shot("results-my-event-phone")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.context.close()
    assert not phone.errors, phone.errors
