"""Reads for the league pages: one function per page's data, a fixed number of queries each."""

from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.http import Http404

from .domain.ranking import competition_ranks
from .models import GameResult, League, Organization, Player
from .permissions import managed_organization_ids, scope, visible_leagues


def league_get(*, slug: str, user) -> League:
    """The league if `user` may see it; 404 otherwise, so private leagues do not leak."""
    try:
        return visible_leagues(user).get(slug=slug)
    except League.DoesNotExist:
        raise Http404("No such league.") from None


def organization_list_with_leagues(*, user) -> list[Organization]:
    """Organizations that have at least one league `user` may see, each with `.shown_leagues`."""
    leagues = list(
        visible_leagues(user)
        .annotate(game_count=Count("games"), last_played=Max("games__played_on"))
        .order_by("organization__name", "name")
    )
    organizations: dict[int, Organization] = {}
    for league in leagues:
        org = organizations.setdefault(league.organization_id, league.organization)
        if not hasattr(org, "shown_leagues"):
            org.shown_leagues = []
        org.shown_leagues.append(league)
    return list(organizations.values())


@dataclass
class StandingRow:
    rank: int
    tied: bool
    player_id: int
    name: str
    games: int
    wins: int
    win_percent: float
    last_played: date | None

    @property
    def sort_name(self) -> str:
        return self.name.lower()


def league_standings(*, league: League) -> list[StandingRow]:
    """Every player who has played in the league, ranked by wins, then win %, in one query.

    Shared first places count as wins. Players level on both share a rank (1, 2, 2, 4);
    within a shared rank they are listed by name.
    """
    rows = (
        GameResult.objects.filter(game__league=league)
        .values("player_id", "player__name")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(placement=1)),
            last_played=Max("game__played_on"),
        )
    )
    table = [
        StandingRow(
            rank=0,
            tied=False,
            player_id=r["player_id"],
            name=r["player__name"],
            games=r["games"],
            wins=r["wins"],
            win_percent=100.0 * r["wins"] / r["games"],
            last_played=r["last_played"],
        )
        for r in rows
    ]

    def strength(row):
        return (row.wins, row.wins / row.games)

    table.sort(key=lambda row: (-row.wins, -row.wins / row.games, row.name.lower()))
    for row, (rank, tied) in zip(table, competition_ranks(table, strength), strict=True):
        row.rank, row.tied = rank, tied
    return table


def _with_results(games: QuerySet) -> QuerySet:
    return games.select_related("entered_by").prefetch_related(
        Prefetch(
            "results",
            queryset=GameResult.objects.select_related("player").order_by(
                "placement", "seat", "id"
            ),
        )
    )


def league_game_log(*, league: League) -> QuerySet:
    """The league's games, newest first, with their results."""
    return _with_results(league.games.order_by("-played_on", "-id"))


def league_games_in_rating_order(*, league: League) -> QuerySet:
    """The league's games in the order they are rated (date, then entry), with results."""
    return _with_results(league.games.order_by("played_on", "id"))


def league_player_get(*, league: League, player_id: int) -> Player:
    """A player of the league's organization who has played in the league (else 404)."""
    player = (
        Player.objects.filter(
            pk=player_id, organization_id=league.organization_id, results__game__league=league
        )
        .distinct()
        .first()
    )
    if player is None:
        raise Http404("No such player in this league.")
    return player


def player_game_history(*, league: League, player: Player) -> QuerySet:
    """The player's games in the league, newest first, with every result of each game."""
    return _with_results(league.games.filter(results__player=player).order_by("-played_on", "-id"))


def league_player_names(*, league: League) -> list[str]:
    """Names to suggest when entering a game: the organization's players, by name."""
    return list(
        Player.objects.filter(organization_id=league.organization_id)
        .order_by("name")
        .values_list("name", flat=True)
    )


def managed_leagues(*, user) -> QuerySet:
    """Leagues whose games `user` may enter, correct and import."""
    return scope(League.objects.select_related("organization"), managed_organization_ids(user))
