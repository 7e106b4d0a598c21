"""`{% store_theme %}`: the link to the store's accent stylesheet, on a page that belongs to a
store (its league's, its event's, its own), or nothing (issue 33).

A tag rather than template logic: a page's context names its store in one of several ways
(`league`, `event`, `organization`) and the test settings fail on a missing variable. The
accent was checked when saved (leagues.domain.colour); the URL carries it so the file caches.
"""

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


def _store(context):
    for name in ("league", "event", "organization"):
        value = context.get(name)
        if value is None or isinstance(value, str):
            continue
        if name == "event":
            value = getattr(value, "league", None)
        if name in ("league", "event"):
            value = getattr(value, "organization", None)
        if value is not None and getattr(value, "accent", ""):
            return value
    return None


@register.simple_tag(takes_context=True)
def store_theme(context) -> str:
    store = _store(context)
    if store is None:
        return ""
    url = reverse("store_theme", args=[store.slug])
    return format_html(
        '<link rel="stylesheet" href="{}?v={}">', url, store.accent.removeprefix("#")
    )
