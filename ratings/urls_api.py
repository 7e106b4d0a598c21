"""Addresses of the JSON API, mounted at /api/ (see ratings.api). A trailing slash is optional."""

from django.urls import re_path

from . import api, openapi

SLUG = r"(?P<slug>[-a-zA-Z0-9_]+)"

urlpatterns = [
    re_path(r"^openapi\.json$", openapi.openapi_document, name="api_openapi"),
    re_path(rf"^leagues/{SLUG}/scores/?$", api.league_scores, name="api_scores"),
    re_path(rf"^leagues/{SLUG}/ratings/?$", api.league_ratings_view, name="api_ratings"),
    re_path(rf"^leagues/{SLUG}/games/?$", api.league_games, name="api_games"),
    # Everything else under /api/ is a JSON 404, not the site's HTML page.
    re_path(r"^", api.not_found),
]
