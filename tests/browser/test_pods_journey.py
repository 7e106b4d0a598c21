"""A TO runs a pod event (cEDH) from a phone; a player finds their pod and seat."""

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.models import Round, Seat, Tournament

from .a11y import unreadable_in_either_scheme
from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo"]  # 4 + 3 + 3


@pytest.fixture
def league(db):
    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    return league


def fits_the_phone(visit):
    return visit.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_judge_runs_a_pod_event_on_a_phone(phone, league, browser, live_server):
    page = phone.page
    phone.login("jude")
    phone.go("/leagues/cedh/events/new/")
    page.fill("#id_name", "cEDH Friday")
    page.select_option("#id_format", "pods")
    phone.shot("pods-create-phone")
    page.click("button:has-text('Create the event')")
    slug = f"{league.organization.slug}-cedh-friday"  # the store's slug, then the name
    page.wait_for_url(f"**/events/{slug}/run/")
    event = Tournament.objects.get(slug=slug)
    assert event.is_pods and float(event.points_win) == 5
    for name in PLAYERS:
        page.fill("#id_name", name)
        page.click("button:has-text('Register')")
        page.wait_for_load_state("networkidle")
        # A name that is not a player of the store yet is asked about first.
        assert f"New player? {name} is not a player" in page.locator(".errorlist").inner_text()
        page.check("#id_new_player")
        page.click("button:has-text('Register')")
        page.wait_for_load_state("networkidle")
    assert "10 players:" in page.locator(".structure").inner_text()
    phone.shot("pods-registered-phone")

    page.click("button:has-text('Pair round 1')")
    page.wait_for_load_state("networkidle")
    cards = page.locator("article.pod")
    assert cards.count() == 3
    assert "Waiting for 3 pods" in page.locator("#round-status").inner_text()
    assert fits_the_phone(phone)
    phone.shot("pods-round1-phone")

    # Pod 1: one tap on the second seat's name makes them the winner.
    winner = cards.nth(0).locator("button.seat").nth(1)
    winner_name = winner.locator(".name").inner_text()
    winner.click()
    expect(page.locator("article.pod.reported")).to_have_count(1)
    assert cards.nth(0).locator("button.seat.won .name").inner_text() == winner_name
    # The winner's seat is readable in both schemes (white on the dark scheme's light green
    # was 1.8:1 before --good-ink).
    assert unreadable_in_either_scheme(phone) == []
    # Pod 2: a draw.
    cards.nth(1).locator("button.draw").click()
    expect(page.locator("article.pod.reported")).to_have_count(2)
    # Pod 3: the full order, last seat first.
    third = cards.nth(2)
    third.locator("summary").click()
    selects = third.locator("select")
    expect(selects.first).to_be_visible()  # the form is fetched when the TO opens it
    count = selects.count()
    for index in range(count):
        selects.nth(index).select_option(str(count - index))
    phone.shot("pods-full-order-phone")
    third.locator("button:has-text('Save the order')").click()
    expect(page.locator("article.pod.reported")).to_have_count(3)
    assert "Every pod has a result" in page.locator("#round-status").inner_text()
    assert fits_the_phone(phone)
    phone.shot("pods-reported-phone")

    first = Round.objects.get(tournament=event, number=1)
    pods = list(first.tables.order_by("number"))
    assert pods[0].winner.player.name == winner_name
    assert pods[1].is_draw
    last = pods[2].seats.order_by("position").last()
    assert pods[2].winner == last.entry and last.place == 1

    page.click("button:has-text('End round 1')")
    page.wait_for_load_state("networkidle")
    page.click("button:has-text('Pair round 2')")
    page.wait_for_load_state("networkidle")
    assert page.locator("article.pod").count() == 3
    phone.shot("pods-round2-phone")

    # A player on their own phone finds their pod and seat.
    player = Visit(browser, live_server, PHONE)
    try:
        player.go(f"/events/{event.slug}/")
        rows = player.page.locator(".finder tbody tr").all()
        cells = next(c for r in rows if (c := r.locator("td").all_inner_texts())[0] == "Eve")
        seat = Seat.objects.get(round__tournament=event, round__number=2, entry__player__name="Eve")
        assert cells[:3] == ["Eve", str(seat.table.number), str(seat.position)]
        assert player.page.locator("li.pairing.pod").count() == 3
        assert fits_the_phone(player)
        player.shot("pods-find-my-seat-phone")
        player.go(f"/events/{event.slug}/standings/")
        assert player.page.locator("table.event-standings tbody tr").count() == 10
        assert fits_the_phone(player)
        player.shot("pods-standings-phone")
        player.go(f"/events/{event.slug}/players/{seat.entry.player_id}/")
        assert player.page.locator("table.player-rounds tbody tr").count() == 2
        # The rounds' table fits its frame: nothing hidden off to the right on a phone, also
        # with the widest round a pod can show (three long names, a place).
        frame = "document.querySelector('table.player-rounds').parentElement"
        assert player.page.evaluate(f"{frame}.scrollWidth <= {frame}.clientWidth")
        player.shot("pods-player-phone")
        player.page.evaluate(
            """for (const row of document.querySelectorAll('table.player-rounds tbody tr')) {
                 row.cells[3].textContent = 'Finnegan, Gustavo, Harriet';
                 row.cells[4].textContent = 'loss · 2nd';
               }"""
        )
        assert player.page.evaluate(f"{frame}.scrollWidth <= {frame}.clientWidth")
        player.shot("pods-player-widest-phone")
    finally:
        player.context.close()
    assert not player.errors, player.errors


def test_the_projector_shows_each_players_pod_and_seat(desktop, league):
    from tests.tournaments.play import register
    from tournaments.services.events import tournament_create
    from tournaments.services.rounds import round_pair

    event = tournament_create(league=league, name="Pod Wall", format="pods")
    register(event, *PLAYERS[:7])
    round_ = round_pair(tournament=event)
    desktop.go(f"/events/{event.slug}/projector/")
    rows = desktop.page.locator("ol.seats li")
    assert rows.count() == 7
    seat = round_.seats.select_related("entry__player", "table").order_by("entry__player__name")[0]
    assert rows.nth(0).inner_text().split() == [
        seat.entry.player.name,
        "pod",
        str(seat.table.number),
        "·",
        "seat",
        str(seat.position),
    ]
    desktop.shot("pods-projector-desktop")


def test_the_pod_bracket_on_a_phone(phone, league):
    from tests.tournaments.play import play_round, register
    from tournaments.services.events import tournament_create
    from tournaments.services.results import table_report
    from tournaments.services.rounds import round_end
    from tournaments.services.topcut import top_cut_start

    event = tournament_create(
        league=league, name="Pod Cut", format="pods", swiss_rounds=1, top_cut=16
    )
    register(event, *(f"Player {n:02}" for n in range(1, 21)))
    play_round(event)
    semis = top_cut_start(tournament=event)
    tables = list(semis.tables.order_by("number"))
    table_report(table=tables[0], draw=True)
    for table in tables[1:]:
        table_report(table=table, winner=table.seats.get(position=3).entry)
    round_end(round_=semis)
    final = event.rounds.get(number=semis.number + 1).tables.get()
    table_report(table=final, winner=final.seats.get(position=2).entry)
    round_end(round_=event.rounds.get(number=semis.number + 1))
    phone.go(f"/events/{event.slug}/bracket/")
    page = phone.page
    assert page.locator(".bracket-round").count() == 2
    assert page.locator(".bracket-match").count() == 5
    assert final.seats.get(position=2).entry.player.name in page.locator(".champion").inner_text()
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("pods-bracket-phone")
