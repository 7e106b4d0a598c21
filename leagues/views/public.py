"""The public home page: every store with the leagues the visitor may see.

A league's own pages (standings, game log, player) show ratings, so they are ratings.pages.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import selectors


def home(request: HttpRequest) -> HttpResponse:
    organizations = selectors.organization_list_with_leagues(user=request.user)
    stores = selectors.stores_managed(user=request.user)
    return render(
        request, "leagues/home.html", {"organizations": organizations, "my_stores": stores}
    )
