"""Reads behind the achievement pages: the leaderboard of a period, a player's own recent
games with their claims, the claims waiting for the organizer, the award form's choices.

A period is a season of the league (`seasons.Season`: its dates), or every game when the
league has no season yet. The leaderboard is computed on read from the games and the
confirmed claims of the period (`domain.scoring.leaderboard`): three queries, whatever the
number of players.
"""

from dataclasses import dataclass, field
from datetime import date

from django.db.models import Prefetch
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from core.search import folded_order
from leagues.models import Game, GameResult, League, Player
from seasons.models import Season

from .domain import scoring as domain
from .models import Achievement, Claim
from .services import scoring_of

MY_GAMES = 10
AWARD_GAMES = 40


def achievements_of(league: League) -> list[Achievement]:
    return list(Achievement.objects.filter(league=league))


def achievement_get(league: League, pk: int) -> Achievement:
    found = Achievement.objects.filter(league=league, pk=pk).first()
    if found is None:
        raise Http404("No such achievement.")
    return found


def seasons_of(league: League) -> list[Season]:
    return list(Season.objects.filter(league=league).order_by("-starts_on", "-id"))


def period_of(seasons: list[Season], chosen: str, today: date | None = None) -> Season | None:
    """The season asked for (`?season=<id>`, or "all" for every game); by default the
    season holding today, else the latest that has started, else the first to come."""
    if chosen == "all" or not seasons:
        return None
    if chosen.isdigit():
        for season in seasons:
            if season.pk == int(chosen):
                return season
        raise Http404("No such season.")
    today = today or timezone.localdate()
    holding = [s for s in seasons if s.starts_on <= today <= s.ends_on]
    started = [s for s in seasons if s.starts_on <= today]
    return (holding or started or seasons[-1:])[0]


@dataclass
class BoardLine:
    rank: int
    tied: bool
    player_id: int
    name: str
    points: int
    achievement_points: int
    game_points: int
    games: int
    achievements: tuple


def leaderboard(league: League, season: Season | None) -> list[BoardLine]:
    results = GameResult.objects.filter(game__league=league)
    claims = Claim.objects.filter(achievement__league=league, status=Claim.Status.CONFIRMED)
    if season is not None:
        span = (season.starts_on, season.ends_on)
        results = results.filter(game__played_on__range=span)
        claims = claims.filter(night__range=span)
    games = [
        domain.GamePlayed(player, game, placement)
        for player, game, placement in results.values_list("player_id", "game_id", "placement")
    ]
    earned = [
        domain.Earned(player, achievement, name, points)
        for player, achievement, name, points in claims.values_list(
            "player_id", "achievement_id", "achievement__name", "achievement__points"
        )
    ]
    ids = {g.player for g in games} | {e.player for e in earned}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    lines = domain.leaderboard(scoring_of(league), games, earned, names)
    return [
        BoardLine(
            rank=line.rank,
            tied=line.tied,
            player_id=line.player,
            name=names.get(line.player, "?"),
            points=line.points,
            achievement_points=line.achievement_points,
            game_points=line.game_points,
            games=line.games,
            achievements=line.achievements,
        )
        for line in lines
    ]


def own_player(league: League, user) -> Player | None:
    """The signed-in account's player in the league's store, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(organization_id=league.organization_id, user=user).first()


@dataclass
class ClaimLine:
    claim: Claim
    mine: bool
    can_answer: bool  # a podmate's claim waiting for an answer
    can_withdraw: bool


@dataclass
class MyGame:
    game: Game
    pod: list[tuple[str, int, bool]]  # (name, place, is me)
    claims: list[ClaimLine] = field(default_factory=list)
    my_place: int = 0
    event: str = ""  # "Friday Night, round 2" for a pod of an event


def _event_label(game: Game) -> str:
    table = getattr(game, "tournament_table", None)
    if table is None:
        return ""
    return _("%(event)s, round %(number)s") % {
        "event": table.round.tournament.name,
        "number": table.round.number,
    }


def my_games(league: League, player: Player, limit: int = MY_GAMES) -> list[MyGame]:
    """`player`'s latest games in the league, with their pod and the claims made in them
    (withdrawn ones left out): two queries and a prefetch."""
    games = list(
        Game.objects.filter(league=league, results__player=player)
        .select_related("tournament_table__round__tournament")
        .order_by("-played_on", "-id")
        .prefetch_related(
            Prefetch("results", GameResult.objects.select_related("player").order_by("placement"))
        )[:limit]
    )
    claims: dict[int, list[Claim]] = {}
    for claim in (
        Claim.objects.filter(game__in=games)
        .exclude(status=Claim.Status.WITHDRAWN)
        .select_related("achievement", "player", "answered_by")
        .order_by("created_at", "id")
    ):
        claims.setdefault(claim.game_id, []).append(claim)
    out = []
    for game in games:
        pod = [(r.player.name, r.placement, r.player_id == player.pk) for r in game.results.all()]
        mine = next((place for _, place, me in pod if me), 0)
        lines = [
            ClaimLine(
                claim=c,
                mine=c.player_id == player.pk,
                can_answer=c.player_id != player.pk and c.status == Claim.Status.PENDING,
                can_withdraw=c.player_id == player.pk
                and c.status in (Claim.Status.PENDING, Claim.Status.DISPUTED),
            )
            for c in claims.get(game.pk, [])
        ]
        out.append(
            MyGame(game=game, pod=pod, claims=lines, my_place=mine, event=_event_label(game))
        )
    return out


def waiting_for_me(games: list[MyGame]) -> int:
    return sum(1 for g in games for line in g.claims if line.can_answer)


def open_claims(league: League) -> list[Claim]:
    """Claims the organizer may settle: disputed first, then those still waiting."""
    claims = Claim.objects.filter(
        achievement__league=league,
        status__in=(Claim.Status.DISPUTED, Claim.Status.PENDING),
    ).select_related("achievement", "player", "answered_by")
    return sorted(claims, key=lambda c: (c.status != Claim.Status.DISPUTED, c.night, c.pk))


def recent_claims(league: League, limit: int = 20) -> list[Claim]:
    return list(
        Claim.objects.filter(achievement__league=league)
        .exclude(status__in=(Claim.Status.DISPUTED, Claim.Status.PENDING))
        .select_related("achievement", "player", "answered_by")
        .order_by("-created_at", "-id")[:limit]
    )


def award_choices(league: League) -> tuple[list[Player], list[Game]]:
    """The league's players (those who played in it) and its latest games, for the award."""
    players = list(
        Player.objects.filter(results__game__league=league)
        .distinct()
        .order_by(*folded_order("name"))
    )
    games = list(
        Game.objects.filter(league=league)
        .order_by("-played_on", "-id")
        .prefetch_related(
            Prefetch("results", GameResult.objects.select_related("player").order_by("placement"))
        )[:AWARD_GAMES]
    )
    return players, games
