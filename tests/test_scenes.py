"""Each scene of tests/scenes.py builds the state it says: counts and statuses read back from
the database, so a scene that rots (a service that changed what it writes) fails here, not as
a puzzle in the tests that start from it."""

import pytest

from leagues.models import Membership, Role
from tests import scenes
from tournaments.models import Entry, Registration, Round, Table, Tournament

pytestmark = pytest.mark.django_db


def tables_of(round_):
    return [
        [s.entry.player.name for s in t.seats.select_related("entry__player").order_by("position")]
        for t in round_.tables.order_by("number")
    ]


def test_names_are_the_eight_then_numbered():
    assert scenes.names(4) == ["Ann", "Bob", "Cy", "Dee"]
    assert scenes.names(10)[7:] == ["Hal", "Player 09", "Player 10"]
    assert scenes.names(["Zed"]) == ["Zed"]


def test_store_has_a_public_league_and_its_organizer():
    shop = scenes.store(name="Alpha Games", slug="alpha", time_zone="Europe/Paris")
    assert shop.organization.slug == "alpha" and shop.organization.time_zone == "Europe/Paris"
    assert shop.league.organization == shop.organization and shop.league.is_public
    membership = Membership.objects.get(user=shop.organizer)
    assert membership.organization == shop.organization and membership.role == Role.ORGANIZER
    assert shop.organizer.username == "olive" and shop.organizer.is_staff
    assert scenes.store(organizer=None).organizer is None


def test_event_open_enters_its_players_and_pairs_nothing():
    scene = scenes.event_open(players=5, format="pods", swiss_rounds=2)
    event = Tournament.objects.get(pk=scene.event.pk)
    assert event.format == "pods" and event.swiss_rounds == 2
    assert event.status == Tournament.Status.REGISTRATION and not event.registration_open
    assert list(scene.entries) == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    assert Entry.objects.filter(tournament=event, dropped_after=None).count() == 5
    assert not event.rounds.exists() and scene.round is None


def test_event_open_can_open_online_registration_and_take_a_made_event():
    scene = scenes.event_open(players=2, registration={"cap": 4, "note": "Fee 10"})
    scene.event.refresh_from_db()
    assert scene.event.registration_open and scene.event.registration_cap == 4
    assert scene.event.registration_note == "Fee 10"
    made = scenes.event_open(players=0).event
    scene = scenes.event_open(event=made, players=["Zed"])
    assert scene.event == made and list(scene.entries) == ["Zed"]
    with pytest.raises(TypeError):
        scenes.event_open(event=made, swiss_rounds=2)


def test_event_checked_in_removes_the_no_shows_and_seats_the_waitlist():
    scene = scenes.event_checked_in(players=6, cap=5, absent=["Bob"])
    assert scene.event.check_in == Tournament.CheckIn.CLOSED
    statuses = dict(
        Registration.objects.filter(tournament=scene.event).values_list("player__name", "status")
    )
    assert statuses == {n: "seated" for n in ["Ann", "Cy", "Dee", "Eve", "Finn"]} | {
        "Bob": "no_show"
    }
    assert sorted(scene.entries) == ["Ann", "Cy", "Dee", "Eve", "Finn"]
    assert Entry.objects.filter(tournament=scene.event).count() == 5


def test_round_paired_seats_every_player_once():
    scene = scenes.round_paired(players=5, swiss_rounds=3)
    assert scene.round.number == 1 and scene.round.status == Round.Status.PLAYING
    seated = sorted(n for table in tables_of(scene.round) for n in table)
    assert seated == sorted(scene.entries)
    assert scene.round.tables.count() == 3  # two matches and a bye, reported at once
    assert scene.round.tables.filter(reported=True).count() == 1
    assert len(scene.seated(1)) == 2 and scene.table(1).round == scene.round


def test_round_paired_with_a_drop_and_a_late_entry():
    scene = scenes.rounds_played(1, players=8, swiss_rounds=3)
    scene = scenes.round_paired(scene, drop=["Eve"], late=["Late"])
    assert scene.round.number == 2
    seated = {n for table in tables_of(scene.round) for n in table}
    assert "Eve" not in seated and "Late" not in seated and len(seated) == 7
    assert scene.entry("Eve").dropped_after == 1 and scene.entry("Late").dropped_after is None
    assert scene.entry("Late").joined_round == 3
    assert scene.entry("Late").tournament == scene.event


def test_pods_round_in_play_is_two_pods_of_four():
    scene = scenes.pods_round_in_play()
    assert scene.event.format == "pods" and scene.event.swiss_rounds == 3
    assert [len(t) for t in tables_of(scene.round)] == [4, 4]
    assert not scene.round.tables.filter(reported=True).exists()


def test_round_reported_leaves_the_round_open_with_every_result_in():
    scene = scenes.round_reported(players=4, swiss_rounds=2)
    scene.round.refresh_from_db()
    assert scene.round.status == Round.Status.PLAYING
    assert not scene.round.tables.filter(reported=False).exists()
    for table in scene.round.tables.all():
        assert table.winner == table.seats.order_by("position").first().entry


def test_rounds_played_ends_each_round():
    scene = scenes.rounds_played(2, players=5, swiss_rounds=3)
    statuses = list(scene.event.rounds.order_by("number").values_list("status", flat=True))
    assert statuses == [Round.Status.COMPLETE] * 2
    assert scene.round.number == 2 and scene.event.status == Tournament.Status.SWISS
    assert not Table.objects.filter(round__tournament=scene.event, reported=False).exists()


def test_event_finished_without_a_cut():
    scene = scenes.event_finished(players=8)
    assert scene.event.status == Tournament.Status.FINISHED
    assert scene.event.rounds.filter(kind=Round.Kind.SWISS).count() == 3
    assert not scene.event.rounds.exclude(status=Round.Status.COMPLETE).exists()


def test_top_cut_started_pairs_the_semifinals():
    scene = scenes.top_cut_started(players=8)
    assert scene.event.status == Tournament.Status.TOP_CUT
    assert scene.round.kind == Round.Kind.TOP_CUT and scene.round.number == 4
    assert [len(t) for t in tables_of(scene.round)] == [2, 2]


@pytest.mark.parametrize("fmt, players", [("1v1", 8), ("pods", 9)])
def test_event_finished_plays_the_top_cut_to_its_champion(fmt, players):
    scene = scenes.event_finished(format=fmt, players=players, top_cut=4)
    assert scene.event.status == Tournament.Status.FINISHED
    cut = scene.event.rounds.filter(kind=Round.Kind.TOP_CUT)
    assert cut.count() == (2 if fmt == "1v1" else 1)
    assert not scene.event.rounds.exclude(status=Round.Status.COMPLETE).exists()


def test_the_later_scenes_take_a_made_event_as_it_is():
    made = scenes.event_open(players=0, swiss_rounds=1, top_cut=4).event
    scene = scenes.top_cut_started(event=made, players=4)
    assert scene.event == made and scene.event.status == Tournament.Status.TOP_CUT
    pods = scenes.event_open(players=0, format="pods", swiss_rounds=1).event
    scene = scenes.pods_round_in_play(event=pods, players=4)
    assert [len(t) for t in tables_of(scene.round)] == [4]
