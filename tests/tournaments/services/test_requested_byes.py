"""Requested ("half-point") byes through the services: asked for ahead, left out of that round's
pairing, scored a draw's points, shown as a bye of ½, and safe to ask or take back twice."""

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from tests.factories import TournamentFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments import selectors
from tournaments.actions import Action
from tournaments.domain.history import read_history
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import RequestedBye, Tournament
from tournaments.selectors import history, standings
from tournaments.services.entries import entry_drop, requested_bye_add, requested_bye_remove
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_give_bye, round_pair, round_swap

pytestmark = pytest.mark.django_db


@pytest.fixture
def chess(league):
    # Chess points 1/½/0, bye 1: the half-point bye scores ½ (a draw's points).
    return TournamentFactory(
        league=league, points_win=1, points_draw=0.5, points_loss=0, points_bye=1
    )


def seated(round_):
    return {s.entry.player.name for t in round_.tables.all() for s in t.seats.all()}


def test_a_requested_bye_leaves_the_player_out_and_scores_half_a_point(chess):
    ann, *_ = register(chess, *"ABCDE")  # A = "A"
    requested_bye_add(entry=ann, round_number=1)

    round_ = round_pair(tournament=chess)

    tables = list(round_.tables.prefetch_related("seats__entry__player"))
    requested = [t for t in tables if t.requested_bye]
    assert len(requested) == 1
    [bye] = requested
    assert [s.entry for s in bye.seats.all()] == [ann]
    assert bye.reported and bye.winner is None and bye.game is None
    assert bye.number == max(t.number for t in tables)  # numbered after the others
    # The other four make two tables: nobody else has a bye this round.
    assert sorted(len(t.seats.all()) for t in tables) == [1, 2, 2]
    standing = standings(chess)
    assert standing.points[ann.player_id] == 0.5


def test_the_half_point_bye_is_no_pairing_allocated_bye(chess):
    """FIDE C.04.1: a requested bye does not stop the pairer giving that player the bye."""
    a, _, _ = register(chess, "A", "B", "C")
    requested_bye_add(entry=a, round_number=1)
    play_round(chess)  # B and C play; A sits out with ½
    past = history(chess)
    [round_one] = past
    assert {t.players for t in round_one if t.requested} == {(a.player_id,)}
    assert read_history(past).byes[a.player_id] == 0


def test_asking_twice_is_already_done_and_changes_nothing(chess):
    ann, *_ = register(chess, "A", "B", "C", "D")
    requested_bye_add(entry=ann, round_number=2)

    with pytest.raises(AlreadyDone, match="already has a bye in round 2"):
        requested_bye_add(entry=ann, round_number=2)

    assert RequestedBye.objects.filter(entry=ann).count() == 1
    assert AuditEntry.objects.filter(action=Action.BYE_REQUEST).count() == 1


def test_taking_it_back_before_the_round_is_paired(chess):
    ann, *_ = register(chess, "A", "B", "C", "D")
    requested_bye_add(entry=ann, round_number=1)

    requested_bye_remove(entry=ann, round_number=1)
    with pytest.raises(AlreadyDone, match="no bye asked for in round 1"):
        requested_bye_remove(entry=ann, round_number=1)

    assert "A" in seated(round_pair(tournament=chess))


@pytest.mark.parametrize(
    "number, message",
    [(1, "Round 1 is already paired"), (0, "There is no round 0"), (100, "no round 100")],
)
def test_a_round_already_paired_or_no_round_at_all_is_refused(chess, number, message):
    ann, *_ = register(chess, "A", "B", "C", "D")
    play_round(chess)

    with pytest.raises(TournamentError, match=message):
        requested_bye_add(entry=ann, round_number=number)

    assert not RequestedBye.objects.exists()


def test_a_dropped_player_cannot_ask(chess):
    ann, *_ = register(chess, "A", "B", "C")
    entry_drop(entry=ann)

    with pytest.raises(TournamentError, match="has dropped"):
        requested_bye_add(entry=ann, round_number=1)


def test_magic_points_give_a_draws_point_and_pods_too(league):
    magic = TournamentFactory(league=league)
    ann, *_ = register(magic, *"ABCDE")
    requested_bye_add(entry=ann, round_number=1)
    round_pair(tournament=magic)
    assert standings(magic).points[ann.player_id] == 1.0  # MTR draw: 1 point

    pods = TournamentFactory(league=league, pods=True)
    first, *_ = register(pods, *"PQRSTUVWX")
    requested_bye_add(entry=first, round_number=1)
    round_ = round_pair(tournament=pods)
    assert [t.requested_bye for t in round_.tables.all() if t.seats.count() == 1] == [True]
    assert standings(pods).points[first.player_id] == 1.0  # cEDH draw: 1 point


# --- the event's bye rule ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, expected",
    [
        ({}, "none"),  # Magic (1v1, 3/1/0): MTR Appendix C
        ({"points": "chess"}, "fide_2023"),  # the chess preset: Buchholz, FIDE C.07 (2023)
        ({"format": "pods"}, "mtra_phantoms"),  # cEDH: TopDeck's addendum, MTRA 3.1
        ({"format": "pods", "bye_rule": "none"}, "none"),  # the TO's choice wins
        ({"bye_rule": "fide_2009"}, "fide_2009"),
    ],
)
def test_the_bye_rule_defaults_per_preset_and_can_be_chosen(league, options, expected):
    event = tournament_create(league=league, name="Friday", **options)

    assert selectors.bye_rule(event) == expected


def test_an_unknown_bye_rule_is_refused_on_the_field(league):
    with pytest.raises(TournamentError) as error:
        tournament_create(league=league, name="Friday", bye_rule="fide_1999")

    assert error.value.field == "bye_rule"
    assert not Tournament.objects.exists()


def test_a_pod_bye_lowers_omw_in_the_stored_event(league):
    """Through the database: nine players, pods of 4 + 4 and a bye, MTRA 3.1 by default."""
    event = tournament_create(league=league, name="cEDH", format="pods", pod_layout="byes")
    entries = register(event, *"ABCDEFGHI")
    round_ = round_pair(tournament=event)
    [bye_table] = [t for t in round_.tables.all() if t.seats.count() == 1]
    for table in round_.tables.exclude(pk=bye_table.pk):
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    round_end(round_=round_)
    bye_player = bye_table.seats.get().entry.player_id
    assert bye_player in {e.player_id for e in entries}

    rows = {r.player: r for r in standings(event).rows}

    # One round: the bye is the player's only "table": three phantoms at 0.2 -> OMW% 0.2;
    # under the MTR rule (none) it would be 0 (no opponents at all).
    assert rows[bye_player].metrics["omw"] == pytest.approx(0.2)
    event.bye_rule = "none"
    event.save()
    assert {r.player: r for r in standings(event).rows}[bye_player].metrics["omw"] == 0


def test_pairing_edits_leave_a_requested_bye_alone(chess):
    ann, bob, *_ = register(chess, *"ABCDE")
    requested_bye_add(entry=ann, round_number=1)
    round_ = round_pair(tournament=chess)
    allocated = [t for t in round_.tables.all() if t.seats.count() == 1 and not t.requested_bye]
    assert allocated == []  # four others: two matches, no pairer's bye

    with pytest.raises(TournamentError, match="A sits round 1 out with a requested bye"):
        round_swap(round_=round_, a=ann, b=bob)
    with pytest.raises(TournamentError, match="requested bye"):
        round_give_bye(round_=round_, entry=ann)

    # Giving the pairer's bye to someone else keeps Ann's requested bye as it was.
    round_give_bye(round_=round_, entry=bob)
    requested = round_.tables.get(requested_bye=True)
    assert [s.entry for s in requested.seats.all()] == [ann]
    # The new bye took the number after the last match; the requested bye moved after it.
    assert requested.number == max(t.number for t in round_.tables.all())
    assert round_.tables.count() == 4  # one match, Bob's bye, his old opponent's, Ann's


@pytest.mark.parametrize(
    "value, status, stored",
    [("", 302, ""), ("fide_2009", 302, "fide_2009"), ("fide_1999", 400, None)],
)
def test_the_new_event_form_offers_the_bye_rule(client, league, value, status, stored):
    client.force_login(organizer_of(league.organization, username="olive"))
    url = reverse("event_create", args=[league.slug])
    assert "Byes in opponent tiebreakers" in client.get(url).content.decode()
    data = {
        "name": "Open",
        "date": "2026-11-20",
        "top_cut": "0",
        "first_round": "random",
        "round_minutes": "50",
        "bye_rule": value,
    }

    response = client.post(url, data)

    assert response.status_code == status
    if stored is None:
        assert not Tournament.objects.exists()
        assert "fide_1999" in response.content.decode()  # "Select a valid choice"
    else:
        assert Tournament.objects.get().bye_rule == stored
