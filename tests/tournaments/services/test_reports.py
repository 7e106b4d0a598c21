"""Players report their table's result and the others confirm it (services.reports): the
rules (every other player, a majority), disputes the TO settles, the TO's own entry, double
taps, scope, the rate limit, and real threads racing each other and the TO."""

import pytest

from audit.models import AuditEntry
from tests import scenes
from tests.concurrency import run_together
from tests.factories import UserFactory
from tests.tournaments.play import report_posted
from tournaments.errors import AlreadyDone, ResultConflict, TournamentError
from tournaments.models import ReportConfirmation, ResultReport, Table
from tournaments.services import reports as reports_services
from tournaments.services.reports import RateLimited, ReportClosed, report_accept, report_confirm
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]


def pod_event(rule="all", players=8):
    scene = scenes.event_open(name="Friday cEDH", format="pods", swiss_rounds=3, players=0)
    scene.event.self_report = rule
    scene.event.save(update_fields=["self_report"])
    return scenes.round_paired(event=scene.event, players=NAMES[:players]).event


def first_pod(event, number=1):
    table = Table.objects.get(round__tournament=event, round__number=1, number=number)
    seats = table.seats.select_related("entry__player").order_by("position")
    return table, [s.entry for s in seats]


def win(entry):
    return {"winner": str(entry.pk)}


def test_a_report_becomes_the_result_once_every_other_player_confirms():
    event = pod_event("all")
    table, (a, b, c, d) = first_pod(event)
    user = UserFactory(username="ann")
    outcome = report_posted(table=table, entry=a, data=win(a), by=user)
    assert not outcome.completed and not outcome.disputed
    report = outcome.report
    assert (report.number, report.status, report.summary) == (1, "submitted", f"{a.player} won")
    assert report.user == user and report.table_version == 0
    assert not report_confirm(report=report, entry=b).completed
    assert not report_confirm(report=report, entry=c).completed
    table.refresh_from_db()
    assert not table.reported  # 3 of 4 is not everyone
    assert report_confirm(report=report, entry=d, via_link=True).completed
    table.refresh_from_db()
    report.refresh_from_db()
    assert table.reported and table.winner_id == a.pk and table.game_id is not None
    assert report.status == "confirmed"
    places = dict(table.game.results.values_list("player__name", "placement"))
    assert places == {a.player.name: 1, b.player.name: 2, c.player.name: 2, d.player.name: 2}
    logged = AuditEntry.objects.filter(tournament_id=event.pk).order_by("id")
    assert [e.action for e in logged][-5:] == [
        "report.submit",
        "report.confirm",
        "report.confirm",
        "report.confirm",
        "pod.report",
    ]
    entered = logged.last()
    assert f"reported by {a.player}" in entered.actor_label
    assert f"confirmed by {b.player}, {c.player}, {d.player}" in entered.actor_label
    assert logged.get(action="report.submit").actor_label == "ann"
    assert logged.filter(action="report.confirm").last().actor_label == "player's link"


def test_under_the_majority_rule_three_of_four_decide():
    event = pod_event("majority")
    table, (a, b, c, d) = first_pod(event)
    report = report_posted(table=table, entry=b, data=win(c)).report
    assert not report_confirm(report=report, entry=a).completed  # 2 of 4: a tie
    assert report_confirm(report=report, entry=d).completed
    table.refresh_from_db()
    assert table.winner_id == c.pk


def test_the_same_result_sent_by_another_player_is_a_confirmation():
    event = pod_event("majority")
    table, (a, b, c, _d) = first_pod(event)
    report_posted(table=table, entry=a, data={"result": "draw"})
    outcome = report_posted(table=table, entry=b, data={"result": "draw"})
    assert ResultReport.objects.filter(table=table).count() == 1
    assert outcome.report.confirmations.get().entry == b
    assert report_posted(table=table, entry=c, data={"result": "draw"}).completed
    table.refresh_from_db()
    assert table.reported and table.is_draw


def test_a_full_order_is_reported_as_posted():
    event = pod_event("all", players=4)
    table, (a, b, c, d) = first_pod(event)
    data = {"result": "order", f"place-{a.pk}": "2", f"place-{b.pk}": "1"}
    data |= {f"place-{c.pk}": "4", f"place-{d.pk}": "3"}
    report = report_posted(table=table, entry=d, data=data).report
    assert report.summary == f"1st {b.player}, 2nd {a.player}, 3rd {d.player}, 4th {c.player}"
    for entry in (a, b, c):
        report_confirm(report=report, entry=entry)
    places = dict(table.seats.values_list("entry_id", "place"))
    assert places == {a.pk: 2, b.pk: 1, c.pk: 4, d.pk: 3}


def test_a_different_report_disputes_the_table_and_the_to_picks_one():
    event = pod_event("all")
    table, (a, b, c, _d) = first_pod(event)
    mine = report_posted(table=table, entry=a, data=win(a)).report
    outcome = report_posted(table=table, entry=b, data=win(b))
    assert outcome.disputed and not outcome.completed
    theirs = outcome.report
    report_confirm(report=mine, entry=c)
    to = UserFactory(username="judy")
    report_accept(report=theirs, by=to)
    table.refresh_from_db()
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert table.winner_id == b.pk and table.reported_by == to
    assert (mine.status, theirs.status) == ("rejected", "accepted")
    assert mine.decided_by == to
    with pytest.raises(AlreadyDone):
        report_accept(report=theirs, by=to)  # a double tap
    with pytest.raises(ReportClosed):
        report_accept(report=mine, by=to)  # the other one is closed now
    assert Table.objects.get(pk=table.pk).version == 1
    assert AuditEntry.objects.filter(action="report.accept", object_id=theirs.pk).exists()


def test_players_who_change_their_minds_keep_every_submission():
    event = pod_event("all")
    table, (a, b, c, d) = first_pod(event)
    first = report_posted(table=table, entry=a, data=win(a)).report
    report_confirm(report=first, entry=c)
    second = report_posted(table=table, entry=b, data=win(b)).report
    # Ann agrees with Bob after all: her report is superseded, kept.
    report_confirm(report=second, entry=a)
    first.refresh_from_db()
    assert first.status == "superseded"
    # Cy's confirmation stays on the superseded report (counted nowhere); Cy confirms Bob's.
    assert ReportConfirmation.objects.filter(report=first, entry=c).exists()
    assert not report_confirm(report=second, entry=c).completed
    # Dee first backs Ann's old result with a report of her own, then gives in.
    report_posted(table=table, entry=d, data=win(a))
    outcome = report_confirm(report=second, entry=d)
    assert outcome.completed
    assert ResultReport.objects.get(table=table, entry=d).status == "superseded"
    assert ResultReport.objects.filter(table=table).count() == 3
    assert ReportConfirmation.objects.filter(report__table=table).count() == 4


def test_the_to_entry_closes_the_open_reports():
    event = pod_event("all")
    table, (a, b, _c, d) = first_pod(event)
    report = report_posted(table=table, entry=a, data=win(a)).report
    table_report(table=table, winner=d, expected_version=0)
    report.refresh_from_db()
    assert report.status == "overridden"
    with pytest.raises(ReportClosed):
        report_confirm(report=report, entry=b)
    with pytest.raises(ReportClosed, match="already has its result"):
        report_posted(table=table, entry=b, data=win(b))


def test_double_taps_change_nothing():
    event = pod_event("all")
    table, (a, b, _c, _d) = first_pod(event)
    report = report_posted(table=table, entry=a, data=win(a)).report
    with pytest.raises(AlreadyDone, match="already reported"):
        report_posted(table=table, entry=a, data=win(a))
    report_confirm(report=report, entry=b)
    with pytest.raises(AlreadyDone, match="already confirmed"):
        report_confirm(report=report, entry=b)
    with pytest.raises(AlreadyDone, match="already confirmed"):
        report_posted(table=table, entry=b, data=win(a))
    with pytest.raises(AlreadyDone):
        report_confirm(report=report, entry=a)  # one's own report
    assert ResultReport.objects.count() == 1 and ReportConfirmation.objects.count() == 1


def test_a_player_reports_only_their_own_table_in_the_open_round():
    event = pod_event("all")
    table, (a, *_) = first_pod(event)
    _, (other, *_) = first_pod(event, number=2)
    with pytest.raises(TournamentError, match="do not sit at this pod"):
        report_posted(table=table, entry=other, data=win(a))
    report = report_posted(table=table, entry=a, data=win(a)).report
    with pytest.raises(TournamentError, match="do not sit"):
        report_confirm(report=report, entry=other)
    # Round 1 ends (the TO enters every pod) and round 2 is paired: round 1 is closed.
    for pod in Table.objects.filter(round__tournament=event, round__number=1, reported=False):
        table_report(table=pod, winner=pod.seats.order_by("position")[0].entry)
    round_1 = table.round
    round_end(round_=round_1)
    with pytest.raises(ReportClosed, match="no longer being played"):
        report_posted(table=table, entry=a, data=win(a))
    round_pair(tournament=event)
    with pytest.raises(ReportClosed, match="no longer being played"):
        report_posted(table=table, entry=a, data=win(a))


def test_bad_input_is_refused_and_writes_nothing():
    event = pod_event("all")
    table, (a, *_) = first_pod(event)
    _, (other, *_) = first_pod(event, number=2)
    for data in ({"winner": str(other.pk)}, {"winner": "x"}, {}, {"result": "2-0"}):
        with pytest.raises(TournamentError):
            report_posted(table=table, entry=a, data=data)
    bad_order = {"result": "order", **{f"place-{s.entry_id}": "1" for s in table.seats.all()}}
    bad_order[f"place-{a.pk}"] = "3"
    with pytest.raises(TournamentError, match="finishing order"):
        report_posted(table=table, entry=a, data=bad_order)
    assert not ResultReport.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="report.").exists()


def test_an_event_without_self_reporting_refuses():
    event = pod_event("off")
    table, (a, *_) = first_pod(event)
    with pytest.raises(TournamentError, match="the TO enters the results"):
        report_posted(table=table, entry=a, data=win(a))


def test_a_player_may_write_a_handful_of_times_a_minute():
    event = pod_event("all")
    table, (a, b, c, d) = first_pod(event)
    for entry in (a, b, c, a, b, c):
        report_posted(table=table, entry=a, data=win(entry))
    with pytest.raises(RateLimited, match="wait a minute") as refused:
        report_posted(table=table, entry=a, data=win(d))
    assert refused.value.status == 429
    assert ResultReport.objects.filter(entry=a).count() == 6
    # Others are not held back by Ann's taps.
    report_posted(table=table, entry=b, data=win(d))


def test_a_match_reports_its_games():
    event = scenes.round_paired(name="Modern", players=4, swiss_rounds=2).event
    table = Table.objects.filter(round__tournament=event).order_by("number").first()
    first, second = [s.entry for s in table.seats.select_related("entry__player")]
    report = report_posted(table=table, entry=second, data={"result": "1-2"}).report
    assert report.summary == f"{second.player} won 2\u20131"  # the winner's side first
    assert report_posted(table=table, entry=first, data={"result": "1-2"}).completed
    games = dict(table.seats.values_list("entry_id", "game_wins"))
    assert games == {first.pk: 1, second.pk: 2}
    with pytest.raises(TournamentError):
        report_posted(table=table, entry=first, data={"result": "3-0"})


# --- Real threads --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_players_reporting_different_results_at_once_dispute_the_table():
    event = pod_event("all")
    table, (a, b, _c, _d) = first_pod(event)
    outcomes = run_together(
        lambda: report_posted(table=table.pk, entry=a, data=win(a)),
        lambda: report_posted(table=table.pk, entry=b, data=win(b)),
    )
    assert all(isinstance(o, reports_services.Outcome) for o in outcomes), outcomes
    stored = ResultReport.objects.filter(table=table).order_by("number")
    assert [r.number for r in stored] == [1, 2]
    assert {r.status for r in stored} == {"submitted"}
    assert sorted(o.disputed for o in outcomes) == [False, True]  # the second one saw the first


@pytest.mark.django_db(transaction=True)
def test_two_players_reporting_the_same_result_at_once_make_one_report_and_a_confirmation():
    event = pod_event("majority", players=4)
    table, (a, b, c, d) = first_pod(event)
    outcomes = run_together(
        lambda: report_posted(table=table.pk, entry=a, data=win(c)),
        lambda: report_posted(table=table.pk, entry=b, data=win(c)),
        lambda: report_posted(table=table.pk, entry=d, data=win(c)),
    )
    assert all(isinstance(o, reports_services.Outcome) for o in outcomes), outcomes
    assert ResultReport.objects.filter(table=table).count() == 1
    assert ReportConfirmation.objects.filter(report__table=table).count() == 2
    assert sum(o.completed for o in outcomes) == 1  # the third voice decided, once
    table.refresh_from_db()
    assert table.version == 1 and table.winner_id == c.pk


@pytest.mark.django_db(transaction=True)
def test_double_tapped_confirmations_in_two_threads_store_one():
    event = pod_event("all")
    table, (a, b, _c, _d) = first_pod(event)
    report = report_posted(table=table, entry=a, data=win(a)).report
    outcomes = run_together(
        lambda: report_confirm(report=report.pk, entry=b),
        lambda: report_confirm(report=report.pk, entry=b),
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyDone", "Outcome"], outcomes
    assert ReportConfirmation.objects.filter(report=report).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_the_last_confirmation_racing_the_to_entry_leaves_one_result(attempt):
    event = pod_event("all", players=4)
    table, (a, b, c, d) = first_pod(event)
    report = report_posted(table=table, entry=a, data=win(a)).report
    report_confirm(report=report, entry=b)
    report_confirm(report=report, entry=c)
    to = UserFactory(username=f"judy{attempt}")
    outcomes = run_together(
        lambda: report_confirm(report=report.pk, entry=d),
        lambda: table_report(table=table, winner=d, expected_version=0, by=to),
    )
    table.refresh_from_db()
    report.refresh_from_db()
    confirm, entered = outcomes
    assert table.version == 1  # one result was written, never two
    assert table.game.results.count() == 4
    if isinstance(confirm, reports_services.Outcome):  # the table confirmed first
        assert isinstance(entered, ResultConflict)
        assert (report.status, table.winner_id) == ("confirmed", a.pk)
    else:  # the TO entered first: the report is closed, and the confirmation refused
        assert isinstance(confirm, ReportClosed), outcomes
        assert isinstance(entered, Table)
        assert (report.status, table.winner_id) == ("overridden", d.pk)
        assert not ReportConfirmation.objects.filter(report=report, entry=d).exists()


def test_a_confirmation_is_withdrawn_when_its_player_reports_otherwise():
    event = pod_event("all")
    table, (a, b, c, d) = first_pod(event)
    report = report_posted(table=table, entry=a, data=win(a)).report
    report_confirm(report=report, entry=b)
    outcome = report_posted(table=table, entry=b, data=win(b))
    assert outcome.disputed
    confirmation = ReportConfirmation.objects.get(report=report, entry=b)
    assert confirmation.withdrawn_at is not None  # kept, no longer counted
    for entry in (c, d):
        report_confirm(report=report, entry=entry)
    table.refresh_from_db()
    assert not table.reported  # Bob no longer agrees with Ann: not everyone


def test_stored_match_reports_are_said_from_the_winners_side_again():
    """Migration 0012: reports stored with the games in seat order ("Bob won 1-2") read from
    the winner's side; a pod's and a draw's summaries stay."""
    from importlib import import_module

    from django.apps import apps

    migration = import_module("tournaments.migrations.0012_report_summaries_from_the_winners_side")
    event = scenes.round_paired(name="Modern", players=4, swiss_rounds=2).event
    one, two = Table.objects.filter(round__tournament=event).order_by("number")
    first, second = [
        s.entry for s in one.seats.select_related("entry__player").order_by("position")
    ]
    won = report_posted(table=one, entry=second, data={"result": "1-2"}).report
    drew = report_posted(table=two, entry=two.seats.first().entry, data={"result": "1-1-1"})
    # As reports were stored when 0012 ran (before 0014 kept the result as one value).
    a, b = two.seats.order_by("position").values_list("entry_id", flat=True)
    ResultReport.objects.filter(pk=won.pk).update(
        summary=f"{second.player} won 1\u20132",
        result={
            "winner": second.pk,
            "places": {str(first.pk): 2, str(second.pk): 1},
            "wins": {str(first.pk): 1, str(second.pk): 2},
            "draws": 0,
        },
    )
    ResultReport.objects.filter(pk=drew.report.pk).update(
        result={
            "winner": None,
            "places": {str(a): 1, str(b): 1},
            "wins": {str(a): 1, str(b): 1},
            "draws": 1,
        }
    )
    migration.winners_side(apps, None)
    won.refresh_from_db()
    assert won.summary == f"{second.player} won 2\u20131"
    assert ResultReport.objects.get(pk=drew.report.pk).summary == "a draw 1\u20131\u20131"
