"""Reads for the league pages: one function per page's data, a fixed number of queries each."""

from django.db.models import Count, Max, Prefetch, QuerySet
from django.http import Http404

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
