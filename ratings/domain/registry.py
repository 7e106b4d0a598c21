"""Every rating system a league can pick, by the name the league stores.

`make_system(name, params)` is the one way to build a system from stored or submitted settings:
it rejects an unknown system with ParamError(field="rating_system", ...) and an unknown or
bad parameter with ParamError(field=<parameter>, ...), so a settings form can show the message
on the right field. Each system class describes its parameters in `PARAMS` (see base.Param).
"""

from collections.abc import Mapping

from core.translate import gettext as _
from ratings.domain.base import ParamError, RatingSystem
from ratings.domain.elo import Elo, EloDynamic, GuildmasterElo
from ratings.domain.openskill_system import OpenSkill

SYSTEMS: dict[str, type] = {cls.name: cls for cls in (GuildmasterElo, Elo, EloDynamic, OpenSkill)}
DEFAULT_SYSTEM = "guildmaster"


def make_system(name: str, params: Mapping | None = None) -> RatingSystem:
    """The system `name` with `params` (missing ones at their defaults), checked."""
    if not isinstance(name, str) or name not in SYSTEMS:
        choices = ", ".join(SYSTEMS)
        raise ParamError(
            field="rating_system",
            message=_("unknown rating system %(name)s (choose from %(choices)s)")
            % {"name": repr(name), "choices": choices},
        )
    if params is not None and not isinstance(params, Mapping):
        raise ParamError(
            field="rating_system",
            message=_("parameters must be a mapping of name to value"),
        )
    return SYSTEMS[name](params or {})
