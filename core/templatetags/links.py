"""`{% cached_url 'name' arg ... %}`: `{% url %}` for the links every page draws (the site
header, a league's and an event's navigation), reversed once per process for each name and
arguments rather than on every request: a dozen `reverse()` calls were a tenth of a small
page's rendering. The key includes the script prefix, so a deployment under a sub-path gets
its own entries, and so does another URLconf (a request's own, or a test's); URL patterns do
not change while a process runs."""

from functools import lru_cache

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

register = template.Library()


@lru_cache(maxsize=4096)
def _reverse(where: tuple, name: str, args: tuple) -> str:
    return reverse(name, args=args)


@register.simple_tag
def cached_url(name: str, *args) -> str:
    where = (get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    return _reverse(where, name, tuple(str(a) for a in args))
