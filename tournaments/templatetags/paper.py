"""The paper pack's sheets (console/views/paper.py), drawn by one Jinja2 template file,
`tournaments/jinja2/tournaments/console/paper_sheets.jinja`: a 256-player event prints 256
wall lines, 256 standings rows and 64 to 128 slips, rows by the hundred (core/jinja.py)."""

from django import template
from django.utils.translation import get_language

from core.fragments import fragment_tag, jinja_template

register = template.Library()


@fragment_tag(register)
def paper_sheets(pack, sections, labels, lines) -> str:
    """The sheets named in `sections`, in that order, each a `<section class="sheet">`."""
    return jinja_template("tournaments/console/paper_sheets.jinja").render(
        pack=pack,
        event=pack.event,
        play=pack.event.play,
        sections=sections,
        labels=labels,
        lines=lines,
        language=get_language(),
    )
