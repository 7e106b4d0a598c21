"""The rating leaderboard: its columns as a django-tables2 `Table` (RatingTable), drawn by a
plain template (ratings/board.html) from what this module computes once per page: the header's
sort links, each row's cells, the page links. Rows arrive as one page of the board, ranked,
sorted and cut in SQL (ratings.selectors.league_board).

django-tables2's own rendering is not used: its per-cell rendering (an `inspect.signature`
each) cost 20-30 times the rows, and with the body a plain loop its header and page links (a
`querystring_replace` tag per link) still cost more than the board's query (bench/pages.py).
Sorting and paging are the view's `?sort=` and `?page=` (the aliases of
ratings.selectors.BOARD_ORDERS), so the table class keeps the one definition of the columns:
their order, headers, CSS classes and which of them sort.
"""

import html
from dataclasses import dataclass

import django_tables2 as tables
from django.core.paginator import Page
from django.http import QueryDict
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from .domain.base import RatingSystem
from .selectors import RatingRow, format_rating

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class RatingTable(tables.Table):
    """The leaderboard's columns (drawn by ratings/board.html, not by django-tables2)."""

    rank = tables.Column(
        verbose_name="#", orderable=False, attrs={"td": {"class": "rank"}, "th": {"class": "rank"}}
    )
    name = tables.Column(verbose_name="Player", attrs={"th": {"class": "name"}})
    rating = tables.Column(verbose_name="Rating", attrs=NUM)
    change = tables.Column(verbose_name="30 d", attrs=NUM)
    games = tables.Column(verbose_name="Games", attrs=NUM)
    wins = tables.Column(verbose_name="Wins", attrs=NUM)
    draws = tables.Column(verbose_name="Draws", attrs=NUM)
    win_percent = tables.Column(verbose_name="Win %", attrs={"th": {"class": "num wide-only"}})
    last_played = tables.Column(verbose_name="Last played", attrs={"th": {"class": "wide-only"}})


@dataclass(frozen=True, slots=True)
class Column:
    key: str  # the `?sort=` alias (ratings.selectors.BOARD_ORDERS)
    label: str
    css: str
    sortable: bool


COLUMNS = tuple(
    Column(
        key, str(column.verbose_name), column.attrs["th"]["class"], column.orderable is not False
    )
    for key, column in RatingTable.base_columns.items()
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
            cells.append(HeaderCell(column.label, column.css, "", "none"))
            continue
        ascending, descending = order == column.key, order == f"-{column.key}"
        direction = " asc" if ascending else " desc" if descending else ""
        cells.append(
            HeaderCell(
                column.label,
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


def cells(rows: list[RatingRow], *, league_slug: str, system: RatingSystem) -> list[tuple]:
    """Every row's cells as text: rank (with "=" when tied), the name linking to the player's
    page (tagged provisional), rating, 30-day change, games, wins, draws, win % (wins / games),
    last played."""
    url = reverse("player_detail", args=[league_slug, 0])
    prefix = url.removesuffix("0/")
    assert prefix != url, "player_detail no longer ends in <player_id>/"
    return [
        (
            f"{row.rank}=" if row.tied else row.rank,
            name_cell(f"{prefix}{row.player_id}/", row),
            format_rating(row.rating, system),
            change_cell(row.change, system),
            row.games,
            row.wins,
            row.draws,
            f"{row.win_percent:.1f}",
            row.last_played.isoformat() if row.last_played else "\u2014",
        )
        for row in rows
    ]


def body(rows: list[tuple]) -> SafeString:
    """The board's `<tr>` lines from `cells`, built here rather than by a template loop: fifty
    rows of eight cells were most of the page's rendering (a variable lookup, a localisation
    check and an escape per cell). Every cell is escaped unless it is already safe HTML."""
    return mark_safe(
        "".join(
            f'\n<tr class="{"odd" if index % 2 else "even"}"><td class="rank">{_text(rank)}</td>'
            f'<td class="name">{_text(name)}</td><td class="num">{_text(rating)}</td>'
            f'<td class="num">{_text(change)}</td><td class="num">{_text(games)}</td>'
            f'<td class="num">{_text(wins)}</td><td class="num">{_text(draws)}</td>'
            f'<td class="num wide-only">{_text(win_percent)}</td>'
            f'<td class="wide-only">{_text(last_played)}</td></tr>\n'
            for index, (
                rank,
                name,
                rating,
                change,
                games,
                wins,
                draws,
                win_percent,
                last_played,
            ) in (enumerate(rows))
        )
    )


def _text(value) -> str:
    """A cell as HTML: safe HTML and numbers as they are, anything else escaped (the standard
    library's escape, as Django's, without its lazy-string wrapper: this runs 400 times a page)."""
    if isinstance(value, (SafeString, int)):
        return str(value)
    return html.escape(str(value))


def name_cell(url: str, row: RatingRow) -> SafeString:
    link = f'<a href="{html.escape(url)}">{html.escape(row.name)}</a>'
    if row.provisional:
        link += (
            ' <span class="tag" title="fewer games than the league counts as settled">'
            "provisional</span>"
        )
    return mark_safe(link)


def change_cell(value: float, system: RatingSystem) -> str:
    if not value:
        return mark_safe('<span class="muted">\u2013</span>')
    shown = format_rating(abs(value), system)
    css = "up" if value > 0 else "down"
    sign = "+" if value > 0 else "\u2212"  # a real minus sign, as in print
    return mark_safe(f'<span class="{css}">{sign}{html.escape(shown)}</span>')
