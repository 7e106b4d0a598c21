"""`{% event_facts %}` (the event page's when, where, fee, seats and calendar link), and what
tournaments draws in the home page's slots (leagues.hooks, filled in tournaments.apps): its
list of the next public events and its events being played now.

A tag rather than context from the view: the event page's view stays as it is; and slots for
the home page, which is the leagues app's, which may not import tournaments (pyproject's
layers).
"""

from django import template

from leagues.permissions import can_run_events_of

from ..selectors import listing

register = template.Library()


def upcoming_events(context=None, limit: int = listing.HOME_LIMIT) -> dict:
    """The home page's upcoming events: those not begun (the others are under "Live now")."""
    return {"events": listing.upcoming_events(limit=limit, started=False), "show_store": True}


def live_events(context=None, limit: int = listing.HOME_LIMIT) -> dict:
    """The home page's "Live now": public events in their Swiss rounds or top cut."""
    return {"events": listing.live_events(limit=limit)}


@register.inclusion_tag("tournaments/_event_facts.html", takes_context=True)
def event_facts(context, event) -> dict:
    """No query of its own on the event page: before round 1 the page has counted the seats
    (its registration block), after it there are none to show; the staff's rights are read
    once per request (leagues.permissions)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    signup = context.get("signup")
    started = bool(context.get("round"))
    seats = signup["seats"] if signup and not started else None
    return {
        "facts": listing.event_facts(event, seats=seats, started=started),
        "started": started,
        "can_run": context.get("can_run", False),
        "can_copy": bool(user) and can_run_events_of(user, event.league.organization_id),
    }
