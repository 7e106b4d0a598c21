"""Seasons' tests: a league with a store-points season and events played through the services."""

import datetime

import pytest

from seasons.services import season_create, season_events_set
from tests.factories import LeagueFactory, OrganizationFactory
from tests.tournaments.play import EIGHT, play_round, register
from tournaments.services.events import tournament_create


@pytest.fixture
def league(db):
    return LeagueFactory(organization=OrganizationFactory(name="Alpha Games", slug="alpha"))


@pytest.fixture
def season(league):
    return season_create(
        league=league,
        name="Winter",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )


@pytest.fixture
def event_in(django_capture_on_commit_callbacks):
    """make(season, name=...): a 1v1 event of the season's league, counted as the season's
    first event type, its players registered (and the after-commit work done, as it would
    be: a callback left pending would stand for the whole test's transaction)."""

    def make(season, name="Friday", names=EIGHT, date=datetime.date(2026, 11, 20), **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            event = tournament_create(
                league=season.league,
                name=name,
                format="1v1",
                date=date,
                confirm_date=True,
                **kwargs,
            )
            register(event, *names)
            kind = season.event_types.order_by("pk").first()
            season_events_set(season=season, choices={event.pk: kind.pk})
        return event

    return make


__all__ = ["play_round"]
