"""An achievement league's rules and its leaderboard, in plain Python (no Django).

A store's casual Commander league scores **achievements** its organizers name ("First blood",
"Won with a commander new this season"), each worth some points and earned at most once per
game, per night or per season (`Per`), plus, if the store wants, points for each game played
and for each placing (`Scoring`). A claim a player holds (waiting for a podmate, disputed,
or confirmed) takes its period: a second claim of the same achievement by the same player in
a period they already hold it in is refused (`frequency_conflict`), so a claim waiting for
its confirmation already counts against the limit and a double tap is never two claims.

"Night" is the day the game was played (an event is one night). "Season" is each season of
the league whose dates hold that day; a day outside every season is in the league's one
open period. The leaderboard of a period adds, for each player, the points of their
confirmed achievements and of their games, ranked by points with ties sharing a place
(standard competition ranking, 1-2-2-4), tied players in name order.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum

from core.errors import ConflictError, DomainError
from core.translate import gettext as _

NAME_MAX = 80
POINTS_MIN, POINTS_MAX = -100, 100  # a "salt" achievement may cost points
GAME_POINTS_MAX = 100
PLACINGS_MAX = 8


class AchievementError(DomainError):
    """Bad input for an achievement, a claim or the league's scoring (400, nothing written)."""


class FrequencyRefused(ConflictError):
    """The player already holds the achievement in this game, night or season (409)."""

    default_code = "frequency"


class Per(StrEnum):
    GAME = "game"
    NIGHT = "night"
    SEASON = "season"


# The rule as players read it, beside each achievement.
RULES = {
    Per.GAME: "once per game",
    Per.NIGHT: "once per night",
    Per.SEASON: "once per season",
}


@dataclass(frozen=True)
class SeasonDates:
    id: int
    starts_on: date
    ends_on: date


@dataclass(frozen=True)
class Held:
    """A claim a player holds (waiting, disputed or confirmed): of which achievement, for
    which game (None: an award for a night), on which day."""

    achievement: int
    player: int
    game: int | None
    night: date
    claim: int = 0


def achievement_check(*, name: str, points: int, per: str) -> None:
    """An achievement's definition, refused with the field at fault."""
    if not name.strip():
        raise AchievementError(
            code="no_name", field="name", message=_("An achievement needs a name.")
        )
    if len(name.strip()) > NAME_MAX:
        raise AchievementError(
            code="name_long",
            field="name",
            message=_("At most %(max)s characters.") % {"max": NAME_MAX},
        )
    if not isinstance(points, int) or not POINTS_MIN <= points <= POINTS_MAX:
        raise AchievementError(
            code="points",
            field="points",
            message=_("Points are a whole number from %(min)s to %(max)s.")
            % {"min": POINTS_MIN, "max": POINTS_MAX},
        )
    if per not in set(Per):
        raise AchievementError(
            code="per", field="per", message=_("Choose once per game, per night or per season.")
        )


def periods(
    per: str, *, game: int | None, night: date, seasons: Sequence[SeasonDates]
) -> frozenset:
    """The periods a claim on `night` (in `game`) takes under the rule `per`."""
    if per == Per.GAME:
        if game is None:
            raise AchievementError(
                code="game_needed",
                field="game",
                message=_("This achievement is earned once per game: choose the game."),
            )
        return frozenset({("game", game)})
    if per == Per.NIGHT:
        return frozenset({("night", night)})
    covering = frozenset(("season", s.id) for s in seasons if s.starts_on <= night <= s.ends_on)
    return covering or frozenset({("league",)})


def frequency_conflict(
    per: str, new: Held, held: Iterable[Held], seasons: Sequence[SeasonDates]
) -> Held | None:
    """The claim the player already holds that leaves no room for `new`, or None."""
    wanted = periods(per, game=new.game, night=new.night, seasons=seasons)
    for other in held:
        if other.achievement != new.achievement or other.player != new.player:
            continue
        if other.claim and other.claim == new.claim:
            continue
        if other.game is not None and other.game == new.game:
            return other  # never twice in one game, whatever the rule
        if wanted & periods(per, game=other.game, night=other.night, seasons=seasons):
            return other
    return None


@dataclass(frozen=True)
class Scoring:
    """Points besides the achievements: `per_game` for each game played, `placings[i]` for
    finishing in place i + 1 (places past the list pay nothing)."""

    per_game: int = 0
    placings: tuple[int, ...] = ()

    def __post_init__(self):
        if not isinstance(self.per_game, int) or not 0 <= self.per_game <= GAME_POINTS_MAX:
            raise AchievementError(
                code="per_game",
                field="per_game",
                message=_("Points per game are a whole number from 0 to %(max)s.")
                % {"max": GAME_POINTS_MAX},
            )
        if len(self.placings) > PLACINGS_MAX:
            raise AchievementError(
                code="placings_long",
                field="placings",
                message=_("At most %(max)s places pay points.") % {"max": PLACINGS_MAX},
            )
        above = None
        for place, points in enumerate(self.placings, start=1):
            if not isinstance(points, int) or not 0 <= points <= GAME_POINTS_MAX:
                raise AchievementError(
                    code="placing_points",
                    field="placings",
                    message=_("Place %(place)s: points are a whole number from 0 to %(max)s.")
                    % {"place": place, "max": GAME_POINTS_MAX},
                )
            if above is not None and points > above:
                raise AchievementError(
                    code="placings_order",
                    field="placings",
                    message=_(
                        "Place %(place)s pays %(points)s, more than place %(better)s "
                        "(%(above)s): a better place never pays less."
                    )
                    % {"place": place, "points": points, "better": place - 1, "above": above},
                )
            above = points

    def game_points(self, placement: int) -> int:
        extra = self.placings[placement - 1] if 1 <= placement <= len(self.placings) else 0
        return self.per_game + extra


@dataclass(frozen=True)
class GamePlayed:
    player: int
    game: int
    placement: int


@dataclass(frozen=True)
class Earned:
    """A confirmed achievement of a player."""

    player: int
    achievement: int
    name: str
    points: int


@dataclass(frozen=True)
class Line:
    rank: int
    tied: bool
    player: int
    points: int
    achievement_points: int
    game_points: int
    games: int
    # (name, times, points each), most earned first
    achievements: tuple[tuple[str, int, int], ...] = field(default=())


def leaderboard(
    scoring: Scoring,
    games: Iterable[GamePlayed],
    earned: Iterable[Earned],
    names: Mapping[int, str],
) -> list[Line]:
    """The period's table: every player with a game or an achievement in it."""
    game_points: dict[int, int] = defaultdict(int)
    played: dict[int, set[int]] = defaultdict(set)
    for g in games:
        if g.game in played[g.player]:
            continue
        played[g.player].add(g.game)
        game_points[g.player] += scoring.game_points(g.placement)
    achieved: dict[int, dict[tuple[int, str, int], int]] = defaultdict(lambda: defaultdict(int))
    for e in earned:
        achieved[e.player][(e.achievement, e.name, e.points)] += 1
    players = set(played) | set(achieved)
    totals = {}
    for player in players:
        by_achievement = achieved.get(player, {})
        points = sum(p * times for (_, _, p), times in by_achievement.items())
        totals[player] = (points, game_points.get(player, 0))
    order = sorted(
        players,
        key=lambda p: (-sum(totals[p]), (names.get(p) or "").casefold(), p),
    )
    lines = []
    for position, player in enumerate(order, start=1):
        total = sum(totals[player])
        rank = lines[-1].rank if lines and lines[-1].points == total else position
        listed = sorted(
            ((name, times, points) for (_, name, points), times in achieved[player].items()),
            key=lambda item: (-item[1], -item[2], item[0].casefold()),
        )
        lines.append(
            Line(
                rank=rank,
                tied=False,
                player=player,
                points=total,
                achievement_points=totals[player][0],
                game_points=totals[player][1],
                games=len(played.get(player, ())),
                achievements=tuple(listed),
            )
        )
    counts: dict[int, int] = defaultdict(int)
    for line in lines:
        counts[line.rank] += 1
    return [replace(line, tied=True) if counts[line.rank] > 1 else line for line in lines]
