"""My Guildhall on a phone (390 px) and a laptop (1366 px): a player at two stores with long
league names, ratings, a provisional tag and past events. The page is no wider than the
screen (its leagues table made it scroll sideways), the table's own cells are not cut off,
and a past event says where the player finished. Screenshots: my-guildhall-*.png."""

import pytest

from leagues.models import Player
from ratings.services import ratings_recalculate
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
)
from tests.tournaments.play import EIGHT, play_round, register
from tournaments.selectors import standings
from tournaments.services.events import tournament_create

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 900}


@pytest.fixture
def scene(db):
    """Pat at two stores with a long name, a long league name at each and twelve games; at
    the second store, a finished Swiss of eight that Pat won (no draws: exactly one player
    won all three rounds, and Pat's account holds that player)."""
    pat = UserFactory(username="pat")
    for n, (store_name, league_name) in enumerate(
        [
            ("The Dragon's Den Games & Hobbies", "Thursday Night Commander League"),
            ("Cards Corner", "Pauper Cube Draft Wednesdays (Season 4)"),
        ]
    ):
        store = OrganizationFactory(name=store_name, slug=f"store-{n}")
        league = LeagueFactory(organization=store, name=league_name, slug=f"league-{n}")
        if n == 0:
            me = PlayerFactory(organization=store, name="Patricia Parkinson-Whitaker")
        else:
            event = tournament_create(league=league, name="Friday Night Swiss", swiss_rounds=3)
            register(event, *EIGHT)
            for _ in range(3):
                play_round(event)
            [undefeated] = [r.player for r in standings(event).rows if r.wins == 3]
            me = Player.objects.get(pk=undefeated)
        me.user = pat
        me.save(update_fields=["user"])
        rivals = [PlayerFactory(organization=store, name=f"Rival {n}-{i}") for i in range(3)]
        for game in range(12):
            GameFactory(league=league, players=[*rivals[: game % 3], me, *rivals[game % 3 :]])
        ratings_recalculate(league=league)
    return pat


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390", "1366"])
def test_my_guildhall_fits_the_screen_and_says_the_finish(browser, live_server, scene, size):
    visit = Visit(browser, live_server, size)
    try:
        visit.login("pat")
        visit.go("/me/")
        facts = visit.page.evaluate(
            """() => {
              const table = document.querySelector("table.my-ratings");
              const box = table.getBoundingClientRect();
              const cut = [...table.querySelectorAll("th, td")].filter(
                (cell) => cell.scrollWidth > cell.clientWidth + 1);
              return {
                scroll: document.documentElement.scrollWidth,
                tableRight: Math.round(box.right),
                tableScroll: table.parentElement.scrollWidth - table.parentElement.clientWidth,
                cut: cut.map((cell) => cell.textContent.trim()),
                past: [...document.querySelectorAll("#my-past + ul li")].map(
                  (li) => li.textContent.replace(/\\s+/g, " ").trim()),
              };
            }"""
        )
        visit.shot(f"my-guildhall-{size['width']}")
        assert facts["scroll"] <= size["width"], facts
        assert facts["tableRight"] <= size["width"] and facts["tableScroll"] <= 0, facts
        assert facts["cut"] == [], facts
        assert len(facts["past"]) == 1 and facts["past"][0].endswith("— 1st of 8"), facts
    finally:
        visit.context.close()
    assert not visit.errors, visit.errors
