"""The rows every visitor loads when a round is posted: the pairings (each table with its
players in seat order) and the alphabetical "find my seat" list, on the event page and the
projector, from `selectors.round_board` and `seat_finder`'s plain rows.

A 256-player round is 256 finder rows and 64 pods of four; drawn by Django's template loops
they were 70 % of the pairings page (bench/pages.py). Each tag draws its rows with a Jinja2
template file in `tournaments/jinja2/tournaments/public/` (autoescaped, core/jinja.py).
"""

from django import template

from core.fragments import fragment_tag, jinja_template

register = template.Library()


@register.filter
def table_name(play, number) -> str:
    """`{{ event.play|table_name:4 }}`: "Table 4", "Pod 4" in the reader's language
    (`Format.table_name`)."""
    return play.table_name(number)


@fragment_tag(register)
def pod_tables(tables) -> str:
    """A pod round's tables as the pairings' `<li>`s (a bye, or a pod with its seat order)."""
    return jinja_template("tournaments/public/pod_tables.jinja").render(tables=tables)


@fragment_tag(register)
def match_tables(tables) -> str:
    """A 1v1 round's tables as the pairings' `<li>`s: the two players, or a bye."""
    return jinja_template("tournaments/public/match_tables.jinja").render(tables=tables)


@fragment_tag(register)
def finder_rows(finder, pods: bool) -> str:
    """The "find my seat" rows: name, table (and seat, at pods) and who else sits there."""
    return jinja_template("tournaments/public/finder_rows.jinja").render(finder=finder, pods=pods)


@fragment_tag(register)
def projector_rows(finder, pods: bool) -> str:
    """The projector's alphabetical list: each name with its table (and seat, at pods)."""
    return jinja_template("tournaments/public/projector_rows.jinja").render(
        finder=finder, pods=pods
    )
