"""`log_action`, the one-line audit call: where an entry is filed comes from its scope (a
tournament, a league, an organization, or another row of one), what it is about from a row
or a (type, id) pair; the rest is written as given."""

import pytest

from audit.models import AuditEntry
from audit.services import log_action
from tests.factories import PlayerFactory, TournamentFactory, organizer_of
from tournaments.models import ResultReport

pytestmark = pytest.mark.django_db


def filed(entry: AuditEntry) -> tuple:
    return (
        entry.organization_id,
        entry.league_id,
        entry.tournament_id,
        entry.tournament_name,
        entry.object_type,
        entry.object_id,
        entry.summary,
    )


def test_an_event_files_its_league_and_store_and_starts_the_summary_with_its_name():
    event = TournamentFactory(name="Friday Swiss")
    league = event.league
    entry = log_action(event, "entry.drop", event, "Ann dropped", {"a": 1}, {"a": 2})
    assert filed(entry) == (
        league.organization_id,
        league.pk,
        event.pk,
        "Friday Swiss",
        "tournament",
        event.pk,
        "Friday Swiss: Ann dropped",
    )
    assert (entry.before, entry.after, entry.actor, entry.actor_label) == (
        {"a": 1},
        {"a": 2},
        None,
        "system",
    )


def test_a_league_a_store_and_a_store_s_row_file_what_they_have():
    event = TournamentFactory()
    league, store = event.league, event.league.organization
    player = PlayerFactory(organization=store)
    olive = organizer_of(store, username="olive")
    by_league = log_action(league, "league.create", league, "League made", by=olive, via="api")
    by_store = log_action(store, "store.profile", store, "Profile changed")
    by_player = log_action(player, "player.claim", player, "Ann says she is Ann")
    assert filed(by_league) == (store.pk, league.pk, None, "", "league", league.pk, "League made")
    assert by_league.actor_label == "olive (api)" and by_league.actor == olive
    assert filed(by_store) == (
        store.pk,
        None,
        None,
        "",
        "organization",
        store.pk,
        "Profile changed",
    )
    assert filed(by_player)[:2] == (store.pk, None)
    assert filed(by_player)[4:6] == ("player", player.pk)


def test_a_row_type_the_history_names_otherwise_and_a_deleted_row_by_its_pair():
    event = TournamentFactory()
    report = ResultReport(pk=41)
    assert log_action(event, "report.submit", report, "sent").object_type == "report"
    removed = log_action(event, "entry.remove", ("entry", 7), "Ann removed")
    assert (removed.object_type, removed.object_id, removed.before, removed.after) == (
        "entry",
        7,
        None,
        None,
    )
