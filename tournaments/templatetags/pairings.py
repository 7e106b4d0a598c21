"""The rows every visitor loads when a round is posted, drawn in Python: the pairings (each
table with its players in seat order) and the alphabetical "find my seat" list, on the event
page and the projector (`selectors.round_board` and `seat_finder`'s plain rows).

A 256-player round is 256 finder rows and 64 pods of four; drawn by template loops they were
70 % of the pairings page (bench/pages.py). The markup is the formats' partials' as it was,
every name escaped with the standard library's `html.escape` (what Django's autoescape does,
without its lazy-string check per value).
"""

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _deck(seat) -> str:
    return f' <span class="deck">{escape(seat.deck)}</span>' if seat.deck else ""


def _extension(table) -> str:
    """A judge's time extension, under the table's number (not once the result is in)."""
    if not table.extra_minutes or table.reported:
        return ""
    return f' <span class="extension" title="Time extension">+{table.extra_minutes} min</span>'


@register.simple_tag
def pod_tables(tables) -> SafeString:
    """A pod round's tables as the pairings' `<li>`s (a bye, or a pod with its seat order)."""
    parts = []
    for table in tables:
        if table.is_bye:
            label = "Bye ½" if table.requested_bye else "Bye"
            parts.append(
                f'\n  <li class="pairing pod reported"><span class="table-no">{label}</span>'
                f'<span class="players">{escape(table.seats[0].name)}</span></li>'
            )
            continue
        seats = []
        for seat in table.seats:
            line = f'<li class="player{" won" if seat.won else ""}">{escape(seat.name)}'
            line += _deck(seat)
            if table.full_order:
                line += f' <span class="muted">· {escape(seat.place_label)}</span>'
            elif seat.won:
                line += ' <span class="muted">· won</span>'
            seats.append(line + "</li>")
        draw = '<span class="result muted">draw</span>' if table.reported and table.is_draw else ""
        parts.append(
            f'\n  <li class="pairing pod{" reported" if table.reported else ""}" '
            f'id="pod-{table.number}">\n    <span class="table-no">Pod {table.number}'
            f"{_extension(table)}</span>\n"
            f'    <ol class="seat-order">{"".join(seats)}</ol>\n    {draw}\n  </li>'
        )
    return mark_safe("".join(parts))


@register.simple_tag
def match_tables(tables) -> SafeString:
    """A 1v1 round's tables as the pairings' `<li>`s: the two players, or a bye."""
    parts = []
    for table in tables:
        if table.requested_bye:
            label = "Bye ½"
        elif table.is_bye:
            label = "Bye"
        else:
            label = f"Table {table.number}{_extension(table)}"
        players = '<span class="vs">vs</span>'.join(
            f'<span class="player{" won" if seat.won else ""}">{escape(seat.name)}'
            f"{_deck(seat)}</span>"
            for seat in table.seats
        )
        parts.append(
            f'\n  <li class="pairing{" reported" if table.reported else ""}">\n'
            f'    <span class="table-no">{label}</span>\n'
            f'    <span class="players">{players}</span>\n'
            f'    <span class="result muted">{escape(table.result_label)}</span>\n  </li>'
        )
    return mark_safe("".join(parts))


@register.simple_tag
def finder_rows(finder, pods: bool) -> SafeString:
    """The "find my seat" rows: name, table (and seat, at pods) and who else sits there."""
    parts = []
    for row in finder:
        others = escape(", ".join(row.opponents))
        if pods:
            where = (
                f'<td class="num">{row.table}</td><td class="num">{row.seat}</td>'
                if row.opponents
                else '<td class="num" colspan="2">bye</td>'
            )
            parts.append(
                f'<tr><td>{escape(row.name)}</td>{where}<td class="name">{others}</td></tr>'
            )
        else:
            where = row.table if row.opponents else "bye"
            parts.append(
                f'<tr><td>{escape(row.name)}</td><td class="num">{where}</td><td>{others}</td></tr>'
            )
    return mark_safe("".join(parts))


@register.simple_tag
def projector_rows(finder, pods: bool) -> SafeString:
    """The projector's alphabetical list: each name with its table (and seat, at pods)."""
    parts = []
    for row in finder:
        if not row.opponents:
            where = "bye"
        elif pods:
            where = f"<small>pod</small> {row.table} <small>· seat {row.seat}</small>"
        else:
            where = str(row.table)
        parts.append(
            f'<li><span>{escape(row.name)}</span><span class="table-no">{where}</span></li>'
        )
    return mark_safe("".join(parts))
