"""What every format answers, and the pieces the formats share.

`Format` is the strategy the services, selectors, views and templates ask about an event's
format (after Tabbycat's `DrawManager`): how a round is paired, how a posted result (the
console's or a player's) is read into one `Result` and checked, what a table is called and
which template partials show it, which manual pairing edits exist and what they do, and how
the top cut is built and advanced. A format holds no state and reads no database: the
services hand it plain values and write what it returns (an `EditPlan` for a manual edit).
"""

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext, gettext_lazy, pgettext

from ..domain.result import Result
from ..domain.texts import N_
from ..errors import TournamentError

# The manual edits of a round being played: what each is, in the History's English summary.
EDITS = {
    "swap": "swapped {a} and {b}",
    "pair": "paired {a} against {b}",
    "bye": "gave the bye to {a}",
}
# Each as the round's notes keep it (`Note`s, written in the reader's language): when (the
# event's clock, HH:MM) and who (the TO's user name, or "a TO").
EDIT_NOTES = {
    # Translators: a line of a round's notes: the time (14:05), who (a user name or "a TO").
    "swap": N_("%(time)s %(who)s swapped %(a)s and %(b)s."),
    # Translators: a line of a round's notes: the time (14:05), who (a user name or "a TO").
    "pair": N_("%(time)s %(who)s paired %(a)s against %(b)s."),
    # Translators: a line of a round's notes: the time (14:05), who (a user name or "a TO").
    "bye": N_("%(time)s %(who)s gave the bye to %(a)s."),
}
# Translators: who edited a round's pairings when the site knows no user name.
SOMEONE = N_("a TO")
# Each as the TO who made it is told.
EDIT_DONE = {
    "swap": gettext_lazy("Swapped %(a)s and %(b)s."),
    "pair": gettext_lazy("Paired %(a)s against %(b)s."),
    "bye": gettext_lazy("Gave the bye to %(a)s."),
}


@dataclass(frozen=True)
class EditPlan:
    """A manual edit as the format computes it: which tables (by id) are replaced by which
    numbered seatings [(number, (player, ...))], and what the TO is warned of (`Note`s, kept
    on the round and written in the reader's language: `errors.note_text`)."""

    changed: list[int]
    seatings: list[tuple[int, tuple[int, ...]]]
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PenaltyLoss:
    """What a judge's Game Loss or Match Loss (a Disqualification too) does to a table still
    played without a result, as the format counts it: the result it enters now (`result`),
    or the player is out of the table's game (`out`: the table's result places them last)."""

    result: Result | None = None
    out: bool = False


@dataclass(frozen=True)
class SlipBoxes:
    """What a printed result slip asks of one table's players, as the format reads a result:
    a box per player under each of `columns` (`tick`: a box to tick, else one to write a
    number in), the table's own boxes [(label, tick)], and one line on filling it in."""

    columns: tuple[str, ...]
    tick: bool
    boxes: tuple[tuple[str, bool], ...]
    how: str


class Format:
    """What every format answers. Players are player ids; `entries` map a player id to an
    object with a `.player` (its name when formatted); `seats` are rows with `.entry`,
    `.entry_id`, `.position`, `.place` and `.game_wins`."""

    key: str
    noun: str  # what one table is called: "table", "pod"
    nouns: str
    # The format's template partials (card, report-form, pairings, finder, player-rounds,
    # projector-seat, bracket-help, empty-slots, cut-plan): pages include
    # `{{ event.play.template }}#card`.
    template: str
    bracket_class = ""  # a CSS class more on the bracket and on each of its matches
    page_class = ""  # a CSS class more on a page about one table (the player's own)
    stage_class = ""
    fewest_players: int
    default_points: str  # a POINT_PRESETS name
    # The floors of match-win % (read by OMW%) and game-win % (GW%, OGW%) when the event
    # sets none (Tournament.omw_floor, gw_floor).
    default_mw_floor: Fraction
    default_gw_floor: Fraction
    top_cuts: tuple[int, ...] | None = None  # the cuts allowed; None: any power of two
    top_cut_problem = ""
    # The console's "Change the pairings" forms: (edit, button, needs a second player).
    edits: list[tuple[str, str, bool]]
    edit_help = ""  # a sentence more under the edit forms
    report_actions: dict[tuple[bool, bool], str]  # (a correction?, an undo?) -> log action
    shows_seats = False  # whether the turn order matters (player pages show the seat)
    short_name: str  # the format in a few letters, as a demo event's name says it: "1v1"
    finder_columns: int  # the columns of the "Find my seat" table (its `#finder` partial)
    commander_decks = False  # decks named by their commanders when no decklist format is set
    has_order_form = False  # whether a result can be a full finishing order (`#order-form`)
    # Whether a judge's penalty asks the games won so far (a Game Loss can decide a match),
    # and whether it takes the player out of the table's game (`lost` of `check_result`).
    penalty_asks_games = False
    penalty_loses_game = False
    suggests_cut = False  # whether pages show the rounds and cut suggested for the field

    def table_sentence(self, table: str, pod: str) -> str:
        """Of two translated sentences, the one about this format's tables (a 1v1 table or
        a pod): the noun's gender and case differ by language, so each is written whole."""
        return pod if self.key == "pods" else table

    def table_name(self, number: int) -> str:
        """ "Table 4", "Pod 4": one of this format's tables as a page names it, in the
        reader's language (each written whole; templates: the `table_name` filter)."""
        return self.table_sentence(gettext("Table %(number)s"), gettext("Pod %(number)s")) % {
            "number": number
        }

    # The noun as a page shows it, in the reader's language ("Tisch 3", "Pod 3"): `noun` and
    # `nouns` stay the English words the code compares; a sentence about a table or a pod is
    # written whole (`table_sentence`).
    noun_text: str
    noun_title: str

    # --- creating the event --------------------------------------------------------------

    def tiebreaker_preset(self, points: str) -> str:
        """The tiebreaker preset a new event gets when none is chosen."""
        raise NotImplementedError

    def bye_preset(self, points: str) -> str:
        """Who gets a bye in a new event (Tournament.ByePairing) when none is chosen."""
        return "mtr"

    def standing_preset(self) -> str:
        """The preset read when an event has no tiebreakers stored."""
        raise NotImplementedError

    def check_top_cut(self, top_cut: int) -> None:
        if self.top_cuts is not None and top_cut not in self.top_cuts:
            raise TournamentError(str(self.top_cut_problem), code="top_cut", field="top_cut")

    def suggested_structure(self, players: int) -> tuple[int, int | None]:
        """Swiss rounds and top cut that suit a field: ⌈log₂ N⌉ rounds and no cut suggested."""
        return max(1, math.ceil(math.log2(max(players, 2)))), None

    # --- pairing -------------------------------------------------------------------------

    def pair(self, tournament, **kwargs) -> tuple[list[tuple[int, ...]], list[str]]:
        """The round's tables in order, each a tuple of players in seat order (byes last, as
        tables of one), and the warnings to write on the round (`domain.texts.Note`s: the round
        keeps them and each reader reads them in their language). `kwargs`: the players, their
        history, ranking and points, the seed, the round's number, the event's planned Swiss
        rounds (`rounds`), the first round's mode and ratings."""
        raise NotImplementedError

    def seating_warnings(self, past, seatings, entries) -> list[str]:
        """What a TO should know about the seatings just made [(number, players)]."""
        return []

    # --- results -------------------------------------------------------------------------

    def read_result(self, data: Mapping, players: Sequence[tuple[int, str]]) -> Result:
        """A posted form (the console's card or a player's report, the same fields) read once
        into a `Result`. `players` are (entry id, name) in seat order. Bad input raises a
        TournamentError saying which field (`field`) and why; nothing is written."""
        raise NotImplementedError

    def check_result(
        self, entries, result: Result, *, top_cut: bool, lost: frozenset[int] = frozenset()
    ) -> tuple[int | None, dict[int, int]]:
        """The winner's entry id (None: a draw) and every entry's place; TournamentError when
        `result` cannot be the result of the table whose seats are `entries` (entry id ->
        seat). `lost`: entries who lost the table's game by a judge's penalty."""
        raise NotImplementedError

    def same_result(self, table, seats, result: Result, *, winner_id, finish) -> bool:
        """Whether the stored result already is this one (a repeat changes nothing)."""
        raise NotImplementedError

    def undo_result(self, before: dict, seats) -> Result:
        """The logged result (`table_snapshot`) to put back."""
        raise NotImplementedError

    def penalty_loss(
        self,
        loss: str | None,
        *,
        player: int,
        opponents: Sequence[int],
        games: tuple[int, int] | None,
    ) -> PenaltyLoss | None:
        """What a penalty given to `player` at a table still played without a result does to
        it: `loss` is "match" (a Match Loss or a Disqualification), "game" (a Game Loss) or
        None (no loss); `opponents` the table's other players; `games` the games won so far
        (the player's, the opponent's) when the judge says them. None: nothing now."""
        return None

    def slip(self, players: int) -> SlipBoxes:
        """The result boxes of the paper slip of a table of `players` (the paper pack)."""
        raise NotImplementedError

    # --- manual edits --------------------------------------------------------------------

    def check_edit(self, edit: str) -> None:
        """Refuse an edit that this format does not have."""

    def plan_edit(
        self, *, tables, before, edit, a, b, number, entries, read_past, read_points
    ) -> EditPlan:
        """The edit of round `number`, being played. `tables` are its tables (with `.pk`,
        `.number`, `.reported`), `before` maps a table id to its players in seat order, `a`
        and `b` are entries; `read_past(before_round)` gives the Swiss history (of every
        round when None) and `read_points(past)` the standings' points from it."""
        raise NotImplementedError

    def _check_unreported(self, changed, before) -> None:
        for table in changed:
            if table.reported and len(before[table.pk]) > 1:
                raise TournamentError(
                    self.table_sentence(
                        pgettext(
                            "a 1v1 table",
                            "Table %(number)s already has a result: correct it first.",
                        ),
                        pgettext("a pod", "Pod %(number)s already has a result: correct it first."),
                    )
                    % {"number": table.number},
                    code="reported",
                )

    # --- top cut -------------------------------------------------------------------------

    bracket_errors: tuple[type[Exception], ...] = ()

    def bracket_create(self, seeds: list[int], size: int):
        raise NotImplementedError

    def bracket_advance(self, bracket, winners: list[int | None]):
        raise NotImplementedError

    def bracket_label(self, bracket, index: int) -> str:
        raise NotImplementedError

    def bracket_stages(self, top_cut: int) -> list[int]:
        """How many matches or pods each stage of the cut plays."""
        raise NotImplementedError

    def cut_seating(self, tables: list[tuple], *, rule: str, draw: str) -> list[tuple]:
        """A cut stage's tables (players in seed order) in seat order under the event's
        `cut_seats` rule; `draw` names the stage for a random draw. As given by default (1v1:
        the better seed first, as the bracket gives)."""
        return tables


def small_int(raw: str) -> int | None:
    """A posted id or place: ASCII digits only ("²".isdigit() is true, and int() refuses
    it), short enough for the database's integers."""
    return int(raw) if re.fullmatch(r"[0-9]{1,9}", raw) else None
