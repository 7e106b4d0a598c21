"""A penalty given to a player: the infraction (judging.domain.ipg), the penalty the IPG
expects for it (its default, upgraded for a repeat), the penalty given (another one only with
the judge's reason), a note and the judge, logged in the History.

A Match Loss or a Disqualification given during a round, at a 1v1 table still without a
result, enters the table's result as the TO would (`tournaments.services.results
.table_report`): the opponent wins 2-0. A Game Loss there enters it when it decides the match:
the judge says the games won so far (`games`: the player's, the opponent's), and a Game Loss
that gives the opponent their second game enters their win 2-N (best of three); otherwise the
match goes on and the players' report counts the game. A Disqualification also drops the
player (`entry_drop`).

At a pod a Swiss round is one game, so a Game Loss, a Match Loss and a Disqualification given
while the pod plays without a result are all the loss of that game (`Penalty.loses_game`):
the player is out of it and finishes last (0 points, as any loss). The others play on; when
one player is left, the penalty enters the pod's result at once (they win, the penalized
share the last place). Otherwise the pod's result, entered later by the TO or reported by its
players, places the penalized last (`Pods.check_result` reads `lost_by_penalty`): a winner
alone or a draw is among the others, and a full order or a winner naming a penalized player
is refused with why. A penalty given after a table's result (1v1 or pod) leaves it alone, as
the IPG applies it to the player's next game.
"""

import contextlib

from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import log_action
from audit.summary import Summary
from tournaments.domain.result import Result
from tournaments.domain.texts import N_, Note, note_data
from tournaments.errors import AlreadyDone, TournamentError, note_text
from tournaments.models import Entry, Round, Seat
from tournaments.services.entries import entry_drop
from tournaments.services.results import table_report
from tournaments.summaries import table_phrase

from .. import labels
from ..actions import Action
from ..domain import ipg
from ..models import Penalty
from ..page_versions import desk_changed
from .common import event_lock

# The loss a penalty is, as the formats count it (`Format.penalty_loss`): a Match Loss and a
# Disqualification end a 1v1 match, a Game Loss costs a game; all three lose a pod's game.
LOSS = {ipg.GAME_LOSS: "game", ipg.MATCH_LOSS: "match", ipg.DQ: "match"}

# The result a penalty entered, as the penalty keeps it (a `Note`, read in the reader's
# language): the penalty by its IPG name, then what it did to the table.
# Translators: the result a judge's penalty entered at a 1v1 table; the games are the
# opponent's 2 and the penalized player's (2-0, 2-1).
OPPONENT_WINS = N_("%(penalty)s: the opponent wins 2-%(games)s")
# Translators: the result a judge's penalty entered at a pod: the last player left wins it.
WINS_THE_POD = N_("%(penalty)s: %(player)s wins the pod")
# Translators: what a judge's penalty did at a pod: the player finishes last in its result.
LAST_IN_THE_POD = N_("%(penalty)s: last in the pod's result")


def _penalty_name(penalty: str) -> Note:
    """The penalty by its IPG name, as judging.labels gives it in each language."""
    return Note(ipg.PENALTIES[penalty], context="IPG penalty")


@transaction.atomic
def penalty_give(
    *,
    entry: Entry,
    infraction: str,
    penalty: str | None = None,
    note: str = "",
    deviation_reason: str = "",
    games: tuple[int, int] | None = None,
    by=None,
) -> Penalty:
    """Give `entry` a penalty for `infraction` (an ipg code) in their current round.
    `penalty` None gives the one the IPG expects; `games` (the player's and the opponent's
    games won so far in the match) lets a Game Loss decide a 1v1 match."""
    event = event_lock(entry.tournament_id)
    if infraction not in ipg.INFRACTIONS:
        raise TournamentError(
            _("Choose an infraction from the list."), code="infraction", field="infraction"
        )
    code = ipg.infraction_get(infraction)
    earlier = list(Penalty.objects.filter(entry=entry).values_list("infraction", "penalty"))
    expected = ipg.expected_penalty(infraction, earlier)
    given = penalty or expected.penalty
    if given not in ipg.PENALTIES:
        raise TournamentError(_("Choose a penalty from the list."), code="penalty", field="penalty")
    reason = deviation_reason.strip()[:300]
    deviates = ipg.is_deviation(given, expected)
    finding = ipg.allowed_because(given, expected)
    if finding:
        # The IPG's own penalty on the judge's finding (IPG 4.2's malice): what it expects.
        expected = ipg.Expected(given, True, finding)
    if deviates and not reason:
        names = {
            "expected": labels.PENALTIES[expected.penalty],
            "given": labels.PENALTIES[given],
            "reason": note_text(expected.reason),
        }
        if expected.reason:
            text = _(
                "The IPG gives a %(expected)s here (%(reason)s): say why you give a %(given)s "
                "instead."
            )
        else:
            text = _("The IPG gives a %(expected)s here: say why you give a %(given)s instead.")
        raise TournamentError(
            text % names,
            code="deviation_reason",
            field="deviation_reason",
        )
    # The player's table of the latest round they sit in (none before round 1).
    seat = (
        Seat.objects.filter(entry=entry, round__tournament=event)
        .select_related("table__round")
        .order_by("-round__number")
        .first()
    )
    table = seat.table if seat is not None else None
    round_ = table.round if table is not None else None
    row = Penalty.objects.create(
        tournament=event,
        entry=entry,
        round=round_,
        table=table,
        round_number=round_.number if round_ else None,
        table_number=table.number if table else None,
        infraction=infraction,
        rel=code.rel,
        penalty=given,
        expected=expected.penalty,
        upgrade_reason=note_data(expected.reason) if expected.reason else {},
        deviation_reason=reason if deviates else "",
        note=note.strip()[:1000],
        judge=by if getattr(by, "is_authenticated", False) else None,
    )
    if games is not None and not all(n in (0, 1) for n in games):
        raise TournamentError(
            _("Games won so far are 0 or 1 each (a match is best of three)."),
            code="games",
            field="games",
        )
    entered: Note | str = ""
    outcome = None
    if table is not None and round_.status == Round.Status.PLAYING and not table.reported:
        # What the format makes of the loss: a result entered now, or the player out of it.
        outcome = event.play.penalty_loss(
            LOSS.get(given),
            player=entry.pk,
            opponents=[s.entry_id for s in table.seats.all() if s.entry_id != entry.pk],
            games=games,
        )
    if outcome is not None and outcome.result is not None:
        table_report(table=table, result=outcome.result, by=by, via="penalty")
        games = outcome.result.wins_of[entry.pk]
        entered = Note(OPPONENT_WINS, {"penalty": _penalty_name(given), "games": games})
        row.result_entered = entered.data()
        row.save(update_fields=["result_entered"])
    elif outcome is not None and outcome.out:
        entered = _pod_game_lost(row, table, given, by)
    if given == ipg.DQ:
        with contextlib.suppress(AlreadyDone):
            entry_drop(entry=entry, by=by)
    desk_changed(event.pk, entries=[entry.pk])
    summary = _penalty_summary(
        table_phrase(round_, table.number, event.play) if table else None,
        player=entry.player.name,
        infraction=Summary.pgettext("IPG infraction", code.name),
        penalty=_penalty_phrase(given),
        expected=_penalty_phrase(expected.penalty) if deviates else None,
    )
    after = {
        "infraction": infraction,
        "penalty": given,
        "expected": expected.penalty,
        "upgrade": note_data(expected.reason) if expected.reason else "",
        "deviation_reason": row.deviation_reason,
        "result_entered": note_data(entered) if entered else None,
    }
    log_action(event, Action.PENALTY, row, summary, None, after, by)
    return row


def _penalty_phrase(penalty: str) -> Summary:
    """A penalty's name as `labels.PENALTIES` translates it (the IPG's English is its msgid)."""
    return Summary.pgettext("IPG penalty", ipg.PENALTIES[penalty])


def _penalty_summary(where: Summary | None, *, expected: Summary | None, **values) -> Summary:
    """ "Round 2, table 3: Ann, <infraction>: <penalty>", and the IPG's own penalty after a
    deviation: four sentences, each written whole."""
    if where is None and expected is None:
        return Summary(N_("%(player)s, %(infraction)s: %(penalty)s"), **values)
    if where is None:
        return Summary(
            N_("%(player)s, %(infraction)s: %(penalty)s (the IPG's: %(expected)s)"),
            expected=expected,
            **values,
        )
    if expected is None:
        return Summary(
            N_("%(where)s: %(player)s, %(infraction)s: %(penalty)s"), where=where, **values
        )
    return Summary(
        # Translators: the History: a judge's penalty differing from the IPG's, both named.
        N_("%(where)s: %(player)s, %(infraction)s: %(penalty)s (the IPG's: %(expected)s)"),
        where=where,
        expected=expected,
        **values,
    )


def _pod_game_lost(row: Penalty, table, given: str, by) -> Note:
    """The penalized player is out of the pod's game: the pod's result will place them last;
    when one player is left in the game, it is entered now (that player wins)."""
    row.loses_game = True
    row.save(update_fields=["loses_game"])  # before the result below reads who lost
    lost = set(
        Penalty.objects.filter(table=table, loses_game=True).values_list("entry_id", flat=True)
    )
    seats = list(table.seats.select_related("entry__player"))
    left = [s for s in seats if s.entry_id not in lost]
    if len(left) == 1:
        table_report(table=table, result=Result(winner=left[0].entry_id), by=by, via="penalty")
        params = {"penalty": _penalty_name(given), "player": left[0].entry.player.name}
        entered = Note(WINS_THE_POD, params)
    else:
        entered = Note(LAST_IN_THE_POD, {"penalty": _penalty_name(given)})
    row.result_entered = entered.data()
    row.save(update_fields=["result_entered"])
    return entered
