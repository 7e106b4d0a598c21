"""`{% leaderboard header rows pages empty_text %}`: a league's standings table, drawn by the
Jinja2 template `ratings/jinja2/ratings/board.jinja` (autoescaped, core/jinja.py) from the
plain cells of `ratings.tables`, as the other hot fragments are drawn (core.fragments)."""

from django import template

from core.fragments import fragment_tag, jinja_template

register = template.Library()


@fragment_tag(register)
def leaderboard(header, rows, pages, empty_text) -> str:
    return jinja_template("ratings/board.jinja").render(
        header=header, rows=rows, pages=pages, empty_text=empty_text
    )
