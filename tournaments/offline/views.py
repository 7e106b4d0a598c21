"""The installable web app: its manifest, its service worker, and the event's state the TO's
phone keeps.

The service worker is a template rendered here rather than a static file: a worker's scope can
reach no higher than its own folder unless its answer says `Service-Worker-Allowed`, and it
must not be cached by whitenoise's far-future headers (a phone would keep an old worker for a
year). Its text carries a version (a hash of itself), so a change replaces the worker.
"""

import hashlib
import json
import re
from functools import lru_cache

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from ..pages import run_get
from ..selectors.offline import event_state_get

# The pages the worker keeps are under /events/ (the console, a player's own page).
SCOPE = "/events/"


@lru_cache(maxsize=1)
def _worker_text() -> str:
    context = {
        "static_url": settings.STATIC_URL,  # static("") fails with a deploy's manifest
        "logout": reverse("account_logout"),
    }
    draft = render_to_string("tournaments/offline/sw.js", {**context, "version": ""})
    version = hashlib.blake2b(draft.encode(), digest_size=6).hexdigest()
    return render_to_string("tournaments/offline/sw.js", {**context, "version": version})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, for a scope of /events/ (its answer says it may)."""
    response = HttpResponse(_worker_text(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = SCOPE
    response["Cache-Control"] = "no-cache"
    return response


# A page the worker keeps, which an app installed from it opens on (`?start=`).
_START = re.compile(r"/events/[-a-zA-Z0-9_]+/(run/|me/([-a-zA-Z0-9_.:]+/)?)")


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app's manifest. Installed from the console or a player's own page
    (`?start=` that page's path), it opens on that page, which the worker keeps for an
    outage; otherwise on the visitor's own page, where tonight's events are."""
    icon = static("guildhall/favicon.svg")
    start = request.GET.get("start", "")
    body = {
        "id": "/",
        "name": "Guildhall",
        "short_name": "Guildhall",
        "description": "Leagues and tournaments for game stores.",
        "start_url": start if _START.fullmatch(start) else reverse("my_guildhall"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#7a2e1f",
        "icons": [
            {"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": icon, "sizes": "192x192 512x512", "type": "image/svg+xml"},
        ],
    }
    response = HttpResponse(json.dumps(body), content_type="application/manifest+json")
    response["Cache-Control"] = "max-age=3600"
    return response


@login_required
@require_GET
def event_state(request: HttpRequest, slug: str) -> JsonResponse:
    """The event as the TO's phone keeps it (selectors.offline.event_state_get): every round's
    tables with their seats, results and versions, and the players. Only for whoever runs the
    event (403 otherwise, 404 for an event they may not see)."""
    event = run_get(request, slug)
    response = JsonResponse(event_state_get(event))
    response["Cache-Control"] = "no-store"
    return response
