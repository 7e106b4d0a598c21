"""A rating-history line chart as geometry: what the player page's `rating-chart` partial
(ratings/templates/ratings/player_detail.html) draws as an SVG (server-rendered, no JavaScript).

Points are (date, rating) in time order. The chart scales to its container (viewBox), labels
a handful of round gridlines and dates, and its description gives the first, last, highest and
lowest ratings so screen readers get the gist. Everything here is numbers and date labels,
already formatted; the template escapes the title it is given.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 28
DOTS_UP_TO = 60  # a dot per game on charts of at most this many games; more would be a smear


@dataclass(frozen=True, slots=True)
class Gridline:
    y: str  # the line's height in the viewBox
    label_y: str  # its label's baseline
    label: str


@dataclass(frozen=True, slots=True)
class DateLabel:
    x: str
    anchor: str  # "start" at the left end, "end" at the right one, else "middle"
    text: str


@dataclass(frozen=True, slots=True)
class Point:
    x: str
    y: str


@dataclass(frozen=True, slots=True)
class Chart:
    count: int
    first: str
    last: str
    highest: str
    lowest: str
    gridlines: tuple[Gridline, ...]
    dates: tuple[DateLabel, ...]
    path: str  # the line's SVG path data
    dots: tuple[Point, ...]  # empty past DOTS_UP_TO games
    now: Point  # today's rating
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    label_x: int = LEFT - 6
    date_y: int = HEIGHT - 8


def _nice_step(span: float, target: int = 4) -> float:
    """A round gridline step (1, 2 or 5 times a power of ten) giving about `target` lines."""
    raw = max(span / target, 1e-9)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def english_date(day: date, *, month_only: bool) -> str:
    """An axis date: "3 Mar" (a short span), "Mar 2026" (a long one)."""
    return f"{day:%b %Y}" if month_only else f"{day.day} {day:%b}"


def rating_chart(
    points: Sequence[tuple[date, float]],
    *,
    decimals: int = 0,
    date_text: Callable[..., str] = english_date,
) -> Chart | None:
    """The chart of `points`; None when there is nothing to draw. `date_text(day,
    month_only=...)` writes the axis' dates (the page passes one in the reader's language)."""
    if not points:
        return None
    values = [value for _, value in points]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    step = _nice_step(high - low)
    floor_, ceiling = step * (low // step), step * -(-high // step)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(points)

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (ceiling - value) / (ceiling - floor_)

    def fmt(value: float) -> str:
        return f"{value:.{decimals}f}"

    gridlines = []
    gridline = floor_
    while gridline <= ceiling + step / 2:
        gy = y(gridline)
        gridlines.append(Gridline(f"{gy:.1f}", f"{gy + 4:.1f}", fmt(gridline)))
        gridline += step
    ticks = sorted({0, count - 1, *(round(i * (count - 1) / 4) for i in range(1, 4))})
    span_days = (points[-1][0] - points[0][0]).days
    month_only = span_days > 62
    dates, shown = [], set()
    for i in ticks:
        text = date_text(points[i][0], month_only=month_only)
        if text in shown:  # several games on one day or in one month: label it once
            continue
        shown.add(text)
        # The end labels hang inwards so they are not cut at the edges.
        anchor = "start" if i == 0 else "end" if i == count - 1 else "middle"
        dates.append(DateLabel(f"{x(i):.1f}", anchor, text))
    at = [Point(f"{x(i):.1f}", f"{y(v):.1f}") for i, v in enumerate(values)]
    return Chart(
        count=count,
        first=fmt(values[0]),
        last=fmt(values[-1]),
        highest=fmt(max(values)),
        lowest=fmt(min(values)),
        gridlines=tuple(gridlines),
        dates=tuple(dates),
        path=" ".join(f"{'M' if i == 0 else 'L'}{p.x},{p.y}" for i, p in enumerate(at)),
        dots=tuple(at) if count <= DOTS_UP_TO else (),
        now=at[-1],
    )
