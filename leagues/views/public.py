"""Public pages: no login needed to look at a public league."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2 import RequestConfig

from .. import selectors
from ..tables import StandingsTable
from . import league_context

GAMES_PER_PAGE = 25


def home(request: HttpRequest) -> HttpResponse:
    organizations = selectors.organization_list_with_leagues(user=request.user)
    return render(request, "leagues/home.html", {"organizations": organizations})


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Standings: a sortable, paginated table with a name search that swaps it in place."""
    league = selectors.league_get(slug=slug, user=request.user)
    standings = selectors.league_standings(league=league)
    query = request.GET.get("q", "").strip()
    shown = [row for row in standings if query.lower() in row.name.lower()] if query else standings
    table = StandingsTable(shown, league=league)
    table.empty_text = f'No player matches "{query}".' if query else "No games yet."
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    template = "leagues/league_detail.html"
    if request.htmx and request.htmx.target == "standings":
        template += "#standings-table"
    context = league_context(
        request, league, "standings", table=table, query=query, player_count=len(standings)
    )
    return render(request, template, context)


def league_games(request: HttpRequest, slug: str) -> HttpResponse:
    league = selectors.league_get(slug=slug, user=request.user)
    page = Paginator(selectors.league_game_log(league=league), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request, "leagues/league_games.html", league_context(request, league, "games", page=page)
    )


def player_detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    league = selectors.league_get(slug=slug, user=request.user)
    player = selectors.league_player_get(league=league, player_id=player_id)
    history = selectors.player_game_history(league=league, player=player)
    page = Paginator(history, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    standing = next(
        (r for r in selectors.league_standings(league=league) if r.player_id == player.pk), None
    )
    return render(
        request,
        "leagues/player_detail.html",
        league_context(request, league, "standings", player=player, page=page, standing=standing),
    )
