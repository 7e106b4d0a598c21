"""The leaderboard and a player's games read a fixed number of queries, whatever the number
of players, games and claims (no query per player or per game)."""

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from achievements import services
from seasons.services import season_create
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def league_of(players: int, slug: str):
    store = OrganizationFactory(slug=f"store-{slug}")
    league = LeagueFactory(organization=store, slug=slug)
    season_create(
        league=league,
        name="Winter",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    people = [PlayerFactory(organization=store, name=f"P{n}") for n in range(players)]
    people[0].user = UserFactory(username=f"me-{slug}")
    people[0].save(update_fields=["user"])
    knockout = services.achievement_save(league=league, name="Knockout", points=2, per="game")
    services.scoring_set(league=league, per_game=1, placings=[2, 1])
    day = datetime.date(2026, 3, 6)
    for start in range(0, players, 4):
        pod = [people[0], *people[start + 1 : start + 4]] if start else people[:4]
        game = GameFactory(league=league, played_on=day, players=pod)
        for player in pod[:3]:
            claim = services.claim_submit(game=game, player=player, achievement=knockout)
            if player != pod[0]:
                services.claim_confirm(claim=claim, podmate=pod[-1])
        day += datetime.timedelta(days=1)
    return league, people[0].user


def count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("page", ["achievement_board", "achievement_mine"])
def test_the_pages_read_the_same_queries_for_8_or_40_players(page, monkeypatch):
    monkeypatch.setattr(services, "CLAIM_LIMIT", 1000)  # the first player claims in every game
    counts = []
    for players, slug in ((8, "small"), (40, "large")):
        league, user = league_of(players, slug)
        client = Client()
        client.force_login(user)
        url = reverse(page, args=[league.slug])
        count(client, url)  # the session's first read
        counts.append(count(client, url))
    print(page, "queries for 8 and 40 players:", counts)
    assert counts[0] == counts[1], counts
    assert counts[1] <= 14, counts
