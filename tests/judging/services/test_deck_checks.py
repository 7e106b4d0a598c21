"""Deck checks: started and done on a table of the round being played, once per table; the
check's minutes become the table's time extension (tournaments' own service); the picker
skips players already checked."""

import pytest

from audit.models import AuditEntry
from judging.selectors import deck_check_round
from judging.services.deck_checks import checked_entries, deck_check_done, deck_check_start
from tests import scenes
from tests.factories import UserFactory
from tests.judging.helpers import seated, table
from tournaments.errors import AlreadyDone

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return scenes.round_paired(swiss_rounds=3).event


def test_a_check_gives_its_minutes_to_the_table(event):
    judge = UserFactory()
    t2 = table(event, 2)
    check = deck_check_start(table=t2, by=judge)
    with pytest.raises(AlreadyDone):
        deck_check_start(table=t2, by=judge)
    deck_check_done(check=check, minutes=7, note="All fine", by=judge)
    t2.refresh_from_db()
    check.refresh_from_db()
    assert t2.extra_minutes == 7 and check.minutes == 7
    with pytest.raises(AlreadyDone):
        deck_check_done(check=check, minutes=7, by=judge)
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["judge.deck_check_start", "table.extension", "judge.deck_check_done"]
    assert checked_entries(event) == {e.pk for e in seated(t2)}


def test_the_picker_skips_checked_players_and_checked_tables(event):
    deck_check_start(table=table(event, 1))
    _, proposals, checks = deck_check_round(event, count=4, mode="random", top_percent=25, seed=3)
    assert [c.table.number for c in checks] == [1]
    assert sorted(p.table.number for p in proposals) == [2, 3, 4]
    again = deck_check_round(event, count=4, mode="random", top_percent=25, seed=3)[1]
    assert [p.table.number for p in again] == [p.table.number for p in proposals]
