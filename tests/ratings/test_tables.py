"""The leaderboard's plain-loop body says, cell for cell, what django-tables2 would render.

RatingTable.page_cells bypasses django-tables2's per-cell rendering; the reference here is
that very rendering (`BoundRow` cells through the `render_*` methods), for a board with a
tie, gains and losses, sorted by a column and on a second page.
"""

import pytest
from django.test import RequestFactory
from django.utils import timezone
from django_tables2 import RequestConfig

from ratings import selectors
from ratings.tables import RatingTable
from tests.factories import PlayerFactory
from tests.ratings.test_selectors import LONG_AGO, record

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query", ["", "?sort=-change", "?sort=name&per_page=3&page=2"])
def test_page_cells_equal_django_tables2s_own_cells(
    league, django_capture_on_commit_callbacks, query
):
    a, b, c, d, e, f, g, h = PlayerFactory.create_batch(8, organization=league.organization)
    for players, day in [([a, b], LONG_AGO), ([c, d], LONG_AGO), ([e, f, g, h], None)]:
        with django_capture_on_commit_callbacks(execute=True):
            record(league, players, day or timezone.localdate())
    system = selectors.league_system(league=league)
    table = RatingTable(selectors.league_ratings(league=league), league=league, system=system)
    RequestConfig(RequestFactory().get("/" + query), paginate={"per_page": 50}).configure(table)

    tables2 = [[str(cell) for cell in row.cells] for row in table.paginated_rows]
    plain = [[str(cell) for cell in cells] for cells in table.page_cells]
    assert plain == tables2
    assert len(plain) == (3 if "page=2" in query else 8)
    if "page=2" not in query:  # the shared second place, as the board ranks it
        assert sum((cells[0], cells[2]) == ("2=", "1520") for cells in plain) == 3
