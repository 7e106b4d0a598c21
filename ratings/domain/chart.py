"""A rating-history line chart as a self-contained SVG string (server-rendered, no JavaScript).

Points are (date, rating) in time order. The chart scales to its container (viewBox), labels
the first, last, highest and lowest ratings and a handful of dates, and carries a <title> and
<desc> so screen readers get the gist. Text is escaped; nothing else comes from outside.
"""

import math
from collections.abc import Sequence
from datetime import date
from html import escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 28


def _nice_step(span: float, target: int = 4) -> float:
    """A round gridline step (1, 2 or 5 times a power of ten) giving about `target` lines."""
    raw = max(span / target, 1e-9)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def rating_chart_svg(points: Sequence[tuple[date, float]], *, title: str, decimals: int = 0) -> str:
    """An SVG line chart of `points`; an empty string when there is nothing to draw."""
    if not points:
        return ""
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

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="rating-chart" role="img" aria-labelledby="chart-title chart-desc">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{count} rated games; from {fmt(values[0])} to '
        f"{fmt(values[-1])}, highest {fmt(max(values))}, lowest {fmt(min(values))}.</desc>",
    ]
    gridline = floor_
    while gridline <= ceiling + step / 2:
        gy = y(gridline)
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{gy:.1f}" y2="{gy:.1f}"/>'
            f'<text class="axis" x="{LEFT - 6}" y="{gy + 4:.1f}" text-anchor="end">'
            f"{fmt(gridline) if decimals else f'{gridline:.0f}'}</text>"
        )
        gridline += step
    ticks = sorted({0, count - 1, *(round(i * (count - 1) / 4) for i in range(1, 4))})
    span_days = (points[-1][0] - points[0][0]).days
    label = (lambda day: f"{day.day} {day:%b}") if span_days <= 62 else (lambda day: f"{day:%b %Y}")
    shown: set[str] = set()
    for i in ticks:
        text = label(points[i][0])
        if text in shown:  # several games on one day or in one month: label it once
            continue
        shown.add(text)
        # The end labels hang inwards so they are not cut at the edges.
        anchor = "start" if i == 0 else "end" if i == count - 1 else "middle"
        parts.append(
            f'<text class="axis" x="{x(i):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}">'
            f"{text}</text>"
        )
    path = " ".join(f"{'M' if i == 0 else 'L'}{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(f'<path class="line" d="{path}"/>')
    if count <= 60:
        parts.extend(
            f'<circle class="dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3"/>'
            for i, v in enumerate(values)
        )
    last_x, last_y = x(count - 1), y(values[-1])
    parts.append(f'<circle class="now" cx="{last_x:.1f}" cy="{last_y:.1f}" r="5"/>')
    parts.append("</svg>")
    return "".join(parts)
