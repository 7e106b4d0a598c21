"""The rating chart: valid SVG once the player page's partial draws it, scaled, labelled, and
escaping the title it is given (the geometry is `ratings.domain.chart`; the markup is the
`rating-chart` partial of ratings/player_detail.html, pinned below by golden/chart.svg)."""

import datetime
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from django.template.loader import render_to_string
from django.utils import translation

from ratings.domain.chart import rating_chart
from ratings.pages import _axis_date

SVG = "{http://www.w3.org/2000/svg}"
DAY = datetime.date(2026, 10, 2)


def points(values, step_days=7):
    return [(DAY + datetime.timedelta(days=step_days * i), v) for i, v in enumerate(values)]


def test_no_points_no_chart():
    assert rating_chart([]) is None


def test_a_well_formed_svg_with_title_and_description():
    svg = ET.fromstring(chart_svg(points([1500, 1540, 1520]), "Ann's <rating>"))
    assert svg.find(f"{SVG}title").text == "Ann's <rating>"  # escaped in the markup
    desc = svg.find(f"{SVG}desc").text
    assert desc == "3 rated games; from 1500 to 1520, highest 1540, lowest 1500."


def test_the_line_goes_up_when_the_rating_does():
    svg = ET.fromstring(chart_svg(points([1500, 1600]), "t"))
    path = svg.find(f"{SVG}path").get("d").split()
    (x1, y1), (x2, y2) = (tuple(map(float, p[1:].split(","))) for p in path)
    assert x2 > x1 and y2 < y1  # SVG y grows downwards


def test_gridlines_are_round_numbers_around_the_data():
    svg = ET.fromstring(chart_svg(points([1437, 1512, 1561]), "t"))
    labels = [t.text for t in svg.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    numbers = [int(label) for label in labels if label.isdigit()]
    assert numbers == sorted(numbers)
    assert min(numbers) <= 1437 and max(numbers) >= 1561
    assert all(n % 50 == 0 for n in numbers)


def test_dates_are_labelled_once_each():
    svg = ET.fromstring(chart_svg(points([1500] * 9, step_days=0), "t"))
    dates = [t.text for t in svg.iter(f"{SVG}text") if t.get("text-anchor") != "end"]
    assert dates == ["2 Oct"]
    long = ET.fromstring(chart_svg(points(range(1500, 1540), step_days=30), "t"))
    dates = [t.text for t in long.iter(f"{SVG}text") if t.get("text-anchor") != "end"]
    assert dates[0] == "Oct 2026" and len(dates) == len(set(dates))


def test_a_single_game_still_draws():
    svg = ET.fromstring(chart_svg(points([1520]), "t"))
    assert svg.find(f"{SVG}path") is not None


# The SVG pinned: golden/chart.svg was copied from the chart's output on this fixed input while
# the SVG was still built in Python, checked by eye (five weekly games, gridlines every 50 from
# 1400 to 1600, a title with every character HTML escapes), and committed before the markup
# moved into the player page's partial.
POINTS = [
    (DAY + datetime.timedelta(days=7 * i), v)
    for i, v in enumerate([1500, 1540.5, 1520, 1561, 1437])
]
TITLE = 'Ann\'s <rating> & "more"'


def tags_only(html: str) -> str:
    """The markup without the whitespace between tags (a template's line breaks)."""
    return re.sub(r">\s+<", "><", html.strip())


def chart_svg(points, title: str, decimals: int = 0) -> str:
    """The chart as the player page draws it: its geometry through the page's partial."""
    chart = rating_chart(points, decimals=decimals)
    return render_to_string(
        "ratings/player_detail.html#rating-chart", {"chart": chart, "chart_title": title}
    )


def test_the_chart_draws_as_pinned():
    expected = (Path(__file__).parent / "golden" / "chart.svg").read_text()
    assert tags_only(chart_svg(POINTS, TITLE, decimals=1)) == tags_only(expected)


def test_the_axis_dates_follow_the_readers_language():
    """Issue 45: the page writes the chart's dates with Django's month names."""
    points = [(datetime.date(2026, 11, 20), 1500.0), (datetime.date(2026, 12, 4), 1520.0)]
    with translation.override("pl"):
        chart = rating_chart(points, date_text=_axis_date)
    assert [d.text for d in chart.dates] == ["20 Lis", "4 Gru"]
    english = rating_chart(points)
    assert [d.text for d in english.dates] == ["20 Nov", "4 Dec"]
