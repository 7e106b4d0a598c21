"""The leaderboard's header, cells and page links (ratings.tables), worked by hand."""

import datetime

import pytest
from django.core.paginator import Paginator
from django.http import QueryDict
from django.utils.safestring import mark_safe

from ratings import tables
from ratings.domain.elo import GuildmasterElo
from ratings.selectors import RatingRow

pytestmark = pytest.mark.django_db


def row(
    rank, name, rating, change, *, pid=None, tied=False, provisional=False, games=10, wins=4,
    draws=1,
):  # fmt: skip
    return RatingRow(
        rank=rank,
        tied=tied,
        player_id=pid or rank * 10,
        name=name,
        rating=rating,
        change=change,
        games=games,
        wins=wins,
        draws=draws,
        last_played=datetime.date(2026, 3, 8),
        provisional=provisional,
    )


def test_cells_format_each_column():
    system = GuildmasterElo()
    got = tables.cells(
        [
            row(1, "Ann", 1532.4, 12.2),
            row(2, "Bob <b>", 1500.0, 0.0, tied=True, provisional=True, games=3, wins=0, draws=2),
            row(2, "Cy", 1500.0, -8.6, pid=30, tied=True, games=0, wins=0, draws=0),
        ],
        league_slug="fnm",
        system=system,
    )
    assert [list(map(str, cells)) for cells in got] == [
        ["1", '<a href="/leagues/fnm/players/10/">Ann</a>', "1532",
         '<span class="up">+12</span>', "10", "4", "1", "40.0", "2026-03-08"],
        ["2=", '<a href="/leagues/fnm/players/20/">Bob &lt;b&gt;</a> <span class="tag" '
         'title="fewer games than the league counts as settled">provisional</span>', "1500",
         '<span class="muted">\u2013</span>', "3", "0", "2", "0.0", "2026-03-08"],
        ["2=", '<a href="/leagues/fnm/players/30/">Cy</a>', "1500",
         '<span class="down">\u22129</span>', "0", "0", "0", "0.0", "2026-03-08"],
    ]  # fmt: skip


def test_body_draws_a_row_per_line_alternating_and_escapes_plain_text():
    got = tables.body(
        [
            (
                1,
                mark_safe('<a href="/p/1/">Ann</a>'),
                "1532",
                "+12",
                10,
                4,
                1,
                "40.0",
                "2026-03-08",
            ),
            ("2=", "Bob <b>", "1500", mark_safe("<i>-</i>"), 3, 0, 2, "0.0", "\u2014"),
        ]
    )
    assert got == (
        '\n<tr class="even"><td class="rank">1</td><td class="name"><a href="/p/1/">Ann</a></td>'
        '<td class="num">1532</td><td class="num">+12</td><td class="num">10</td>'
        '<td class="num">4</td><td class="num">1</td><td class="num wide-only">40.0</td>'
        '<td class="wide-only">2026-03-08</td></tr>\n'
        '\n<tr class="odd"><td class="rank">2=</td><td class="name">Bob &lt;b&gt;</td>'
        '<td class="num">1500</td><td class="num"><i>-</i></td><td class="num">3</td>'
        '<td class="num">0</td><td class="num">2</td><td class="num wide-only">0.0</td>'
        '<td class="wide-only">\u2014</td></tr>\n'
    )
    assert tables.body([]) == ""


def test_header_links_to_each_columns_next_order_on_page_one():
    params = QueryDict("q=bo&sort=games&page=3")
    header = tables.header("games", params)
    assert [cell.label for cell in header] == [
        "#", "Player", "Rating", "30 d", "Games", "Wins", "Draws", "Win %", "Last played"
    ]  # fmt: skip
    got = {cell.label: cell for cell in header}
    assert got["#"].href == "" and got["#"].aria_sort == "none"
    # Sorted ascending by games: its link turns it descending; others sort ascending.
    assert got["Games"].href == "?q=bo&sort=-games&page=1"
    assert got["Games"].aria_sort == "ascending" and got["Games"].css == "num orderable asc"
    assert got["Player"].href == "?q=bo&sort=name&page=1"
    assert got["Player"].aria_sort == "none" and got["Player"].css == "name orderable"
    descending = {cell.label: cell for cell in tables.header("-wins", QueryDict())}
    assert descending["Wins"].href == "?sort=wins&page=1"
    assert descending["Wins"].aria_sort == "descending"
    assert descending["Wins"].css == "num orderable desc"


def test_page_links_elide_far_pages_and_keep_the_query():
    paginator = Paginator(range(1000), 50)  # 20 pages
    links = tables.page_links(paginator.page(10), QueryDict("sort=name&page=10"))
    assert links.previous == "?sort=name&page=9" and links.next == "?sort=name&page=11"
    labels = [(link.label, link.current) for link in links.numbers]
    assert labels == [
        ("1", False), ("\u2026", False), ("8", False), ("9", False), ("10", True),
        ("11", False), ("12", False), ("\u2026", False), ("20", False),
    ]  # fmt: skip
    assert links.numbers[0].href == "?sort=name&page=1" and links.numbers[1].href == ""
    first = tables.page_links(paginator.page(1), QueryDict())
    assert first.previous == "" and first.next == "?page=2"
    assert tables.page_links(Paginator(range(50), 50).page(1), QueryDict()) is None
