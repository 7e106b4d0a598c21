"""core.oncommit.once_per_commit: one run per key per commit, after it, and none on rollback.

These commit for real (a transactional test database), so the callbacks run the way they run
in production, not through a test's capture of them."""

import pytest
from django.db import transaction

from core.oncommit import once_per_commit
from ratings.models import LeagueRating
from ratings.services import ratings_catch_up
from tests.factories import GameFactory, LeagueFactory, PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ran():
    return []


def test_two_asks_in_one_transaction_run_once_after_the_commit(ran):
    with transaction.atomic():
        once_per_commit("league 1", lambda: ran.append("first"))
        once_per_commit("league 1", lambda: ran.append("second"))
        assert ran == []
    assert ran == ["first"]


def test_outside_a_transaction_it_runs_at_once_each_time(ran):
    once_per_commit("league 1", lambda: ran.append(1))
    once_per_commit("league 1", lambda: ran.append(2))
    assert ran == [1, 2]


def test_each_key_runs_once_and_the_next_commit_runs_again(ran):
    with transaction.atomic():
        for n in range(3):
            once_per_commit(("ratings", 1), lambda n=n: ran.append(("ratings", n)))
            once_per_commit(("seasons", 1), lambda n=n: ran.append(("seasons", n)))
    assert ran == [("ratings", 0), ("seasons", 0)]
    with transaction.atomic():
        once_per_commit(("ratings", 1), lambda: ran.append("again"))
    assert ran[-1] == "again"


def test_a_rolled_back_transaction_runs_nothing_and_the_next_one_runs(ran):
    with pytest.raises(RuntimeError), transaction.atomic():
        once_per_commit("league 1", lambda: ran.append("rolled back"))
        raise RuntimeError
    assert ran == []
    with transaction.atomic():
        once_per_commit("league 1", lambda: ran.append("committed"))
    assert ran == ["committed"]


def test_a_rolled_back_savepoint_does_not_take_a_later_ask_with_it(ran):
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            once_per_commit("league 1", lambda: ran.append("in the savepoint"))
            raise RuntimeError
        once_per_commit("league 1", lambda: ran.append("after it"))
    assert ran == ["after it"]


def test_a_rolled_back_savepoint_keeps_the_earlier_ask(ran):
    with transaction.atomic():
        once_per_commit("league 1", lambda: ran.append("before it"))
        with pytest.raises(RuntimeError), transaction.atomic():
            once_per_commit("league 1", lambda: ran.append("in the savepoint"))
            raise RuntimeError
    assert ran == ["before it"]


def test_an_ask_made_by_the_catch_up_itself_runs_after_its_own_commit(ran):
    def catch_up():
        ran.append("outer")
        with transaction.atomic():
            once_per_commit("league 1", lambda: ran.append("inner"))

    with transaction.atomic():
        once_per_commit("league 1", catch_up)
    assert ran == ["outer", "inner"]


def test_a_failing_catch_up_is_logged_and_the_others_still_run(ran, caplog):
    def fails():
        raise ValueError("boom")

    with transaction.atomic():
        once_per_commit("a", fails)
        once_per_commit("b", lambda: ran.append("b"))
    assert ran == ["b"]
    assert "boom" in caplog.text


def test_many_games_saved_in_one_transaction_catch_the_ratings_up_once(monkeypatch):
    league = LeagueFactory()
    alice, bob = PlayerFactory.create_batch(2, organization=league.organization)
    calls = []

    def counted(**kwargs):
        calls.append(kwargs["league_id"])
        return ratings_catch_up(**kwargs)

    monkeypatch.setattr("ratings.services.ratings_catch_up", counted)
    with transaction.atomic():
        for _ in range(3):
            GameFactory(league=league, players=[alice, bob])
        assert calls == []
    assert calls == [league.pk]
    assert LeagueRating.objects.get(league=league).dirty_from_date is None
