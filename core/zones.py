"""The time zone a page's times are in: the store's, for every page of a store's event.

The site's own zone (settings.TIME_ZONE) is the default. A page of a store's event makes
the store's zone the request's (`tournaments.selectors.event_get`, the one way every event
page reads its event, calls `zone_activate`), so that every `|time`, `|date` and Jinja2
`date` on it, and every service message written in that request, reads the store's clock
(issue 43: a store in New York saw UTC); the store's History page does the same. A form's
date and time typed on those pages (a registration or deck deadline) is read on that clock
too. `TimeZoneMiddleware` puts the site's zone back around each request: a zone is a
thread's, and the next request on that thread may be another store's, or none.

`zone_label` is how a time names its zone where a reader elsewhere could misread it (a
player's page, the paper pack): "New York time" for America/New_York.
"""

from datetime import tzinfo

from django.utils import timezone
from django.utils.translation import gettext as _


def zone_activate(zone: tzinfo) -> None:
    """Make `zone` the one this request's times are shown in (until the request ends)."""
    timezone.activate(zone)


def zone_name(zone: tzinfo | None = None) -> str:
    """The IANA name of `zone` (the request's zone by default): "America/New_York"."""
    zone = zone or timezone.get_current_timezone()
    return getattr(zone, "key", None) or str(zone)


def zone_label(zone: tzinfo | None = None) -> str:
    """A zone as a reader says it: the city of an IANA name ("America/Argentina/Buenos_Aires"
    is "Buenos Aires time"); a zone with no city ("UTC", "Etc/GMT+5") by its name."""
    name = zone_name(zone)
    if "/" not in name or name.startswith("Etc/"):
        return name.removeprefix("Etc/")
    # Translators: a time zone named by its city: "New York time".
    return _("%(city)s time") % {"city": name.rsplit("/", 1)[1].replace("_", " ")}


class TimeZoneMiddleware:
    """The site's zone at the start and the end of every request (see the module's text)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
