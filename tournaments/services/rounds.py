"""Swiss rounds: pairing the next round through the event's format, ending a round (which pairs
the next stage of a top cut), and the TO's manual edits of a round being played (swap, pair
by hand, bye), planned by the format and written on the round with who made them.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.models import AuditEntry
from audit.services import log_action
from audit.summary import Summary

from .. import signals
from ..actions import Action
from ..domain.texts import N_, Note, Np_, note_data
from ..errors import AlreadyDone, DecklistsMissing, TournamentError
from ..formats import EDIT_NOTES, EDITS, SOMEONE, format_for
from ..models import Entry, ResultReport, Round, Seat, Table, Tournament
from ..selectors import round_seating_key
from ..selectors.standings import (
    entry_ratings,
    history,
    next_round_entrants,
    standings,
    suggested_structure,
)
from ..selectors.topcut import top_cut_bracket
from .common import next_round_number, tables_create, tournament_lock
from .decks import decklists_record, decklists_unmet
from .topcut import top_cut_round, top_cut_start


def round_snapshot(round_: Round) -> dict:
    """Who sits at which table of a round, by name, for the log."""
    seats = Seat.objects.filter(round=round_).select_related("table", "entry__player")
    tables: dict[int, list[str]] = {}
    for seat in seats.order_by("table__number", "position"):
        tables.setdefault(seat.table.number, []).append(seat.entry.player.name)
    return {
        "round": round_.number,
        "tables": [{"number": n, "players": players} for n, players in tables.items()],
    }


@transaction.atomic
def round_pair(
    *,
    tournament: Tournament,
    by=None,
    number: int | None = None,
    seatings: list[tuple[int, ...]] | None = None,
    notes: list[Note] | None = None,
    decklists_accepted=None,
) -> Round:
    """Pair the next Swiss round from the standings and start it (byes are reported at once).

    `number` is the round the TO's button says it pairs: if that round exists already (a
    double tap, or another TO was quicker) nothing is paired and AlreadyDone says so.

    1v1 events pair matches (`pairing.pair_round`), pod events pods in seat order
    (`pods.pair_pods`, with the event's layout); what the pairing had to allow (rematches,
    players who met before) is written on the round, as notes each reader reads in their own
    language (`Round.notes_shown`). Players with a requested bye for this
    round (`requested_bye_add`) are left out of the pairing and get a requested-bye table
    each, numbered after the others.

    `seatings` (with `notes`, written on the round instead of the pairing's warnings) are the
    tables of a round already paired elsewhere, on the TO's phone while the server could not
    be reached (`services.offline.round_adopt`, which checked them): written as they are.

    Round 1 of an event that requires a legal list is not paired past an entry without one
    until the TO has seen who (`decklists_accepted`, the entry ids of the confirm step;
    `decks.decklists_unmet` raises DecklistsMissing otherwise); those entries are kept on the
    round, written in its notes and logged. A round 1 paired offline is already played: its
    entries without a legal list are recorded, not asked about.
    """
    tournament = tournament_lock(tournament)
    if number is not None and tournament.rounds.filter(number=number).exists():
        raise AlreadyDone(
            _("Round %(round)s is already paired.") % {"round": number}, code="paired"
        )
    unfinished = tournament.rounds.exclude(status=Round.Status.COMPLETE).first()
    if unfinished is not None:
        missing = list(unfinished.tables.filter(reported=False).values_list("number", flat=True))
        raise TournamentError(
            (
                _("%(round)s is not finished: %(missing)s.")
                % {"round": unfinished.label, "missing": _no_result_yet(tournament, missing)}
                if missing
                else _("%(round)s is not finished.") % {"round": unfinished.label}
            ),
            code="round_open",
        )
    if tournament.check_in == Tournament.CheckIn.OPEN:
        raise TournamentError(
            _("Check-in is still open: close it first (no-shows leave, the waitlist moves up)."),
            code="check_in_open",
        )
    number = next_round_number(tournament)
    # Requested ("half-point") byes for this round: not paired, a table of one each.
    entered, sitting_out = next_round_entrants(tournament, number)
    active = [e for e in entered if e.pk not in sitting_out]
    play = format_for(tournament)
    fewest = play.fewest_players
    if len(active) < fewest:
        raise TournamentError(
            _("At least three players are needed to pair a round.")
            if fewest == 3
            else _("At least two players are needed to pair a round."),
            code="few",
        )
    planned = tournament.swiss_rounds or suggested_structure(tournament, len(entered))[0]
    if number > planned:
        raise TournamentError(
            _("All %(planned)s Swiss rounds have been played.") % {"planned": planned},
            code="swiss_over",
        )
    unmet = []
    if number == 1:
        unmet = decklists_unmet(
            tournament=tournament,
            entry_ids=[e.pk for e in entered],
            accepted=decklists_accepted,
            must_ask=seatings is None,
        )
    past = history(tournament)
    table = standings(tournament, past)
    ratings = entry_ratings(tournament, active) if tournament.first_round == "rating" else None
    by_player = {e.player_id: e for e in entered}
    if seatings is not None:
        tables, warnings = [tuple(t) for t in seatings], list(notes or [])
    else:
        tables, warnings = play.pair(
            tournament,
            players=[e.player_id for e in active],
            history=past,
            ranking=table.ranking,
            points=table.points,
            seed=tournament.seed,
            round_number=number,
            first_round=tournament.first_round,
            ratings=ratings,
            # The pod pairer weighs repeats by how many rounds are left and looks one round
            # ahead, but not past the last (domain.pods).
            rounds=planned,
            name=lambda p: str(by_player[p].player),  # who a warning names
        )
    requested = [(e.player_id,) for e in entered if e.pk in sitting_out]
    seatings = list(enumerate(tables, 1))
    warnings += play.seating_warnings(past, seatings, by_player)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.Status.PLAYING,
        ends_at=timezone.now() + timezone.timedelta(minutes=tournament.round_minutes),
        notes=[note_data(warning) for warning in warnings],
    )
    tables_create(round_, seatings, by_player, by)
    tables_create(
        round_, list(enumerate(requested, len(seatings) + 1)), by_player, by, requested=True
    )
    if unmet:
        round_.notes_add(_decklists_note(unmet))
        round_.save(update_fields=["notes"])
        decklists_record(tournament=tournament, round_=round_, rows=unmet, by=by)
    tournament.status = Tournament.Status.SWISS
    if tournament.swiss_rounds is None:
        tournament.swiss_rounds = planned
    tournament.save(update_fields=["status", "swiss_rounds"])
    signals.round_paired.send(sender=Round, round_=round_)
    return round_


def _decklists_note(rows: list[dict]) -> Note:
    # Translators: one player of a list of players paired without a legal decklist, and why.
    player = N_("%(player)s (%(why)s)")
    names = tuple(
        Note(player, {"player": row["player"], "why": row["why"].rstrip(".")}) for row in rows
    )
    return Note(
        N_(
            "Paired without a legal list, as the TO chose: %(names)s. A Decklist Problem (IPG "
            "3.4): give the penalty on the judges' desk."
        ),
        {"names": names},
    )


@transaction.atomic
def round_end(*, round_: Round, by=None) -> Round:
    """Close a round once every table has a result (a round already closed: AlreadyDone)."""
    tournament = tournament_lock(round_.tournament_id)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.COMPLETE:
        # A second tap (or a second TO): ending it again would pair the next top-cut round
        # twice.
        raise AlreadyDone(
            _("%(round)s is already complete.") % {"round": round_.label}, code="complete"
        )
    missing = list(round_.tables.filter(reported=False).values_list("number", flat=True))
    if missing:
        said = _no_result_yet(tournament, missing, still=True)
        raise TournamentError(f"{said[0].upper()}{said[1:]}.", code="missing")
    round_.status = Round.Status.COMPLETE
    round_.save(update_fields=["status"])
    if round_.kind == Round.Kind.TOP_CUT:
        bracket = top_cut_bracket(tournament)
        if bracket.champion is not None:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
            signals.event_finished.send(sender=Tournament, tournament=tournament)
        else:
            top_cut_round(tournament, bracket, round_.number + 1)
        return round_
    last_swiss = round_.kind == Round.Kind.SWISS and round_.number >= (tournament.swiss_rounds or 0)
    if last_swiss and not tournament.top_cut:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        signals.event_finished.send(sender=Tournament, tournament=tournament)
    return round_


@transaction.atomic
def swiss_finish(*, tournament: Tournament, after: int | None, by=None) -> Tournament:
    """End the Swiss rounds after round `after`, the last one played and complete: the TO
    stops early (the store closes, or too few players are left to pair another round). The
    event's number of Swiss rounds becomes `after`; with no top cut the event is finished
    (its final standings are the standings after that round), with one the console offers to
    start it. `after` is the round the TO's console showed: a double tap, or a round paired
    meanwhile, changes nothing (AlreadyDone, or the reason)."""
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise AlreadyDone(_("The event is already finished."), code="finished")
    if tournament.status != Tournament.Status.SWISS:
        raise TournamentError(
            _("Only an event playing its Swiss rounds can end them early."), code="not_swiss"
        )
    last = tournament.rounds.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    if last is None or last.number != after:
        raise TournamentError(
            _("Round %(round)s is the event's latest round now: check the console again.")
            % {"round": last.number if last else 1},
            code="stale_round",
        )
    if last.status != Round.Status.COMPLETE:
        raise TournamentError(
            _("Round %(round)s is still being played: end it first.") % {"round": last.number},
            code="playing",
        )
    if tournament.swiss_rounds == after:
        raise AlreadyDone(
            _("The Swiss rounds already end after round %(round)s.") % {"round": after},
            code="already_last",
        )
    before = {"swiss_rounds": tournament.swiss_rounds, "status": tournament.status}
    tournament.swiss_rounds = after
    fields = ["swiss_rounds"]
    if not tournament.top_cut:
        tournament.status = Tournament.Status.FINISHED
        fields.append("status")
    tournament.save(update_fields=fields)
    after_state = {"swiss_rounds": tournament.swiss_rounds, "status": tournament.status}
    summary = Summary(N_("Swiss rounds ended after round %(round)s"), round=after)
    log_action(tournament, Action.SWISS_FINISH, tournament, summary, before, after_state, by)
    if tournament.status == Tournament.Status.FINISHED:
        signals.event_finished.send(sender=Tournament, tournament=tournament)
    return tournament


@transaction.atomic
def round_advance(*, round_: Round, by=None, decklists_accepted=None) -> Round:
    """The console's one tap once every table of `round_` has a result: end it and go on as
    the TO's next button would, in one transaction. After a Swiss round the next one is
    paired; after the last Swiss round the top cut starts (`top_cut_start`), or, with no cut,
    the event is finished (as `round_end` does); after a top-cut round `round_end` pairs the
    cut's next stage or crowns the champion. Returns the round the console shows next (the
    round just ended when nothing follows it).

    A second tap (or another TO's) finds the round complete and changes nothing
    (AlreadyDone, naming what followed). If the next round cannot be paired (too few players
    left, check-in reopened...), the round is not ended either and the reason is given: the
    TO never sees a round ended by a tap that said no; so for a top cut that waits for the
    TO's look at the lists (DecklistsMissing, `top_cut_start`): `decklists_accepted` are the
    entry ids of that confirm step.
    """
    tournament = tournament_lock(round_.tournament_id)
    try:
        ended = round_end(round_=round_, by=by)
    except AlreadyDone:
        latest = tournament.rounds.order_by("-number").first()
        if latest is not None and latest.number > round_.number:
            message = _(
                "%(round)s is already complete and %(latest)s is paired: nothing was changed again."
            ) % {"round": round_.label, "latest": _round_name(latest)}
        else:
            message = _("%(round)s is already complete: nothing was changed again.") % {
                "round": round_.label
            }
        raise AlreadyDone(message, code="complete") from None
    tournament.refresh_from_db(fields=["status", "swiss_rounds", "top_cut"])
    if ended.kind != Round.Kind.SWISS or tournament.status == Tournament.Status.FINISHED:
        # round_end paired the cut's next stage, or the event is over.
        return tournament.rounds.order_by("-number").first()
    try:
        if ended.number >= (tournament.swiss_rounds or 0) and tournament.top_cut:
            return top_cut_start(
                tournament=tournament, by=by, decklists_accepted=decklists_accepted
            )
        return round_pair(tournament=tournament, by=by, number=ended.number + 1)
    except (AlreadyDone, DecklistsMissing):
        raise
    except TournamentError as error:
        raise TournamentError(
            _("%(round)s stays open: %(problem)s")
            % {"round": ended.label, "problem": error.message},
            code=error.code,
            field=error.field,
        ) from None


def _round_name(round_: Round) -> str:
    return round_.label_in_sentence


@transaction.atomic
def round_edit(
    *,
    round_: Round,
    edit: str,
    a: Entry,
    b: Entry | None = None,
    by=None,
    expected: str | None = None,
) -> list[str]:
    """Change a Swiss round being played by hand: swap two players' seats, pair two players
    against each other, or give a player the bye.

    The pairing module computes the new round (`swap_players`, `pair_by_hand`, `give_bye`)
    and checks it (everyone once, tables of two); tables that already have a result may not
    change. Only the changed tables are rewritten, keeping their numbers. The edit is written
    on the round with who made it and any rematch it creates (notes, read in each reader's
    language); those warnings are returned (`Note`s: `errors.note_text` writes them).

    In a pod event a swap exchanges two players' seats (between pods, within a pod, or with a
    bye) and the bye takes a player out of a pod of four or five; pairing two players by hand
    is for 1v1 matches only.

    `expected` is the round's `round_seating_key` when the TO's form was loaded: if the seats
    changed since (a double tap, or another TO's edit), nothing is changed (AlreadyDone).
    A player with a requested bye this round cannot be moved (their table is left alone).
    """
    tournament = tournament_lock(round_.tournament_id)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if expected is not None and expected != round_seating_key(round_):
        raise AlreadyDone(_stale_edit_message(round_, edit, a, b, by), code="stale_pairings")
    if round_.status != Round.Status.PLAYING or round_.kind != Round.Kind.SWISS:
        raise TournamentError(
            _("Only a Swiss round being played can be edited."), code="not_playing"
        )
    if edit not in EDITS or (edit != "bye" and b is None):
        raise TournamentError(_("Choose what to change."), code="edit")
    if b is not None and a.pk == b.pk:
        raise TournamentError(_("Choose two different players."), code="same_player")
    play = format_for(tournament)
    play.check_edit(edit)
    tables = list(round_.tables.prefetch_related("seats__entry__player").order_by("number"))
    before = round_snapshot(round_)
    # A requested bye is the player's choice, not the pairer's: edits leave those tables be.
    sitting_out = {s.entry_id for t in tables if t.requested_bye for s in t.seats.all()}
    for entry in (a, b):
        if entry is not None and entry.pk in sitting_out:
            raise TournamentError(
                _("%(player)s sits round %(round)s out with a requested bye.")
                % {"player": entry.player, "round": round_.number},
                code="requested_bye",
            )
    tables = [t for t in tables if not t.requested_bye]
    seated = {s.entry_id for t in tables for s in t.seats.all()}
    for entry in (a, b):
        if entry is not None and entry.pk not in seated:
            raise TournamentError(
                _("%(player)s is not in round %(round)s.")
                % {"player": entry.player, "round": round_.number},
                code="absent",
            )
    warnings = _edit_apply(play, tournament, round_, tables, edit, a, b, by)
    names = {e.player_id: e.player for e in (a, b) if e is not None}
    who = getattr(by, "username", None) or Note(SOMEONE)
    params = {"time": f"{timezone.localtime():%H:%M}", "who": who, "a": str(names[a.player_id])}
    if b is not None:
        params["b"] = str(names[b.player_id])
    round_.notes_add(Note(EDIT_NOTES[edit], params), *warnings)
    round_.save(update_fields=["notes"])
    after = round_snapshot(round_)
    after["warnings"] = list(warnings)
    summary = _edit_summary(round_, edit, a.player.name, b.player.name if b else None)
    log_action(tournament, _EDIT_ACTIONS[edit], round_, summary, before, after, by)
    return warnings


_EDIT_ACTIONS = {
    "swap": Action.PAIRING_SWAP,
    "pair": Action.PAIRING_MANUAL,
    "bye": Action.PAIRING_BYE,
}


# A manual edit in the History, and what a second tap of it is told (`_stale_edit_message`).
EDIT_SUMMARIES = {
    "swap": N_("round %(round)s: swapped %(a)s and %(b)s"),
    "pair": N_("round %(round)s: paired %(a)s against %(b)s"),
    "bye": N_("round %(round)s: gave the bye to %(a)s"),
}
EDIT_DONE = {
    "swap": N_("Swapped %(a)s and %(b)s: done by the first tap, the second changed nothing."),
    "pair": N_("Paired %(a)s against %(b)s: done by the first tap, the second changed nothing."),
    "bye": N_("Gave the bye to %(a)s: done by the first tap, the second changed nothing."),
}


def _edit_summary(round_: Round, edit: str, a: str, b: str | None) -> Summary:
    names = {"a": a} if edit == "bye" else {"a": a, "b": b}
    return Summary(EDIT_SUMMARIES[edit], round=round_.number, **names)


def _stale_edit_message(round_: Round, edit: str, a: Entry, b: Entry | None, by) -> str:
    """What a form sent on pairings that changed since it was loaded is told. When the
    round's last change is this very edit by the same person (a double tap: the browser may
    have shown only the second answer), it says the edit is done, as the first tap's answer
    did; otherwise that someone changed the pairings meanwhile."""
    last = (
        AuditEntry.objects.filter(
            tournament_id=round_.tournament_id,
            object_id=round_.pk,
            action__in=_EDIT_ACTIONS.values(),
        )
        .order_by("-pk")
        .first()
    )
    if (
        edit in EDITS
        and (b is not None or edit == "bye")
        and last is not None
        and last.action == _EDIT_ACTIONS[edit]
        and last.actor_id is not None
        and last.actor_id == getattr(by, "pk", None)
    ):
        names = (a.player.name, b.player.name if b else None)
        said = _edit_summary(round_, edit, *names)
        if last.summary_value == said:  # the same edit of the same players, not its English
            return _(EDIT_DONE[edit]) % said.params
    return _(
        "The pairings of round %(round)s changed since this page was loaded (was it tapped "
        "twice?): nothing was changed again. Check them below."
    ) % {"round": round_.number}


def _edit_apply(play, tournament, round_, tables, edit, a, b, by) -> list[str]:
    """The format plans the edit from the seats as they are (`Format.plan_edit`); the changed
    tables are replaced by its numbered seatings. Returns the warnings to write on the round."""
    before = {t.pk: tuple(s.entry.player_id for s in t.seats.all()) for t in tables}
    entries = {e.player_id: e for e in tournament.entries.select_related("player")}
    plan = play.plan_edit(
        tables=tables,
        before=before,
        edit=edit,
        a=a,
        b=b,
        number=round_.number,
        entries=entries,
        read_past=lambda number: history(tournament, before=number),
        read_points=lambda past: standings(tournament, past).points,
    )
    # A changed table's players' reports go with it (they reported on other seats): said, not
    # lost silently; its new players report again.
    waiting = (
        ResultReport.objects.filter(table_id__in=plan.changed, status=ResultReport.Status.SUBMITTED)
        .order_by("table__number")
        .values_list("table__number", flat=True)
        .distinct()
    )
    context, set_aside_text = play.table_sentence(
        (
            "a 1v1 table",
            Np_(
                "a 1v1 table",
                "Table %(number)s's report waiting for confirmation was set aside: the table "
                "changed, its players report again.",
            ),
        ),
        (
            "a pod",
            Np_(
                "a pod",
                "Pod %(number)s's report waiting for confirmation was set aside: the pod "
                "changed, its players report again.",
            ),
        ),
    )
    set_aside = [Note(set_aside_text, {"number": n}, context=context) for n in waiting]
    Seat.objects.filter(table_id__in=plan.changed).delete()
    Table.objects.filter(pk__in=plan.changed).delete()
    _requested_byes_renumber(round_, {number for number, _ in plan.seatings})
    tables_create(round_, plan.seatings, entries, by)
    return [*plan.warnings, *set_aside]


def _requested_byes_renumber(round_: Round, planned: set[int]) -> None:
    """Move the round's requested-bye tables (which edits never plan) after every other table,
    so the numbers an edit plans (a new bye after the last match) are free."""
    requested = list(round_.tables.filter(requested_bye=True).order_by("number"))
    if not requested:
        return
    others = (
        set(round_.tables.filter(requested_bye=False).values_list("number", flat=True)) | planned
    )
    first = max(others, default=0) + 1
    if [t.number for t in requested] == list(range(first, first + len(requested))):
        return
    # Two steps, so no number is ever held twice (one table per number per round).
    for offset, table in enumerate(requested):
        Table.objects.filter(pk=table.pk).update(number=20000 + offset)
    for offset, table in enumerate(requested):
        Table.objects.filter(pk=table.pk).update(number=first + offset)


def round_swap(*, round_: Round, a: Entry, b: Entry, by=None) -> list[str]:
    return round_edit(round_=round_, edit="swap", a=a, b=b, by=by)


def round_give_bye(*, round_: Round, entry: Entry, by=None) -> list[str]:
    return round_edit(round_=round_, edit="bye", a=entry, by=by)


def _no_result_yet(tournament: Tournament, numbers: list[int], *, still: bool = False) -> str:
    """ "table 2 has no result", "pods 1 and 3 still have no result": the event's own word
    for a table, agreeing with the count."""
    pods = format_for(tournament).key == "pods"
    count = len(numbers)
    shown = [str(n) for n in numbers]
    listed = shown[0]
    if count > 1:
        listed = _("%(numbers)s and %(last)s") % {
            "numbers": ", ".join(shown[:-1]),
            "last": shown[-1],
        }
    if pods and still:
        text = ngettext(
            "pod %(numbers)s still has no result", "pods %(numbers)s still have no result", count
        )
    elif pods:
        text = ngettext("pod %(numbers)s has no result", "pods %(numbers)s have no result", count)
    elif still:
        text = ngettext(
            "table %(numbers)s still has no result",
            "tables %(numbers)s still have no result",
            count,
        )
    else:
        text = ngettext(
            "table %(numbers)s has no result", "tables %(numbers)s have no result", count
        )
    return text % {"numbers": listed}
