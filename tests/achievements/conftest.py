"""An achievement league: a store, four players with their own accounts, a pod game of the
four on a Friday, and three achievements (once per game, per night, per season)."""

import datetime
from dataclasses import dataclass

import pytest

from achievements.services import achievement_save
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)

FRIDAY = datetime.date(2026, 11, 20)


@dataclass
class Pod:
    league: object
    players: list  # Ann, Bob, Cy, Dee: their accounts are ann, bob, cy, dee
    game: object
    per_game: object  # "Knockout", 2 points, once per game
    per_night: object  # "First blood", 1 point, once per night
    per_season: object  # "New commander", 3 points, once per season
    organizer: object


@pytest.fixture
def pod(db) -> Pod:
    store = OrganizationFactory(name="Dragon's Den", slug="dragons-den")
    league = LeagueFactory(organization=store, name="Casual Commander", slug="casual")
    players = []
    for name in ("Ann", "Bob", "Cy", "Dee"):
        user = UserFactory(username=name.lower())
        players.append(PlayerFactory(organization=store, name=name, user=user))
    game = GameFactory(league=league, played_on=FRIDAY, players=players)
    return Pod(
        league=league,
        players=players,
        game=game,
        per_game=achievement_save(league=league, name="Knockout", points=2, per="game"),
        per_night=achievement_save(league=league, name="First blood", points=1, per="night"),
        per_season=achievement_save(league=league, name="New commander", points=3, per="season"),
        organizer=organizer_of(store, username="olive"),
    )
