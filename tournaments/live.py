"""Pages that update themselves on a phone: the spectators' pairings poll every 15 seconds
with a conditional request, as the player's page does (reports/views.py).

The page carries a tag of what it shows (`live_etag`: the event's page versions, which every
change to the event bumps, and the round and search asked for); the poll sends it back as
If-None-Match, and `answers_poll` answers 304 when nothing changed, before the page cache or
the view runs: from one query (the versions) for a visitor whose page the cache knows, from
two (the event, seen by this visitor, and the versions) otherwise.
When something changed, the page answers as usual and htmx swaps in its live part.
"""

import hashlib
from functools import wraps

from django.http import HttpResponseNotModified
from django.middleware.csrf import get_token

from core.pagecache import route_scopes, versions

from . import selectors
from .formats import small_int
from .page_versions import event_route, event_scopes

POLL_SECONDS = 15


def live_etag(request, event) -> str:
    """The tag of the pairings page `request` asks for: the event's versions, the round
    (?round=) and the search (?q=)."""
    return _tag(request, event_scopes(event))


def _tag(request, scopes) -> str:
    return page_tag(
        request,
        scopes,
        small_int(request.GET.get("round", "")),
        request.GET.get("q", "").strip()[:80],
    )


def page_tag(request, scopes, *parts, forms: bool = False) -> str:
    """A polled page's ETag: the versions of the `scopes` it hangs on (one query) and the
    `parts` it also depends on; with `forms`, the CSRF secret its forms' tokens are masked
    from (a new one is made if the visitor has none; a log-in changes it)."""
    if forms:
        get_token(request)
        parts += (request.META["CSRF_COOKIE"],)
    stamp = (versions(scopes, request), *parts)
    return hashlib.blake2b(repr(stamp).encode(), digest_size=16).hexdigest()


def not_modified(request, etag: str) -> HttpResponseNotModified | None:
    """A 304 carrying `etag` when the request's If-None-Match is still that tag, else None."""
    quoted = f'"{etag}"'
    if request.headers.get("If-None-Match", "") != quoted:
        return None
    response = HttpResponseNotModified()
    response["ETag"] = quoted
    return response


def answers_poll(view):
    """Answer an htmx poll whose If-None-Match is still the page's tag with a 304."""

    @wraps(view)
    def wrapper(request, slug: str, *args, **kwargs):
        asked = request.headers.get("If-None-Match", "")
        if request.method == "GET" and request.htmx and asked:
            # A visitor's poll reads the scopes the page cache knows for the event (one query,
            # the versions): a tag that still matches was drawn from a page they could see,
            # at these very versions. Anyone else's, or an unknown route, looks the event up.
            scopes = None
            if not request.user.is_authenticated:
                scopes = route_scopes(event_route(request, slug))
            if scopes is None:
                event = selectors.event_get(slug=slug, user=request.user)
                scopes = event_scopes(event)
            response = not_modified(request, _tag(request, scopes))
            if response is not None:
                return response
        return view(request, slug, *args, **kwargs)

    return wrapper
