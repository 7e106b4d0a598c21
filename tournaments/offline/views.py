"""The installable web app: its manifest, its service worker, and the event's state the TO's
phone keeps.

The service worker is a template rendered here rather than a static file: a worker's scope can
reach no higher than its own folder unless its answer says `Service-Worker-Allowed`, and it
must not be cached by whitenoise's far-future headers (a phone would keep an old worker for a
year). Its text carries a version (a hash of itself), so a change replaces the worker.

The worker keeps the scripts' catalogue of the language it was fetched in (`catalog`, the
address `{% js_catalog_url %}` gives the console's page, `?v=` the release), so that the
offline round reads that language with the Wi-Fi down; its text is drawn once per language.
The version hashes the text without the language's parts: a worker fetched in another language
replaces the old one (its bytes differ) but keeps the same cache of static files, Pyodide's
13 MB with them.
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
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.templatetags.languages import js_catalog_url

from ..pages import run_get
from ..selectors.offline import event_state_get

# The pages the worker keeps are under /events/ (the console, a player's own page).
SCOPE = "/events/"


def _catalog_prefix() -> str:
    """The folder of the scripts' catalogues ("/jsi18n/"), which the worker keeps like static
    files."""
    return reverse("js_catalog", args=["en"]).rsplit("/", 1)[0] + "/"


@lru_cache(maxsize=16)
def _worker_text(language: str) -> str:
    """The worker's text in `language` (the active one: the caller's key)."""
    context = {
        "static_url": settings.STATIC_URL,  # static("") fails with a deploy's manifest
        "logout": reverse("account_logout"),
        "catalog_prefix": _catalog_prefix(),
        "catalog": "",
        "offline_page": '""',
    }
    draft = render_to_string("tournaments/offline/sw.js", {**context, "version": ""})
    version = hashlib.blake2b(draft.encode(), digest_size=6).hexdigest()
    # What the worker shows itself, in its language (sw.js has no template tags that translate).
    context["catalog"] = js_catalog_url()
    context["offline_page"] = json.dumps(_offline_page(language))
    return render_to_string("tournaments/offline/sw.js", {**context, "version": version})


def _offline_page(language: str) -> str:
    """The page the worker answers with for a page it kept no copy of while the site cannot be
    reached (instead of the browser's own error)."""
    title = escape(_("Offline"))
    text = escape(
        _(
            "This page was not kept on this phone, and the site cannot be reached. "
            "Open it again when the connection is back."
        )
    )
    return (
        f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title} · Guildhall</title></head><body><h1>{title}</h1><p>{text}</p>"
        "</body></html>"
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, for a scope of /events/ (its answer says it may), in the request's
    language."""
    text = _worker_text(get_language())
    response = HttpResponse(text, content_type="text/javascript; charset=utf-8")
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
        "description": _("Leagues and tournaments for game stores."),
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
