"""1v1 Swiss matches: Magic or chess points, a bye as a table of one, a bracket top cut.

Pairs with `domain.pairing`, edits with `domain.edits`, cuts with `domain.topcut`; a result
is one of the card's buttons (RESULTS), a winner or a draw with optional game wins.
"""

from ..actions import Action
from ..domain import topcut
from ..domain.edits import give_bye, pair_by_hand, pairing_from_manual, swap_players
from ..domain.pairing import PairingError, pair_round
from ..domain.standings import ONE_THIRD
from ..errors import TournamentError
from .base import EditPlan, Format

# A 1v1 card's buttons: (winning seat or None, game wins by seat or None).
RESULTS = {
    "2-0": (1, (2, 0)),
    "2-1": (1, (2, 1)),
    "1-1": (None, (1, 1)),
    "1-2": (2, (1, 2)),
    "0-2": (2, (0, 2)),
    "draw": (None, None),
}


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
        (False, False): Action.MATCH_REPORT,
        (True, False): Action.MATCH_CORRECT,
        (True, True): Action.MATCH_UNDO,
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
