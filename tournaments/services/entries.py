"""Who plays: registering a player (an unknown name is confirmed first), dropping a player and
undoing the drop (from the console or History), removing an entry made by mistake, and a
requested ("half-point") bye for a round still to pair, or taking it back. Each change locks
the event, then the entry, and writes its audit line.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from audit.actors import acting_user
from audit.models import AuditEntry
from audit.services import log_action
from audit.summary import N_, Summary
from leagues import services as league_services

from ..actions import Action
from ..errors import AlreadyDone, TournamentError, UnknownPlayer
from ..models import Entry, Registration, RequestedBye, Tournament
from .common import next_round_number, tournament_lock
from .registration import registration_entered, seat_free, waitlist_move_up


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    name: str,
    by=None,
    create_player: bool = False,
    look_alike_confirmed: bool = False,
) -> Entry:
    """Register a player by name: an existing player of the store (matched ignoring case), or,
    with `create_player`, a new one; an unknown name otherwise raises UnknownPlayer and nothing
    is written. Registering a player who is already in says so (AlreadyDone). A new name
    that reads like a player of the store also needs `look_alike_confirmed` (LookAlikeNames).

    Once rounds have been paired the player enters late: from the next round on; not once
    the last Swiss round is paired (there is no next round for them). Before round 1, with
    no seat of the cap free for them (the event full, or the seats left are the waitlist's),
    the player takes an extra seat: the seats registered players free stay the waitlist's.
    A player who registered online and holds no seat (waiting, a no-show) is seated by it.
    """
    tournament = tournament_lock(tournament)
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise TournamentError(_("The Swiss rounds are over: no more entries."), code="closed")
    # The next round to be paired: round 1 before the start, else the round after the last.
    joined = next_round_number(tournament)
    last = tournament.swiss_rounds
    if last and joined > last:
        raise TournamentError(
            _(
                "Round %(round)s is the event's last Swiss round and it is paired: a player "
                "entered now would play no round and would stand last in the final standings."
            )
            % {"round": last},
            code="last_round",
        )
    organization = tournament.league.organization
    name = league_services.player_name_clean(name)
    if create_player:
        try:
            players, _created = league_services.players_get_or_create(
                organization=organization, names=[name], look_alikes_confirmed=look_alike_confirmed
            )
        except league_services.LookAlikeNames as error:
            error.field = "name"  # the console's one name field
            raise
    else:
        players = league_services.players_find(organization=organization, names=[name])
        if not players:
            raise UnknownPlayer(name, organization)
    player = next(iter(players.values()))
    if tournament.entries.filter(player=player).exists():
        raise AlreadyDone(_("%(player)s is already registered.") % {"player": player}, code="twice")
    extra = joined == 1 and not seat_free(tournament, player=player)
    entry = Entry.objects.create(
        tournament=tournament, player=player, joined_round=joined, extra_seat=extra
    )
    registration_entered(tournament=tournament, entry=entry, by=by)
    return entry


def _entry_snapshot(entry: Entry) -> dict:
    return {"player": entry.player.name, "dropped_after": entry.dropped_after}


def _entry_locked(tournament: Tournament, entry: Entry) -> tuple[Tournament, Entry]:
    """The event and the entry, locked in that order (every service locks the event first)."""
    tournament = tournament_lock(tournament)
    entry = Entry.objects.select_for_update().select_related("player").filter(pk=entry.pk).first()
    if entry is None:
        raise AlreadyDone(_("This player is no longer registered."), code="gone")
    return tournament, entry


@transaction.atomic
def entry_drop(*, entry: Entry, by=None, by_player: bool = False) -> Entry:
    """Drop a player: they play no more rounds but keep their results and standing. The drop
    can be undone (`entry_undrop`, from the console or History). `by_player`: the player
    dropped themselves (`entry_drop_self`), written in History and shown on the console."""
    tournament, entry = _entry_locked(entry.tournament, entry)
    if entry.dropped_after is not None:
        raise AlreadyDone(
            _("%(player)s has already dropped.") % {"player": entry.player}, code="dropped"
        )
    before = _entry_snapshot(entry)
    last = tournament.rounds.order_by("-number").first()
    # Dropping during a round: they finish that round (its result stands) and are not paired
    # again; before the first round they simply leave.
    entry.dropped_after = last.number if last else 0
    entry.save(update_fields=["dropped_after"])
    after = _entry_snapshot(entry)
    if by_player:
        after["by_player"] = True
    summary = Summary(
        N_("%(player)s dropped (by the player, from their page)")
        if by_player
        else N_("%(player)s dropped"),
        player=entry.player.name,
    )
    log_action(tournament, Action.ENTRY_DROP, entry, summary, before, after, by)
    if last is None:  # before round 1 the seat is free: the waitlist's, as when one unregisters
        waitlist_move_up(tournament, by=by)
    return entry


@transaction.atomic
def entry_drop_self(*, entry: Entry, by=None) -> Entry:
    """A player drops themselves from their own event page: the TO's drop (`entry_drop`),
    written in History as dropped by the player and shown so on the console, where the TO
    undoes it like any drop.

    What a store expects of a player who leaves mid-round: the table they sit at still needs
    its result (their opponents played it; a player who leaves concedes or reports it, or
    the TO enters it), so a drop is allowed while their table has no result yet and takes
    them out of the pairings from the next round on, their current table unchanged. Refused
    before round 1 (a registered player unregisters instead, and their seat goes to the
    waitlist; a walk-in asks the TO) and once the Swiss rounds are over (leaving a top cut is
    a concession at a table the TO enters). A second tap is AlreadyDone.
    """
    tournament, entry = _entry_locked(entry.tournament, entry)
    if entry.dropped_after is not None:
        raise AlreadyDone(_("You have already dropped from this event."), code="dropped")
    if tournament.status == Tournament.Status.REGISTRATION:
        raise TournamentError(
            _(
                "Round 1 is not paired yet: unregister on the event page instead (your seat goes "
                "to the next player waiting), or ask the TO."
            ),
            code="not_started",
        )
    if tournament.status != Tournament.Status.SWISS:
        raise TournamentError(
            _("The Swiss rounds are over: to leave the top cut, tell the TO."), code="closed"
        )
    return entry_drop(entry=entry, by=by, by_player=True)


@transaction.atomic
def entry_undrop(*, entry: Entry, by=None, reverts: AuditEntry | None = None) -> Entry:
    """Undo a drop: the player is paired again from the next round (rounds paired while they
    were out count as not played). Refused once the Swiss rounds are over, because the top
    cut was seeded without them. A player who is not dropped is AlreadyDone.
    """
    tournament, entry = _entry_locked(entry.tournament, entry)
    if entry.dropped_after is None:
        raise AlreadyDone(
            _("%(player)s is playing: there is no drop to undo.") % {"player": entry.player},
            code="playing",
        )
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise TournamentError(
            _("The Swiss rounds are over: a drop cannot be undone now."), code="closed"
        )
    if reverts is None:  # from the console: the drop's entry in History reads "undone" too
        reverts = (
            AuditEntry.objects.filter(
                action=Action.ENTRY_DROP,
                object_type="entry",
                object_id=entry.pk,
                reverted_by__isnull=True,
            )
            .order_by("-created_at", "-pk")
            .first()
        )
    before = _entry_snapshot(entry)
    entry.dropped_after = None
    entry.save(update_fields=["dropped_after"])
    summary = Summary(N_("%(player)s's drop undone"), player=entry.player.name)
    after = _entry_snapshot(entry)
    log_action(tournament, Action.ENTRY_UNDROP, entry, summary, before, after, by, reverts=reverts)
    return entry


def entry_drop_undo(*, entry: AuditEntry, by=None) -> Entry:
    """Undo a drop from History (`audit.services.audit_undo`): refused (UndoRefused) when
    the entry is gone, or was registered again, or its drop already changed since."""
    found = Entry.objects.select_related("tournament").filter(pk=entry.object_id).first()
    if found is None:
        raise league_services.UndoRefused(
            _("This player is no longer registered for the event."), code="gone"
        )
    if found.dropped_after != (entry.after or {}).get("dropped_after"):
        raise league_services.UndoRefused(
            _("This player's drop changed since: nothing to undo."), code="stale"
        )
    try:
        return entry_undrop(entry=found, by=by, reverts=entry)
    except TournamentError as error:
        raise league_services.UndoRefused(str(error), code=error.code) from None


@transaction.atomic
def entry_remove(*, entry: Entry, by=None) -> Registration | None:
    """Take back a registration made by mistake: only for a player who has never sat at a
    table (a seated player keeps their results; drop them instead). The store's player stays.
    The seat it frees goes to the first waitlisted player, as when a player unregisters (in
    this transaction, with their notification); returns that registration, if any.
    """
    tournament, entry = _entry_locked(entry.tournament, entry)
    if entry.seats.exists():
        raise TournamentError(
            _("%(player)s has already sat at a table: drop them instead (they keep their results).")
            % {"player": entry.player},
            code="seated",
        )
    snapshot = _entry_snapshot(entry)
    entry_id = entry.pk
    # A player who registered online gives their seat back (as unregistering would).
    Registration.objects.filter(entry=entry).update(status="cancelled", entry=None)
    entry.delete()
    summary = Summary(N_("%(player)s removed from the event"), player=snapshot["player"])
    log_action(tournament, Action.ENTRY_REMOVE, ("entry", entry_id), summary, snapshot, None, by)
    promoted = waitlist_move_up(tournament, by=by)
    return promoted[0] if promoted else None


MAX_ROUND = 99  # no Swiss event plays more rounds; a bigger number is a typo


def _upcoming_round(tournament: Tournament, round_number: int) -> None:
    """Refuse a round that is paired already (or is no round): a bye is asked for ahead."""
    paired = next_round_number(tournament) - 1
    if not 1 <= round_number <= MAX_ROUND:
        raise TournamentError(
            _("There is no round %(round)s.") % {"round": round_number},
            code="no_round",
            field="round_number",
        )
    if round_number <= paired:
        raise TournamentError(
            _(
                "Round %(round)s is already paired: a bye can only be asked for a round still "
                "to pair (round %(next)s or later)."
            )
            % {"round": round_number, "next": paired + 1},
            code="round_paired",
            field="round_number",
        )
    if tournament.swiss_rounds and round_number > tournament.swiss_rounds:
        raise TournamentError(
            _("The event has %(rounds)s Swiss rounds: there is no round %(round)s.")
            % {"rounds": tournament.swiss_rounds, "round": round_number},
            code="no_round",
            field="round_number",
        )
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise TournamentError(_("The Swiss rounds are over."), code="closed")


@transaction.atomic
def requested_bye_add(*, entry: Entry, round_number: int, by=None) -> RequestedBye:
    """Mark that `entry` sits out Swiss round `round_number` with a requested ("half-point")
    bye: that round's pairing leaves them out and scores them a draw's points. Asking twice
    for the same round is AlreadyDone (a double tap changes nothing)."""
    tournament, entry = _entry_locked(entry.tournament, entry)
    if entry.dropped_after is not None:
        raise TournamentError(
            _("%(player)s has dropped.") % {"player": entry.player}, code="dropped"
        )
    _upcoming_round(tournament, round_number)
    if round_number < entry.joined_round:
        raise TournamentError(
            _("%(player)s joins in round %(round)s.")
            % {"player": entry.player, "round": entry.joined_round},
            code="not_joined",
            field="round_number",
        )
    bye, created = RequestedBye.objects.get_or_create(
        entry=entry, round_number=round_number, defaults={"created_by": acting_user(by)}
    )
    if not created:
        raise AlreadyDone(
            _("%(player)s already has a bye in round %(round)s.")
            % {"player": entry.player, "round": round_number},
            code="bye_requested",
        )
    summary = Summary(
        N_("%(player)s sits out round %(round)s (half-point bye)"),
        player=entry.player.name,
        round=round_number,
    )
    bye = {"player": entry.player.name, "round": round_number}
    log_action(tournament, Action.BYE_REQUEST, entry, summary, None, bye, by)
    return bye


@transaction.atomic
def requested_bye_remove(*, entry: Entry, round_number: int, by=None) -> None:
    """Take back a requested bye for a round not paired yet (none there: AlreadyDone)."""
    tournament, entry = _entry_locked(entry.tournament, entry)
    _upcoming_round(tournament, round_number)
    deleted, _counts = RequestedBye.objects.filter(entry=entry, round_number=round_number).delete()
    if not deleted:
        raise AlreadyDone(
            _("%(player)s has no bye asked for in round %(round)s.")
            % {"player": entry.player, "round": round_number},
            code="no_bye",
        )
    summary = Summary(
        N_("%(player)s plays round %(round)s after all"),
        player=entry.player.name,
        round=round_number,
    )
    bye = {"player": entry.player.name, "round": round_number}
    log_action(tournament, Action.BYE_REQUEST_CANCEL, entry, summary, bye, None, by)
