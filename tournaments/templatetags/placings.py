"""Where players finished, drawn where a page includes it: `{% winner_banner event %}` (the
finished event's winner), `{% player_finish event entry %}` ("3rd of 17", during the event
"7th of 17 after round 2") and `{% event_placings event as placings %}` for the final
standings' place column.

Tags rather than view context, so a page shows a finish with one line of its template and
no change to its view; the placings are computed once per version of the event
(`core.pagecache.memo` on the event's scopes), whichever page asks first.
"""

from django import template
from django.template.loader import render_to_string
from django.utils.html import escape, strip_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

from core.translate import last_two_pattern

from ..page_versions import event_placings_kept
from ..selectors import placings as placing_selectors

register = template.Library()

BANNER = "tournaments/results/winner_banner.html"


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


def names_list(items: list[str]) -> SafeString:
    """Safe HTML `items` as one list in the active language ("Ann, Bob and Cy", "Ann、BobとCy"):
    the translator writes the list's patterns, so a sentence that holds the list (the
    banner's "%(names)s share first place.") is whole, not glued from "and" and commas."""
    *first, last = [str(item) for item in items]
    if not first:
        return mark_safe(last)
    between = escape(pgettext("between the items of a list", ", "))
    pattern = escape(last_two_pattern(strip_tags(last)))  # "y" or "e" in Spanish: by the name
    return mark_safe(pattern % {"names": between.join(first), "last": last})


def winner_context(event, winner) -> dict:
    """The banner's context: a first place shared is named in one list, each with its deck."""
    names = ""
    if winner is not None and winner.shared:
        names = names_list(
            [
                render_to_string(f"{BANNER}#winner-name", {"name": name, "deck": deck})
                for name, deck in winner.names
            ]
        )
    return {"event": event, "winner": winner, "names": names}


@register.inclusion_tag(BANNER, takes_context=True)
def winner_banner(context, event):
    if event.status != event.Status.FINISHED:
        return {"winner": None}
    placings = _placings(context, event)
    return winner_context(event, placing_selectors.winner_get(event, placings))


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
