"""The document's rating settings of a league (ratings.models.LeagueRating): its system and
parameters. The ledger is not carried: the import replays it (exchange.services)."""

from django.utils.translation import gettext as _

from exchange.document import Node
from leagues.models import League
from ratings.domain.base import ParamError
from ratings.domain.registry import DEFAULT_SYSTEM, make_system
from ratings.models import LeagueRating


def rating_export(league: League) -> dict:
    settings = LeagueRating.objects.filter(league=league).first()
    return {
        "system": settings.system if settings else DEFAULT_SYSTEM,
        "params": settings.params if settings else {},
    }


def rating_import(league_node: Node, league: League) -> None:
    rating = league_node.obj("rating")
    params = rating.get("params")
    if not isinstance(params, dict):
        raise rating.error(_("must be an object"), "params")
    try:
        system = make_system(rating.text("system"), params)
    except ParamError as error:
        raise rating.error(str(error)) from None
    LeagueRating.objects.create(league=league, system=system.name, params=system.params())
