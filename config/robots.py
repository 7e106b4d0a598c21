"""`/robots.txt`: what a search engine may index. The public pages (the directory, stores,
leagues, events, sign-up) are for finding; the admin and the API are not pages for a reader,
so a crawler is asked to leave them. A player's private link (`events/<slug>/me/<token>/`) is
unguessable and never linked from a public page: naming its prefix here would only advertise
it."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

ROBOTS = "User-agent: *\nDisallow: /admin/\nDisallow: /api/\n"


@require_GET
@cache_control(max_age=86400, public=True)
def robots_txt(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")
