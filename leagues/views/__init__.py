"""League views, split by who uses them: public pages, game entry, CSV import/export."""

from django.http import HttpRequest

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
