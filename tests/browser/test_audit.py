"""The organizers' History page on a phone: a correction shown before → after, then undone;
a stale correction form answered with the game as it is now."""

import datetime

import pytest

from leagues import services
from leagues.models import Game
from tests.factories import (
    GameFactory,
    LeagueFactory,
    PlayerFactory,
    TournamentFactory,
    organizer_of,
)
from tournaments.services.entries import entry_drop, entry_register
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann Archer", "Bob Baker", "Cy Cole", "Dee Drake"]


@pytest.fixture
def scene(db):
    league = LeagueFactory(name="Friday Commander", slug="friday", game_label="Commander")
    org = league.organization
    players = [PlayerFactory(organization=org, name=n) for n in NAMES]
    organizer = organizer_of(org, username="olive")
    game = GameFactory(
        league=league, players=players, played_on=datetime.date(2026, 11, 20), notes="Week 1"
    )
    # A night's events in the log too: a table reported, corrected, a player dropped.
    event = TournamentFactory(league=league, name="Friday Swiss", slug="friday-swiss")
    for name in NAMES:
        entry_register(tournament=event, name=name, create_player=True)
    round_ = round_pair(tournament=event)
    table = round_.tables.first()
    first, second = (s.entry for s in table.seats.order_by("position"))
    table_report(table=table, winner=first, game_wins={first.pk: 2, second.pk: 1}, by=organizer)
    table_report(table=table, winner=second, game_wins={first.pk: 1, second.pk: 2}, by=organizer)
    entry_drop(entry=first, by=organizer)
    return {"league": league, "players": players, "organizer": organizer, "game": game}


def test_a_correction_on_the_history_page_and_its_undo(phone, scene):
    game = scene["game"]
    phone.login("olive")
    page = phone.page
    phone.go(f"/games/{game.pk}/edit/")
    page.fill("#id_player_0", "Bob Baker")
    page.fill("#id_player_1", "Ann Archer")
    page.click("button:has-text('Save correction')")
    page.wait_for_load_state("networkidle")
    phone.open_menu(".league-nav")
    page.click("nav.league-nav >> text=History")
    page.wait_for_load_state("networkidle")
    assert "History of Friday Commander" in page.locator("h1").inner_text()
    first = page.locator(".history-entry").first
    assert "Game corrected" in first.inner_text()
    assert first.locator("del", has_text="1st Ann Archer").is_visible()
    assert first.locator("ins", has_text="1st Bob Baker").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"
    phone.shot("history-phone")
    first.locator("button", has_text="Undo this correction").click()
    page.wait_for_load_state("networkidle")
    assert "Undone:" in page.locator(".messages").inner_text()
    assert "Correction undone" in page.locator(".history-entry").first.inner_text()
    phone.shot("history-undone-phone")
    names = [r.player.name for r in Game.objects.get(pk=game.pk).results.order_by("placement")]
    assert names[:2] == ["Ann Archer", "Bob Baker"]


def test_the_event_history_on_a_phone(phone, scene):
    phone.login("olive")
    phone.go("/events/friday-swiss/")
    phone.open_menu(".event-head")
    phone.page.click(".event-head >> text=History")
    phone.page.wait_for_load_state("networkidle")
    entries = phone.page.locator(".history-entry")
    assert entries.count() == 3  # the drop, the correction, the report
    assert "Player dropped" in entries.nth(0).inner_text()
    assert "Match corrected" in entries.nth(1).inner_text()
    width = phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"
    phone.shot("history-event-phone")


def test_a_stale_correction_shows_the_game_as_it_is_now(phone, scene):
    game, players = scene["game"], scene["players"]
    phone.login("olive")
    page = phone.page
    phone.go(f"/games/{game.pk}/edit/")
    # Meanwhile someone else corrects the game.
    services.game_update(
        game=game,
        results=[services.ResultIn(player=p, place=i) for i, p in enumerate(players[::-1], 1)],
        played_on=game.played_on,
        notes="Week 1",
    )
    page.fill("#id_player_0", "Cy Cole")
    page.fill("#id_player_2", "Ann Archer")
    response_status = []
    page.on("response", lambda r: response_status.append(r.status) if "/edit/" in r.url else None)
    page.click("button:has-text('Save correction')")
    page.wait_for_load_state("networkidle")
    assert 409 in response_status
    assert "changed this game at" in page.locator("[role=alert]").inner_text()
    assert page.input_value("#id_player_0") == "Dee Drake"
    phone.shot("game-stale-phone")
