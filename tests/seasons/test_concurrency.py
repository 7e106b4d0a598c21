"""Two events of one season report their last results at the same moment: each writer's
catch-up runs after its own commit, the season row serialises them, and the table is the
replay of both events whatever the order."""

import datetime

import pytest

from seasons.domain.rules import season_table
from seasons.models import SeasonStanding
from seasons.services import domain_events, domain_season, season_create, season_events_set
from tests.concurrency import run_together
from tests.factories import LeagueFactory
from tests.tournaments.play import register
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

pytestmark = pytest.mark.django_db(transaction=True)


def stored(season):
    return list(
        SeasonStanding.objects.filter(season=season).values_list("player_id", "rank", "points")
    )


def test_two_events_finishing_together_both_reach_the_table():
    league = LeagueFactory()
    season = season_create(
        league=league,
        name="Winter",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )
    kind = season.event_types.get()
    rounds = []
    for name, players in (("Friday", "ABCD"), ("Saturday", "EFGH")):
        event = tournament_create(
            league=league, name=name, date=datetime.date(2026, 11, 20), confirm_date=True
        )
        register(event, *(f"{name} {p}" for p in players))
        season_events_set(season=season, choices={event.pk: kind.pk})
        round_ = round_pair(tournament=event)
        first, *rest = round_.tables.order_by("number")
        for table in rest:
            table_report(table=table, winner=table.seats.order_by("position").first().entry)
        rounds.append((round_, first))

    def finish(round_, table):
        def job():
            table_report(table=table, winner=table.seats.order_by("position").first().entry)
            round_end(round_=round_)

        return job

    outcomes = run_together(*(finish(r, t) for r, t in rounds))
    assert outcomes == [None, None], outcomes
    rows = season_table(domain_season(season), domain_events(season))
    assert len(rows) == 8
    assert stored(season) == [(r.player, r.rank, r.points) for r in rows]
    assert sorted(points for _, _, points in stored(season)) == [1] * 4 + [4] * 4
