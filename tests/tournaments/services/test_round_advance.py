"""One tap ends a round and pairs the next (`services.round_advance`), in one transaction.

Today's console needed two: End round, then Pair round N+1. The one tap goes on as those
buttons would: the next Swiss round, the top cut after the last Swiss round, the final
standings when there is no cut, the cut's next stage after a cut round. A second tap changes
nothing; a pairing that is refused leaves the round open.
"""

import pytest

from tests import concurrency, scenes
from tests.factories import TournamentFactory
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Round, Tournament
from tournaments.services.entries import entry_drop
from tournaments.services.results import table_report
from tournaments.services.rounds import round_advance

pytestmark = pytest.mark.django_db


def numbers(event):
    return list(event.rounds.order_by("number").values_list("number", "kind", "status"))


def test_a_reported_swiss_round_ends_and_the_next_is_paired(league):
    event = TournamentFactory(league=league, swiss_rounds=3)
    first = scenes.round_reported(event=event, players="ABCDEFGH").round
    second = round_advance(round_=first)
    assert second.number == 2 and second.status == Round.Status.PLAYING
    assert second.tables.count() == 4
    assert numbers(event) == [(1, "swiss", "complete"), (2, "swiss", "playing")]


def test_a_second_tap_changes_nothing_and_names_the_new_round(league):
    event = TournamentFactory(league=league, swiss_rounds=3)
    first = scenes.round_reported(event=event, players="ABCDEFGH").round
    round_advance(round_=first)
    with pytest.raises(AlreadyDone, match="already complete and round 2 is paired"):
        round_advance(round_=first)
    assert numbers(event) == [(1, "swiss", "complete"), (2, "swiss", "playing")]


def test_a_round_without_every_result_is_refused_and_stays_open(league):
    event = TournamentFactory(league=league, swiss_rounds=3)
    first = scenes.round_paired(event=event, players="ABCDEFGH").round
    table = first.tables.order_by("number").first()
    table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    with pytest.raises(TournamentError, match="Tables 2, 3 and 4 still have no result"):
        round_advance(round_=first)
    assert numbers(event) == [(1, "swiss", "playing")]


def test_a_refused_pairing_leaves_the_round_open(league):
    """Three players, two drop during round 1: nobody can be paired, so round 1 is not ended
    by a tap that said no (the TO can still end it alone)."""
    event = TournamentFactory(league=league, swiss_rounds=3)
    scene = scenes.round_reported(event=event, players="ABC")
    first, a, b = scene.round, scene.entry("A"), scene.entry("B")
    entry_drop(entry=a)
    entry_drop(entry=b)
    with pytest.raises(TournamentError, match="Round 1 stays open: At least two"):
        round_advance(round_=first)
    assert numbers(event) == [(1, "swiss", "playing")]


def test_the_last_swiss_round_starts_the_top_cut(league):
    event = TournamentFactory(league=league, swiss_rounds=2, top_cut=4)
    last = scenes.round_reported(scenes.rounds_played(1, event=event, players="ABCDEFGH")).round
    cut = round_advance(round_=last)
    event.refresh_from_db()
    assert event.status == Tournament.Status.TOP_CUT
    assert cut.kind == Round.Kind.TOP_CUT and cut.number == 3 and cut.tables.count() == 2


def test_the_last_swiss_round_without_a_cut_finishes_the_event(league):
    event = TournamentFactory(league=league, swiss_rounds=2, top_cut=0)
    last = scenes.round_reported(scenes.rounds_played(1, event=event, players="ABCD")).round
    shown = round_advance(round_=last)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert shown.pk == last.pk and numbers(event)[-1] == (2, "swiss", "complete")


def test_a_cut_round_pairs_the_next_stage(league):
    event = TournamentFactory(league=league, swiss_rounds=1, top_cut=4)
    semis = scenes.round_reported(scenes.top_cut_started(event=event, players="ABCD")).round
    final = round_advance(round_=semis)
    assert final.kind == Round.Kind.TOP_CUT and final.number == 3
    assert final.tables.count() == 1 and final.status == Round.Status.PLAYING


def test_a_seventeen_player_pod_round_goes_on_to_round_two(league):
    players = (f"P{n}" for n in range(17))
    first = scenes.pods_round_in_play(league=league, name="Pods", players=players).round
    assert sorted(t.seats.count() for t in first.tables.all()) == [3, 3, 3, 4, 4]
    scenes.tables_reported(first)
    second = round_advance(round_=first)
    assert second.number == 2
    assert sorted(t.seats.count() for t in second.tables.all()) == [3, 3, 3, 4, 4]


@pytest.mark.django_db(transaction=True)
def test_two_judges_tapping_at_once_pair_one_round(league):
    event = TournamentFactory(league=league, swiss_rounds=3)
    first = scenes.round_reported(event=event, players="ABCDEFGH").round
    outcomes = concurrency.run_together(
        lambda: round_advance(round_=first),
        lambda: round_advance(round_=first),
    )
    paired = [o for o in outcomes if isinstance(o, Round)]
    repeated = [o for o in outcomes if isinstance(o, AlreadyDone)]
    assert len(paired) == 1 and len(repeated) == 1, outcomes
    assert numbers(event) == [(1, "swiss", "complete"), (2, "swiss", "playing")]
