"""Penalties: the IPG's penalty by default, upgraded for a repeat; another only with a reason;
a Match Loss or a Disqualification enters the table's result as the TO would (and a
Disqualification drops the player); every penalty in the History."""

import pytest

from audit.models import AuditEntry
from judging.models import Penalty
from judging.services.penalties import penalty_give
from tests import scenes
from tests.factories import UserFactory
from tests.judging.helpers import seated, table
from tournaments.domain.result import Result
from tournaments.errors import TournamentError
from tournaments.services.reports import report_submit
from tournaments.services.results import table_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return scenes.round_paired(swiss_rounds=3).event


def test_a_third_game_rule_violation_is_upgraded_to_a_game_loss(event):
    judge = UserFactory(username="judy")
    ann = seated(table(event, 1))[0]
    first = penalty_give(entry=ann, infraction="GPE-GRV", by=judge)
    second = penalty_give(entry=ann, infraction="GPE-GRV", by=judge)
    third = penalty_give(entry=ann, infraction="GPE-GRV", by=judge)
    assert [p.penalty for p in (first, second, third)] == ["warning", "warning", "game_loss"]
    assert third.upgrade_text == (
        "Game Play Error — Game Rule Violation for the third time at this event (IPG 2)"
    )
    assert (third.round_number, third.table_number, third.judge) == (1, 1, judge)
    log = AuditEntry.objects.filter(action="judge.penalty").order_by("pk").last()
    assert "Game Rule Violation: Game Loss" in log.summary


def test_a_deviation_needs_a_reason(event):
    ann = seated(table(event, 1))[0]
    with pytest.raises(TournamentError, match="The IPG gives a Warning here") as error:
        penalty_give(entry=ann, infraction="GPE-GRV", penalty="game_loss")
    assert error.value.field == "deviation_reason"
    assert not Penalty.objects.exists()
    row = penalty_give(
        entry=ann, infraction="GPE-GRV", penalty="game_loss", deviation_reason="Third table call"
    )
    assert row.deviates and row.expected == "warning"
    assert "(the IPG's: Warning)" in AuditEntry.objects.get(action="judge.penalty").summary


def test_a_second_unsporting_conduct_major_is_a_disqualification(event):
    ann = seated(table(event, 1))[0]
    first = penalty_give(entry=ann, infraction="USC-MAJOR")
    second = penalty_give(entry=ann, infraction="USC-MAJOR")
    assert (first.penalty, second.penalty) == ("match_loss", "disqualification")
    assert second.upgrade_text == (
        "Unsporting Conduct — Major for the second time at this event (IPG 4.2)"
    )
    assert not second.deviates
    ann.refresh_from_db()
    assert ann.dropped_after == 1


def test_a_malicious_first_major_is_a_disqualification_without_a_deviation(event):
    ann = seated(table(event, 1))[0]
    row = penalty_give(entry=ann, infraction="USC-MAJOR", penalty="disqualification")
    assert (row.penalty, row.expected, row.deviation_reason) == ("disqualification",) * 2 + ("",)
    assert not row.deviates and "malicious intent" in row.upgrade_text
    assert "(the IPG's" not in AuditEntry.objects.get(action="judge.penalty").summary


def test_a_match_loss_enters_the_tables_result(event):
    t1 = table(event, 1)
    ann, bob = seated(t1)
    row = penalty_give(entry=ann, infraction="TE-OA", by=UserFactory())
    t1.refresh_from_db()
    assert row.penalty == "match_loss"
    assert t1.reported and t1.winner == bob
    assert {s.entry_id: s.game_wins for s in t1.seats.all()} == {ann.pk: 0, bob.pk: 2}
    assert row.result_text == "Match Loss: the opponent wins 2-0"
    assert AuditEntry.objects.filter(action="match.report").exists()


def test_a_match_loss_leaves_a_reported_table_alone(event):
    t1 = table(event, 1)
    ann, _bob = seated(t1)
    table_report(table=t1, winner=ann)
    row = penalty_give(entry=ann, infraction="TE-OA")
    t1.refresh_from_db()
    assert t1.winner == ann and row.result_entered == {} and row.result_text == ""


def test_a_disqualification_drops_the_player(event):
    ann = seated(table(event, 1))[0]
    penalty_give(entry=ann, infraction="USC-C")
    ann.refresh_from_db()
    assert ann.dropped_after == 1


def test_a_game_loss_is_recorded_without_a_result(event):
    t1 = table(event, 1)
    row = penalty_give(entry=seated(t1)[0], infraction="TE-T")
    t1.refresh_from_db()
    assert row.penalty == "game_loss" and not t1.reported


@pytest.mark.parametrize(
    ("games", "entered", "wins"),
    [
        ((1, 1), "Game Loss: the opponent wins 2-1", (1, 2)),
        ((0, 1), "Game Loss: the opponent wins 2-0", (0, 2)),
        ((1, 0), "", None),  # 1-1 now: the match goes on
        ((0, 0), "", None),
    ],
)
def test_a_game_loss_that_decides_the_match_enters_it(event, games, entered, wins):
    t1 = table(event, 1)
    ann, bob = seated(t1)
    row = penalty_give(entry=ann, infraction="TE-T", games=games)
    t1.refresh_from_db()
    assert row.result_text == entered
    assert t1.reported == bool(entered)
    if wins:
        assert t1.winner == bob
        assert tuple(t1.seats.order_by("position").values_list("game_wins", flat=True)) == wins


def test_games_so_far_beyond_a_best_of_three_are_refused(event):
    ann = seated(table(event, 1))[0]
    with pytest.raises(TournamentError, match="0 or 1 each"):
        penalty_give(entry=ann, infraction="TE-T", games=(2, 0))


@pytest.fixture
def pod():
    """A pod of four, round 1 being played: Ann, Bob, Cat, Dan in seat order."""
    return table(scenes.pods_round_in_play().event, 1)


def places(pod_):
    return [s.place for s in pod_.seats.order_by("position")]


def test_a_game_loss_at_a_pod_puts_the_player_last_in_its_result(pod):
    bob, cat = seated(pod)[1:3]
    row = penalty_give(entry=bob, infraction="TE-T")  # Tardiness: a Game Loss
    pod.refresh_from_db()
    assert (row.penalty, row.loses_game, pod.reported) == ("game_loss", True, False)
    assert row.result_text == "Game Loss: last in the pod's result"
    # The TO taps the winner when the game ends: Bob is last, not one of the shared seconds.
    table_report(table=pod, winner=cat, by=UserFactory())
    pod.refresh_from_db()
    assert pod.winner == cat and places(pod) == [2, 4, 1, 2]
    # A draw is the others' draw: Bob still last, no draw point for him.
    table_report(table=pod, draw=True)
    pod.refresh_from_db()
    assert pod.is_draw and places(pod) == [1, 4, 1, 1]
    assert pod.version == 2


def test_a_pod_result_that_lets_the_penalized_player_win_or_place_is_refused(pod):
    ann, bob, cat, dan = seated(pod)
    penalty_give(entry=bob, infraction="USC-MAJOR")  # a Match Loss
    with pytest.raises(TournamentError, match=f"{bob.player.name} lost .* cannot win it"):
        table_report(table=pod, winner=bob)
    order = {ann.pk: 1, bob.pk: 2, cat.pk: 3, dan.pk: 4}
    with pytest.raises(TournamentError, match="place them after everyone else") as error:
        table_report(table=pod, places=order)
    assert error.value.field == "places"
    pod.refresh_from_db()
    assert not pod.reported
    table_report(table=pod, places={ann.pk: 1, bob.pk: 4, cat.pk: 2, dan.pk: 3})
    pod.refresh_from_db()
    assert pod.winner == ann and places(pod) == [1, 4, 2, 3]


def test_the_last_player_left_in_a_pod_wins_it_by_the_penalty(pod):
    ann, bob, cat, dan = seated(pod)
    judge = UserFactory()
    penalty_give(entry=ann, infraction="TE-OA", by=judge)  # Outside Assistance: Match Loss
    penalty_give(entry=bob, infraction="USC-C", by=judge)  # Cheating: Disqualification
    pod.refresh_from_db()
    assert not pod.reported
    row = penalty_give(entry=dan, infraction="TE-T", by=judge)
    pod.refresh_from_db()
    assert row.result_text == f"Game Loss: {cat.player.name} wins the pod"
    assert pod.reported and pod.winner == cat and places(pod) == [2, 2, 1, 2]
    assert pod.version == 1 and pod.reported_by == judge
    report = AuditEntry.objects.filter(action="pod.report").get()
    assert "penalty" in report.actor_label


def test_a_penalty_after_the_pods_result_leaves_it_alone(pod):
    bob = seated(pod)[1]
    table_report(table=pod, winner=bob)
    row = penalty_give(entry=bob, infraction="TE-T")
    pod.refresh_from_db()
    assert not row.loses_game and row.result_text == ""
    assert pod.winner == bob and pod.version == 1


def test_a_warning_at_a_pod_changes_nothing(pod):
    bob = seated(pod)[1]
    row = penalty_give(entry=bob, infraction="GPE-GRV")
    assert not row.loses_game
    table_report(table=pod, winner=bob)
    pod.refresh_from_db()
    assert pod.winner == bob


def test_an_unknown_infraction_or_penalty_is_refused(event):
    ann = seated(table(event, 1))[0]
    with pytest.raises(TournamentError, match="infraction"):
        penalty_give(entry=ann, infraction="nope")
    with pytest.raises(TournamentError, match="penalty"):
        penalty_give(entry=ann, infraction="GPE-GRV", penalty="jail", deviation_reason="x")
    assert not Penalty.objects.exists()


def test_a_players_report_naming_the_penalized_winner_is_refused(pod):
    ann, bob = seated(pod)[:2]
    penalty_give(entry=bob, infraction="TE-T")
    with pytest.raises(TournamentError, match="cannot win it"):
        report_submit(table=pod, entry=ann, result=Result(winner=bob.pk))
    report_submit(table=pod, entry=ann, result=Result(winner=ann.pk))  # open, not refused
