"""1v1 Swiss matches: Magic or chess points, a bye as a table of one, a bracket top cut.

Pairs with `domain.pairing`, edits with `domain.edits`, cuts with `domain.topcut`; a result
is a card's button, read by `read_code`: games won by the first seat, by the second seat and
drawn, as the MTR writes a match ("2-0-1"; "2-1" has no drawn game), "id" for an intentional
draw (MTR 2.4: reported 0-0-3), or "draw" for a drawn match whose games were not counted.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from ..actions import Action
from ..domain import topcut
from ..domain.edits import give_bye, pair_by_hand, pairing_from_manual, swap_players
from ..domain.pairing import FEWEST_PLAYERS, PairingError, pair_round
from ..domain.result import Result
from ..domain.standings import MTR_FLOOR
from ..errors import TournamentError, domain_message
from .base import EditPlan, Format, PenaltyLoss, SlipBoxes

# A 1v1 card's buttons, as (code, label, title). The first row is always shown; the second
# (drawn games, the results time leaves) folds under "More" so the card fits a 390 px phone.
RESULTS = [
    ("2-0", "2-0", ""),
    ("2-1", "2-1", ""),
    ("1-2", "1-2", ""),
    ("0-2", "0-2", ""),
    ("1-1", "1-1", gettext_lazy("A drawn match, one game each")),
    ("id", gettext_lazy("ID"), gettext_lazy("Intentional draw, reported 0-0-3 (MTR 2.4)")),
]
# Written with en dashes, as Appendix C writes a match, which also keeps them apart
# from the first row's labels when a page is searched for "2-1".
MORE_RESULTS = [
    (code, code.replace("-", "\u2013"), title)
    for code, title in [
        ("1-0", ""),
        ("2-0-1", ""),
        ("1-0-1", ""),
        ("2-1-1", ""),
        ("0-1", ""),
        ("0-2-1", ""),
        ("0-1-1", ""),
        ("1-2-1", ""),
        ("1-1-1", gettext_lazy("A drawn match: a game each and a drawn game")),
        ("0-0-1", gettext_lazy("A drawn match: one drawn game")),
    ]
]
DRAW_CODES = {"1-1", "id", "1-1-1", "0-0-1", "draw"}  # the draws among the buttons
# MTR 2.4: "Intentional draws where no games were played are always reported as 0-0-3".
ID_GAMES = (0, 0, 3)
# MTR 2.1: a match is played "until one side has won a set number of games, usually two.
# Drawn games do not count toward this goal"; up to 3 drawn games
# (MTR 2.4's intentional draw, 0-0-3).
MOST_WINS, MOST_DRAWS = 2, 3
_CODE = re.compile(r"([0-9])-([0-9])(?:-([0-9]))?")


def read_code(code: str) -> tuple[int, int, int] | None:
    """(first seat's game wins, second seat's, drawn games) from "2-0", "2-0-1" or "id";
    None for anything else, for "0-0", and past MOST_WINS game wins or MOST_DRAWS draws."""
    if code == "id":
        return ID_GAMES
    match = _CODE.fullmatch(code)
    if match is None:
        return None
    games = tuple(int(g or 0) for g in match.groups())
    if not any(games) or max(games[:2]) > MOST_WINS or games[2] > MOST_DRAWS:
        return None
    return games


class OneVOne(Format):
    """1v1 Swiss matches (Magic or chess points), byes as tables of one, a bracket cut."""

    key = "1v1"
    noun, nouns = "table", "tables"
    noun_text = pgettext_lazy("a 1v1 table of an event", "table")
    noun_title = pgettext_lazy("a 1v1 table of an event", "Table")
    template = "tournaments/formats/match.html"
    fewest_players = FEWEST_PLAYERS
    short_name = "1v1"
    finder_columns = 3  # player, table, against
    penalty_asks_games = True
    default_points = "magic"
    # The card's result buttons (templates read `event.play.results`).
    results, more_results, draw_codes = RESULTS, MORE_RESULTS, DRAW_CODES
    # MTR Appendix C: match-win and game-win percentages are floored at 0.33.
    default_mw_floor = default_gw_floor = MTR_FLOOR
    edits = [
        ("swap", gettext_lazy("Swap their seats"), True),
        ("pair", gettext_lazy("Pair them together"), True),
        ("bye", gettext_lazy("Give the bye"), False),
    ]
    report_actions = {
        (False, False): Action.MATCH_REPORT,
        (True, False): Action.MATCH_CORRECT,
        (True, True): Action.MATCH_UNDO,
    }
    bracket_errors = (topcut.TopCutError,)

    def tiebreaker_preset(self, points: str) -> str:
        return "chess" if points == "chess" else "magic"

    def bye_preset(self, points: str) -> str:
        """Magic: the MTR's bye; chess: moved up to avoid a rematch, as chess pairings do."""
        return "avoid_rematch" if points == "chess" else "mtr"

    def standing_preset(self) -> str:
        return "magic"

    def pair(self, tournament, **kwargs):
        """The matches, then the byes as tables of one; the bye by the event's rule. (The
        1v1 pairer pairs every round alike: the planned `rounds` are not its business.)"""
        kwargs.pop("rounds", None)
        pairing = pair_round(bye_pairing=tournament.bye_pairing, **kwargs)
        return [*pairing.tables, *((b,) for b in pairing.byes)], list(pairing.warnings)

    def read_result(self, data, players):
        """A 1v1 card's button: a code `read_code` reads, or "draw" (no games counted)."""
        code = str(data.get("result", ""))
        if len(players) != 2:
            raise TournamentError(
                _("A bye has no result to enter."), code="bad_result", field="result"
            )
        if code == "draw":
            return Result(draw=True)
        games = read_code(code)
        if games is None:
            raise TournamentError(
                _("Choose one of the result buttons (games won by each player, as 2-1)."),
                code="bad_result",
                field="result",
            )
        first, second, drawn = games
        (a, _name_a), (b, _name_b) = players
        winner = a if first > second else b if second > first else None
        return Result(
            winner=winner,
            draw=winner is None,
            game_wins={a: first, b: second},
            game_draws=drawn,
        )

    def penalty_loss(self, loss, *, player, opponents, games):
        """A Match Loss (or a Disqualification) enters the opponent's win 2-0; a Game Loss
        that gives the opponent their second game (`games` said) enters their win 2-N, best
        of three. Anything else leaves the match to be played on. A bye: nothing."""
        if len(opponents) != 1:
            return None
        mine, theirs = games if games is not None else (0, 0)
        if loss == "match":
            mine, theirs = 0, 2
        elif loss == "game" and games is not None:
            theirs += 1
        if theirs != MOST_WINS:
            return None
        opponent = opponents[0]
        return PenaltyLoss(result=Result(winner=opponent, game_wins={opponent: 2, player: mine}))

    def slip(self, players):
        """Each player's games won, and the drawn games: the match as the MTR writes it."""
        return SlipBoxes(
            columns=(_("Games won"),),
            tick=False,
            boxes=((_("Drawn games"), False),),
            how=_(
                "Write the games each player won and the drawn games (an intentional draw: "
                "0, 0 and 3 drawn)."
            ),
        )

    def check_result(self, entries, result, *, top_cut, lost=frozenset()):
        """A match's winner (None: a draw) and places, checked against the game wins and
        drawn games (counted only with every player's game wins). A penalty's loss at a match
        enters its result when given (judging.services.penalties): `lost` is not read."""
        winner, draw, wins = result.winner, result.draw, result.wins_of
        game_draws = result.game_draws
        if isinstance(game_draws, bool) or not isinstance(game_draws, int):
            raise TournamentError(
                _("Drawn games are a whole number."), code="game_draws", field="game_draws"
            )
        if not 0 <= game_draws <= MOST_DRAWS:
            raise TournamentError(
                _("Drawn games are 0 to %(most)s.") % {"most": MOST_DRAWS},
                code="game_draws",
                field="game_draws",
            )
        if game_draws and not wins:
            raise TournamentError(
                _(
                    "Give every player's game wins with the drawn games (an intentional draw "
                    "is 0-0-3)."
                ),
                code="game_draws",
                field="game_draws",
            )
        if result.places:
            raise TournamentError(
                _("Places are for pods; a match has a winner or a draw."),
                code="places",
                field="places",
            )
        if draw and top_cut:
            raise TournamentError(
                _("A top-cut match needs a winner."), code="top_cut_draw", field="winner"
            )
        if draw == (winner is not None):
            raise TournamentError(
                _("Choose a winner, or a draw."), code="no_result", field="winner"
            )
        if wins:
            if (
                set(wins) != set(entries)
                or not all(isinstance(w, int) and not isinstance(w, bool) for w in wins.values())
                or any(w < 0 for w in wins.values())
            ):
                raise TournamentError(
                    _("Give every player's game wins."), code="game_wins", field="game_wins"
                )
            best = max(wins.values())
            leaders = [e for e, w in wins.items() if w == best]
            if draw and len(set(wins.values())) != 1:
                raise TournamentError(
                    _("A draw needs equal game wins."), code="game_wins", field="game_wins"
                )
            if winner is not None and leaders != [winner]:
                raise TournamentError(
                    _("The winner must have won the most games."),
                    code="game_wins",
                    field="game_wins",
                )
        return winner, {e: 1 if draw or e == winner else 2 for e in entries}

    def same_result(self, table, seats, result, *, winner_id, finish):
        wins = result.wins_of
        return (
            table.reported
            and table.is_draw == result.draw
            and table.winner_id == winner_id
            and all(seats[e].game_wins == wins.get(e) for e in seats)
            and table.game_draws == result.game_draws
        )

    def undo_result(self, before, seats):
        wins = {line["entry_id"]: line["game_wins"] for line in before["seats"]}
        counted = all(w is not None for w in wins.values())
        return Result(
            winner=None if before["draw"] else before["winner_entry"],
            draw=before["draw"],
            game_wins=wins if counted else {},
            # Logged before drawn games were kept: none.
            game_draws=before.get("game_draws", 0) if counted else 0,
        )

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
                    raise TournamentError(
                        _("%(player)s already has the bye.") % {"player": a.player},
                        code="has_bye",
                    )
                new_pairs, new_byes = give_bye(pairs, byes, a.player_id)
            past = read_past(None)
            pairing = pairing_from_manual(
                new_pairs,
                new_byes,
                players=[p for seats in before.values() for p in seats],
                history=past,
                points=read_points(past),
                name=lambda p: str(entries[p].player),
            )
        except PairingError as error:
            raise TournamentError(domain_message(error), code="invalid_manual") from None
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
