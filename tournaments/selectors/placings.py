"""Where each player finished, or stands now: the reads behind the winner banner, each
player's "3rd of 17" and the final standings' place column.

Once the event is finished, `event_placings` gives the final placings
(`domain.placings.final_placings`: the top cut's bands, then everyone else by Swiss
standing). During the event it gives the Swiss standings after the last complete Swiss
round ("7th of 17 after round 2"): a round being played does not move anyone until it ends,
so a player's place does not jump with each table reported. During the top cut that is the
final Swiss standing. Before the first round ends there is no place.
"""

import logging
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ..domain.labels import place_label
from ..domain.placings import Placing, PlacingError, final_placings
from ..models import Round, Seat, Tournament
from .decks import shown_decks
from .standings import completed_history, standings
from .topcut import top_cut_bracket

logger = logging.getLogger(__name__)


def _place(placing: Placing) -> str:
    """The placing's label in the reader's language ("3rd", a band of two; in German "3.")."""
    if placing.shared:
        return f"{place_label(placing.first, _)}\u2013{place_label(placing.last, _)}"
    return place_label(placing.first, _)


@dataclass(frozen=True)
class Finish:
    """One player's place as their pages say it: "3rd of 17", "3rd\u20134th of 17", "7th of 17
    after round 2"."""

    label: str
    players: int
    final: bool
    after_round: int | None = None

    @property
    def text(self) -> str:
        values = {"place": self.label, "players": self.players, "round": self.after_round}
        if not self.final and self.after_round:
            # Translators: a player's place during an event, "7th of 17 after round 2".
            return _("%(place)s of %(players)s after round %(round)s") % values
        # Translators: a player's place, "3rd of 17" (or a shared band of places).
        return _("%(place)s of %(players)s") % values


@dataclass(frozen=True)
class EventPlacings:
    final: bool  # the event is finished: the top cut's bands, then the Swiss standing
    after_round: int | None  # during the event: the last complete Swiss round
    placings: list[Placing] = field(default_factory=list)  # best first

    @property
    def players(self) -> int:
        return len(self.placings)

    def finish(self, player_id: int) -> Finish | None:
        for placing in self.placings:
            if placing.player == player_id:
                return Finish(_place(placing), self.players, self.final, self.after_round)
        return None

    def by_player(self) -> dict[int, Placing]:
        return {p.player: p for p in self.placings}


def _swiss(rows) -> list[tuple[int, int]]:
    return [(row.player, row.rank) for row in rows]


def cut_stages(event: Tournament) -> list[list[dict[int, int]]]:
    """The top cut's complete rounds as the placings read them: each stage's tables, each
    table as player id -> place at it (the seats' places; a result stored without them: the
    winner 1, a drawn table everyone 1, the others 2). One query."""
    seats = (
        Seat.objects.filter(
            round__tournament=event,
            round__kind=Round.Kind.TOP_CUT,
            round__status=Round.Status.COMPLETE,
            table__reported=True,
        )
        .order_by("round__number", "table__number", "position")
        .values_list(
            "round__number",
            "table_id",
            "entry__player_id",
            "place",
            "table__winner__player_id",
            "table__is_draw",
        )
    )
    stages: dict[int, dict[int, dict[int, int]]] = {}
    for number, table_id, player, place, winner, is_draw in seats:
        if place is None:
            place = 1 if is_draw or winner == player else 2
        stages.setdefault(number, {}).setdefault(table_id, {})[player] = place
    return [list(stages[number].values()) for number in sorted(stages)]


def event_placings(event: Tournament) -> EventPlacings | None:
    """The final placings once the event is finished, else the Swiss standings after the
    last complete Swiss round; None before any round is complete."""
    if event.status == Tournament.Status.FINISHED:
        swiss = _swiss(standings(event).rows)
        cut = cut_stages(event) if event.top_cut else []
        try:
            return EventPlacings(True, None, final_placings(swiss, cut))
        except PlacingError:
            # A cut that does not add up (rows edited by hand): the standings page still
            # shows the Swiss standings; the placings are left out rather than made up.
            logger.exception("Event %s: no final placings", event.slug)
            return None
    rounds = completed_history(event)
    if not rounds:
        return None
    # Who has played: a late entry joining after these rounds is not yet one of the field.
    rows = standings(event, rounds, entered_by=len(rounds)).rows
    return EventPlacings(False, len(rounds), final_placings(_swiss(rows)))


@dataclass(frozen=True)
class Winner:
    """The finished event's first place: one player (with their deck when the event's decks
    are public), or several who share it (a drawn final pod, or a tie on every tiebreaker
    without a cut); `titled`: after a drawn final, who goes on as the best seed."""

    names: list[tuple[str, str]]  # (player name, deck name or "")
    titled: str = ""

    @property
    def shared(self) -> bool:
        return len(self.names) > 1


def winner_get(event: Tournament, placings: EventPlacings | None) -> Winner | None:
    """The banner's winner, once the event is finished."""
    if placings is None or not placings.final:
        return None
    firsts = [p.player for p in placings.placings if p.first == 1]
    if not firsts:
        return None
    names = dict(
        event.entries.filter(player_id__in=firsts).values_list("player_id", "player__name")
    )
    decks = shown_decks(event)
    winner = Winner([(names[p], decks.get(names[p], "")) for p in firsts])
    if winner.shared and event.top_cut and cut_stages(event):
        # A drawn final: the cut's rule (podcut, MTRA 2.1) sends its best seed on.
        champion = top_cut_bracket(event).champion
        if champion is not None:
            champion_name = event.entries.filter(player_id=champion).values_list(
                "player__name", flat=True
            )
            return Winner(winner.names, titled=champion_name.first() or "")
    return winner
