"""Public league pages: no login needed to look at a public league.

The standings by rating, the game log with each game's rating changes, and a player's page
with their rating chart. They live in the ratings app because they show ratings, and so do their
templates (ratings/league_detail.html ...); the URLs are the ones they always had. The standings
are kept in the shared cache per version of the league (core.pagecache), with ETags for a 304.
"""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.pagecache import Scope, public_page
from core.query import page_number
from leagues import selectors
from leagues.models import League
from leagues.views import league_context

from . import selectors as rating_selectors
from . import tables
from .domain.chart import rating_chart
from .models import Rating

GAMES_PER_PAGE = 25
# The league's rating settings, read with the league (one query for both).
RATED = ("rating_settings",)


def league_page_scopes(request, slug: str, **kwargs) -> list[Scope]:
    """The league if the visitor may see it (else 404). Each replay bumps the league's version
    (ratings.services), the store's edits the organization's."""
    league = selectors.league_get(slug=slug, user=request.user)
    return [("league", league.pk), ("org", league.organization_id)]


def league_route(request, slug: str, **kwargs) -> str:
    return f"league:{slug}"


def league_rerating(scopes: list[Scope]) -> bool:
    """Render it fresh while its ratings lag a change: the page then shows the progress."""
    league_id = next(key for scope, key in scopes if scope == "league")
    return rating_selectors.ratings_pending(league=League(pk=league_id)) is not None


@public_page(league_page_scopes, route=league_route, fresh_if=league_rerating)
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Standings by rating: sortable, paginated, with a live name search swapping the table.
    One page of the board comes from SQL (ratings.selectors.league_board), ranked over the
    whole league, sorted and cut to the page in the query."""
    league = selectors.league_get(
        slug=slug, user=request.user, related=RATED, annotate=rating_selectors.PENDING_JOB
    )
    system = rating_selectors.league_system(league=league)
    query = request.GET.get("q", "").strip()[:80]
    order = request.GET.get("sort", "")
    number = page_number(request.GET.get("page"))
    board = rating_selectors.league_board(
        league=league,
        system=system,
        query=query,
        order=order,
        offset=(number - 1) * PER_PAGE,
        limit=PER_PAGE,
    )
    # A range stands for the board's rows (only their count matters; league_board fetched
    # the page's): Django's Page then knows its length, numbers and neighbours.
    page = Paginator(range(board.count), PER_PAGE).get_page(number)
    if page.number != number:  # past the last page: show the last one, as Django's get_page
        board = rating_selectors.league_board(
            league=league,
            system=system,
            query=query,
            order=order,
            offset=(page.number - 1) * PER_PAGE,
            limit=PER_PAGE,
        )
    empty_text = (
        _('No player matches "%(query)s": try part of the name.') % {"query": query}
        if query
        else _("No games yet: the standings fill in once the league's first game is entered.")
    )
    template = "ratings/league_detail.html"
    if request.htmx and request.htmx.target == "standings":
        template += "#standings-table"
    context = league_context(
        request,
        league,
        "standings",
        board_header=tables.header(board.order, request.GET),
        board_rows=tables.cells(board.rows, league_slug=league.slug, system=system),
        board_pages=tables.page_links(page, request.GET),
        board_empty=empty_text,
        query=query,
        player_count=board.count if not query else Rating.objects.filter(league=league).count(),
        system=system,
        updating=rating_selectors.ratings_pending(league=league),
    )
    return render(request, template, context)


PER_PAGE = 50


def _cards(page) -> None:
    """The page's games as cards (leagues.selectors.game_cards) with their rating changes."""
    page.object_list = selectors.game_cards(page.object_list)
    rating_selectors.attach_rating_changes(page.object_list)


def player_url_prefix(league: League) -> str:
    """A player page's address before the id (`<prefix><id>/`): reversed once per page."""
    url = reverse("player_detail", args=[league.slug, 0])
    return url.removesuffix("0/")


def league_games(request: HttpRequest, slug: str) -> HttpResponse:
    league = selectors.league_get(slug=slug, user=request.user)
    page = Paginator(selectors.league_game_ids(league=league), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    _cards(page)
    context = league_context(
        request, league, "games", page=page, player_url=player_url_prefix(league)
    )
    return render(request, "ratings/league_games.html", context)


def _axis_date(day, *, month_only: bool) -> str:
    """A chart's axis date in the reader's language: "3 Mar", "Mar 2026"."""
    return date_format(day, "GH_MONTH" if month_only else "GH_DAY_MONTH")


def player_detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    league = selectors.league_get(slug=slug, user=request.user, related=RATED)
    player = selectors.league_player_get(league=league, player_id=player_id)
    history = selectors.player_game_ids(league=league, player=player)
    page = Paginator(history, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    _cards(page)
    system = rating_selectors.league_system(league=league)
    standing = rating_selectors.player_standing(league=league, player_id=player.pk, system=system)
    points = rating_selectors.player_rating_history(league=league, player_id=player.pk)
    chart = rating_chart(points, decimals=0 if system.integer else 1, date_text=_axis_date)
    context = league_context(
        request,
        league,
        "standings",
        player=player,
        page=page,
        standing=standing,
        system=system,
        chart=chart,
        chart_title=_("%(player)s's rating") % {"player": player.name},
        biggest_wins=rating_selectors.player_biggest_wins(league=league, player_id=player.pk),
        player_url=player_url_prefix(league),
        claim=selectors.player_claim_state(player=player, user=request.user),
    )
    return render(request, "ratings/player_detail.html", context)
