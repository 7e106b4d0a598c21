"""Two players of one table tapping "Call a judge" at the same moment, and two judges tapping
"on my way" at once: one call, one judge; the other is told so, nothing written twice."""

import pytest

from judging.models import JudgeCall
from judging.services.calls import call_create, call_take
from tests import scenes
from tests.concurrency import run_together
from tests.factories import UserFactory
from tests.judging.helpers import seated, table
from tournaments.errors import AlreadyDone

pytestmark = pytest.mark.django_db(transaction=True)


def test_both_players_call_at_once_and_one_call_is_made():
    event = scenes.round_paired(swiss_rounds=3).event
    t1 = table(event, 1)
    ann, bob = seated(t1)
    outcomes = run_together(
        lambda: call_create(table=t1, entry=ann), lambda: call_create(table=t1, entry=bob)
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyDone", "JudgeCall"]
    assert JudgeCall.objects.count() == 1


def test_two_judges_take_one_call_and_one_goes():
    event = scenes.round_paired(swiss_rounds=3).event
    t1 = table(event, 1)
    call = call_create(table=t1, entry=seated(t1)[0])
    judy, jon = UserFactory(username="judy"), UserFactory(username="jon")
    outcomes = run_together(
        lambda: call_take(call=call, by=judy), lambda: call_take(call=call, by=jon)
    )
    assert sum(isinstance(o, AlreadyDone) for o in outcomes) == 1
    call.refresh_from_db()
    assert call.status == "taken" and call.taken_by in (judy, jon)
