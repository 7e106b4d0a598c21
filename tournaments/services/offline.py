"""A round paired on the TO's phone while the server could not be reached, sent back once it
answers again (issue 34): checked with the code the server's own pairing runs, then adopted as
`round_pair` writes a round, or refused with the reason.

The phone sends the input it paired from (`selectors.pairing_snapshot.pairing_snapshot` closed
with the results it held, `domain.nextround.close_round`) and the round it made. The server
adopts the round when its own input now is that very input (the same results, drops, byes,
settings: the phone paired what the server would pair from) and the round keeps every rule of
the server's pairing (`domain.nextround.check_round`); it ends the round being played first, as
the console's one tap does. Sending the same round twice adopts it once (AlreadyDone the second
time). A refusal changes nothing; the view writes it in History with the phone's round, and the
phone keeps its copy, so the TO has both."""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from audit.services import log_action
from audit.summary import Summary
from core.translate import names_text

from ..actions import Action
from ..domain import nextround
from ..domain.texts import N_, Note
from ..errors import AlreadyDone, TournamentError, domain_message
from ..models import Round, Tournament
from ..selectors.pairing_snapshot import pairing_input
from .common import tournament_lock
from .results import table_report
from .rounds import round_end, round_pair, round_snapshot

# What the round's notes say of a round paired offline (`Note`s: read in the reader's language).
ADOPTED_NOTE = N_("Paired on the TO's phone while the server could not be reached.")
DIFFERS_NOTE = N_("The server's own pairing of the same round differs.")


def _seatings(round_: Round) -> list[list[int]]:
    return [
        [s.entry.player_id for s in t.seats.order_by("position").select_related("entry")]
        for t in round_.tables.order_by("number")
    ]


def _differences(mine: dict, theirs: dict) -> list[str]:
    """What changed between the phone's input and the server's, in the TO's words and
    language."""
    names = mine.get("names") or {}
    name = lambda p: names.get(str(p), str(p))  # noqa: E731
    out = []
    if mine.get("round") != theirs.get("round"):
        out.append(
            _("the server pairs round %(server)s, the phone round %(phone)s")
            % {"server": mine.get("round"), "phone": theirs.get("round")}
        )
    gone = sorted(set(theirs.get("players") or []) - set(mine["players"]))
    new = sorted(set(mine["players"]) - set(theirs.get("players") or []))
    out += [_("%(player)s dropped or left") % {"player": name(p)} for p in gone]
    out += [_("%(player)s joined or came back") % {"player": name(p)} for p in new]
    if sorted(mine["sitting_out"]) != sorted(theirs.get("sitting_out") or []):
        out.append(_("the players sitting the round out changed"))
    ours, phone = mine["history"], theirs.get("history") or []
    between = pgettext("between the items of a list", "; ")
    for number, (a, b) in enumerate(zip(ours, phone, strict=False), 1):
        if a != b:
            changed = [
                names_text(name(p) for p in t["players"])
                for t in a
                if t not in b and len(t["players"]) > 1
            ]
            if changed:
                text = _("round %(round)s has other results on the server (%(tables)s)")
                out.append(text % {"round": number, "tables": between.join(changed)})
            else:
                out.append(_("round %(round)s has other results on the server") % {"round": number})
    if len(ours) != len(phone):
        out.append(_("the server and the phone know a different number of rounds"))
    settings = {"history", "players", "sitting_out", "round", "names", "entrants"}
    if any(mine.get(k) != theirs.get(k) for k in set(mine) | set(theirs) if k not in settings):
        out.append(_("the event's settings changed"))
    return out or [_("the event changed")]


@transaction.atomic
def round_adopt(*, tournament: Tournament, data: dict, tables: list, by=None) -> Round:
    """Adopt the round `tables` (lists of player ids in seat order, by table number) that the
    TO's phone paired from the input `data`. TournamentError says why not, changing nothing;
    AlreadyDone when this very round is on the server already."""
    tournament = tournament_lock(tournament)
    number = data.get("round") if isinstance(data, dict) else None
    if not isinstance(number, int) or isinstance(number, bool):
        raise TournamentError(_("The phone's round has no round number."), code="shape")
    existing = tournament.rounds.filter(number=number).first()
    if existing is not None:
        if _seatings(existing) == tables:
            raise AlreadyDone(
                _("Round %(round)s is already on the server, as the phone paired it.")
                % {"round": number},
                code="paired",
            )
        raise TournamentError(
            _(
                "Round %(round)s was paired meanwhile on the server, differently: the phone's "
                "round was not sent. Announce the server's round, or edit it by hand."
            )
            % {"round": number},
            code="paired_meanwhile",
        )
    try:
        mine = pairing_input(tournament)
    except nextround.NextRoundError as error:
        raise TournamentError(
            _(
                "The server is missing results the phone had: %(problem)s Send the results "
                "waiting on the phone first, then the round."
            )
            % {"problem": domain_message(error)},
            code="missing",
        ) from None
    if number != mine["round"]:
        raise TournamentError(
            _("The next round on the server is round %(next)s, not %(round)s.")
            % {"next": mine["round"], "round": number},
            code="not_next",
        )
    if nextround.digest(mine) != nextround.digest(data):
        try:
            changes = _differences(nextround.plain(mine), nextround.plain(data))
        except (TypeError, KeyError, AttributeError):  # the phone's input is not even its shape
            changes = [_("the event changed")]
        raise TournamentError(
            _(
                "The event changed since the phone paired the round: %(changes)s. Pair the "
                "round again."
            )
            % {"changes": pgettext("between the items of a list", "; ").join(changes)},
            code="stale",
        )
    try:
        nextround.check_round(mine, tables)
    except nextround.NextRoundError as error:
        raise TournamentError(domain_message(error), code=error.code) from None
    try:
        own = nextround.pair_next(mine)
    except nextround.NextRoundError as error:
        raise TournamentError(domain_message(error), code=error.code) from None
    notes = [Note(ADOPTED_NOTE)]
    if own.tables != tables:
        notes.append(Note(DIFFERS_NOTE))
    opened = tournament.rounds.exclude(status=Round.Status.COMPLETE).first()
    if opened is not None:
        round_end(round_=opened, by=by)
    sitting_out = len(mine["sitting_out"])
    paired = tables[: len(tables) - sitting_out]
    round_ = round_pair(tournament=tournament, by=by, number=number, seatings=paired, notes=notes)
    log_action(
        tournament,
        Action.ROUND_OFFLINE,
        round_,
        Summary(N_("round %(round)s paired on the TO's phone adopted"), round=number),
        after=round_snapshot(round_),
        by=by,
    )
    return round_


@transaction.atomic
def offline_results_record(
    *, tournament: Tournament, results: dict, number: object, by=None
) -> list[int]:
    """The results tapped on the TO's phone itself (table number -> {"winner": player} or
    {"draw": true}) for tables of round `number`, the round being played when the phone
    paired, that the server still has none for, recorded as the console's card would
    (`table_report`), before the phone's round is checked, and kept whatever becomes of it.
    A table with a result keeps it (if the phone's differs, the round's input differs and the
    round is refused). Nothing is recorded once round `number` is no longer the one being
    played: a repeated upload must not put them on the next round's tables of the same
    numbers. Returns the tables recorded."""
    tournament = tournament_lock(tournament)
    recorded = []
    opened = tournament.rounds.exclude(status=Round.Status.COMPLETE).first()
    if opened is None or opened.number != number or not isinstance(results, dict):
        return recorded
    entries = {e.player_id: e for e in tournament.entries.all()}
    for table in opened.tables.filter(reported=False).prefetch_related("seats__entry"):
        given = results.get(str(table.number))
        if not isinstance(given, dict):
            continue
        players = [s.entry.player_id for s in table.seats.all()]
        if given.get("draw") is True:
            table_report(table=table, draw=True, by=by, via="the TO's phone, offline")
        elif given.get("winner") in players:
            table_report(
                table=table, winner=entries[given["winner"]], by=by, via="the TO's phone, offline"
            )
        else:
            text = tournament.play.table_sentence(
                pgettext(
                    "a 1v1 table", "The phone's result of table %(number)s names nobody at it."
                ),
                pgettext("a pod", "The phone's result of pod %(number)s names nobody at it."),
            )
            raise TournamentError(text % {"number": table.number}, code="result")
        recorded.append(table.number)
    return recorded


def round_adopt_refused(*, tournament: Tournament, tables, reason: str, by=None) -> None:
    """Write a refused upload in History with the phone's round, so the TO keeps both."""
    names = dict(tournament.entries.values_list("player_id", "player__name"))
    shown = [
        {"number": n, "players": [names.get(p, f"player {p}") for p in table]}
        for n, table in enumerate(tables if isinstance(tables, list) else [], 1)
        if isinstance(table, list)
    ]
    log_action(
        tournament,
        Action.ROUND_OFFLINE_REFUSED,
        tournament,
        # The reason as the TO was told it, in the language they read.
        Summary(N_("a round paired on the TO's phone was refused: %(reason)s"), reason=reason),
        after={"tables": shown[:200], "reason": reason},
        by=by,
    )
