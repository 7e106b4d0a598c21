"""What every room's event page shares: the page context and the TO's way in.

The web layer of tournaments is split by audience (`public/`, `console/`, `registration/`,
`reports/`); these two helpers are the only page code they share, so a room never imports
another room's private helpers to draw its pages.
"""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from leagues.views import league_context

from . import selectors
from .models import Tournament


def event_context(request, event: Tournament, nav: str, **extra) -> dict:
    """The event pages' shared context. The console's pages (nav "run") were reached through
    `run_get`, which has just checked that the user may run the event: not asked again."""
    return league_context(
        request,
        event.league,
        "events",
        event=event,
        event_nav=nav,
        can_run=nav == "run" or selectors.can_run(request.user, event),
        **extra,
    )


def run_get(request, slug: str) -> Tournament:
    """The event `slug` for someone who runs it (the store's organizers and judges); 403 for
    anyone else."""
    event = selectors.event_get(slug=slug, user=request.user)
    if not selectors.can_run(request.user, event):
        raise PermissionDenied(_("Only the store's organizers and judges run its events."))
    return event
