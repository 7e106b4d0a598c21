"""The SVG rating chart: valid, scaled, labelled, and escaping what it is given."""

import datetime
import xml.etree.ElementTree as ET

from ratings.domain.chart import rating_chart_svg

SVG = "{http://www.w3.org/2000/svg}"
DAY = datetime.date(2026, 10, 2)


def points(values, step_days=7):
    return [(DAY + datetime.timedelta(days=step_days * i), v) for i, v in enumerate(values)]


def test_no_points_no_chart():
    assert rating_chart_svg([], title="x") == ""


def test_a_well_formed_svg_with_title_and_description():
    svg = ET.fromstring(rating_chart_svg(points([1500, 1540, 1520]), title="Ann's <rating>"))
    assert svg.find(f"{SVG}title").text == "Ann's <rating>"  # escaped in the markup
    desc = svg.find(f"{SVG}desc").text
    assert desc == "3 rated games; from 1500 to 1520, highest 1540, lowest 1500."


def test_the_line_goes_up_when_the_rating_does():
    svg = ET.fromstring(rating_chart_svg(points([1500, 1600]), title="t"))
    path = svg.find(f"{SVG}path").get("d").split()
    (x1, y1), (x2, y2) = (tuple(map(float, p[1:].split(","))) for p in path)
    assert x2 > x1 and y2 < y1  # SVG y grows downwards


def test_gridlines_are_round_numbers_around_the_data():
    svg = ET.fromstring(rating_chart_svg(points([1437, 1512, 1561]), title="t"))
    labels = [t.text for t in svg.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    numbers = [int(label) for label in labels if label.isdigit()]
    assert numbers == sorted(numbers)
    assert min(numbers) <= 1437 and max(numbers) >= 1561
    assert all(n % 50 == 0 for n in numbers)


def test_dates_are_labelled_once_each():
    svg = ET.fromstring(rating_chart_svg(points([1500] * 9, step_days=0), title="t"))
    dates = [t.text for t in svg.iter(f"{SVG}text") if t.get("text-anchor") != "end"]
    assert dates == ["2 Oct"]
    long = ET.fromstring(rating_chart_svg(points(range(1500, 1540), step_days=30), title="t"))
    dates = [t.text for t in long.iter(f"{SVG}text") if t.get("text-anchor") != "end"]
    assert dates[0] == "Oct 2026" and len(dates) == len(set(dates))


def test_a_single_game_still_draws():
    svg = ET.fromstring(rating_chart_svg(points([1520]), title="t"))
    assert svg.find(f"{SVG}path") is not None
