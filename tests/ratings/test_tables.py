"""The leaderboard's header, cells and page links (ratings.tables), worked by hand; the rows' HTML
is pinned in test_board_html."""

import datetime

import pytest
from django.core.paginator import Paginator
from django.http import QueryDict

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
    keys = ["rank", "url", "name", "provisional", "rating", "trend", "change", "games", "wins",
            "draws", "win_percent", "last_played"]  # fmt: skip
    assert [[cells[key] for key in keys] for cells in got] == [
        [1, "/leagues/fnm/players/10/", "Ann", False, "1532", "up", "+12", 10, 4, 1, "40.0",
         "2026-03-08"],
        ["2=", "/leagues/fnm/players/20/", "Bob <b>", True, "1500", "", "", 3, 0, 2, "0.0",
         "2026-03-08"],
        ["2=", "/leagues/fnm/players/30/", "Cy", False, "1500", "down", "\u22129", 0, 0, 0, "0.0",
         "2026-03-08"],
    ]  # fmt: skip
    assert all(sorted(cells) == sorted(keys) for cells in got)


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
