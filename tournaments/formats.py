"""The formats an event can be played in, one strategy object each, chosen once per event.

`format_for(tournament)` (after Tabbycat's `DrawManager`) gives the event's `Format`: 1v1
matches (`OneVOne`) or Commander pods (`Pods`). The services, selectors, views and templates
ask it what differs between formats: how a round is paired, how a result is read from the
console and checked, what a table is called and which template partial shows it, which
manual pairing edits exist and what they do, and how the top cut is built and advanced. It
holds no state and reads no database: the services hand it plain values and write what it
returns. A third format is one more subclass, registered in `FORMATS`, plus its partials in
`templates/tournaments/formats/<its name>.html`.
"""

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

from leagues.domain.ranking import is_valid_ranking
from leagues.models import AuditEntry

from .domain import podcut, topcut
from .domain.edits import give_bye, pair_by_hand, pairing_from_manual, swap_players
from .domain.history import read_history
from .domain.pairing import PairingError, pair_round
from .domain.pods import PodPairingError, pair_pods
from .domain.standings import ONE_THIRD, POD_OMW_FLOOR
from .errors import TournamentError

# The manual edits of a round being played: what each is written as on the round.
EDITS = {
    "swap": "swapped {a} and {b}",
    "pair": "paired {a} against {b}",
    "bye": "gave the bye to {a}",
}


# A 1v1 card's buttons: (winning seat or None, game wins by seat or None).
RESULTS = {
    "2-0": (1, (2, 0)),
    "2-1": (1, (2, 1)),
    "1-1": (None, (1, 1)),
    "1-2": (2, (1, 2)),
    "0-2": (2, (0, 2)),
    "draw": (None, None),
}


@dataclass(frozen=True)
class EditPlan:
    """A manual edit as the format computes it: which tables (by id) are replaced by which
    numbered seatings [(number, (player, ...))], and what the TO is warned of."""

    changed: list[int]
    seatings: list[tuple[int, tuple[int, ...]]]
    warnings: list[str] = field(default_factory=list)


class Format:
    """What every format answers. Players are player ids; `entries` map a player id to an
    object with a `.player` (its name when formatted); `seats` are rows with `.entry`,
    `.entry_id`, `.position`, `.place` and `.game_wins`."""

    key: str
    noun: str  # what one table is called: "table", "pod"
    nouns: str
    # The format's template partials (card, pairings, finder, player-rounds, projector-seat,
    # bracket-help, empty-slots, cut-plan): pages include `{{ event.play.template }}#card`.
    template: str
    bracket_class = ""  # a CSS class more on the bracket and on each of its matches
    stage_class = ""
    fewest_players: int
    default_points: str  # a POINT_PRESETS name
    default_omw_floor: Fraction
    top_cuts: tuple[int, ...] | None = None  # the cuts allowed; None: any power of two
    top_cut_problem = ""
    # The console's "Change the pairings" forms: (edit, button, needs a second player).
    edits: list[tuple[str, str, bool]]
    edit_help = ""  # a sentence more under the edit forms
    report_actions: dict[tuple[bool, bool], str]  # (a correction?, an undo?) -> log action
    shows_seats = False  # whether the turn order matters (player pages show the seat)
    suggests_cut = False  # whether pages show the rounds and cut suggested for the field

    @property
    def noun_title(self) -> str:
        """The noun capitalised, to start a sentence."""
        return self.noun.capitalize()

    # --- creating the event --------------------------------------------------------------

    def tiebreaker_preset(self, points: str) -> str:
        """The tiebreaker preset a new event gets when none is chosen."""
        raise NotImplementedError

    def standing_preset(self) -> str:
        """The preset read when an event has no tiebreakers stored."""
        raise NotImplementedError

    def check_top_cut(self, top_cut: int) -> None:
        if self.top_cuts is not None and top_cut not in self.top_cuts:
            raise TournamentError(self.top_cut_problem, code="top_cut", field="top_cut")

    def suggested_structure(self, players: int) -> tuple[int, int | None]:
        """Swiss rounds and top cut that suit a field: ⌈log₂ N⌉ rounds and no cut suggested."""
        return max(1, math.ceil(math.log2(max(players, 2)))), None

    # --- pairing -------------------------------------------------------------------------

    def pair(self, tournament, **kwargs) -> tuple[list[tuple[int, ...]], list[str]]:
        """The round's tables in order, each a tuple of players in seat order (byes last, as
        tables of one), and the warnings to write on the round."""
        raise NotImplementedError

    def seating_warnings(self, past, seatings, entries) -> list[str]:
        """What a TO should know about the seatings just made [(number, players)]."""
        return []

    # --- results -------------------------------------------------------------------------

    def read_result(self, data, seats) -> tuple[dict | None, str]:
        """The console's posted tap as `table_report`'s arguments, or a message."""
        raise NotImplementedError

    def check_result(
        self, entries, *, winner, draw: bool, wins: dict, places, top_cut: bool
    ) -> tuple[int | None, dict[int, int]]:
        """The winner's entry id (None: a draw) and every entry's place; TournamentError when
        the result cannot be."""
        raise NotImplementedError

    def same_result(self, table, seats, *, winner_id, draw, wins, places, finish) -> bool:
        """Whether the stored result already is this one (a repeat changes nothing)."""
        raise NotImplementedError

    def undo_result(self, before: dict, seats) -> dict:
        """`table_report`'s arguments putting back a logged result (`table_snapshot`)."""
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
                    f"{self.noun_title} {table.number} already has a result: correct it first.",
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


class OneVOne(Format):
    """1v1 Swiss matches (Magic or chess points), byes as tables of one, a bracket cut."""

    key = "1v1"
    noun, nouns = "table", "tables"
    template = "tournaments/formats/match.html"
    fewest_players = 2
    default_points = "magic"
    default_omw_floor = ONE_THIRD  # MTR
    edits = [
        ("swap", "Swap their seats", True),
        ("pair", "Pair them together", True),
        ("bye", "Give the bye", False),
    ]
    report_actions = {
        (False, False): AuditEntry.Action.MATCH_REPORT,
        (True, False): AuditEntry.Action.MATCH_CORRECT,
        (True, True): AuditEntry.Action.MATCH_UNDO,
    }
    bracket_errors = (topcut.TopCutError,)

    def tiebreaker_preset(self, points: str) -> str:
        return "chess" if points == "chess" else "magic"

    def standing_preset(self) -> str:
        return "magic"

    def pair(self, tournament, **kwargs):
        """The matches, then the byes as tables of one."""
        pairing = pair_round(**kwargs)
        return [*pairing.tables, *((b,) for b in pairing.byes)], list(pairing.warnings)

    def read_result(self, data, seats):
        """A 1v1 card's button (one of RESULTS)."""
        code = data.get("result", "")
        if code not in RESULTS or len(seats) != 2:
            return None, "Choose one of the result buttons."
        winning_seat, games = RESULTS[code]
        return {
            "winner": seats[winning_seat - 1].entry if winning_seat else None,
            "draw": winning_seat is None,
            "game_wins": {s.entry_id: g for s, g in zip(seats, games, strict=True)}
            if games
            else None,
        }, ""

    def check_result(self, entries, *, winner, draw, wins, places, top_cut):
        """A match's winner (None: a draw) and places, checked against the game wins."""
        if places:
            raise TournamentError(
                "Places are for pods; a match has a winner or a draw.",
                code="places",
                field="places",
            )
        if draw and top_cut:
            raise TournamentError(
                "A top-cut match needs a winner.", code="top_cut_draw", field="winner"
            )
        if draw == (winner is not None):
            raise TournamentError("Choose a winner, or a draw.", code="no_result", field="winner")
        if wins:
            if set(wins) != set(entries) or any(w < 0 for w in wins.values()):
                raise TournamentError(
                    "Give every player's game wins.", code="game_wins", field="game_wins"
                )
            best = max(wins.values())
            leaders = [e for e, w in wins.items() if w == best]
            if draw and len(set(wins.values())) != 1:
                raise TournamentError(
                    "A draw needs equal game wins.", code="game_wins", field="game_wins"
                )
            if winner is not None and leaders != [winner.pk]:
                raise TournamentError(
                    "The winner must have won the most games.", code="game_wins", field="game_wins"
                )
        winner_id = winner.pk if winner is not None else None
        return winner_id, {e: 1 if draw or e == winner_id else 2 for e in entries}

    def same_result(self, table, seats, *, winner_id, draw, wins, places, finish):
        return (
            table.reported
            and table.is_draw == draw
            and table.winner_id == winner_id
            and all(seats[e].game_wins == wins.get(e) for e in seats)
        )

    def undo_result(self, before, seats):
        result: dict = {}
        if before["draw"]:
            result["draw"] = True
        else:
            result["winner"] = seats[before["winner_entry"]].entry
        wins = {line["entry_id"]: line["game_wins"] for line in before["seats"]}
        if all(w is not None for w in wins.values()):
            result["game_wins"] = wins
        return result

    def plan_edit(self, *, tables, before, edit, a, b, number, entries, read_past, read_points):
        """Through the pairing module's checked manual edits; the changed tables' numbers
        are used again first, matches before byes."""
        pairs = [seats for seats in before.values() if len(seats) == 2]
        byes = [seats[0] for seats in before.values() if len(seats) == 1]
        try:
            if edit == "swap":
                new_pairs, new_byes = swap_players(pairs, a.player_id, b.player_id, byes=byes)
            elif edit == "pair":
                new_pairs, new_byes = pair_by_hand(pairs, byes, a.player_id, b.player_id)
            else:
                if a.player_id in byes:
                    raise TournamentError(f"{a.player} already has the bye.", code="has_bye")
                new_pairs, new_byes = give_bye(pairs, byes, a.player_id)
            past = read_past(None)
            pairing = pairing_from_manual(
                new_pairs,
                new_byes,
                players=[p for seats in before.values() for p in seats],
                history=past,
                points=read_points(past),
            )
        except PairingError as error:
            raise TournamentError(str(error), code="invalid_manual") from None
        wanted = [tuple(t) for t in new_pairs] + [(p,) for p in new_byes]
        unchanged = set(before.values()) & set(wanted)
        changed = [t for t in tables if before[t.pk] not in unchanged]
        self._check_unreported(changed, before)
        new = [seats for seats in wanted if seats not in unchanged]
        numbers = sorted(t.number for t in changed)
        top = max((t.number for t in tables), default=0)
        numbers += range(top + 1, top + 1 + len(new) - len(numbers))
        # Tables first, byes last, as the pairing numbers them.
        seatings = list(zip(numbers, sorted(new, key=len, reverse=True), strict=True))
        return EditPlan([t.pk for t in changed], seatings, list(pairing.warnings))

    def bracket_create(self, seeds, size):
        return topcut.create_bracket(seeds, size)

    def bracket_advance(self, bracket, winners):
        return topcut.advance(bracket, winners)

    def bracket_label(self, bracket, index):
        """ "Quarterfinals", "Semifinals", "Final"."""
        return bracket.round_label(index)

    def bracket_stages(self, top_cut):
        # matches per round: 4, 2, 1 for a top 8
        return [top_cut >> (i + 1) for i in range(top_cut.bit_length() - 1)]


class Pods(Format):
    """Commander / cEDH pods of 3-5 in seat order (`domain.pods`), a result as a winner, a
    draw or a full finishing order, and a cut of pods (`domain.podcut`)."""

    key = "pods"
    noun, nouns = "pod", "pods"
    template = "tournaments/formats/pod.html"
    bracket_class, stage_class = " pods", " pod-stage"
    fewest_players = 3
    # A pod win must be worth more than a four-way draw (4 x 1): with 3/1/0 drawing out is
    # the better deal, so cEDH events score 5/1/0.
    default_points = "cedh"
    default_omw_floor = POD_OMW_FLOOR  # par at a pod of four
    top_cuts = (0, 4, 16)  # one final pod of 4, or four semi-final pods and a final pod
    top_cut_problem = (
        "A pod event cuts to the top 4 (one final pod) or the top 16 (four semi-final "
        "pods, then a final pod)."
    )
    edits = [
        ("swap", "Swap their seats", True),  # between pods, inside a pod, or with a bye
        ("bye", "Give the bye (leaves a pod of 4 or 5)", False),
    ]
    edit_help = (
        " A swap puts each player in the other's seat; the bye takes a player out of a pod of "
        "4 or 5."
    )
    report_actions = {
        (False, False): AuditEntry.Action.POD_REPORT,
        (True, False): AuditEntry.Action.POD_CORRECT,
        (True, True): AuditEntry.Action.POD_UNDO,
    }
    shows_seats = True
    suggests_cut = True
    bracket_errors = (podcut.PodCutError,)

    def tiebreaker_preset(self, points: str) -> str:
        return "pods"

    def standing_preset(self) -> str:
        return "pods"

    def suggested_structure(self, players):
        """`podcut.suggested_structure` (the cut: 0, 4 or 16)."""
        try:
            return podcut.suggested_structure(players)
        except podcut.PodCutError:  # fewer than 3 players: no pod yet
            return super().suggested_structure(players)

    def pair(self, tournament, **kwargs):
        """Strongest pod first, each in seat order, then the byes as tables of one."""
        try:
            pairing = pair_pods(
                **kwargs,
                layout=tournament.pod_layout,
                win_points=float(tournament.points_win),
                draw_points=float(tournament.points_draw),
            )
        except PodPairingError as error:
            raise TournamentError(str(error), code=error.code) from None
        return [*pairing.pods, *((b,) for b in pairing.byes)], list(pairing.warnings)

    def seating_warnings(self, past, seatings, entries):
        """A warning for each pod that seats players who met before and for each player
        given a second bye: which pods, and who, is what a TO needs to check or swap."""
        seen = read_history(past)
        warnings = []
        for number, players in seatings:
            if len(players) == 1:
                if seen.byes[players[0]]:
                    warnings.append(f"{entries[players[0]].player} has had a bye before.")
                continue
            again = [
                f"{entries[x].player} and {entries[y].player}"
                for i, x in enumerate(players)
                for y in players[i + 1 :]
                if seen.met.get(x, {}).get(y)
            ]
            if again:
                warnings.append(f"Pod {number} seats players who met before: {'; '.join(again)}.")
        return warnings

    def read_result(self, data, seats):
        """A pod card's tap: a winner's name, Draw, or the full order."""
        by_entry = {str(s.entry_id): s.entry for s in seats}
        if "winner" in data:
            winner = by_entry.get(data["winner"])
            if winner is None:
                return None, "Tap the name of a player at this pod."
            return {"winner": winner}, ""
        code = data.get("result", "")
        if code == "draw":
            return {"draw": True}, ""
        if code == "order":
            places = {}
            for seat in seats:
                place = small_int(data.get(f"place-{seat.entry_id}", ""))
                if place is None:
                    return None, f"Choose a place for {seat.entry.player}."
                places[seat.entry_id] = place
            return {"places": places}, ""
        return None, "Tap the winner's name, Draw, or save the full order."

    def check_result(self, entries, *, winner, draw, wins, places, top_cut):
        """A pod's winner (None: a draw) and every seat's place.

        A winner alone: the others share second. A draw: everyone shares first. A full order:
        a place per seat forming a competition ranking (1, 2, 2, 4); its single first place is
        the winner, a shared first place a draw. A winner or draw given with it must agree.
        """
        winner_id, finish = self._places(entries, winner=winner, draw=draw, places=places)
        if wins:
            raise TournamentError(
                "A pod has no game wins: give the winner, a draw or the places.",
                code="game_wins",
                field="game_wins",
            )
        return winner_id, finish

    def _places(self, entries, *, winner, draw, places):
        if not places:
            if draw == (winner is not None):
                raise TournamentError(
                    "Tap the winner, or Draw, or give every place.",
                    code="no_result",
                    field="winner",
                )
            if draw:
                return None, dict.fromkeys(entries, 1)
            return winner.pk, {e: 1 if e == winner.pk else 2 for e in entries}
        given = dict(places)
        if set(given) != set(entries):
            raise TournamentError(
                "Give every player at the pod a place.", code="places", field="places"
            )
        values = list(given.values())
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in values) or not (
            is_valid_ranking(values)
        ):
            raise TournamentError(
                "The places must be a finishing order: 1, 2, 3, 4, with shared places as "
                "1, 2, 2, 4.",
                code="places",
                field="places",
            )
        first = [e for e, p in given.items() if p == 1]
        winner_id = first[0] if len(first) == 1 else None
        if draw and winner_id is not None:
            raise TournamentError(
                "A draw needs a shared first place.", code="places", field="places"
            )
        if winner is not None and winner.pk != winner_id:
            raise TournamentError(
                f"{winner.player} must be the only player in first place.",
                code="places",
                field="winner",
            )
        return winner_id, given

    def same_result(self, table, seats, *, winner_id, draw, wins, places, finish):
        """A winner or a draw that agrees with the stored result is the same, keeping its
        full order; a full order must match seat by seat."""
        same = table.reported and table.winner_id == winner_id and table.is_draw == (not winner_id)
        if places:
            same = same and all(seats[e].place == finish[e] for e in seats)
        return same

    def undo_result(self, before, seats):
        return {"places": {line["entry_id"]: line["place"] for line in before["seats"]}}

    def check_edit(self, edit):
        if edit == "pair":
            raise TournamentError(
                "Pairing two players by hand is for 1v1 matches: swap players between pods "
                "instead.",
                code="format",
            )

    def plan_edit(self, *, tables, before, edit, a, b, number, entries, read_past, read_points):
        """A swap exchanges two players' seats (between pods, within a pod, or with a bye);
        the bye takes a player out of a pod of four or five. The changed pods keep their
        numbers and a new bye comes last. Warned of: each changed pod that seats players
        who met before and each player given a second bye."""
        after = {pk: list(players) for pk, players in before.items()}
        where = {p: pk for pk, players in before.items() for p in players}
        byes: list[tuple[int, ...]] = []
        if edit == "swap":
            at_a, at_b = where[a.player_id], where[b.player_id]
            i, j = after[at_a].index(a.player_id), after[at_b].index(b.player_id)
            after[at_a][i], after[at_b][j] = b.player_id, a.player_id
        else:
            table = next(t for t in tables if t.pk == where[a.player_id])
            size = len(before[table.pk])
            if size == 1:
                raise TournamentError(f"{a.player} already has the bye.", code="has_bye")
            if size <= 3:
                raise TournamentError(
                    f"Pod {table.number} would be left with {size - 1} players: swap "
                    f"{a.player} with a player who has a bye instead.",
                    code="pod_too_small",
                )
            after[table.pk].remove(a.player_id)
            byes.append((a.player_id,))
        changed = [t for t in tables if tuple(after[t.pk]) != before[t.pk]]
        self._check_unreported(changed, before)
        top = max((t.number for t in tables), default=0)
        seatings = [(t.number, tuple(after[t.pk])) for t in changed]
        seatings += [(top + n, bye) for n, bye in enumerate(byes, 1)]
        warnings = self.seating_warnings(read_past(number), seatings, entries)
        return EditPlan([t.pk for t in changed], seatings, warnings)

    def bracket_create(self, seeds, size):
        return podcut.create_pod_bracket(seeds, size)

    def bracket_advance(self, bracket, winners):
        """Each pod's winner goes on; None (a draw) advances the pod's best seed."""
        return podcut.advance_pods(bracket, winners)

    def bracket_label(self, bracket, index):
        """ "Semi-finals" and "Final"."""
        return bracket.stage_label(index)

    def bracket_stages(self, top_cut):
        # pods per stage: four semi-final pods, then the final pod
        return [4, 1] if top_cut == 16 else [1]


def small_int(raw: str) -> int | None:
    """A posted id or place: ASCII digits only ("²".isdigit() is true, and int() refuses
    it), short enough for the database's integers."""
    return int(raw) if re.fullmatch(r"[0-9]{1,9}", raw) else None


FORMATS: dict[str, Format] = {f.key: f for f in (OneVOne(), Pods())}


def format_for(tournament) -> Format:
    """The strategy of `tournament`'s format (one shared instance per format)."""
    return FORMATS[tournament.format]
