"""The rating leaderboard table. Rows arrive ranked from ratings.selectors.league_ratings.

django-tables2 sorts, paginates and draws the header; the body is a plain loop in
ratings/rating_table.html over `page_cells`, the shown page's cells formatted here once, so
no cell goes through django-tables2's per-cell rendering (an `inspect.signature` each). The
`render_*` methods stay the one definition of each cell's text, called directly.
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django_tables2.utils import OrderByTuple

from .selectors import format_rating

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class RatingTable(tables.Table):
    rank = tables.Column(
        verbose_name="#", orderable=False, attrs={"td": {"class": "rank"}, "th": {"class": "rank"}}
    )
    name = tables.Column(
        verbose_name="Player",
        order_by=("sort_name",),
        attrs={"td": {"class": "name"}, "th": {"class": "name"}},
    )
    rating = tables.Column(verbose_name="Rating", attrs=NUM)
    change = tables.Column(verbose_name="30 d", attrs=NUM)
    games = tables.Column(verbose_name="Games", attrs=NUM)
    wins = tables.Column(verbose_name="Wins", attrs=NUM)
    win_percent = tables.Column(
        verbose_name="Win %",
        attrs={"td": {"class": "num wide-only"}, "th": {"class": "num wide-only"}},
    )
    last_played = tables.DateColumn(
        verbose_name="Last played",
        format="Y-m-d",
        attrs={"td": {"class": "wide-only"}, "th": {"class": "wide-only"}},
    )

    class Meta:
        template_name = "ratings/rating_table.html"
        attrs = {"class": "standings"}
        empty_text = "No rated games yet."

    def __init__(self, *args, league, system, **kwargs):
        self.league = league
        self.system = system
        self.htmx_id = "standings"
        super().__init__(*args, **kwargs)

    def show_board_page(self, page, order: str) -> None:
        """Show rows that are already one page of the board, sorted by `order` (SQL did both:
        ratings.selectors.league_board): the header marks the order, the page links follow
        `page` (a Django Page of the board's count), and the rows are not sorted again."""
        self.page, self.paginator = page, page.paginator
        self._order_by = OrderByTuple([order] if order else [])
        self._board_page = True

    @property
    def paginated_rows(self):
        if getattr(self, "_board_page", False):
            return self.rows
        return super().paginated_rows

    @property
    def page_cells(self) -> list[tuple]:
        """Every cell of the shown page, as the columns render them, row by row."""
        return [
            (
                self.render_rank(row.rank, row),
                self.render_name(row.name, row),
                self.render_rating(row.rating),
                self.render_change(row.change),
                row.games,
                row.wins,
                self.render_win_percent(row.win_percent),
                row.last_played.isoformat() if row.last_played else "\u2014",
            )
            for row in (bound.record for bound in self.paginated_rows)
        ]

    def render_rank(self, value, record):
        return f"{value}=" if record.tied else value

    def render_name(self, value, record):
        url = reverse("player_detail", args=[self.league.slug, record.player_id])
        if record.provisional:
            return format_html(
                '<a href="{}">{}</a> <span class="tag" title="fewer games than the league '
                'counts as settled">provisional</span>',
                url,
                value,
            )
        return format_html('<a href="{}">{}</a>', url, value)

    def render_rating(self, value):
        return format_rating(value, self.system)

    def render_win_percent(self, value):
        return f"{value:.1f}"

    def render_change(self, value):
        if not value:
            return mark_safe('<span class="muted">\u2013</span>')
        shown = format_rating(abs(value), self.system)
        css = "up" if value > 0 else "down"
        sign = "+" if value > 0 else "\u2212"  # a real minus sign, as in print
        return format_html('<span class="{}">{}{}</span>', css, sign, shown)
