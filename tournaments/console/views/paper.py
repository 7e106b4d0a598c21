"""The paper pack: the current round's sheets for when the store's Wi-Fi or the server goes
away (issue 34), printed from the browser on A4 or Letter.

One page holds every sheet (`paper_pack`), each starting on a new printed page: the pairings
by table, the wall's "find your seat" by last name, the result slips (several to a page, cut
lines between them, none split across pages) and the standings with the tables still missing
a result. Each sheet has its own address too, to print it alone. Only those who run the event
(`run_get`) see them; nothing is written.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from core.pagecache import memo

from ... import selectors
from ...page_versions import event_scopes
from ...pages import event_context, run_get
from ...selectors.paper import paper_pack

# The sheets in the pack's order: (section, URL name, title).
SHEETS = [
    ("pairings", "paper_pairings", gettext_lazy("Pairings by table")),
    ("seats", "paper_seats", gettext_lazy("Find your seat")),
    ("slips", "paper_slips", gettext_lazy("Result slips")),
    ("standings", "paper_standings", gettext_lazy("Standings")),
]


def _paper(request: HttpRequest, slug: str, sections: list[str]) -> HttpResponse:
    event = run_get(request, slug)
    labels, lines = [], []
    if "standings" in sections:
        # The standings page's own computation, shared with it in the cache.
        labels, lines = memo(
            "event-standings",
            event_scopes(event),
            lambda: selectors.standing_lines(event),
            request=request,
        )
    titles = {section: title for section, _, title in SHEETS}
    context = event_context(
        request,
        event,
        "run",
        pack=paper_pack(event),
        sections=sections,
        sheets=SHEETS,
        title=titles[sections[0]] if len(sections) == 1 else _("Paper pack"),
        labels=labels,
        lines=lines,
    )
    return render(request, "tournaments/console/paper.html", context)


@login_required
@require_GET
def paper(request: HttpRequest, slug: str) -> HttpResponse:
    """Every sheet of the current round, a printed page break between them."""
    return _paper(request, slug, [section for section, _, _ in SHEETS])


@login_required
@require_GET
def paper_pairings(request: HttpRequest, slug: str) -> HttpResponse:
    return _paper(request, slug, ["pairings"])


@login_required
@require_GET
def paper_seats(request: HttpRequest, slug: str) -> HttpResponse:
    return _paper(request, slug, ["seats"])


@login_required
@require_GET
def paper_slips(request: HttpRequest, slug: str) -> HttpResponse:
    return _paper(request, slug, ["slips"])


@login_required
@require_GET
def paper_standings(request: HttpRequest, slug: str) -> HttpResponse:
    return _paper(request, slug, ["standings"])
