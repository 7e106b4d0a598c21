"""seasons.services: the season table follows its events' results, after commit, locked."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from seasons import services
from seasons.domain.rules import PlacingRow, PointTable, SeasonError
from seasons.models import SeasonEvent, SeasonStanding
from seasons.services import (
    event_type_save,
    season_catch_up,
    season_create,
    season_events_set,
    season_update,
    seasons_sweep,
)
from tournaments.models import Table
from tournaments.services.results import table_report

from .conftest import play_round

pytestmark = pytest.mark.django_db


def stale_seasons():
    with connection.cursor() as cursor:
        cursor.execute(services.STALE_EVENTS)
        return {season_id for _, season_id in cursor.fetchall()}


def table_of(season):
    return [
        (s.player.name, s.rank, s.points, s.events_counted)
        for s in SeasonStanding.objects.filter(season=season).select_related("player")
    ]


def test_a_new_season_from_a_preset_has_its_event_types(season):
    (kind,) = season.event_types.all()
    assert kind.name == "Store night"
    assert (kind.entering, kind.per_win, kind.per_draw, kind.per_bye) == (1, 3, 1, 3)
    assert season.tiebreaks == ["most_event_wins", "most_events"]
    assert AuditEntry.objects.filter(action="season.create").count() == 1


def test_the_table_follows_each_result_after_commit(
    event_in, season, django_capture_on_commit_callbacks
):
    event = event_in(season)
    assert table_of(season) == []  # no round complete yet
    with django_capture_on_commit_callbacks(execute=True):
        round_ = play_round(event)
    rows = table_of(season)
    # Round 1 of 8: four winners 1 + 3, four losers 1 (entering).
    assert sorted(points for _, _, points, _ in rows) == [1, 1, 1, 1, 4, 4, 4, 4]
    winners = {name for name, _, points, _ in rows if points == 4}
    # A correction: the first table's loser wins instead; the table follows at once.
    table = Table.objects.filter(round=round_).order_by("number").first()
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    with django_capture_on_commit_callbacks(execute=True):
        table_report(table=table, winner=seats[1].entry)
    after = {name: points for name, _, points, _ in table_of(season)}
    assert after[seats[1].entry.player.name] == 4
    assert after[seats[0].entry.player.name] == 1
    assert seats[0].entry.player.name in winners
    assert stale_seasons() == set()


def test_a_stale_event_without_its_catch_up_is_swept(
    event_in, season, django_capture_on_commit_callbacks
):
    event = event_in(season)
    play_round(event)  # the on-commit catch-up never runs (the process "died")
    assert stale_seasons() == {season.pk}
    assert table_of(season) == []
    assert seasons_sweep() == [season.pk]
    assert len(table_of(season)) == 8
    assert seasons_sweep() == []


def test_a_change_committed_while_the_event_is_read_keeps_it_stale(event_in, season, monkeypatch):
    event = event_in(season)
    play_round(event)
    season_event = SeasonEvent.objects.select_related("tournament__league").get(tournament=event)
    real = services.event_snapshot

    def read_then_change(tournament):
        snapshot = real(tournament)
        # A writer commits a change to the event after its version was read.
        from tournaments.page_versions import event_changed

        event_changed(tournament.pk)
        return snapshot

    monkeypatch.setattr(services, "event_snapshot", read_then_change)
    services._snapshot(season_event)
    assert stale_seasons() == {season.pk}
    monkeypatch.setattr(services, "event_snapshot", real)
    assert season_catch_up(season_id=season.pk)
    assert stale_seasons() == set()


def test_catch_up_costs_the_same_queries_whatever_the_seasons_size(event_in, season):
    """The catch-up reads again only the stale event; the others' finishes are stored."""
    counts = []
    for n in range(4):
        event = event_in(season, name=f"Night {n}", date=datetime.date(2026, 3, n + 1))
        play_round(event)
        with CaptureQueriesContext(connection) as queries:
            assert season_catch_up(season_id=season.pk)
        counts.append(len(queries))
    assert counts[1:] == [counts[0]] * 3, counts
    assert counts[0] <= 16, counts


def test_events_outside_the_dates_are_refused(event_in, season, league):
    event = event_in(season)
    early = event_in(season, name="Old", date=datetime.date(2026, 1, 5))
    kind = season.event_types.get()
    with pytest.raises(SeasonError) as caught:
        season_update(
            season=season,
            name="Winter",
            starts_on=datetime.date(2026, 12, 1),
            ends_on=datetime.date(2026, 11, 1),
            tiebreaks=[],
        )
    assert caught.value.field == "ends_on"
    # Moving the dates drops the events outside them, said in the History.
    season_update(
        season=season,
        name="Late winter",
        starts_on=datetime.date(2026, 6, 1),
        ends_on=datetime.date(2026, 12, 31),
        tiebreaks=[],
    )
    assert list(SeasonEvent.objects.values_list("tournament", flat=True)) == [event.pk]
    entry = AuditEntry.objects.get(action="season.change")
    assert entry.after["events_removed"] == ["Old"]
    with pytest.raises(SeasonError) as caught:
        season_events_set(season=season, choices={early.pk: kind.pk})
    assert caught.value.code == "outside_season"
    assert caught.value.field == f"event_{early.pk}"


def test_a_point_table_change_rescored_at_once_and_in_the_history(
    event_in, season, django_capture_on_commit_callbacks
):
    event = event_in(season)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event)
    kind = season.event_types.get()
    table = PointTable("Store night", placings=(PlacingRow(1, 10),), entering=1, per_win=3)
    event_type_save(season=season, table=table, event_type=kind)
    rows = table_of(season)
    # Round 1's standings: the winners share 1st (rank 1): each takes 1 + 3 + 10.
    assert sorted(points for _, _, points, _ in rows)[-4:] == [14, 14, 14, 14]
    entry = AuditEntry.objects.get(action="season.type_change")
    assert entry.before["placings"] == [] and entry.after["placings"] == [[1, 10, None]]


def test_a_second_type_with_the_same_name_is_refused(season):
    with pytest.raises(SeasonError) as caught:
        event_type_save(season=season, table=PointTable("store night"))
    assert caught.value.field == "name"


def test_an_event_no_longer_counted_leaves_the_table(
    event_in, season, django_capture_on_commit_callbacks
):
    event = event_in(season)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event)
    season_events_set(season=season, choices={event.pk: None})
    assert table_of(season) == []
    assert AuditEntry.objects.filter(action="season.events").count() == 2


def test_a_deleted_event_leaves_the_table(event_in, season, django_capture_on_commit_callbacks):
    event = event_in(season)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event)
    assert len(table_of(season)) == 8
    with django_capture_on_commit_callbacks(execute=True):
        event.delete()
    assert table_of(season) == []


def test_a_season_name_is_unique_in_its_league(season, league):
    with pytest.raises(SeasonError) as caught:
        season_create(
            league=league,
            name="winter",
            starts_on=datetime.date(2026, 1, 1),
            ends_on=datetime.date(2026, 2, 1),
        )
    assert caught.value.code == "name_taken"


def test_a_season_and_its_league_can_be_deleted(event_in, season, league):
    event_in(season)
    season.delete()
    assert not SeasonEvent.objects.exists()
    other = season_create(
        league=league,
        name="Spring",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )
    event_in(other, name="Saturday")
    from tournaments.models import Tournament

    Tournament.objects.filter(league=league).delete()
    league.delete()
    assert not type(season).objects.exists()


def test_a_result_in_a_round_still_played_replays_nothing(
    event_in, season, django_capture_on_commit_callbacks
):
    """Placings move at a round's end: a result before it is read but rewrites no table."""
    from tournaments.services.rounds import round_pair

    event = event_in(season)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event)
        round_ = round_pair(tournament=event)
    replayed = season.__class__.objects.get(pk=season.pk).replayed_at
    table = round_.tables.order_by("number").first()
    winner = table.seats.order_by("position").first().entry
    with django_capture_on_commit_callbacks(execute=True):
        table_report(table=table, winner=winner)
    assert season.__class__.objects.get(pk=season.pk).replayed_at == replayed
    assert stale_seasons() == set()
