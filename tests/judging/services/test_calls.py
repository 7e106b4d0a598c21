"""Judge calls: called by a player (or the TO), one open per table, rate-limited per entry,
taken ("on my way", by whom), closed with a note and a time extension through the table's
extension service, cancelled only by the caller; each step in the History with its time, and
each bumps the desk's page version and the table's players' pages."""

from datetime import timedelta

import pytest

from audit.models import AuditEntry
from core.pagecache import versions
from judging.models import JudgeCall
from judging.page_versions import DESK_SCOPE
from judging.services import calls
from judging.services.calls import call_cancel, call_create, call_done, call_take
from tests import scenes
from tests.factories import UserFactory
from tests.judging.helpers import seated, table
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return scenes.round_paired(swiss_rounds=3).event


def test_a_players_call_is_taken_and_closed_with_an_extension(event):
    judge = UserFactory(username="judy")
    t1 = table(event, 1)
    ann, bob = seated(t1)
    desk_before = versions([(DESK_SCOPE, event.pk), ("entry", bob.pk)])
    call = call_create(table=t1, entry=ann, reason="ruling")
    desk_after = versions([(DESK_SCOPE, event.pk), ("entry", bob.pk)])
    assert [v[2] for v in desk_after] == [v[2] + 1 for v in desk_before]
    assert call.status == "waiting" and call.entry == ann

    call_take(call=call, by=judge)
    call.refresh_from_db()
    assert (call.status, call.taken_by) == ("taken", judge)

    call_done(call=call, by=judge, note="Missed trigger, resolved", extension_minutes=4)
    call.refresh_from_db()
    t1.refresh_from_db()
    assert (call.status, call.extension_minutes, call.note) == (
        "done",
        4,
        "Missed trigger, resolved",
    )
    assert call.called_at <= call.taken_at <= call.closed_at
    assert t1.extra_minutes == 4  # through the table's own extension service...
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions == [
        "judge.call",
        "judge.call_take",
        "table.extension",  # ...which logs its own entry
        "judge.call_done",
    ]
    done = AuditEntry.objects.get(action="judge.call_done")
    assert set(done.after) >= {"called_at", "taken_at", "done_at"}
    assert done.summary.endswith("judge call done by judy, +4 min")


def test_a_second_extension_adds_to_the_tables(event):
    t1 = table(event, 1)
    judge = UserFactory()
    call_done(call=call_create(table=t1, entry=seated(t1)[0]), by=judge, extension_minutes=3)
    call_done(call=call_create(table=t1, entry=seated(t1)[1]), by=judge, extension_minutes=2)
    t1.refresh_from_db()
    assert t1.extra_minutes == 5


def test_one_open_call_per_table(event):
    t1 = table(event, 1)
    ann, bob = seated(t1)
    call_create(table=t1, entry=ann)
    with pytest.raises(AlreadyDone, match="already called to table 1"):
        call_create(table=t1, entry=bob)
    assert JudgeCall.objects.count() == 1


def test_calls_are_rate_limited_per_entry(event):
    t1 = table(event, 1)
    ann = seated(t1)[0]
    for _ in range(calls.RATE_LIMIT):
        call_cancel(call=call_create(table=t1, entry=ann), entry=ann)
    with pytest.raises(TournamentError, match="called a judge 3 times in 10 minutes") as error:
        call_create(table=t1, entry=ann)
    assert error.value.code == "rate_limited"
    # Outside the window the calls no longer count.
    JudgeCall.objects.update(called_at=JudgeCall.objects.first().called_at - timedelta(minutes=11))
    call_create(table=t1, entry=ann)


def test_only_the_caller_cancels_their_call(event):
    t1 = table(event, 1)
    ann, bob = seated(t1)
    call = call_create(table=t1, entry=ann)
    with pytest.raises(TournamentError, match="only your own call"):
        call_cancel(call=call, entry=bob)
    call_cancel(call=call, entry=ann)
    call.refresh_from_db()
    assert call.status == "cancelled"
    with pytest.raises(AlreadyDone):
        call_cancel(call=call, entry=ann)


def test_a_call_taken_twice_says_who_took_it(event):
    t1 = table(event, 1)
    judy, jon = UserFactory(username="judy"), UserFactory(username="jon")
    call = call_create(table=t1, entry=seated(t1)[0])
    call_take(call=call, by=judy)
    with pytest.raises(AlreadyDone, match="judy is already on the way"):
        call_take(call=call, by=jon)
    with pytest.raises(AlreadyDone, match="You are already on the way"):
        call_take(call=call, by=judy)


def test_done_twice_changes_nothing_the_second_time(event):
    t1 = table(event, 1)
    judge = UserFactory()
    call = call_create(table=t1, entry=seated(t1)[0])
    call_done(call=call, by=judge, extension_minutes=2)
    with pytest.raises(AlreadyDone):
        call_done(call=call, by=judge, extension_minutes=2)
    t1.refresh_from_db()
    assert t1.extra_minutes == 2


def test_an_extension_for_a_reported_table_is_refused_and_the_call_stays_open(event):
    t1 = table(event, 1)
    ann = seated(t1)[0]
    call = call_create(table=t1, entry=ann)
    table_report(table=t1, winner=ann)
    with pytest.raises(TournamentError, match="has its result"):
        call_done(call=call, by=UserFactory(), extension_minutes=3)
    call.refresh_from_db()
    assert call.status == "waiting"
    call_done(call=call, by=UserFactory())  # without an extension it closes


def test_the_to_calls_for_a_table_and_no_one_outside_it_can(event):
    call = call_create(table=table(event, 1), entry=None, by=UserFactory(username="olive"))
    assert call.entry is None
    assert AuditEntry.objects.get(action="judge.call").summary.endswith("judge called by the TO")
    stranger = seated(table(event, 2))[0]
    with pytest.raises(TournamentError, match="not at table 3"):
        call_create(table=table(event, 3), entry=stranger)


def test_no_call_outside_a_round_being_played(event):
    t1 = table(event, 1)
    for t in t1.round.tables.all():
        table_report(table=t, winner=seated(t)[0])
    round_end(round_=t1.round)
    with pytest.raises(TournamentError, match="not being played"):
        call_create(table=t1, entry=seated(t1)[0])


def test_a_bad_reason_is_refused(event):
    t1 = table(event, 1)
    with pytest.raises(TournamentError, match="reason"):
        call_create(table=t1, entry=seated(t1)[0], reason="<script>")
