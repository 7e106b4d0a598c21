"""Players registering themselves, the waitlist, and the check-in before round 1.

An event opens online registration with an optional cap (seats), deadline and note. A player
who registers takes a seat (an `Entry`, as a walk-in the TO types in has) while seats are
left, else a place on the waitlist in arrival order; unregistering before round 1 frees the
seat and promotes the first waitlisted player into it. A walk-in the TO types in while a
seat is free (one no waitlisted player has a claim to) takes it like anyone; past the cap the
TO may still register anyone by name (`entry_register`), as an extra seat (`Entry.extra_seat`):
a seat added, which the cap does not count, so a seat a registered player frees later is still
the waitlist's. An extra seat becomes one of the cap's when a seat frees that nobody waiting
takes: the cap is the room, and the next player to register waits.

Before round 1 the TO opens the check-in; a registered player checks in from their phone (by
their account, or by the per-registration link). Closing the check-in removes the seated
players who did not check in (no-shows) and fills their seats from the checked-in waitlist in
waitlist order, whatever walk-ins were added past the cap; round 1 is paired from what is
left. Pairing is refused while check-in is open.

Every function locks the event row first (the lock every tournament service takes), so two
players registering for the last seat at once are serialised and the cap holds; a repeated
tap changes nothing and says so (`AlreadyDone`). Each change writes its audit line.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actors import acting_user
from audit.services import log_action
from audit.summary import N_, Nn_, Summary
from leagues.models import Player

from .. import signals
from ..actions import Action
from ..errors import AlreadyDone, TournamentError
from ..models import Entry, Registration, Tournament
from ..selectors.registration import seats_taken
from .common import next_round_number, tournament_lock

MAX_NOTE = 1000


@dataclass
class CheckInClosed:
    """What closing the check-in did: the no-shows removed, the waitlisted players seated."""

    no_shows: list[Registration] = field(default_factory=list)
    promoted: list[Registration] = field(default_factory=list)


def _seats_left(tournament: Tournament) -> int | None:
    """The cap's seats not taken (extra seats are not the cap's); None: no cap."""
    if tournament.registration_cap is None:
        return None
    return max(0, tournament.registration_cap - seats_taken(tournament))


def seat_free(tournament: Tournament, *, player: Player | None = None) -> bool:
    """Whether a newcomer (`player`, if they are on the waitlist themselves) takes one of the
    cap's seats: only a seat left over once every waitlisted player ahead has one, since the
    seats that free up before round 1 are the waitlist's (while check-in is open they wait
    for its close). The caller holds the event's lock."""
    left = _seats_left(tournament)
    if left is None:
        return True
    waiting = Registration.objects.filter(tournament=tournament, status="waitlisted")
    if player is not None:
        waiting = waiting.exclude(player=player)
    return left > waiting.count()


def _round_1_paired() -> dict[str, str]:
    return {
        "registration": _("Round 1 has been paired: registration is over."),
        "unregistering online": _("Round 1 has been paired: unregistering online is over."),
        "check-in": _("Round 1 has been paired: check-in is over."),
    }


def _before_round_1(tournament: Tournament, what: str) -> None:
    if tournament.status != Tournament.Status.REGISTRATION or next_round_number(tournament) > 1:
        raise TournamentError(_round_1_paired()[what], code="started")


@transaction.atomic
def registration_settings_set(
    *,
    tournament: Tournament,
    open: bool,
    cap: int | None,
    deadline: datetime | None,
    note: str,
    by=None,
) -> Tournament:
    """Open or close online registration, with its cap, deadline and note. Lowering the cap
    under the seats taken unseats nobody: later players join the waitlist. Raising it seats
    waitlisted players (arrival order) in the new seats."""
    tournament = tournament_lock(tournament)
    if cap is not None and not 2 <= cap <= 4096:
        raise TournamentError(_("The cap is a number of seats from 2 to 4096."), field="cap")
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise TournamentError(
            _("The note is %(length)s characters long; at most %(most)s.")
            % {"length": len(note), "most": MAX_NOTE},
            field="note",
        )
    before = _settings_snapshot(tournament)
    tournament.registration_open = bool(open)
    tournament.registration_cap = cap
    tournament.registration_deadline = deadline
    tournament.registration_note = note
    tournament.save(
        update_fields=[
            "registration_open",
            "registration_cap",
            "registration_deadline",
            "registration_note",
        ]
    )
    after = _settings_snapshot(tournament)
    if before != after:
        if cap:
            summary = Summary(
                Nn_("online registration open, %(n)s seat", "online registration open, %(n)s seats")
                if tournament.registration_open
                else Nn_(
                    "online registration closed, %(n)s seat",
                    "online registration closed, %(n)s seats",
                ),
                n=cap,
            )
        elif tournament.registration_open:
            summary = Summary(N_("online registration open"))
        else:
            summary = Summary(N_("online registration closed"))
        log_action(tournament, Action.REGISTRATION_SETTINGS, tournament, summary, before, after, by)
    if tournament.status == Tournament.Status.REGISTRATION and tournament.check_in != "open":
        _promote(tournament, by=by)
    return tournament


def _settings_snapshot(tournament: Tournament) -> dict:
    deadline = tournament.registration_deadline
    return {
        "open": tournament.registration_open,
        "cap": tournament.registration_cap,
        "deadline": deadline.isoformat() if deadline else None,
        "note": tournament.registration_note,
    }


def _status(registration: Registration, status: str) -> dict:
    """A registration's state as the History shows it."""
    return {"player": registration.player.name, "status": status}


def _registration_locked(tournament: Tournament, player: Player) -> Registration | None:
    return (
        Registration.objects.select_for_update()
        .filter(tournament=tournament, player=player)
        .first()
    )


@transaction.atomic
def registration_join(*, tournament: Tournament, player: Player, by=None) -> Registration:
    """The player registers: a seat while seats are left, else the end of the waitlist. A
    second tap (or a player the TO already entered) changes nothing: AlreadyDone."""
    tournament = tournament_lock(tournament)
    if player.organization_id != tournament.league.organization_id:
        raise TournamentError(_("This player belongs to another store."), code="other_store")
    if not tournament.registration_open:
        raise TournamentError(_("Online registration is closed for this event."), code="closed")
    deadline = tournament.registration_deadline
    if deadline is not None and timezone.now() >= deadline:
        when = timezone.localtime(deadline)
        raise TournamentError(
            _("Registration closed at %(when)s.") % {"when": f"{when:%Y-%m-%d %H:%M}"},
            code="deadline_passed",
        )
    _before_round_1(tournament, "registration")
    registration = _registration_locked(tournament, player)
    if registration is not None and registration.status in ("seated", "waitlisted"):
        raise AlreadyDone(
            (
                _("%(player)s is already registered.")
                if registration.status == "seated"
                else _("%(player)s is already on the waitlist.")
            )
            % {"player": player},
            code="twice",
        )
    if tournament.entries.filter(player=player).exists():
        raise AlreadyDone(_("%(player)s is already registered.") % {"player": player}, code="twice")
    seated = seat_free(tournament, player=player)
    if registration is None:
        registration = Registration(tournament=tournament, player=player)
    registration.status = "seated" if seated else "waitlisted"
    registration.queued_at = timezone.now()
    registration.checked_in_at = None
    registration.created_by = acting_user(by)
    if seated:
        registration.entry = Entry.objects.create(
            tournament=tournament, player=player, joined_round=1
        )
    registration.save()
    summary = Summary(
        N_("%(player)s registered") if seated else N_("%(player)s registered (waitlist)"),
        player=player.name,
    )
    after = {"player": player.name, "status": registration.status}
    log_action(tournament, Action.REGISTRATION_JOIN, registration, summary, None, after, by)
    return registration


@transaction.atomic
def registration_invite(*, tournament: Tournament, player: Player, by=None) -> Registration:
    """The organizer seats a player invited to the event (a qualifier of a season's top):
    a seat whatever the cap and whether or not online registration is open, as the TO's
    desk registers anyone (past the cap: an extra seat); a player on the waitlist is seated.
    A player already seated or entered changes nothing: AlreadyDone."""
    tournament = tournament_lock(tournament)
    if player.organization_id != tournament.league.organization_id:
        raise TournamentError(_("This player belongs to another store."), code="other_store")
    _before_round_1(tournament, "registration")
    registration = _registration_locked(tournament, player)
    if registration is not None and registration.status == "seated":
        raise AlreadyDone(_("%(player)s is already registered.") % {"player": player}, code="twice")
    if tournament.entries.filter(player=player).exists():
        raise AlreadyDone(_("%(player)s is already registered.") % {"player": player}, code="twice")
    if registration is None:
        registration = Registration(tournament=tournament, player=player)
        registration.queued_at = timezone.now()
    extra = not seat_free(tournament, player=player)
    registration.status = "seated"
    registration.checked_in_at = None
    registration.created_by = acting_user(by)
    registration.entry = Entry.objects.create(
        tournament=tournament, player=player, joined_round=1, extra_seat=extra
    )
    registration.save()
    after = {"player": player.name, "status": registration.status, "invited": True}
    log_action(
        tournament,
        Action.REGISTRATION_JOIN,
        registration,
        Summary(N_("%(player)s invited and registered"), player=player.name),
        None,
        after,
        by,
    )
    return registration


@transaction.atomic
def registration_leave(*, registration: Registration, by=None) -> Registration | None:
    """The player unregisters before round 1: their seat (or waitlist place) is given up, and
    the first waitlisted player takes a freed seat. Returns the promoted registration, if any.
    """
    tournament = tournament_lock(registration.tournament_id)
    gone = AlreadyDone(_("This registration was already withdrawn."), code="gone")
    registration = _live_locked(registration, gone)
    _before_round_1(tournament, "unregistering online")
    status = registration.status
    entry = registration.entry
    registration.status, registration.entry, registration.checked_in_at = "cancelled", None, None
    registration.save(update_fields=["status", "entry", "checked_in_at"])
    if entry is not None:
        entry.delete()
    before, after = _status(registration, status), _status(registration, "cancelled")
    summary = Summary(N_("%(player)s unregistered"), player=registration.player.name)
    log_action(tournament, Action.REGISTRATION_LEAVE, registration, summary, before, after, by)
    promoted = waitlist_move_up(tournament, by=by)
    return promoted[0] if promoted else None


def waitlist_move_up(tournament: Tournament, *, by=None) -> list[Registration]:
    """A seat came free (a player unregistered, or the TO removed an entry): seat the first
    waitlisted players while seats are left, each told by their notification. Only before
    round 1, and not while check-in is open: then the seats go to checked-in waitlisted
    players at the close. The caller holds the event's lock, in its transaction."""
    if tournament.status != Tournament.Status.REGISTRATION or next_round_number(tournament) > 1:
        return []
    if tournament.check_in == Tournament.CheckIn.OPEN:
        return []
    return _promote(tournament, by=by)


def _live_locked(registration: Registration, gone: TournamentError) -> Registration:
    """The registration read afresh and locked (after the event: the services' lock order),
    while it holds a seat or a waitlist place; else `gone` is raised."""
    found = (
        Registration.objects.select_for_update()
        .select_related("player")
        .filter(pk=registration.pk)
        .first()
    )
    if found is None or found.status not in ("seated", "waitlisted"):
        raise gone
    return found


def registration_entered(*, tournament: Tournament, entry: Entry, by=None) -> Registration | None:
    """The TO entered by name a player who registered online and holds no seat (waiting, a
    no-show, withdrawn): their registration takes the entry, so their pages and the TO's
    list say they play, not that they wait; and the TO typing them in says they are here
    (checked in). The caller (`entry_register`) holds the event's lock, in its transaction."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("player")
        .filter(tournament=tournament, player_id=entry.player_id)
        .exclude(status="seated")
        .first()
    )
    if registration is None:
        return None
    before = _status(registration, registration.status)
    registration.status, registration.entry = "seated", entry
    registration.checked_in_at = registration.checked_in_at or timezone.now()
    registration.save(update_fields=["status", "entry", "checked_in_at"])
    what = Summary(N_("%(player)s entered by the store: seated"), player=registration.player.name)
    after = _status(registration, "seated")
    log_action(tournament, Action.REGISTRATION_PROMOTE, registration, what, before, after, by)
    return registration


def _promote(tournament: Tournament, *, by, checked_in_only: bool = False) -> list[Registration]:
    """Seat waitlisted players, in waitlist order, while the cap's seats are left; then a
    seat still left (nobody, or nobody checked in, waits for it) makes an extra seat one of
    the cap's, the longest-standing first, so the cap holds for the next to register."""
    waiting = (
        Registration.objects.select_for_update()
        .select_related("player")
        .filter(tournament=tournament, status="waitlisted")
        .order_by("queued_at", "id")
    )
    if checked_in_only:
        waiting = waiting.filter(checked_in_at__isnull=False)
    left = _seats_left(tournament)
    promoted = []
    for registration in waiting:
        if left is not None and left <= 0:
            break
        entered = tournament.entries.filter(player=registration.player).first()
        if entered is not None:  # the TO entered them by name (before entry_register said so)
            registration_entered(tournament=tournament, entry=entered, by=by)
            continue
        registration.entry = Entry.objects.create(
            tournament=tournament, player=registration.player, joined_round=1
        )
        registration.status = "seated"
        registration.save(update_fields=["entry", "status"])
        before, after = _status(registration, "waitlisted"), _status(registration, "seated")
        what = Summary(N_("%(player)s moved up from the waitlist"), player=registration.player.name)
        log_action(tournament, Action.REGISTRATION_PROMOTE, registration, what, before, after, by)
        signals.waitlist_promoted.send(sender=Registration, registration=registration)
        promoted.append(registration)
        if left is not None:
            left -= 1
    if left:
        extras = tournament.entries.filter(extra_seat=True, dropped_after__isnull=True)
        for entry in extras.order_by("created_at", "id")[:left]:
            entry.extra_seat = False
            entry.save(update_fields=["extra_seat"])
    return promoted


@transaction.atomic
def registration_paid_set(*, registration: Registration, paid: bool, by=None) -> Registration:
    """The TO's "paid" mark (the fee taken at the counter)."""
    tournament = tournament_lock(registration.tournament_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.paid == bool(paid):
        raise AlreadyDone(
            (
                _("%(player)s is already marked paid.")
                if paid
                else _("%(player)s is already marked not paid.")
            )
            % {"player": registration.player},
            code="twice",
        )
    registration.paid = bool(paid)
    registration.save(update_fields=["paid"])
    before, after = {"paid": not registration.paid}, {"paid": registration.paid}
    summary = Summary(
        N_("%(player)s marked paid") if paid else N_("%(player)s marked not paid"),
        player=registration.player.name,
    )
    log_action(tournament, Action.REGISTRATION_PAID, registration, summary, before, after, by)
    return registration


@transaction.atomic
def check_in_open(*, tournament: Tournament, by=None) -> Tournament:
    """The TO opens the check-in (before round 1)."""
    tournament = tournament_lock(tournament)
    _before_round_1(tournament, "check-in")
    if tournament.check_in == Tournament.CheckIn.OPEN:
        raise AlreadyDone(_("Check-in is already open."), code="twice")
    before = tournament.check_in
    tournament.check_in = Tournament.CheckIn.OPEN
    tournament.save(update_fields=["check_in"])
    before, after = {"check_in": before}, {"check_in": tournament.check_in}
    summary = Summary(N_("check-in opened"))
    log_action(tournament, Action.CHECK_IN_OPEN, tournament, summary, before, after, by)
    return tournament


@transaction.atomic
def check_in(*, registration: Registration, by=None) -> Registration:
    """The player is here: a seated or waitlisted player checks in while check-in is open."""
    tournament = tournament_lock(registration.tournament_id)
    gone = TournamentError(_("This registration was withdrawn."), code="gone")
    registration = _live_locked(registration, gone)
    if tournament.check_in != Tournament.CheckIn.OPEN:
        raise TournamentError(_("Check-in is not open."), code="check_in_closed")
    if registration.checked_in_at is not None:
        raise AlreadyDone(
            _("%(player)s is already checked in.") % {"player": registration.player},
            code="twice",
        )
    registration.checked_in_at = timezone.now()
    registration.save(update_fields=["checked_in_at"])
    name = registration.player.name
    before, after = {"player": name, "checked_in": False}, {"player": name, "checked_in": True}
    summary = Summary(N_("%(player)s checked in"), player=registration.player.name)
    log_action(tournament, Action.CHECK_IN, registration, summary, before, after, by)
    return registration


@transaction.atomic
def check_in_close(*, tournament: Tournament, by=None) -> CheckInClosed:
    """Close the check-in: remove the seated players who did not check in, then seat the
    checked-in waitlisted players in waitlist order while the cap's seats are left. Walk-ins
    (entries with no registration) are present by definition and stay; one entered past the
    cap is an extra seat and takes none of the seats the no-shows free."""
    tournament = tournament_lock(tournament)
    _before_round_1(tournament, "check-in")
    if tournament.check_in != Tournament.CheckIn.OPEN:
        raise AlreadyDone(_("Check-in is not open."), code="twice")
    done = CheckInClosed()
    absent = (
        Registration.objects.select_for_update()
        .select_related("player")
        .filter(tournament=tournament, status="seated", checked_in_at__isnull=True)
        .order_by("queued_at", "id")
    )
    for registration in absent:
        entry = registration.entry
        registration.status, registration.entry = "no_show", None
        registration.save(update_fields=["status", "entry"])
        if entry is not None and not entry.seats.exists():
            entry.delete()
        done.no_shows.append(registration)
    done.promoted = _promote(tournament, by=by, checked_in_only=True)
    tournament.check_in = Tournament.CheckIn.CLOSED
    tournament.save(update_fields=["check_in"])
    summary = Summary(
        # Translators: the History: check-in closed, with two counts ("2 no-shows removed").
        N_("check-in closed: %(no_shows)s, %(promoted)s"),
        no_shows=Summary(
            Nn_("%(n)s no-show removed", "%(n)s no-shows removed"), n=len(done.no_shows)
        ),
        promoted=Summary(
            Nn_("%(n)s from the waitlist seated", "%(n)s from the waitlist seated"),
            n=len(done.promoted),
        ),
    )
    after = {
        "check_in": "closed",
        "no_shows": [r.player.name for r in done.no_shows],
        "promoted": [r.player.name for r in done.promoted],
    }
    before = {"check_in": "open"}
    log_action(tournament, Action.CHECK_IN_CLOSE, tournament, summary, before, after, by)
    return done


def registration_list(*, tournament: Tournament):
    """The event's live registrations (seated, then the waitlist), in arrival order."""
    return (
        Registration.objects.filter(tournament=tournament)
        .filter(Q(status="seated") | Q(status="waitlisted"))
        .select_related("player")
        .order_by("status", "queued_at", "id")  # "seated" sorts before "waitlisted"
    )
