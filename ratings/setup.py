"""A new league with its rating system, in one transaction (the store's "New league" page).

`leagues.services.league_create` makes the league (and finds the one a repeated form already
made); the rating system and its parameters are checked by `make_system` before anything is
written, so a bad parameter leaves no league behind. A new league has no games: setting its
system replays nothing.
"""

from datetime import date

from django.db import transaction

from leagues.models import League, Organization
from leagues.services import league_create

from .domain.registry import make_system
from .models import LeagueRating


@transaction.atomic
def league_create_rated(
    *,
    organization: Organization,
    name: str,
    system: str,
    params: dict | None = None,
    game_label: str = "",
    is_public: bool = True,
    starts_on: date | None = None,
    ends_on: date | None = None,
    entry_key: str | None = None,
    by=None,
) -> tuple[League, bool]:
    """The new league rated with `system` (and `params`), and True; or the league a repeated
    form already made, and False. Raises ParamError or LeagueError (nothing written)."""
    chosen = make_system(system, params or {})
    league, created = league_create(
        organization=organization,
        name=name,
        game_label=game_label,
        is_public=is_public,
        starts_on=starts_on,
        ends_on=ends_on,
        entry_key=entry_key,
        by=by,
    )
    if created:
        LeagueRating.objects.create(league=league, system=chosen.name, params=chosen.params())
    return league, created
