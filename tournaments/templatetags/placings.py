"""Where players finished, drawn where a page includes it: `{% winner_banner event %}` (the
finished event's winner), `{% player_finish event entry %}` ("3rd of 17", during the event
"7th of 17 after round 2") and `{% event_placings event as placings %}` for the final
standings' place column.

Tags rather than view context, so a page shows a finish with one line of its template and
no change to its view; the placings are computed once per version of the event
(`core.pagecache.memo` on the event's scopes), whichever page asks first.
"""

from django import template

from ..page_versions import event_placings_kept
from ..selectors import placings as placing_selectors

register = template.Library()


def _placings(context, event):
    request = context.get("request")
    cache = context.render_context
    key = ("event-placings", event.pk)
    if key not in cache:  # asked twice on one page: computed (or read) once
        cache[key] = event_placings_kept(event, request=request)
    return cache[key]


@register.simple_tag(takes_context=True)
def event_placings(context, event, final=False):
    """The event's `selectors.placings.EventPlacings` (None before any round is complete);
    `final`: only a finished event's (None during the event, at no cost)."""
    if final and event.status != event.Status.FINISHED:
        return None
    return _placings(context, event)


@register.inclusion_tag("tournaments/results/winner_banner.html", takes_context=True)
def winner_banner(context, event):
    if event.status != event.Status.FINISHED:
        return {"winner": None}
    placings = _placings(context, event)
    return {"event": event, "winner": placing_selectors.winner_get(event, placings)}


@register.inclusion_tag("tournaments/results/player_finish.html", takes_context=True)
def player_finish(context, event, entry, you=False):
    """`entry`'s place in `event`; `you`: said to the player themselves ("You finished"),
    only once the event is finished: during it their own page already says "After round 2:
    7th of 17" (`selectors.my_standing`), so it is neither said nor computed twice."""
    if entry is None or (you and event.status != event.Status.FINISHED):
        return {"finish": None}
    placings = _placings(context, event)
    finish = placings.finish(entry.player_id) if placings is not None else None
    return {"finish": finish, "you": you, "event": event}
