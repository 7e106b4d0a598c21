"""League views, split by who uses them: public pages, game entry, CSV import/export."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from .. import selectors
from ..models import League
from ..permissions import can_manage_league


def league_context(request: HttpRequest, league: League, nav: str, **extra) -> dict:
    """What every league page's template needs for the league header and navigation."""
    return {
        "league": league,
        "nav": nav,
        "can_manage": can_manage_league(request.user, league),
        **extra,
    }


def managed_league_get(request: HttpRequest, slug: str) -> League:
    """The league if the user manages it: 404 when they may not even see it, else 403."""
    league = selectors.league_get(slug=slug, user=request.user)
    if not can_manage_league(request.user, league):
        raise PermissionDenied(_("Only the league's organizers can change its games."))
    return league
