"""The leaderboard fragment's HTML, pinned: what an htmx request for #standings gets back, for a
board of four players worked out by hand (Guildmaster Elo: a 2-player game moves 20; ties share
a rank shown as "1="; names sort by byte within a tie; the 30-day change counts today's game
only). Whitespace between tags is not part of the pin."""

import re

import pytest
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils import timezone

from ratings import tables
from ratings.domain.elo import GuildmasterElo
from tests.factories import PlayerFactory
from tests.ratings.test_selectors import LONG_AGO, record
from tests.ratings.test_tables import row

pytestmark = pytest.mark.django_db


def sortable(key: str, label: str, css: str) -> str:
    href = f"?sort={key}&amp;page=1"
    return (
        f'<th class="{css} orderable" aria-sort="none">'
        f'<a href="{href}" hx-get="{href}">{label}</a></th>'
    )


def rows_by_hand(today: str) -> list[tuple]:
    up = '<span class="up">+20</span>'
    down = '<span class="down">\u221220</span>'
    same = '<span class="muted">\u2013</span>'
    return [
        # rank, player id index, name as HTML, change, wins, win %, last played
        ("1=", 0, "Ann", same, 1, "100.0", LONG_AGO.isoformat()),
        ("1=", 2, "Cy", up, 1, "100.0", today),
        ("3=", 1, "Bo &lt;b&gt; &amp; co", same, 0, "0.0", LONG_AGO.isoformat()),
        ("3=", 3, "Dee", down, 0, "0.0", today),
    ]


def normalised(html: str) -> str:
    return re.sub(r">\s+<", "><", html.strip())


def test_the_board_fragment_html(client, league, django_capture_on_commit_callbacks):
    ann, bo, cy, dee = (
        PlayerFactory(organization=league.organization, name=name)
        for name in ("Ann", "Bo <b> & co", "Cy", "Dee")
    )
    with django_capture_on_commit_callbacks(execute=True):
        record(league, [ann, bo], LONG_AGO)  # Ann 1520, Bo 1480, long ago
    with django_capture_on_commit_callbacks(execute=True):
        record(league, [cy, dee], timezone.localdate())  # Cy 1520 (+20), Dee 1480 (-20)
    ids = [ann.pk, bo.pk, cy.pk, dee.pk]
    ratings = {"1=": "1520", "3=": "1480"}

    response = client.get(
        f"/leagues/{league.slug}/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="standings"
    )

    body = "".join(
        f'<tr class="{"odd" if index % 2 else "even"}"><td class="rank">{rank}</td>'
        f'<td class="name"><a href="/leagues/{league.slug}/players/{ids[who]}/">{name}</a></td>'
        f'<td class="num">{ratings[rank]}</td><td class="num">{change}</td>'
        f'<td class="num">1</td><td class="num">{wins}</td><td class="num">0</td>'
        f'<td class="num wide-only">{percent}</td><td class="wide-only">{played}</td></tr>'
        for index, (rank, who, name, change, wins, percent, played) in enumerate(
            rows_by_hand(timezone.localdate().isoformat())
        )
    )
    assert normalised(response.content.decode()) == (
        '<div class="table-wrap htmx-table" id="standings" hx-target="this" '
        'hx-swap="outerHTML" hx-push-url="true" tabindex="0"><table class="standings"><thead><tr>'
        '<th class="rank">#</th>'
        + sortable("name", "Player", "name")
        + sortable("rating", "Rating", "num")
        + sortable("change", "30 d", "num")
        + sortable("games", "Games", "num")
        + sortable("wins", "Wins", "num")
        + sortable("draws", "Draws", "num")
        + sortable("win_percent", "Win %", "num wide-only")
        + sortable("last_played", "Last played", "wide-only")
        + f"</tr></thead><tbody>{body}</tbody></table></div>"
    )


def test_a_provisional_players_name_carries_the_tag():
    """The tag beside the name (no Elo player is provisional, so the rows are made here)."""

    cells = tables.cells(
        [row(1, "Bo <b>", 1500.0, 0.0, provisional=True)],
        league_slug="fnm",
        system=GuildmasterElo(),
    )
    html = render_to_string(
        "ratings/board.jinja",
        {"rows": cells, "header": tables.header("", QueryDict()), "pages": None},
        using="jinja2",
    )
    assert (
        '<td class="name"><a href="/leagues/fnm/players/10/">Bo &lt;b&gt;</a> <span class="tag" '
        'title="fewer games than the league counts as settled">provisional</span></td>'
    ) in html
