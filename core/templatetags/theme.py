"""The store's look on a page that belongs to a store (its league's, its event's, its own), or
Guildhall's (issue 33): `{% store_theme %}` links the store's accent stylesheet,
`{% store_brand %}` draws the header's name, the store's logo and name beside Guildhall's mark
(on a phone its short name when it has one).

Tags rather than template logic: a page's context names its store in one of several ways
(`league`, `event`, `organization`) and the test settings fail on a missing variable. The
stylesheet's URL carries the accent so that the file caches (leagues.views.store.store_theme
draws the palette from it).
"""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from core.templatetags.links import cached_url

register = template.Library()

# Named in the stylesheet's address beside the colour: a change of how the palette is drawn
# (leagues.domain.colour) must not be hidden by a browser's long-cached copy of the old one.
THEME_VERSION = "2"


def theme_version(accent: str) -> str:
    """The `?v=` of a store's palette stylesheet: its colour and how the palette is drawn."""
    return f"{accent.removeprefix('#')}-{THEME_VERSION}"


def _store(context):
    """The store the page belongs to, or None (Guildhall's own pages: home, the account's).
    `store` is the store's own page of events (tournaments.public.views.store_events)."""
    for name in ("league", "event", "organization", "store"):
        value = context.get(name)
        if value is None or isinstance(value, str):
            continue
        if name == "event":
            value = getattr(value, "league", None)
        if name in ("league", "event"):
            value = getattr(value, "organization", None)
        if value is not None and getattr(value, "slug", ""):
            return value
    return None


@register.simple_tag(takes_context=True)
def store_theme(context) -> str:
    store = _store(context)
    if store is None or not getattr(store, "accent", ""):
        return ""
    url = reverse("store_theme", args=[store.slug])
    return format_html('<link rel="stylesheet" href="{}?v={}">', url, theme_version(store.accent))


@register.inclusion_tag("components/store_brand.html", takes_context=True)
def store_brand(context) -> dict:
    """The header's first link: Guildhall, or on a store's page Guildhall's mark (the word from
    40rem) and the store's logo and name, linking to its events."""
    store = _store(context)
    if store is None:
        return {"store": None}
    logo = None
    if getattr(store, "logo_type", ""):
        logo = f"{cached_url('store_logo', store.slug)}?v={store.logo_version}"
    return {"store": store, "logo": logo, "events": cached_url("store_events", store.slug)}
