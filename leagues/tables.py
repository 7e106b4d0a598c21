"""django-tables2 tables for league pages. Standings arrive ranked from the selector."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html


class StandingsTable(tables.Table):
    rank = tables.Column(
        verbose_name="#", orderable=False, attrs={"td": {"class": "rank"}, "th": {"class": "rank"}}
    )
    name = tables.Column(
        verbose_name="Player",
        order_by=("sort_name",),
        attrs={"td": {"class": "name"}, "th": {"class": "name"}},
    )
    games = tables.Column(
        verbose_name="Games", attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    wins = tables.Column(
        verbose_name="Wins", attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    win_percent = tables.Column(
        verbose_name="Win %", attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    last_played = tables.DateColumn(
        verbose_name="Last played",
        format="Y-m-d",
        attrs={"td": {"class": "wide-only"}, "th": {"class": "wide-only"}},
    )

    class Meta:
        attrs = {"class": "standings"}
        empty_text = "No games yet."
        order_by = ()

    def __init__(self, *args, league, **kwargs):
        self.league = league
        self.htmx_id = "standings"
        super().__init__(*args, **kwargs)

    def render_rank(self, value, record):
        return f"{value}=" if record.tied else value

    def render_name(self, value, record):
        url = reverse("player_detail", args=[self.league.slug, record.player_id])
        return format_html('<a href="{}">{}</a>', url, value)

    def render_win_percent(self, value):
        return f"{value:.1f}"
