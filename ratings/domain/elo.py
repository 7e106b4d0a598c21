"""Pairwise Elo for multiplayer games: `guildmaster`, `elo` and `elo-dynamic` (Sedma).

All three treat a finished game as every pair of players meeting once: the better place scores
1, the worse 0, an equal place ½ each. Every pair is computed from the ratings before the game
and each player's pair results are summed and applied once, so the result does not depend on
the order in which the pairs are visited (the game is canonicalised first anyway, so even the
floating-point summation order is fixed). Each system's promise:

- `guildmaster`: exactly what Guildmaster (github.com/dylanlott/guildmaster) prints: start 1500,
  K 40, D 800, each player's summed delta rounded half away from zero (Go's `math.Round`) after
  every game. Whole-number ratings. A game imported from a Guildmaster row that named a player
  twice (`leagues.domain.csvformat.GUILDMASTER_ORDER` in its stats) is replayed seat by seat as
  Guildmaster rates that row; the other systems rate the stored game, one seat per player.
- `elo`: the same method on float ratings with every constant editable, optional K/(n-1) for
  pod size, and a choice for pairs tied below first (draw or skip). No rounding.
- `elo-dynamic`: the Sedma card-game method (K by the player's own rating band, D 400,
  performance bonuses and maluses from the result's stats, computed in single precision as the
  C# original does), applied pairwise, rounded half to even (.NET `Math.Round`) once per game.

Win probabilities for all three: the Luce / Bradley-Terry generalisation of the Elo expectation,
P(i) = 10^(R_i/D) / sum_j 10^(R_j/D) (for two players, the usual Elo expected score).
"""

import itertools
import math
import struct
from collections.abc import Hashable, Mapping, Sequence
from functools import cached_property

from core.translate import gettext as _
from core.translate import translated
from leagues.domain.csvformat import GUILDMASTER_ORDER
from ratings.domain.base import (
    N_,
    Finish,
    Param,
    ParamError,
    ParamSystem,
    RatingState,
    canonical,
)

# --- Numbers ---------------------------------------------------------------------------------


def round_half_away(x: float) -> int:
    """Nearest integer, halves away from zero: Go's `math.Round` (and C's `round`).

    Not `floor(x + 0.5)`, which is wrong for 0.49999999999999994; `abs(x) - floor(abs(x))` is
    exact in binary floating point, so the comparison with ½ is exact.
    """
    whole = math.floor(abs(x))
    if abs(x) - whole >= 0.5:
        whole += 1
    return whole if x >= 0 else -whole


def round_half_even(x: float) -> int:
    """Nearest integer, halves to even: .NET `Math.Round(double)` (Python's `round` on floats)."""
    return round(x)


def f32(x: float) -> float:
    """`x` rounded to IEEE single precision, as a C# `float` holds it.

    One float32 operation = the exact double operation rounded once to float32: for +, -, *
    of two float32 values the double result is exact or rounded innocuously (53 >= 2*24 + 2,
    Figueroa 1995), so this emulates C# `float` arithmetic bit for bit.
    """
    return struct.unpack("f", struct.pack("f", x))[0]


def expected_score(rating_a: float, rating_b: float, d: float) -> float:
    """Elo expectation of A against B: E = 1 / (1 + 10^((R_B - R_A) / D)) (Elo 1978, 8.4)."""
    try:
        return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / d))
    except OverflowError:  # 10^x beyond a double: Go's math.Pow gives +Inf, so E = 0
        return 0.0


def luce_probabilities(ratings: Sequence[float], d: float) -> list[float]:
    """P(i wins) = 10^(R_i/D) / sum_j 10^(R_j/D), computed relative to the top rating."""
    if not ratings:
        return []
    top = max(ratings)
    weights = [10.0 ** ((r - top) / d) for r in ratings]  # each in (0, 1], the top one 1
    total = sum(weights)
    return [w / total for w in weights]


def pair_score(place_a: int, place_b: int) -> float:
    """A's score against B: 1 for the better place (lower number), ½ for equal, 0 for worse."""
    if place_a < place_b:
        return 1.0
    if place_a == place_b:
        return 0.5
    return 0.0


def pairwise_deltas(
    ratings: Sequence[float],
    places: Sequence[int],
    *,
    k: float,
    d: float,
    skip_tied_below_first: bool = False,
) -> list[float]:
    """Summed pairwise Elo deltas, as Guildmaster's `CalculateMultiplayerDeltas` sums them.

    For i < j (in the order given): delta = K * (S_ij - E_ij); i gains it, j loses it. The
    deltas therefore sum to zero up to float rounding. With `skip_tied_below_first`, a pair
    tied at a place > 1 is not scored at all.
    """
    # `pair_score` and `expected_score` written out (the same operations in the same order,
    # so the same bits): a 100,000-game replay makes half a million such pairs.
    n = len(ratings)
    deltas = [0.0] * n
    for i in range(n):
        place_i, rating_i = places[i], ratings[i]
        for j in range(i + 1, n):
            place_j = places[j]
            if place_i == place_j:
                if skip_tied_below_first and place_i > 1:
                    continue
                score = 0.5
            else:
                score = 1.0 if place_i < place_j else 0.0
            try:
                expected = 1.0 / (1.0 + 10.0 ** ((ratings[j] - rating_i) / d))
            except OverflowError:  # as expected_score: 10^x beyond a double gives E = 0
                expected = 0.0
            delta = k * (score - expected)
            deltas[i] += delta
            deltas[j] -= delta
    return deltas


# --- Shared shell ------------------------------------------------------------------------------


class _PairwiseElo(ParamSystem):
    """Display, strength and win probabilities shared by the Elo systems."""

    def _d(self) -> float:
        return self._p["d"]

    def _before(
        self, before: Mapping[Hashable, RatingState], finish: Sequence[Finish]
    ) -> tuple[list[Finish], list[float]]:
        game = canonical(finish)
        initial = self.initial()
        ratings = [before.get(f.player, initial).rating for f in game]
        return game, ratings

    def display(self, state: RatingState) -> float:
        return state.rating

    def strength(self, state: RatingState) -> float:
        return state.rating

    def win_probabilities(self, states: Sequence[RatingState]) -> list[float]:
        return luce_probabilities([s.rating for s in states], self._d())


# --- guildmaster -------------------------------------------------------------------------------


def guildmaster_columns(finish: Finish) -> tuple[int, ...]:
    """The Guildmaster columns a finisher's stats hold, or () when none (or not whole numbers
    from 1: stats also arrive through the API, and a replay must not fail on them)."""
    columns = finish.stats.get(GUILDMASTER_ORDER) if finish.stats else None
    if not isinstance(columns, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) and c >= 1 for c in columns
    ):
        return ()
    return tuple(columns)


class GuildmasterElo(_PairwiseElo):
    """Guildmaster's method, fixed constants, no parameters (a league wanting others uses `elo`).

    Ported from Guildmaster's Go: per game a float64 snapshot of the integer ratings; for i < j
    in finishing order EA = 1/(1+10^((RB-RA)/D)), deltaA = K*(S-EA), deltas[i] += deltaA,
    deltas[j] -= deltaA; then each delta is rounded with math.Round and added to the rating.
    """

    name = "guildmaster"
    label = translated(N_("Guildmaster Elo (K 40, D 800)"))
    integer = True
    uses_stats = True  # only for GUILDMASTER_ORDER (a row that named a player twice)
    PARAMS = ()
    INITIAL = 1500
    K = 40.0
    D = 800.0

    def _d(self) -> float:
        return self.D

    def initial(self) -> RatingState:
        return RatingState(rating=float(self.INITIAL))

    def float_deltas(
        self, before: Mapping[Hashable, RatingState], finish: Sequence[Finish]
    ) -> dict[Hashable, float]:
        """The summed deltas before rounding (what Guildmaster rounds), per player."""
        game, ratings = self._before(before, finish)
        deltas = pairwise_deltas(ratings, [f.place for f in game], k=self.K, d=self.D)
        return {f.player: delta for f, delta in zip(game, deltas, strict=True)}

    def seat_deltas(
        self, before: Mapping[Hashable, RatingState], finish: Sequence[Finish]
    ) -> dict[Hashable, float]:
        """Deltas of a game whose finishers carry their Guildmaster columns (`GUILDMASTER_ORDER`).

        Guildmaster's `ScoreGame` rates the row's columns, not its players: column i beats
        column j for i < j, all from the snapshot taken before the game, so a player named
        twice also meets themself (E = ½). It then writes `scores[name]` once per column, so
        the player keeps the delta of their last column. A finisher without columns (added
        to the game in Guildhall later) sits after the row's columns, by place then name.
        """
        seats: list[tuple[int, str, Hashable]] = []
        last = max((c for f in finish for c in guildmaster_columns(f)), default=0)
        extra = sorted(
            (f for f in finish if not guildmaster_columns(f)),
            key=lambda f: (f.place, str(f.player)),
        )
        for f in finish:
            for column in guildmaster_columns(f):
                seats.append((column, str(f.player), f.player))
        seats.extend((last + n, str(f.player), f.player) for n, f in enumerate(extra, start=1))
        seats.sort(key=lambda seat: seat[:2])
        initial = self.initial()
        ratings = [before.get(player, initial).rating for _, _, player in seats]
        deltas = pairwise_deltas(ratings, range(1, len(seats) + 1), k=self.K, d=self.D)
        return {player: delta for (_, _, player), delta in zip(seats, deltas, strict=True)}

    def rate(
        self, before: Mapping[Hashable, RatingState], finish: Sequence[Finish]
    ) -> dict[Hashable, RatingState]:
        if any(guildmaster_columns(f) for f in finish):
            canonical(finish)  # the same checks as any game: each player once, places >= 1
            deltas = self.seat_deltas(before, finish)
        else:
            deltas = self.float_deltas(before, finish)
        return {
            player: RatingState(
                rating=before.get(player, self.initial()).rating + round_half_away(delta)
            )
            for player, delta in deltas.items()
        }

    def rate_floats(self, ratings: Sequence[float], places: Sequence[int]) -> list[float]:
        """The ratings after one game, from the ratings before it and the places, both in
        `canonical` order: `rate` without the state objects (the replay's fast path; the
        display value is the rating itself). Not for a row that named a player twice (its
        stats hold Guildmaster's columns): the replay rates those with `rate`."""
        deltas = pairwise_deltas(ratings, places, k=self.K, d=self.D)
        return [r + round_half_away(delta) for r, delta in zip(ratings, deltas, strict=True)]


# --- elo -----------------------------------------------------------------------------------------


class Elo(_PairwiseElo):
    """Pairwise Elo on float ratings with editable constants."""

    name = "elo"
    label = translated(N_("Elo (pairwise)"))
    integer = False
    PARAMS = (
        Param(
            "initial",
            "float",
            1500,
            N_("Starting rating"),
            N_("The rating of a new player."),
            min=-100_000,
            max=100_000,
        ),
        Param(
            "k",
            "float",
            40,
            N_("K"),
            N_("How far one pair result moves a rating (K-factor)."),
            min=0,
            max=1000,
            min_exclusive=True,
        ),
        Param(
            "d",
            "float",
            800,
            N_("D"),
            N_(
                "Rating gap at which the better player is expected to "
                "score 10 to 1 (the Elo scale; chess uses 400)."
            ),
            min=1,
            max=100_000,
        ),
        Param(
            "scale_by_pod_size",
            "bool",
            False,
            N_("Divide K by opponents"),
            N_("Use K/(n-1) per pair so a big pod moves ratings no more than a duel."),
        ),
        Param(
            "tied_below_first",
            "choice",
            "draw",
            N_("Players tied below first"),
            N_(
                "When several players share a place other than first (for example 'everyone "
                "but the winner tied'): score their pairs as draws, or skip those pairs."
            ),
            choices=("draw", "skip"),
        ),
    )

    def initial(self) -> RatingState:
        return RatingState(rating=float(self._p["initial"]))

    def rate(
        self, before: Mapping[Hashable, RatingState], finish: Sequence[Finish]
    ) -> dict[Hashable, RatingState]:
        game, ratings = self._before(before, finish)
        after = self.rate_floats(ratings, [f.place for f in game])
        return {f.player: RatingState(rating=r) for f, r in zip(game, after, strict=True)}

    @cached_property
    def _constants(self) -> tuple[float, float, bool, bool]:
        """K, D, scale by pod size, skip pairs tied below first: read from the parameters
        once, not once per game of a replay (a tenth of a 100,000-game replay)."""
        p = self._p
        return (
            float(p["k"]),
            float(p["d"]),
            p["scale_by_pod_size"],
            p["tied_below_first"] == "skip",
        )

    def rate_floats(self, ratings: Sequence[float], places: Sequence[int]) -> list[float]:
        """The ratings after one game, from the ratings before it and the places, both in
        `canonical` order: `rate` without the state objects (the replay's fast path; the
        display value is the rating itself)."""
        k, d, by_size, skip = self._constants
        if by_size and len(ratings) > 2:
            k /= len(ratings) - 1
        deltas = pairwise_deltas(ratings, places, k=k, d=d, skip_tied_below_first=skip)
        return [r + delta for r, delta in zip(ratings, deltas, strict=True)]


# --- elo-dynamic (Sedma) -----------------------------------------------------------------------

# The Sedma post's C# constants, as C# `float` literals hold them.
BONUS_PER_16 = f32(0.05)
BONUS_PER_24 = f32(0.1)
BONUS_PER_4_AND_LAST = f32(0.03)
MALUS_PER_BAD_MOVE = f32(0.02)
MAX_BONUS_16 = f32(0.15)
MAX_BONUS_24 = f32(0.2)
MAX_BONUS_4_AND_LAST = f32(0.09)
MAX_MALUS = f32(0.3)
LOSER_MULTIPLIER = f32(0.1)

STAT_KEYS = ("won_by_16", "won_by_24", "won_with_4_and_last", "bad_moves")
DEFAULT_K_BANDS = ((1200, 40), (1800, 32), (2200, 24), (None, 16))


def _count(stats: Mapping, key: str) -> int:
    """A stat count: a non-negative whole number; missing, negative or non-integer count as 0.

    Counts are capped at one million, far past every cap (so the result is unchanged) and
    inside C#'s `int`, so `count * 0.05f` can neither overflow nor lose exactness.
    """
    value = stats.get(key, 0) if stats else 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return 0
    return min(value, 1_000_000)


def sedma_bonus(stats: Mapping) -> float:
    """Bonus before the win/loss multiplier, float32 as in C#: the three capped items summed."""
    return f32(
        f32(
            min(f32(_count(stats, "won_by_16") * BONUS_PER_16), MAX_BONUS_16)
            + min(f32(_count(stats, "won_by_24") * BONUS_PER_24), MAX_BONUS_24)
        )
        + min(
            f32(_count(stats, "won_with_4_and_last") * BONUS_PER_4_AND_LAST), MAX_BONUS_4_AND_LAST
        )
    )


def sedma_malus(stats: Mapping) -> float:
    """Bad-move malus, float32: min(bad_moves * 0.02, 0.3)."""
    return min(f32(_count(stats, "bad_moves") * MALUS_PER_BAD_MOVE), MAX_MALUS)


def sedma_adjusted_score(base: float, bonus: float, malus: float) -> float:
    """Clamp(base + bonus * multiplier - malus, 0, 1) in float32; the loser's bonus at 10 %.

    A tied pair (base ½) keeps the full bonus: it did not lose.
    """
    multiplier = 1.0 if base >= 0.5 else LOSER_MULTIPLIER
    score = f32(f32(base + f32(bonus * multiplier)) - malus)
    return min(max(score, 0.0), 1.0)


def k_for(rating: float, bands: Sequence[Sequence]) -> float:
    """K of the first band whose upper bound is above `rating` (the Sedma `GetKFactor`)."""
    for bound, k in bands:
        if bound is None or rating < bound:
            return k
    raise AssertionError("the last band has no upper bound")  # guaranteed by _check


class EloDynamic(_PairwiseElo):
    """Sedma's dynamic-K Elo with performance bonuses, applied to every pair of a game.

    For a two-player game this is the C# `CalculateNewRatings` of the Sedma post exactly. For
    more players each player i gets R_i + sum over opponents j of K_i * (adj_ij - E_ij), all from
    the pre-game ratings, rounded once (half to even, like `Math.Round`).
    """

    name = "elo-dynamic"
    label = translated(N_("Elo, dynamic K and bonuses (Sedma)"))
    integer = True
    PARAMS = (
        Param(
            "initial",
            "int",
            1500,
            N_("Starting rating"),
            N_("The rating of a new player."),
            min=-100_000,
            max=100_000,
        ),
        Param(
            "d", "float", 400, N_("D"), N_("The Elo scale (400 as in chess)."), min=1, max=100_000
        ),
        Param(
            "k_bands",
            "bands",
            [list(b) for b in DEFAULT_K_BANDS],
            N_("K by rating"),
            N_(
                "K for players rated below each bound, in ascending order; the last band has "
                "no bound. A player's K comes from their own rating before the game."
            ),
        ),
    )

    def _check(self, cleaned: dict) -> dict:
        cleaned["k_bands"] = _clean_bands(cleaned["k_bands"])
        return cleaned

    def initial(self) -> RatingState:
        return RatingState(rating=float(self._p["initial"]))

    def rate(
        self, before: Mapping[Hashable, RatingState], finish: Sequence[Finish]
    ) -> dict[Hashable, RatingState]:
        game, ratings = self._before(before, finish)
        d = float(self._p["d"])
        bands = self._p["k_bands"]
        bonus = [sedma_bonus(f.stats) for f in game]
        malus = [sedma_malus(f.stats) for f in game]
        after = {}
        for i, me in enumerate(game):
            k = k_for(ratings[i], bands)
            change = 0.0
            for j, other in enumerate(game):
                if i == j:
                    continue
                adjusted = sedma_adjusted_score(
                    pair_score(me.place, other.place), bonus[i], malus[i]
                )
                change += k * (adjusted - expected_score(ratings[i], ratings[j], d))
            after[me.player] = RatingState(rating=float(round_half_even(ratings[i] + change)))
        return after


def _clean_bands(value: object) -> list[list]:
    if not isinstance(value, list | tuple) or not value:
        raise ParamError(field="k_bands", message=_("must be a list of [upper bound, K] bands"))
    bands = []
    for band in value:
        if not isinstance(band, list | tuple) or len(band) != 2:
            raise ParamError(field="k_bands", message=_("each band must be [upper bound, K]"))
        bound, k = band
        if bound is not None and (
            isinstance(bound, bool)
            or not isinstance(bound, int | float)
            or not math.isfinite(bound)
        ):
            raise ParamError(
                field="k_bands",
                message=_("bound %(bound)s must be a number or empty") % {"bound": repr(bound)},
            )
        if isinstance(k, bool) or not isinstance(k, int | float) or not (0 < k <= 1000):
            raise ParamError(
                field="k_bands",
                message=_("K %(k)s must be a number above 0 and at most 1000") % {"k": repr(k)},
            )
        bands.append([bound, k])
    bounds = [b for b, _ in bands]
    if bounds[-1] is not None:
        raise ParamError(field="k_bands", message=_("the last band must have no upper bound"))
    if None in bounds[:-1]:
        raise ParamError(field="k_bands", message=_("only the last band may have no upper bound"))
    if any(a >= b for a, b in itertools.pairwise(bounds[:-1])):
        raise ParamError(field="k_bands", message=_("upper bounds must be in ascending order"))
    return bands
