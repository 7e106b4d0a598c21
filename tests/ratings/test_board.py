"""The leaderboard page from SQL (selectors.league_board) against the whole board built in
Python (selectors.league_ratings, the board the page used to cut): the same rows, ranks, ties
and 30-day changes in every order the table offers, page by page, and a name search keeps the
league rank. Ratings by hand as in test_selectors (Guildmaster: 2-player games move 20, a
4-player game +60, +20, -20, -60)."""

import pytest
from django.utils import timezone

from ratings import selectors
from tests.factories import PlayerFactory
from tests.ratings.test_selectors import LONG_AGO, record

pytestmark = pytest.mark.django_db

NAMES = ["eve", "Ann", "cy", "Bob", "Dee", "finn", "Gus", "hal"]


@pytest.fixture
def board(league, django_capture_on_commit_callbacks):
    e, a, c, b, d, f, g, h = (
        PlayerFactory(organization=league.organization, name=n) for n in NAMES
    )
    with django_capture_on_commit_callbacks(execute=True):
        record(league, [a, b], LONG_AGO)  # Ann 1520, Bob 1480
    with django_capture_on_commit_callbacks(execute=True):
        record(league, [c, d], LONG_AGO)  # cy 1520, Dee 1480
    with django_capture_on_commit_callbacks(execute=True):
        record(league, [e, f, g, h], timezone.localdate())  # 1560, 1520, 1480, 1440
    return league


def as_tuples(rows):
    return [(r.rank, r.tied, r.name, round(r.rating), round(r.change)) for r in rows]


def python_order(rows, alias: str):
    """The whole board sorted as django-tables2 sorts a list: a stable sort by the column."""
    if alias in ("", "-rating"):
        return list(rows)
    name = alias.lstrip("-")
    key = {"name": lambda r: r.sort_name, "rating": lambda r: r.rating}.get(
        name, lambda r: getattr(r, name)
    )
    return sorted(rows, key=key, reverse=alias.startswith("-"))


@pytest.mark.parametrize("alias", sorted(selectors.BOARD_ORDERS))
def test_every_order_page_by_page_equals_the_python_board(board, alias):
    whole = selectors.league_ratings(league=board)
    expected = as_tuples(python_order(whole, alias))
    pages = []
    for offset in range(0, 9, 3):
        page = selectors.league_board(league=board, order=alias, offset=offset, limit=3)
        assert page.count == 8
        pages += as_tuples(page.rows)
    assert pages == expected


def test_the_ranks_and_ties_by_hand(board):
    rows = as_tuples(selectors.league_board(league=board).rows)
    assert rows == [
        (1, False, "eve", 1560, 60),
        (2, True, "Ann", 1520, 0),
        (2, True, "cy", 1520, 0),
        (2, True, "finn", 1520, 20),
        (5, True, "Bob", 1480, 0),
        (5, True, "Dee", 1480, 0),
        (5, True, "Gus", 1480, -20),
        (8, False, "hal", 1440, -60),
    ]


def test_a_search_keeps_the_league_rank(board):
    found = selectors.league_board(league=board, query="E")
    assert as_tuples(found.rows) == [
        (1, False, "eve", 1560, 60),
        (5, True, "Dee", 1480, 0),
    ]
    assert found.count == 2
    nobody = selectors.league_board(league=board, query="zed")
    assert (nobody.rows, nobody.count) == ([], 0)


def test_an_unknown_order_is_the_board_order_and_a_page_past_the_end_is_empty(board):
    assert selectors.league_board(league=board, order="; DROP TABLE").order == ""
    past = selectors.league_board(league=board, offset=50, limit=50)
    assert (past.rows, past.count) == ([], 8)


def test_the_page_costs_one_query_whatever_the_size(board, django_assert_num_queries):
    """The 30-day change of the shown rows comes in the same statement (it was a second)."""
    system = selectors.league_system(league=board)
    with django_assert_num_queries(1):
        selectors.league_board(league=board, system=system, limit=3)
    with django_assert_num_queries(1):
        selectors.league_board(league=board, system=system, order="-change", limit=3)
