"""Players registering themselves: the cap and the waitlist, unregistering, the paid mark, the
check-in and its close (no-shows out, checked-in waitlist in), round 1 from who is left, and
double taps and a race for the last seat (real threads, one connection each)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEntry
from tests import concurrency
from tests.factories import PlayerFactory, TournamentFactory
from tests.tournaments.play import register
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Entry, Registration, Tournament
from tournaments.services.entries import entry_drop, entry_register, entry_remove
from tournaments.services.registration import (
    check_in,
    check_in_close,
    check_in_open,
    registration_join,
    registration_leave,
    registration_list,
    registration_paid_set,
    registration_settings_set,
)
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league):
    event = TournamentFactory(league=league)
    return registration_settings_set(
        tournament=event, open=True, cap=4, deadline=None, note="Fee 10, doors at 18:30"
    )


def players(event, *names):
    return [PlayerFactory(organization=event.league.organization, name=n) for n in names]


def join(event, *people):
    return [registration_join(tournament=event, player=p) for p in people]


def statuses(event):
    return {
        r.player.name: r.status
        for r in Registration.objects.filter(tournament=event).select_related("player")
    }


def entered(event):
    return sorted(Entry.objects.filter(tournament=event).values_list("player__name", flat=True))


def test_the_first_players_up_to_the_cap_get_seats_the_rest_wait_in_arrival_order(event):
    join(event, *players(event, "Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
    assert entered(event) == ["Ann", "Bob", "Cat", "Dan"]
    assert statuses(event) == {
        "Ann": "seated",
        "Bob": "seated",
        "Cat": "seated",
        "Dan": "seated",
        "Eve": "waitlisted",
        "Fay": "waitlisted",
    }
    listed = [r.player.name for r in registration_list(tournament=event)]
    assert listed == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def test_a_walk_in_takes_a_seat_too(event):
    register(event, "Walk-in Wes")
    join(event, *players(event, "Ann", "Bob", "Cat", "Dan"))
    assert statuses(event)["Dan"] == "waitlisted"
    assert len(entered(event)) == 4


def test_unregistering_frees_the_seat_for_the_first_on_the_waitlist(event):
    ann, *_ = join(event, *players(event, "Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
    promoted = registration_leave(registration=ann)
    assert promoted.player.name == "Eve"
    assert statuses(event)["Ann"] == "cancelled" and statuses(event)["Eve"] == "seated"
    assert entered(event) == ["Bob", "Cat", "Dan", "Eve"]
    with pytest.raises(AlreadyDone):
        registration_leave(registration=ann)  # a second tap changes nothing
    assert entered(event) == ["Bob", "Cat", "Dan", "Eve"]


def test_coming_back_after_unregistering_goes_to_the_end_of_the_queue(event):
    ann, *_ = join(event, *players(event, "Ann", "Bob", "Cat", "Dan", "Eve"))
    registration_leave(registration=ann)  # Eve moves up
    again = registration_join(tournament=event, player=ann.player)
    assert again.pk == ann.pk and again.status == "waitlisted"


def test_raising_the_cap_seats_the_waitlist(event):
    join(event, *players(event, "Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
    registration_settings_set(tournament=event, open=True, cap=5, deadline=None, note="")
    assert statuses(event)["Eve"] == "seated" and statuses(event)["Fay"] == "waitlisted"


def test_lowering_the_cap_unseats_nobody(event):
    join(event, *players(event, "Ann", "Bob", "Cat", "Dan"))
    registration_settings_set(tournament=event, open=True, cap=2, deadline=None, note="")
    assert len(entered(event)) == 4
    (eve,) = join(event, *players(event, "Eve"))
    assert eve.status == "waitlisted"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"cap": 1}, "The cap is a number of seats from 2 to 4096."),
        ({"cap": 5000}, "The cap is a number of seats from 2 to 4096."),
        ({"note": "x" * 1001}, "The note is 1001 characters long; at most 1000."),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(event, change, message):
    settings = {"open": False, "cap": 8, "deadline": None, "note": "changed"} | change
    with pytest.raises(TournamentError) as refused:
        registration_settings_set(tournament=event, **settings)
    assert str(refused.value) == message
    event.refresh_from_db()
    assert (event.registration_open, event.registration_cap, event.registration_note) == (
        True,
        4,
        "Fee 10, doors at 18:30",
    )


def test_registering_twice_changes_nothing(event):
    (ann,) = players(event, "Ann")
    join(event, ann)
    with pytest.raises(AlreadyDone, match="Ann is already registered"):
        join(event, ann)
    assert Registration.objects.filter(tournament=event).count() == 1


def test_a_player_the_to_already_entered_cannot_register_again(event):
    register(event, "Ann")
    (ann,) = Entry.objects.filter(tournament=event)
    with pytest.raises(AlreadyDone, match="Ann is already registered"):
        registration_join(tournament=event, player=ann.player)


def test_registration_closed_past_the_deadline_or_another_store(event, league):
    (ann,) = players(event, "Ann")
    registration_settings_set(
        tournament=event,
        open=True,
        cap=4,
        deadline=timezone.now() - timedelta(minutes=1),
        note="",
    )
    with pytest.raises(TournamentError, match="Registration closed at"):
        join(event, ann)
    registration_settings_set(tournament=event, open=False, cap=4, deadline=None, note="")
    with pytest.raises(TournamentError, match="Online registration is closed"):
        join(event, ann)
    stranger = PlayerFactory(name="Stranger")  # a player of another store
    registration_settings_set(tournament=event, open=True, cap=4, deadline=None, note="")
    with pytest.raises(TournamentError, match="another store"):
        join(event, stranger)
    assert not Registration.objects.filter(tournament=event).exists()


def test_no_online_registration_once_round_1_is_paired(event):
    register(event, "Ann", "Bob", "Cat")
    round_pair(tournament=event)
    (dan,) = players(event, "Dan")
    with pytest.raises(TournamentError, match="Round 1 has been paired"):
        join(event, dan)


def test_check_in_close_removes_no_shows_and_seats_the_checked_in_waitlist(event):
    register(event, "Walk-in Wes")
    ann, _bob, cat, dan, eve = join(event, *players(event, "Ann", "Bob", "Cat", "Dan", "Eve"))
    assert (dan.status, eve.status) == ("waitlisted", "waitlisted")
    check_in_open(tournament=event)
    for here in (ann, cat, eve):
        check_in(registration=here)
    with pytest.raises(AlreadyDone):
        check_in(registration=ann)
    with pytest.raises(TournamentError, match="Check-in is still open"):
        round_pair(tournament=event)
    closed = check_in_close(tournament=event)
    assert [r.player.name for r in closed.no_shows] == ["Bob"]
    assert [r.player.name for r in closed.promoted] == ["Eve"]  # Dan never came
    assert entered(event) == ["Ann", "Cat", "Eve", "Walk-in Wes"]
    assert statuses(event) == {
        "Ann": "seated",
        "Bob": "no_show",
        "Cat": "seated",
        "Dan": "waitlisted",
        "Eve": "seated",
    }
    with pytest.raises(AlreadyDone):
        check_in_close(tournament=event)  # a second tap
    round_1 = round_pair(tournament=event)
    seated = sorted(s.entry.player.name for s in round_1.seats.select_related("entry__player"))
    assert seated == ["Ann", "Cat", "Eve", "Walk-in Wes"]


def test_the_paid_mark(event):
    (ann,) = join(event, *players(event, "Ann"))
    registration_paid_set(registration=ann, paid=True)
    with pytest.raises(AlreadyDone):
        registration_paid_set(registration=ann, paid=True)
    ann.refresh_from_db()
    assert ann.paid


def test_the_to_removing_a_registered_player_gives_the_seat_back(event):
    (ann,) = join(event, *players(event, "Ann"))
    assert entry_remove(entry=ann.entry) is None  # nobody was waiting
    ann.refresh_from_db()
    assert ann.status == "cancelled" and ann.entry is None


def test_the_to_removing_any_entry_moves_the_waitlist_up(event):
    """Issue 30 #11: a seat the TO frees goes to the first waitlisted player, as a seat a
    player gives up does; a walk-in's seat too (walk-ins count against the cap)."""
    join(event, *players(event, "Ann", "Bob", "Cat"))
    walk_in = entry_register(tournament=event, name="Walt", create_player=True)
    join(event, *players(event, "Eve", "Fay"))
    ann = Registration.objects.get(player__name="Ann")
    promoted = entry_remove(entry=ann.entry)
    assert promoted.player.name == "Eve" and promoted.status == "seated"
    assert entry_remove(entry=walk_in).player.name == "Fay"
    assert entered(event) == ["Bob", "Cat", "Eve", "Fay"]
    assert AuditEntry.objects.filter(action="registration.promote").count() == 2


def test_no_one_moves_up_while_check_in_is_open(event):
    """The seats freed during check-in go to checked-in waitlisted players at the close."""
    join(event, *players(event, "Ann", "Bob", "Cat", "Dan", "Eve"))
    check_in_open(tournament=event)
    ann = Registration.objects.get(player__name="Ann")
    assert entry_remove(entry=ann.entry) is None
    assert statuses(event)["Eve"] == "waitlisted"


def test_every_change_is_in_the_audit_trail(event):
    ann, _bob = join(event, *players(event, "Ann", "Bob"))
    registration_paid_set(registration=ann, paid=True)
    check_in_open(tournament=event)
    check_in(registration=ann)
    check_in_close(tournament=event)
    actions = list(
        AuditEntry.objects.filter(tournament_id=event.pk)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "registration.settings",
        "registration.join",
        "registration.join",
        "registration.paid",
        "check_in.open",
        "check_in.player",
        "check_in.close",
    ]


@pytest.mark.django_db(transaction=True)
def test_twelve_players_racing_for_four_seats_the_cap_holds(league):
    event = TournamentFactory(league=league)
    registration_settings_set(tournament=event, open=True, cap=4, deadline=None, note="")
    racers = players(event, *(f"Racer {n:02}" for n in range(12)))

    def register_one(player):
        return registration_join(tournament=Tournament(pk=event.pk), player=player)

    outcomes = concurrency.run_together(*(lambda p=p: register_one(p) for p in racers))
    assert not [o for o in outcomes if isinstance(o, Exception)]
    assert Entry.objects.filter(tournament=event).count() == 4
    assert sorted(o.status for o in outcomes).count("seated") == 4
    assert Registration.objects.filter(tournament=event, status="waitlisted").count() == 8


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_on_register_makes_one_registration(league):
    event = TournamentFactory(league=league)
    registration_settings_set(tournament=event, open=True, cap=4, deadline=None, note="")
    (ann,) = players(event, "Ann")
    outcomes = concurrency.run_together(
        lambda: registration_join(tournament=Tournament(pk=event.pk), player=ann),
        lambda: registration_join(tournament=Tournament(pk=event.pk), player=ann),
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyDone", "Registration"]
    assert Registration.objects.filter(tournament=event).count() == 1
    assert Entry.objects.filter(tournament=event).count() == 1


# --- issue 43: a freed seat is the waitlist's; a walk-in past the cap is an extra seat --------


def full_with_a_waitlist(event, *waiting):
    """The event's 4 seats taken (Ann, Bob, Cat, Dan), then `waiting` on the waitlist."""
    return join(event, *players(event, "Ann", "Bob", "Cat", "Dan", *waiting))


def test_the_seat_a_no_show_frees_goes_to_the_checked_in_waitlist_not_to_a_walk_in(event):
    """The evening of issue 43: full, Eve first on the waitlist and here, the TO adds a
    walk-in past the cap, Bob does not come: Eve takes Bob's seat, Wes plays as an extra."""
    ann, _bob, cat, dan, eve = full_with_a_waitlist(event, "Eve")
    check_in_open(tournament=event)
    for here in (ann, cat, dan, eve):
        check_in(registration=here)
    (wes,) = register(event, "Walk-in Wes")
    assert wes.extra_seat
    closed = check_in_close(tournament=event)
    assert [r.player.name for r in closed.no_shows] == ["Bob"]
    assert [r.player.name for r in closed.promoted] == ["Eve"]
    assert entered(event) == ["Ann", "Cat", "Dan", "Eve", "Walk-in Wes"]
    assert statuses(event)["Eve"] == "seated"
    with pytest.raises(AlreadyDone):
        check_in_close(tournament=event)  # a double tap seats nobody else
    assert entered(event) == ["Ann", "Cat", "Dan", "Eve", "Walk-in Wes"]
    round_1 = round_pair(tournament=event)
    assert round_1.seats.count() == 5


def test_two_no_shows_seat_the_two_checked_in_waiting_in_waitlist_order(event):
    ann, bob, _cat, _dan, eve, fay = full_with_a_waitlist(event, "Eve", "Fay")
    check_in_open(tournament=event)
    for here in (fay, ann, bob, eve):  # Fay checks in first; the waitlist's order stands
        check_in(registration=here)
    register(event, "Walk-in Wes")
    closed = check_in_close(tournament=event)
    assert [r.player.name for r in closed.no_shows] == ["Cat", "Dan"]
    assert [r.player.name for r in closed.promoted] == ["Eve", "Fay"]
    assert entered(event) == ["Ann", "Bob", "Eve", "Fay", "Walk-in Wes"]


def test_a_waiting_player_not_checked_in_is_passed_over_for_the_next_one_here(event):
    ann, _bob, cat, dan, _eve, fay = full_with_a_waitlist(event, "Eve", "Fay")
    check_in_open(tournament=event)
    for here in (ann, cat, dan, fay):
        check_in(registration=here)
    register(event, "Walk-in Wes")
    closed = check_in_close(tournament=event)
    assert [r.player.name for r in closed.promoted] == ["Fay"]
    assert statuses(event)["Eve"] == "waitlisted"
    assert entered(event) == ["Ann", "Cat", "Dan", "Fay", "Walk-in Wes"]


def test_unregistering_seats_the_waitlist_even_with_a_walk_in_past_the_cap(event):
    ann, *_ = full_with_a_waitlist(event, "Eve")
    register(event, "Walk-in Wes")
    promoted = registration_leave(registration=ann)
    assert promoted is not None and promoted.player.name == "Eve"
    assert entered(event) == ["Bob", "Cat", "Dan", "Eve", "Walk-in Wes"]


def test_removing_a_walk_in_past_the_cap_frees_no_seat(event):
    full_with_a_waitlist(event, "Eve")
    (wes,) = register(event, "Walk-in Wes")
    assert entry_remove(entry=wes) is None
    assert statuses(event)["Eve"] == "waitlisted"


def test_with_nobody_waiting_a_walk_in_past_the_cap_takes_the_seat_that_frees(event):
    """The cap is the room: the extra player fills a freed seat nobody waits for, and the
    next player to register waits."""
    ann, *_ = full_with_a_waitlist(event)
    (wes,) = register(event, "Walk-in Wes")
    assert registration_leave(registration=ann) is None
    wes.refresh_from_db()
    assert not wes.extra_seat
    (gil,) = join(event, *players(event, "Gil"))
    assert gil.status == "waitlisted"
    assert entered(event) == ["Bob", "Cat", "Dan", "Walk-in Wes"]


def test_a_walk_in_with_seats_left_and_no_waitlist_takes_a_seat(event):
    join(event, *players(event, "Ann", "Bob", "Cat"))
    (wes,) = register(event, "Walk-in Wes")
    assert not wes.extra_seat
    (dan,) = join(event, *players(event, "Dan"))
    assert dan.status == "waitlisted"


def test_a_seat_held_for_the_waitlist_during_check_in_is_not_taken_by_a_newcomer(event):
    ann, *_ = full_with_a_waitlist(event, "Eve")
    check_in_open(tournament=event)
    registration_leave(registration=ann)  # the seat waits for the close
    (gil,) = join(event, *players(event, "Gil"))
    assert gil.status == "waitlisted"
    (wes,) = register(event, "Walk-in Wes")
    assert wes.extra_seat
    check_in(registration=Registration.objects.get(player__name="Eve"))
    closed = check_in_close(tournament=event)
    assert [r.player.name for r in closed.promoted] == ["Eve"]


def test_the_to_entering_a_waiting_player_by_name_seats_their_registration(event):
    """Else they play while their page says "number 1 on the waitlist"."""
    *_, eve = full_with_a_waitlist(event, "Eve")
    entry = entry_register(tournament=event, name="Eve")
    eve.refresh_from_db()
    assert (eve.status, eve.entry_id) == ("seated", entry.pk)
    assert entry.extra_seat  # past the cap, as any walk-in
    check_in_open(tournament=event)
    closed = check_in_close(tournament=event)  # the TO typed her in: she is here
    assert "Eve" not in [r.player.name for r in closed.no_shows]
    assert "Eve" in entered(event)


def test_the_to_dropping_a_registered_player_before_round_1_moves_the_waitlist_up(event):
    ann, *_, eve = full_with_a_waitlist(event, "Eve")
    entry_drop(entry=ann.entry)
    eve.refresh_from_db()
    assert eve.status == "seated"


def test_raising_the_cap_seats_the_waitlist_first_then_counts_the_extra_seat(event):
    full_with_a_waitlist(event, "Eve")
    (wes,) = register(event, "Walk-in Wes")
    registration_settings_set(tournament=event, open=True, cap=6, deadline=None, note="")
    assert statuses(event)["Eve"] == "seated"
    wes.refresh_from_db()
    assert not wes.extra_seat  # the sixth seat is his now
    (gil,) = join(event, *players(event, "Gil"))
    assert gil.status == "waitlisted"
