"""Empty states come from the design system (docs/design.md, issue 33): a list with nothing in it
yet is drawn by `components/empty_state.html`, never by hand, and an empty table keeps its
header and shows one `td.empty` row. A scan of every template of the project's finds a
hand-drawn `class="empty-state"` (outside the component) and a `class="empty"` on anything but a
table cell; the component draws its title and its text, its link, or a partial of the page."""

import datetime
import re
from pathlib import Path
from types import SimpleNamespace

from django.conf import settings
from django.template.loader import render_to_string

from .test_design_tokens import ours

ROOT = Path(settings.BASE_DIR)
COMPONENT = "templates/components/empty_state.html"
HAND_DRAWN = re.compile(r"""class=["'][^"']*(?<![\w-])empty-state(?![\w-])""")
EMPTY_ON = re.compile(r"""<(\w+)[^>]*\sclass=["']empty["']""")
# The row's words are in a <span>: it keeps them in the scroll box's view on a phone.
EMPTY_CELL = re.compile(r"""<td[^>]*\sclass=["']empty["']>(?!<span>)""")


def templates() -> list[Path]:
    found = []
    for top in ROOT.iterdir():
        if top.is_dir() and ours(top):
            found += [p for p in top.rglob("*") if p.suffix in (".html", ".jinja") and ours(p)]
    return sorted(found)


def test_the_scan_reads_the_templates_and_sees_a_hand_drawn_empty_state():
    names = {p.relative_to(ROOT).as_posix() for p in templates()}
    assert COMPONENT in names and "ratings/jinja2/ratings/board.jinja" in names
    assert HAND_DRAWN.search('<div class="empty-state"><strong>No games</strong></div>')
    assert HAND_DRAWN.search("<div class='card empty-state'>")
    assert not HAND_DRAWN.search('<div class="empty-states-list">')
    assert EMPTY_ON.search('<p class="empty">None.</p>').group(1) == "p"


def test_no_template_draws_an_empty_state_by_hand():
    found = [
        p.relative_to(ROOT).as_posix()
        for p in templates()
        if p.relative_to(ROOT).as_posix() != COMPONENT and HAND_DRAWN.search(p.read_text())
    ]
    assert found == [], "use {% include 'components/empty_state.html' %}"


def test_an_empty_row_is_a_table_cell():
    found = [
        f"{p.relative_to(ROOT).as_posix()}: <{tag}"
        for p in templates()
        for tag in EMPTY_ON.findall(p.read_text())
        if tag != "td"
    ]
    assert found == []
    bare = [p.relative_to(ROOT).as_posix() for p in templates() if EMPTY_CELL.search(p.read_text())]
    assert bare == [], 'write <td colspan="…" class="empty"><span>…</span></td>'
    assert EMPTY_CELL.search('<td colspan="3" class="empty">No one.</td>')


def test_the_component_draws_a_title_and_a_text_ending_with_its_link():
    html = render_to_string(
        "components/empty_state.html",
        {"title": "No events yet", "text": "Create the first:", "href": "/new/", "action": "New"},
    )
    assert html.strip() == (
        '<div class="empty-state"><strong>No events yet</strong>'
        'Create the first: <a href="/new/">New</a></div>'
    )


def test_the_component_draws_a_partial_of_the_page_as_its_body():
    html = render_to_string(
        "components/empty_state.html",
        {
            "title": "No events in the season's dates",
            "body": "seasons/store_series_events.html#no-events",
            "text": "not this",
            "organization": SimpleNamespace(name="Alpha Games"),
            "series": SimpleNamespace(name="Coast Cup"),
            "season": SimpleNamespace(
                starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 3, 31)
            ),
        },
    )
    assert html.startswith('<div class="empty-state"><strong>No events in the season&#x27;s')
    assert "Alpha Games has no events between 1 Jan 2026 and 31 Mar 2026." in html
    assert "to count in Coast Cup." in html and "not this" not in html
