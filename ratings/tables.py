"""The rating leaderboard's columns, header sort links, rows and page links, computed once per
page for ratings/jinja2/ratings/board.jinja (Jinja2, autoescape on) to draw. Rows arrive as one
page of the board, ranked, sorted and cut in SQL (ratings.selectors.league_board).

Not django-tables2 (the organizers' lists use it): this is a hot public page, and its per-cell
rendering (an `inspect.signature` each) cost 20-30 times the rows, its header and page links (a
`querystring_replace` tag per link) more than the board's query (bench/pages.py). Sorting and
paging are the view's `?sort=` and `?page=` (the aliases of ratings.selectors.BOARD_ORDERS);
COLUMNS is the one definition of the columns: their order, headers, CSS classes and which sort.
"""

from dataclasses import dataclass

from django.core.paginator import Page
from django.http import QueryDict
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .domain.base import RatingSystem
from .selectors import RatingRow, format_rating


@dataclass(frozen=True, slots=True)
class Column:
    key: str  # the `?sort=` alias (ratings.selectors.BOARD_ORDERS)
    label: str  # lazy: translated when a page draws it
    css: str  # the header cell's class (the body's cells are in ratings/board.jinja)
    sortable: bool


COLUMNS = (
    Column("rank", "#", "rank", False),
    Column("name", _("Player"), "name", True),
    Column("rating", _("Rating"), "num", True),
    # Translators: the column of the rating's change over the last 30 days.
    Column("change", _("30 d"), "num", True),
    Column("games", _("Games"), "num", True),
    Column("wins", _("Wins"), "num", True),
    Column("draws", _("Draws"), "num", True),
    Column("win_percent", _("Win %"), "num wide-only", True),
    Column("last_played", _("Last played"), "wide-only", True),
)


@dataclass(frozen=True, slots=True)
class HeaderCell:
    label: str
    css: str  # with "orderable" and "asc"/"desc" for a sortable column (the arrows' CSS)
    href: str  # "" when the column does not sort
    aria_sort: str  # "ascending", "descending" or "none"


def _query(params: QueryDict, **changes) -> str:
    """The page's query string with `changes` replacing those keys (the others kept)."""
    query = params.copy()
    for key, value in changes.items():
        query[key] = str(value)
    return "?" + query.urlencode()


def header(order: str, params: QueryDict) -> list[HeaderCell]:
    """Each column's header: a sortable one links to its next order (ascending, then
    descending once it is sorted ascending), back to page 1."""
    cells = []
    for column in COLUMNS:
        if not column.sortable:
            cells.append(HeaderCell(str(column.label), column.css, "", "none"))
            continue
        ascending, descending = order == column.key, order == f"-{column.key}"
        direction = " asc" if ascending else " desc" if descending else ""
        cells.append(
            HeaderCell(
                str(column.label),
                f"{column.css} orderable{direction}",
                _query(params, sort=f"-{column.key}" if ascending else column.key, page=1),
                "ascending" if ascending else "descending" if descending else "none",
            )
        )
    return cells


@dataclass(frozen=True, slots=True)
class PageLink:
    label: str
    href: str  # "" for the current page and for a gap ("…")
    current: bool = False


@dataclass(frozen=True, slots=True)
class PageLinks:
    previous: str
    next: str
    numbers: list[PageLink]


def page_links(page: Page, params: QueryDict) -> PageLinks | None:
    """Previous, next and the page numbers around this one (gaps elided); None for one page."""
    if page.paginator.num_pages <= 1:
        return None
    numbers = []
    for number in page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1):
        if number == page.paginator.ELLIPSIS:
            numbers.append(PageLink(str(number), ""))
        elif number == page.number:
            numbers.append(PageLink(str(number), "", current=True))
        else:
            numbers.append(PageLink(str(number), _query(params, page=number)))
    return PageLinks(
        previous=_query(params, page=page.number - 1) if page.has_previous() else "",
        next=_query(params, page=page.number + 1) if page.has_next() else "",
        numbers=numbers,
    )


def cells(rows: list[RatingRow], *, league_slug: str, system: RatingSystem) -> list[dict]:
    """Every row's cells as plain values for ratings/jinja2/ratings/board.jinja to draw: rank
    (with "=" when tied), the player's page and name (and whether provisional), rating, the
    30-day change (its sign, a real minus, and "up"/"down"; "" when none), games, wins, draws,
    win % (wins / games), last played. Dicts, read by key (`row["rank"]`, Jinja2's item
    lookup first): fifty rows of twelve lookups are most of the fragment's rendering."""
    url = reverse("player_detail", args=[league_slug, 0])
    prefix = url.removesuffix("0/")
    assert prefix != url, "player_detail no longer ends in <player_id>/"
    return [
        {
            "rank": f"{row.rank}=" if row.tied else row.rank,
            "url": f"{prefix}{row.player_id}/",
            "name": row.name,
            "provisional": row.provisional,
            "rating": format_rating(row.rating, system),
            **_change(row.change, system),
            "games": row.games,
            "wins": row.wins,
            "draws": row.draws,
            "win_percent": f"{row.win_percent:.1f}",
            "last_played": row.last_played.isoformat() if row.last_played else "\u2014",
        }
        for row in rows
    ]


def _change(value: float, system: RatingSystem) -> dict:
    if not value:
        return {"trend": "", "change": ""}
    shown = format_rating(abs(value), system)
    if value > 0:
        return {"trend": "up", "change": f"+{shown}"}
    return {"trend": "down", "change": f"\u2212{shown}"}  # a real minus sign, as in print
