"""Pages that update themselves on a phone: the spectators' pairings poll every 15 seconds
with a conditional request, as the player's page does (report_views).

The page carries a tag of what it shows (`live_etag`: the event's page versions, which every
change to the event bumps, and the round and search asked for); the poll sends it back as
If-None-Match, and `answers_poll` answers 304 after two queries (the event, seen by this
visitor, and the versions) when nothing changed, before the page cache or the view runs.
When something changed, the page answers as usual and htmx swaps in its live part.
"""

import hashlib
from functools import wraps

from django.http import HttpResponseNotModified

from core.pagecache import versions

from . import selectors
from .formats import small_int
from .page_versions import event_scopes

POLL_SECONDS = 15


def live_etag(request, event) -> str:
    """The tag of the pairings page `request` asks for: the event's versions, the round
    (?round=) and the search (?q=)."""
    parts = (
        versions(event_scopes(event), request),
        small_int(request.GET.get("round", "")),
        request.GET.get("q", "").strip()[:80],
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def answers_poll(view):
    """Answer an htmx poll whose If-None-Match is still the page's tag with a 304."""

    @wraps(view)
    def wrapper(request, slug: str, *args, **kwargs):
        asked = request.headers.get("If-None-Match", "")
        if request.method == "GET" and request.htmx and asked:
            event = selectors.event_get(slug=slug, user=request.user)
            etag = f'"{live_etag(request, event)}"'
            if asked == etag:
                response = HttpResponseNotModified()
                response["ETag"] = etag
                return response
        return view(request, slug, *args, **kwargs)

    return wrapper
