"""The rating chart's SVG pinned: `golden/chart.svg` was copied from the chart's output on the
fixed input below while the SVG was still built in Python, checked by eye (five weekly games,
gridlines every 50 from 1400 to 1600, a title with every character HTML escapes), and committed
before the markup moved into the player page's `rating-chart` partial."""

import datetime
import re
from pathlib import Path

from ratings.domain.chart import rating_chart_svg

DAY = datetime.date(2026, 10, 2)
POINTS = [
    (DAY + datetime.timedelta(days=7 * i), v)
    for i, v in enumerate([1500, 1540.5, 1520, 1561, 1437])
]
TITLE = 'Ann\'s <rating> & "more"'


def tags_only(html: str) -> str:
    """The markup without the whitespace between tags (a template's line breaks)."""
    return re.sub(r">\s+<", "><", html.strip())


def test_the_chart_draws_as_pinned():
    expected = (Path(__file__).parent / "golden" / "chart.svg").read_text()
    assert tags_only(rating_chart_svg(POINTS, title=TITLE, decimals=1)) == tags_only(expected)
