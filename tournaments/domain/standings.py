"""Standings and tiebreakers: a registry of metrics and a precedence list chosen per tournament.

`compute_standings` takes a tournament's history (rounds of tables, in chronological order),
its points scheme and a precedence list of metric names (`PRESETS["magic"]`,
`PRESETS["chess"]`, `PRESETS["pods"]` or any list of `TIEBREAKERS` keys) and returns one
`StandingRow` per entrant, best first. Players are ordered by the first metric, ties broken by
the next, and so on; players still equal on every metric share a rank (competition ranking 1,
2, 2, 4, shown as `(rank, tied)`) and are listed by player id. The result depends only on the
history: the order of the tables inside a round (and of the players in `players`) never
matters, and only the chronological metrics (`cumulative`, `opp_cumulative`) read the order of
the rounds.

Every value is computed exactly (fractions), so players whose tiebreakers are mathematically
equal really tie; `StandingRow.metrics` carries them as floats for display (percentages as
0-1 fractions). One `Context` is built per call (per-player opponents, points per round, game
records, byes, seats), so each metric is a few lines and the table is O(players x rounds).

Conventions, with the rule each follows (details next to each metric):
- A bye is a table of one player: it scores `scheme.bye`, counts as a round played for the
  player's own match-win and game-win percentages (as a 2-0 win in games). What it adds to
  the opponent-based metrics is the event's bye rule, params["bye_rule"] (`domain.byerules`,
  default "none": no opponent, MTR Appendix C and RSwiss; the pods preset's default adds
  MTRA 3.1's three phantom opponents to OMW%, the chess preset's FIDE C.07 Article 16 (2023)
  a dummy opponent to Buchholz and Sonneborn-Berger for every unplayed round, rounds not
  seated included, and counts a withdrawn opponent's missed rounds as draws). A requested
  ("half-point") bye scores
  `scheme.requested_bye_points` (a draw's), counts as a round played with no games, is not
  a bye in the W-L-D record (`StandingRow.requested_byes` counts it) and is the voluntarily
  unplayed round that FIDE 2023's cut modifiers remove first.
- Dropped players keep their rows and results; `dropped` only marks them (`dropped_after`).
  Late entries simply have fewer rounds: rounds a player was not seated count as not played,
  so their match-win percentage is over the rounds they played (MTR: "the total match points
  possible in those rounds"); under the FIDE bye rules those rounds are unplayed rounds
  (zero-point byes, `byerules.unplayed_rounds`).
- A 1v1 result entered without game wins counts as 2-0 (or 0-2) in games, a drawn one as 1-1;
  a pod without game wins counts as one game won, lost or drawn. Drawn games count as the MTR
  counts them (1 game point of 3), so an intentional draw (0-0-3) is 3 drawn games.
- Floors: match-win and game-win percentages are floored at 0.33 (MTR Appendix C says 0.33,
  not 1/3), params "omw_floor" (the match-win floor, which OMW% reads) and "gw_floor" (GW%,
  OGW%); the event sets both (`tournaments.formats`: 0.33 for 1v1, 1/4 for pods).
- Pods: every other player at the table is an opponent, so opponent averages (OMW%, OGW%)
  are per opponent (as cedh_matching's web interface computes OMW%: "Average win percentage
  of all seen opponents. Opponents seen twice count twice."), and Buchholz-style sums add
  each of them. `omw_per_round` is pairings_edh's variant: the mean over rounds of each
  table's average (its `Player.get_OMWP`). Pod events rank by
  `PRESETS["pods"]` (points, OMW%, sum of seat positions, share of wins at 4-player pods) and
  pass `params={"omw_floor": POD_OMW_FLOOR}`: a quarter of the points is par at a 4-player
  pod, and the MTR's 0.33 floor would count an opponent who won one pod in three the same as
  one who won none.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from numbers import Real

from tournaments.domain import byerules
from tournaments.domain.byerules import ByeRound, Unplayed
from tournaments.domain.history import History, Sitting, read_history
from tournaments.domain.records import PlayerId, PointsScheme, Round, Table
from tournaments.domain.texts import N_

# MTR Appendix C: "If this number is lower than 0.33, use 0.33 instead" -- 0.33, not 1/3: a
# 2-1 player whose opponents average 0.5544 (with a 0.33 floor) ranks below one at 0.5556.
MTR_FLOOR = Fraction(33, 100)
POD_OMW_FLOOR = Fraction(1, 4)  # par at a 4-player pod; pass as params["omw_floor"] for pods


class StandingsError(ValueError):
    """Results or settings that standings cannot be computed from; `code` names the problem."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _exact(value: Real | str) -> Fraction:
    """A float as the decimal it was written as (0.33 -> 33/100); ints and Fractions as they are."""
    if isinstance(value, float):
        return _exact_float(value)
    return Fraction(value)


@lru_cache(maxsize=1024)
def _exact_float(value: float) -> Fraction:
    # An event scores a handful of distinct values (3, 1, 0, 0.5...) thousands of times;
    # parsing each one's repr was a tenth of computing 256 players' standings.
    return Fraction(repr(value))


def _total(values: Sequence[Fraction]) -> Fraction:
    """The sum, exactly; whole numbers (most points schemes) added as integers first."""
    if all(value.denominator == 1 for value in values):
        return Fraction(sum(value.numerator for value in values))
    return sum(values, Fraction(0))


@dataclass(frozen=True, slots=True)
class Encounter:
    """One opponent met at one table: `points` is what the player scored at that table."""

    round: int  # 0-based index into `rounds`
    opponent: PlayerId
    points: Fraction


@dataclass(slots=True)
class PlayerRecord:
    """Everything the metrics read about one player, gathered in one pass over the rounds."""

    player: PlayerId
    points_by_round: list[Fraction]  # one per round of the event, 0 where not seated
    encounters: list[Encounter] = field(default_factory=list)  # chronological, byes excluded
    played: int = 0  # rounds seated, byes included (MTR: a bye is a round played)
    wins: int = 0  # tables won over the board (byes not included)
    pod4_wins: int = 0  # of those, the wins at tables of four players
    losses: int = 0
    draws: int = 0
    byes: int = 0  # pairing-allocated byes
    requested_byes: int = 0  # requested ("half-point") byes
    bye_rounds: list[ByeRound] = field(default_factory=list)  # both kinds, chronological
    absent_rounds: list[int] = field(default_factory=list)  # 0-based rounds not seated
    tables: list[list[PlayerId]] = field(default_factory=list)  # opponents per non-bye table
    game_wins: int = 0
    game_losses: int = 0
    game_draws: int = 0
    seats: list[int] = field(default_factory=list)  # 1-based seat at each non-bye table

    @property
    def points(self) -> Fraction:
        return _total(self.points_by_round)


class Context:
    """The precomputed history every metric reads: records per player plus cached derived values.

    The rounds are read once by `domain.history.read_history` (the pairers' reader: who sat
    where, met whom, had a bye); `Context` scores each player's sittings under the points
    scheme into a `PlayerRecord`.

    Metrics call `points`, `mwp`, `gwp` and `cumulative` for opponents again and again; each is
    computed once per player and cached, so a whole table costs O(players x rounds).
    """

    def __init__(
        self,
        *,
        players: Sequence[PlayerId],
        rounds: Sequence[Round],
        scheme: PointsScheme,
        params: Mapping | None = None,
    ):
        self.scheme = scheme
        self.params = dict(params or {})
        self.rounds_count = len(rounds)
        self.win = _exact(scheme.win)
        self.draw = _exact(scheme.draw)
        try:
            self.bye_rule = byerules.check(self.params.get("bye_rule", byerules.NONE))
        except byerules.ByeRuleError as error:
            raise StandingsError("bad_bye_rule", str(error)) from None
        if self.win <= 0:
            raise StandingsError("bad_scheme", "A win must be worth more than 0 points.")
        if len(set(players)) != len(players):
            raise StandingsError("duplicate_player", "A player is entered twice.")
        entered = frozenset(players)
        for index, round_ in enumerate(rounds):
            seated: set[PlayerId] = set()
            for table in round_:
                _check_table(index, table, seated, entered)
        # Who sat where, met whom and had which byes: the one reading the pairers use too.
        self.history: History = read_history(rounds)
        self.records: dict[PlayerId, PlayerRecord] = {
            p: self._record(p, self.history.sittings.get(p, ()), len(rounds)) for p in players
        }
        self._cache: dict[tuple[str, PlayerId], Fraction] = {}

    def _record(self, player: PlayerId, sittings: Sequence[Sitting], rounds: int) -> PlayerRecord:
        """Score one player's tables under the event's points scheme."""
        record = PlayerRecord(player, [Fraction(0)] * rounds)
        record.byes = self.history.byes[player]
        for sitting in sittings:
            table = sitting.table
            points = _exact(self.scheme.points(table, player))
            record.points_by_round[sitting.round] = points
            record.played += 1
            won, lost, drawn = _games(table, sitting.seat)
            record.game_wins += won
            record.game_losses += lost
            record.game_draws += drawn
            if sitting.is_bye:
                # Pairing-allocated byes were counted by the reader (record.byes above).
                if table.requested:
                    record.requested_byes += 1
                record.bye_rounds.append(ByeRound(sitting.round, points, table.requested))
                continue
            outcome = table.outcome(player)
            if outcome == "win":
                record.wins += 1
                if len(table.players) == 4:
                    record.pod4_wins += 1
            elif outcome == "loss":
                record.losses += 1
            else:
                record.draws += 1
            record.seats.append(sitting.seat + 1)
            record.tables.append(list(sitting.opponents))
            record.encounters.extend(
                Encounter(sitting.round, opponent, points) for opponent in sitting.opponents
            )
        seated = {sitting.round for sitting in sittings}
        record.absent_rounds = [index for index in range(rounds) if index not in seated]
        return record

    # Derived per-player values, cached: opponents' values are read once per encounter.

    def _cached(self, name: str, player: PlayerId, compute: Callable[[], Fraction]) -> Fraction:
        key = (name, player)
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def points(self, player: PlayerId) -> Fraction:
        return self._cached("points", player, lambda: self.records[player].points)

    def mwp(self, player: PlayerId) -> Fraction:
        """Match-win percentage, floored (see `match_win_percentage`)."""
        return self._cached("mwp", player, lambda: match_win_percentage(self, player))

    def gwp(self, player: PlayerId) -> Fraction:
        """Game-win percentage, floored (see `game_win_percentage`)."""
        return self._cached("gwp", player, lambda: game_win_percentage(self, player))

    def cumulative(self, player: PlayerId) -> Fraction:
        return self._cached("cumulative", player, lambda: cumulative(self, player))

    def rating(self, player: PlayerId) -> Fraction:
        """params["ratings"][player], exactly; params["default_rating"] (0) when missing."""

        def look_up() -> Fraction:
            value = (self.params.get("ratings") or {}).get(player)
            return self.param("default_rating", 0) if value is None else _exact(value)

        return self._cached("rating", player, look_up)

    def opponents(self, player: PlayerId) -> list[PlayerId]:
        """Every opponent met, once per table, chronologically (byes add none)."""
        return [e.opponent for e in self.records[player].encounters]

    def opponent_scores(self, player: PlayerId) -> list[Fraction]:
        return [self.points(opponent) for opponent in self.opponents(player)]

    # The bye rule (domain.byerules): what a bye round adds to the opponent metrics.

    def opponent_mwps(self, player: PlayerId) -> list[Fraction]:
        """Every opponent's floored MW%, then MTRA 3.1's phantom opponents for the byes (if
        the bye rule adds them)."""
        record = self.records[player]
        real = [self.mwp(opponent) for opponent in self.opponents(player)]
        return real + byerules.phantom_opponents(self.bye_rule, len(record.bye_rounds))

    def unplayed_rounds(self, player: PlayerId) -> list[ByeRound]:
        """The player's unplayed rounds under the bye rule (`byerules.unplayed_rounds`): the
        byes, and under the FIDE rules the rounds not seated as zero-point byes too."""
        record = self.records[player]
        return byerules.unplayed_rounds(
            self.bye_rule, byes=record.bye_rounds, absent=record.absent_rounds
        )

    def adjusted_points(self, player: PlayerId) -> Fraction:
        """The player's score as their opponents' tiebreakers read it (`byerules.
        opponent_score_adjustment`: FIDE C.07 16.3 under fide_2023, unplayed rounds as draws
        under fide_2009); the plain score under the other rules."""

        def adjust() -> Fraction:
            return self.points(player) + byerules.opponent_score_adjustment(
                self.bye_rule,
                byes=self.unplayed_rounds(player),
                rounds=self.rounds_count,
                draw=self.draw,
            )

        return self._cached("adjusted_points", player, adjust)

    def virtual_opponents(self, player: PlayerId) -> list[Unplayed]:
        """The dummy/virtual opponents of the player's unplayed rounds, in the order of
        `unplayed_rounds` (FIDE rules; none otherwise)."""
        return byerules.unplayed_opponents(
            self.bye_rule,
            byes=self.unplayed_rounds(player),
            points_by_round=self.records[player].points_by_round,
            win=self.win,
            draw=self.draw,
        )

    def buchholz_scores(self, player: PlayerId) -> list[Unplayed]:
        """The values Buchholz-style sums add: each opponent's adjusted score (`adjusted_points`),
        then the virtual opponents of the player's unplayed rounds. `voluntary` marks the
        requested byes (and, under the FIDE rules, the rounds not seated)."""
        real = [Unplayed(self.adjusted_points(o), False) for o in self.opponents(player)]
        return real + self.virtual_opponents(player)

    def param(self, name: str, default: Real) -> Fraction:
        return _exact(self.params.get(name, default))


def _check_table(
    index: int, table: Table, seated: set[PlayerId], entered: frozenset[PlayerId]
) -> None:
    """Refuse a table standings cannot be read from, naming the round and the player."""
    if not table.players:
        raise StandingsError("empty_table", f"Round {index + 1} has a table with nobody at it.")
    for player in table.players:
        if player not in entered:
            raise StandingsError(
                "unknown_player", f"Player {player} played in round {index + 1} unentered."
            )
        if player in seated:
            raise StandingsError(
                "seated_twice", f"Player {player} is seated twice in round {index + 1}."
            )
        seated.add(player)
    if table.winner is not None and table.winner not in table.players:
        raise StandingsError(
            "winner_not_seated",
            f"Round {index + 1}: the winner {table.winner} is not at that table.",
        )
    if table.game_wins is not None and len(table.game_wins) != len(table.players):
        raise StandingsError(
            "game_wins_mismatch",
            f"Round {index + 1}: game wins must give one number per seat.",
        )


def _games(table: Table, seat: int) -> tuple[int, int, int]:
    """(games won, lost, drawn) at a table for the player in `seat`.

    Recorded game wins are used as given (games lost = games the others won). A bye is a 2-0
    win (see `game_win_percentage`). Without game wins a 1v1 match counts as 2-0 / 0-2, a drawn
    one as 1-1 (two games, one each: the commonest drawn best-of-three that reaches time), and
    a pod (or any other table) as one game won, lost or drawn.
    """
    player = table.players[seat]
    if table.is_bye:
        return (0, 0, 0) if table.requested else (2, 0, 0)
    if table.game_wins is not None:
        won = table.game_wins[seat]
        return won, sum(table.game_wins) - won, table.game_draws
    outcome = table.outcome(player)
    if len(table.players) == 2:
        return {"win": (2, 0, 0), "loss": (0, 2, 0), "draw": (1, 1, 0)}[outcome]
    return {"win": (1, 0, 0), "loss": (0, 1, 0), "draw": (0, 0, 1)}[outcome]


def _mean(values: Sequence[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


# --- The metrics. Each one is (context, player) -> exact value, with its rule beside it. ---


def match_points(ctx: Context, player: PlayerId) -> Fraction:
    # MTR Appendix C, Match Points: "Players earn 3 match points for each match win, 0 points
    # for each match loss and 1 match point for each match ending in a draw. Players receiving
    # byes are considered to have won the match." Other schemes (chess 1/½/0, pods 5/1/0) come
    # from the PointsScheme; a bye scores `scheme.bye`.
    return ctx.points(player)


def match_win_percentage(ctx: Context, player: PlayerId) -> Fraction:
    # MTR Appendix C, Match-win percentage: "A player's match-win percentage is that player's
    # accumulated match points divided by the total match points possible in those rounds
    # (generally, 3 times the number of rounds played). If this number is lower than 0.33, use
    # 0.33 instead." Its example "3-2-0, including a first-round bye, then withdraws: 9/(5*3) =
    # 0.60" counts the bye as a round played, so we do too. "Rounds played" are the rounds the
    # player was seated in: a dropped player's or a late entry's missing rounds do not count.
    # The floor is params["omw_floor"] (default the MTR's 0.33, exactly 33/100; pods, where
    # par is 25%, pass POD_OMW_FLOOR).
    floor = ctx.param("omw_floor", MTR_FLOOR)
    record = ctx.records[player]
    if record.played == 0:
        return floor
    return max(floor, record.points / (ctx.win * record.played))


def opponents_match_win_percentage(ctx: Context, player: PlayerId) -> Fraction:
    # MTR Appendix C, Opponents' match-win percentage: the average match-win percentage of each
    # opponent the player faced, ignoring the rounds in which the player received a bye, each
    # opponent's percentage floored at 0.33 as above. At a pod every other player is an
    # opponent and each counts once in the average: cedh_matching's web interface
    # (web_interface/index.js; "Average win percentage of all seen opponents. Opponents seen
    # twice count twice.") -- pairings-edh's README asks for an average too ("OMW% ... we have
    # multiple opponents ... -> average!") but averages per round (`omw_per_round`). Byes
    # follow the bye rule: none adds nothing; MTRA 3.1 (TopDeck.gg's cEDH addendum) adds
    # three phantom opponents at 0.2 (0.33 in an older copy) per bye, unfloored, so a bye
    # lowers OMW% as a weak pod would. No opponents and no phantoms: 0.
    return _mean(ctx.opponent_mwps(player))


def opponents_match_win_percentage_per_round(ctx: Context, player: PlayerId) -> Fraction:
    # pairings_edh (JuliusFiedler/pairings_edh, player.py `get_OMWP`): "since we have multiple
    # (2-3) opponents each round, the average of the MWP of all opps at the table is summed per
    # round", then divided by the rounds: the mean over rounds of each table's average MW%
    # (floored as for OMW%). A 3-player pod weighs as much as a 4-player one, where the
    # per-opponent OMW% weighs it 2 to 3. A bye round adds, under MTRA 3.1, a table of three
    # phantoms (its average: the phantom rate) and under any other rule nothing. 0 with no
    # rounds to average.
    record = ctx.records[player]
    averages = [_mean([ctx.mwp(opponent) for opponent in table]) for table in record.tables]
    rate = byerules.phantom_rate(ctx.bye_rule)
    if rate is not None:
        averages += [rate] * len(record.bye_rounds)
    return _mean(averages)


def game_win_percentage(ctx: Context, player: PlayerId) -> Fraction:
    # MTR Appendix C, Game Points: "players earn 3 game points for each game they win and 1
    # point for each game that ends in a draw, and 0 points for any game lost." Game-win
    # percentage is "the total number of game points they earned divided by the total game
    # points possible (generally, 3 times the number of games played)", floored at 0.33 like
    # the match-win percentage. A bye counts as a 2-0 win (the MTR treats a bye as a match won;
    # the usual reading, e.g. playerlink's "Deep dive into tiebreaker math": "Rounds with byes
    # are included in this calculation, as a 2-0 win"). Drawn games are the match's recorded
    # `game_draws` (Appendix C: a 2-0-1 win is 7 game points of 9; an intentional draw, 0-0-3,
    # then a 2-0 win: 9 of 15 = 0.60). Floor: params["gw_floor"] (default the MTR's 0.33).
    floor = ctx.param("gw_floor", MTR_FLOOR)
    record = ctx.records[player]
    games = record.game_wins + record.game_losses + record.game_draws
    if games == 0:
        return floor
    return max(floor, Fraction(3 * record.game_wins + record.game_draws, 3 * games))


def opponents_game_win_percentage(ctx: Context, player: PlayerId) -> Fraction:
    # MTR Appendix C, Opponents' game-win percentage: the average game-win percentage of all
    # of the player's opponents, each with a minimum of 0.33, byes ignored as for OMW%.
    return _mean([ctx.gwp(opponent) for opponent in ctx.opponents(player)])


def buchholz(ctx: Context, player: PlayerId) -> Fraction:
    # FIDE Tie-Break Regulations (Handbook C.07), Buchholz: "the sum of the scores of each of
    # the opponents of a participant" (final scores). An opponent met twice counts twice.
    # Byes follow the bye rule (`domain.byerules`): under none (RSwiss: a bye "sums 1.0 to the
    # score, and counts as a match, but adds no opponent") a bye adds nothing; under fide_2023
    # (C.07 Article 16, the chess preset's default) every unplayed round (byes and rounds not
    # seated) adds a dummy opponent with the player's own final score (16.4), and opponents'
    # requested byes followed only by VURs count as draws (16.3.2); under fide_2009 the
    # virtual opponent S_before + (1 - S_round) + 0.5 x (rounds after) for every unplayed
    # round, and opponents' unplayed rounds count as draws.
    return sum((u.score for u in ctx.buchholz_scores(player)), Fraction(0))


def buchholz_cut1(ctx: Context, player: PlayerId) -> Fraction:
    # FIDE C.07 modifier Cut-1: "Cut the Least Significant Value", i.e. Buchholz without the
    # lowest opponent score; under fide_2023 a voluntarily unplayed round (a requested bye) is
    # the least significant value whatever its score. With no values (or one) the result is 0.
    scores = byerules.cut_order(ctx.buchholz_scores(player), ctx.bye_rule)
    return sum((u.score for u in scores[1:]), Fraction(0))


def median_buchholz(ctx: Context, player: PlayerId) -> Fraction:
    # Median Buchholz (Harkness; FIDE C.07 modifier Median1): Buchholz without the highest and
    # the lowest opponent scores. RSwiss: "the sum of the players opponents scores, discarding
    # one or two lowest and highest" -- two each from nine rounds on (the Harkness system, as
    # in the US Chess rulebook), else one each; params["median_cut"] fixes the number.
    # Under fide_2023 the voluntarily unplayed rounds are cut first from the bottom (C.07
    # 16.5.1); the top cut then removes the highest of what is left ("the Least and the Most
    # Significant Values (in that order)", 14.3), a VUR's value included.
    cut = int(ctx.params.get("median_cut", 2 if ctx.rounds_count >= 9 else 1))
    scores = byerules.cut_order(ctx.buchholz_scores(player), ctx.bye_rule)
    if len(scores) <= 2 * cut:
        return Fraction(0)
    kept = sorted(u.score for u in scores[cut:])[: len(scores) - 2 * cut]
    return sum(kept, Fraction(0))


def sonneborn_berger(ctx: Context, player: PlayerId) -> Fraction:
    # Sonneborn-Berger / Neustadtl. FIDE C.07: "adding, for each round, a value given by
    # multiplying the final score of the opponents by the points scored against them"; RSwiss:
    # "adding the scores of every opponent the player beats and half of the score of every
    # opponent the player draws". Points scored are counted in wins (points / scheme.win), so
    # in chess (1/½/0) this is both definitions exactly, and in Magic 3/1/0 a draw weighs ⅓.
    # At a pod the player's result there is their result against each opponent at it. Under
    # a FIDE bye rule an unplayed round adds its virtual opponent's score times the round's
    # points (C.07 16.4: "as if the participant had played against a dummy, with the result
    # ... corresponding to the points awarded"); under none it adds nothing. Under fide_2023
    # opponents' scores are adjusted as in Buchholz (16.3).
    record = ctx.records[player]
    score = ctx.adjusted_points if byerules.adjusts_sonneborn_berger(ctx.bye_rule) else ctx.points
    played = sum((score(e.opponent) * e.points / ctx.win for e in record.encounters), Fraction(0))
    virtual = ctx.virtual_opponents(player)
    if not virtual:  # a rule without virtual opponents
        return played
    unplayed = ctx.unplayed_rounds(player)
    return played + sum(
        (u.score * bye.points / ctx.win for u, bye in zip(virtual, unplayed, strict=True)),
        Fraction(0),
    )


def cumulative(ctx: Context, player: PlayerId) -> Fraction:
    # Cumulative (progressive) score. FIDE C.07, Progressive Scores: "After each round a
    # participant has a certain tournament score. This tie-break is calculated adding the score
    # of the participant at the end of each round." RSwiss: "the cumulative score, which sums
    # the running score for each round". Every round of the event counts, so a dropped player's
    # frozen score keeps counting after the drop and a late entry has 0 for the rounds before
    # they joined; a bye's points count in the round of the bye (RSwiss: it "sums 1.0").
    running = total = Fraction(0)
    for points in ctx.records[player].points_by_round:
        running += points
        total += running
    return total


def opponents_cumulative(ctx: Context, player: PlayerId) -> Fraction:
    # RSwiss: ":opp_c_score is the sum of the cumulative score of the opponents" (byes add no
    # opponent; an opponent met twice counts twice).
    return sum((ctx.cumulative(opponent) for opponent in ctx.opponents(player)), Fraction(0))


def number_of_wins(ctx: Context, player: PlayerId) -> Fraction:
    # Wins over the board. RSwiss: a bye "takes in every other criteria, including number of
    # wins", so byes are not wins here (FIDE C.07 calls this count "games won", as opposed to
    # "number of wins", which includes unplayed wins). A pod won counts one win.
    return Fraction(ctx.records[player].wins)


def seat_sum(ctx: Context, player: PlayerId) -> Fraction:
    # pairings-edh README, "Player Rating / Tiebreaker": "Sum of Seating Positions in all
    # rounds", after points and the averaged OMW%. Seat 1 takes the first turn (TopDeck.gg's
    # Competitive REL MTR/IPG Addendum, MTRA 2.2: "Seat One as the starting player"), and going
    # first wins most often in cEDH, so later seats are the harder draw: higher is better.
    # Seats are 1-based, one per non-bye table; a bye has no seat and adds nothing.
    return Fraction(sum(ctx.records[player].seats))


def pod4_win_share(ctx: Context, player: PlayerId) -> Fraction:
    # cedh_matching's web interface (RememberOfLife/cedh_matching, web_interface/index.js,
    # `tiebreaker.tw4p`: "for all wins: 1 for 4 tables, 0 for 3 tables", averaged): a win at a
    # 4-player pod beat three opponents, a win at a 3-player pod only two, so of two players
    # with the same points the one whose wins came at full pods ranks first. Wins at tables of
    # four / all wins over the board (byes are not wins, as for `wins`); 0 with no wins. A
    # 5-player pod counts like a 3-player one (as there: only a table of 4 counts 1).
    record = ctx.records[player]
    return Fraction(record.pod4_wins, record.wins) if record.wins else Fraction(0)


def average_opponent_rating(ctx: Context, player: PlayerId) -> Fraction:
    # Ours: strength of schedule measured by rating rather than by results, for leagues that
    # keep a rating (ratings app). The mean of params["ratings"][opponent] over every opponent
    # met, once per table met (as OMW%: byes add none); an opponent without a rating counts
    # params["default_rating"] (default 0). No opponents: 0. Floats are read as the decimals
    # they were written as (`_exact`), so the mean is exact.
    return _mean([ctx.rating(opponent) for opponent in ctx.opponents(player)])


def head_to_head(ctx: Context, group: Sequence[PlayerId]) -> dict[PlayerId, Fraction]:
    # Head-to-head (direct encounter), applied only to a group of players still tied on every
    # earlier metric. The rule (FIDE C.07 Direct Encounter, as tournaments usually word it:
    # "Head to head (if all those tied played each other)"): if every pair in the group met at
    # least once, each player's value is the points they scored at the tables where they met
    # other members of the group (once per other member at the table; at a pod won by someone
    # outside the group both get the loss points); equal values stay tied for the next metric.
    # If any pair never met, the tie-break does not apply and everyone in the group gets 0.
    members = set(group)
    met: dict[PlayerId, set[PlayerId]] = {}
    scored: dict[PlayerId, Fraction] = {}
    for player in group:
        inside = [e for e in ctx.records[player].encounters if e.opponent in members]
        met[player] = {e.opponent for e in inside}
        scored[player] = sum((e.points for e in inside), Fraction(0))
    if any(met[player] != members - {player} for player in group):
        return dict.fromkeys(group, Fraction(0))
    return scored


# --- The registry. ---


SHOWN_AS = ("number", "percent", "whole")


@dataclass(frozen=True, slots=True)
class Tiebreaker:
    """One metric: how to compute it, which way is better, the rule it follows, and how the
    standings show it (`shown_as`: "number" as it is, "percent" a 0-1 fraction as a
    percentage, "whole" rounded to a whole number).

    Most metrics are per player (`compute`). A metric that only makes sense among the players
    tied at the point where it is applied (head-to-head) sets `compute_group` instead: it gets
    the tied group and returns a value for each member.
    """

    name: str
    label: str
    higher_is_better: bool
    compute: Callable[[Context, PlayerId], Real] | None
    reference: str
    compute_group: Callable[[Context, Sequence[PlayerId]], Mapping[PlayerId, Real]] | None = None
    shown_as: str = "number"

    @property
    def is_percent(self) -> bool:
        return self.shown_as == "percent"

    def show(self, value: Real | None) -> str:
        """The value as the standings show it; a dash where the metric has none."""
        if value is None:
            return "\u2013"
        if self.shown_as == "percent":
            return f"{100 * value:.1f}%"
        if self.shown_as == "whole":
            return f"{value:.0f}"
        return f"{value:g}"


TIEBREAKERS: dict[str, Tiebreaker] = {}


def register(tiebreaker: Tiebreaker) -> Tiebreaker:
    """Add a metric to the registry (the pod tiebreakers drop in here)."""
    if (tiebreaker.compute is None) == (tiebreaker.compute_group is None):
        raise ValueError(f"{tiebreaker.name}: give exactly one of compute and compute_group")
    if tiebreaker.shown_as not in SHOWN_AS:
        raise ValueError(f"{tiebreaker.name}: shown_as is one of {', '.join(SHOWN_AS)}")
    TIEBREAKERS[tiebreaker.name] = tiebreaker
    return tiebreaker


MTR = "Magic Tournament Rules, Appendix C"
FIDE = "FIDE Handbook C.07, Tie-Break Regulations"
RSWISS = "RSwiss (spectra/rswiss) README"
PAIRINGS_EDH = "pairings-edh README (cEDH pod pairing)"
CEDH_MATCHING = "cedh_matching web interface (index.js)"

for _tiebreaker in (
    Tiebreaker("points", "Match points", True, match_points, f"{MTR}: match points"),
    Tiebreaker(
        "omw",
        "OMW%",
        True,
        opponents_match_win_percentage,
        f"{MTR}: OMW%; at pods per opponent as {CEDH_MATCHING}; byes by the bye rule",
        shown_as="percent",
    ),
    Tiebreaker(
        "omw_per_round",
        N_("OMW% (per round)"),
        True,
        opponents_match_win_percentage_per_round,
        "pairings_edh (player.py get_OMWP): mean of each table's average MW%",
    ),
    Tiebreaker(
        "gw", "GW%", True, game_win_percentage, f"{MTR}: game-win percentage", shown_as="percent"
    ),
    Tiebreaker(
        "ogw", "OGW%", True, opponents_game_win_percentage, f"{MTR}: OGW%", shown_as="percent"
    ),
    Tiebreaker(
        "buchholz",
        "Buchholz",
        True,
        buchholz,
        f"{FIDE}: Buchholz; unplayed rounds by the bye rule (fide_2023: Article 16)",
    ),
    Tiebreaker("buchholz_cut1", N_("Buchholz cut 1"), True, buchholz_cut1, f"{FIDE}: Cut-1"),
    Tiebreaker(
        "median_buchholz",
        N_("Median Buchholz"),
        True,
        median_buchholz,
        f"{FIDE}: Median1; {RSWISS}",
    ),
    Tiebreaker(
        "sonneborn_berger",
        "Sonneborn-Berger",
        True,
        sonneborn_berger,
        f"{FIDE}: Sonneborn-Berger; {RSWISS}: Neustadtl; unplayed rounds by the bye rule",
    ),
    Tiebreaker(
        "cumulative", N_("Cumulative"), True, cumulative, f"{FIDE}: Progressive Scores; {RSWISS}"
    ),
    Tiebreaker(
        "opp_cumulative", N_("Opponents' cumulative"), True, opponents_cumulative, f"{RSWISS}"
    ),
    Tiebreaker("wins", N_("Wins"), True, number_of_wins, f"{RSWISS}: wins (byes excluded)"),
    Tiebreaker(
        "seat_sum",
        N_("Seat sum"),
        True,
        seat_sum,
        f"{PAIRINGS_EDH}: sum of seating positions (later seats are harder)",
    ),
    Tiebreaker(
        "pod4_win_share",
        N_("4-pod win share"),
        True,
        pod4_win_share,
        f"{CEDH_MATCHING}: wins at 4-player pods / all wins (byes excluded)",
        shown_as="percent",
    ),
    Tiebreaker(
        "avg_opp_rating",
        N_("Avg. opp. rating"),
        True,
        average_opponent_rating,
        "Guildhall: mean rating of the opponents met (params ratings, default_rating)",
        shown_as="whole",
    ),
    Tiebreaker(
        "head_to_head",
        N_("Head-to-head"),
        True,
        None,
        f"{FIDE}: Direct Encounter (only if all tied players met)",
        compute_group=head_to_head,
    ),
):
    register(_tiebreaker)

PRESETS: dict[str, tuple[str, ...]] = {
    # MTR 3.1: match points, OMW%, GW%, OGW%.
    "magic": ("points", "omw", "gw", "ogw"),
    # RSwiss's default criteria: score, median Buchholz, Neustadtl, cumulative, opponents'
    # cumulative, wins.
    "chess": (
        "points",
        "median_buchholz",
        "sonneborn_berger",
        "cumulative",
        "opp_cumulative",
        "wins",
    ),
    # pairings-edh README: points, OMW% (averaged over every opponent), sum of seat positions;
    # then the share of wins taken at 4-player pods. Pass omw_floor=POD_OMW_FLOOR with it.
    "pods": ("points", "omw", "seat_sum", "pod4_win_share"),
}


# --- Ranking. ---


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in the standings. `metrics` holds the precedence's values as floats
    (`Tiebreaker.show` writes one as the standings show it)."""

    player: PlayerId
    rank: int
    tied: bool
    points: float
    metrics: dict[str, float]
    played: int  # rounds seated, byes included
    wins: int  # over the board (byes not included)
    losses: int
    draws: int
    byes: int
    dropped_after: int | None = None  # the last round played before dropping (1-based)
    requested_byes: int = 0  # half-point byes (not in `record`: neither won nor drawn)

    @property
    def place(self) -> tuple[int, bool]:
        """(rank, tied), e.g. (2, True) for a shared second place."""
        return (self.rank, self.tied)

    @property
    def record(self) -> str:
        """Wins-losses-draws as the MTR writes it, a bye counted as a win (MTR: "considered
        to have won the match")."""
        return f"{self.wins + self.byes}-{self.losses}-{self.draws}"


def compute_standings(
    *,
    players: Sequence[PlayerId],
    rounds: Sequence[Round],
    scheme: PointsScheme,
    precedence: Sequence[str],
    dropped: Mapping[PlayerId, int] | None = None,
    params: Mapping | None = None,
) -> list[StandingRow]:
    """Rank every entrant by `precedence` (metric names in TIEBREAKERS), best first.

    `rounds` are in chronological order. `dropped` maps a player to the last round they
    played before dropping; they stay in the standings with their results. `params` tunes the
    metrics: "omw_floor" (the match-win floor) and "gw_floor" (default 0.33, MTR Appendix C;
    pod events pass POD_OMW_FLOOR), "median_cut" (default 1, 2 from nine rounds on), "ratings"
    (player id -> rating, for "avg_opp_rating"), "default_rating" (for opponents without
    one, default 0) and "bye_rule" (a `domain.byerules.BYE_RULES` key, default "none").
    """
    unknown = [name for name in precedence if name not in TIEBREAKERS]
    if unknown:
        raise StandingsError("unknown_tiebreaker", f"Unknown tiebreaker: {', '.join(unknown)}.")
    dropped = dict(dropped or {})
    entered = set(players)
    stray = [p for p in dropped if p not in entered]
    if stray:
        raise StandingsError("unknown_player", f"Player {stray[0]} dropped but is not entered.")
    ctx = Context(players=players, rounds=rounds, scheme=scheme, params=params)

    values: dict[str, dict[PlayerId, Real]] = {}
    groups: list[list[PlayerId]] = [sorted(players)] if players else []
    for name in precedence:
        tiebreaker = TIEBREAKERS[name]
        column = values.setdefault(name, {})
        split: list[list[PlayerId]] = []
        for group in groups:
            if tiebreaker.compute_group is not None:
                if len(group) > 1:
                    column.update(tiebreaker.compute_group(ctx, group))
                else:
                    column.update(dict.fromkeys(group, Fraction(0)))
            else:
                for player in group:
                    if player not in column:
                        column[player] = tiebreaker.compute(ctx, player)
            split.extend(_split(group, column, tiebreaker.higher_is_better))
        groups = split

    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for player in group:
            record = ctx.records[player]
            rows.append(
                StandingRow(
                    player=player,
                    rank=rank,
                    tied=len(group) > 1,
                    points=float(record.points),
                    metrics={name: float(values[name][player]) for name in values},
                    played=record.played,
                    wins=record.wins,
                    losses=record.losses,
                    draws=record.draws,
                    byes=record.byes,
                    dropped_after=dropped.get(player),
                    requested_byes=record.requested_byes,
                )
            )
    return rows


def _split(
    group: list[PlayerId], column: Mapping[PlayerId, Real], higher_is_better: bool
) -> list[list[PlayerId]]:
    """Order a tied group by one metric and cut it into runs of equal values (ids stay sorted)."""
    ordered = sorted(group, key=lambda p: column[p], reverse=higher_is_better)  # stable
    runs: list[list[PlayerId]] = []
    for player in ordered:
        if runs and column[runs[-1][0]] == column[player]:
            runs[-1].append(player)
        else:
            runs.append([player])
    for run in runs:
        run.sort()
    return runs
