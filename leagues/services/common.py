"""What every league write shares: the league error and the stale-game conflict, a result line
to store, slugs that never reveal another store's rows, the league lock and the date rule."""

import secrets
from dataclasses import dataclass
from datetime import date

from django.db import connection
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from audit.models import AuditEntry
from core.errors import DomainError

from ..domain.csvformat import (
    future_date_problem,
    latest_game_date,
)
from ..models import Game, League, Organization, Player


class LeagueError(DomainError, ValueError):
    """Bad input for a league write; `field` says where, the message says why.

    The message may also be given first, positionally, as every league refusal is written.
    """

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message=message, field=field, code=code)


class GameConflict(LeagueError):
    """The game changed (or went) since the form that corrects it was loaded (HTTP 409)."""

    status = 409
    default_code = "stale"

    def __init__(self, *, game: Game | None, message: str | None = None):
        if message is None:
            last = AuditEntry.objects.filter(object_type="game", object_id=game.pk).first()
            who = last.actor_label if last else _("Someone")
            when = timezone.localtime(last.created_at if last else None)
            message = _(
                "%(who)s changed this game at %(time)s after you opened it: it is shown below "
                "as it is now. Check it before changing it again."
            ) % {"who": who, "time": f"{when:%H:%M}"}
        super().__init__(message)
        self.game = game


@dataclass(frozen=True)
class ResultIn:
    """One player's line in a game to be stored."""

    player: Player
    place: int
    seat: int | None = None
    # None keeps what is stored (a correction from a form that does not show stats).
    stats: dict | None = None


# --- slugs ------------------------------------------------------------------------------------

# Room kept after the stem for a suffix: "-2" ... "-99999", or "-" and 6 random hex digits.
SLUG_SUFFIX_ROOM = 7


def slug_new(*, model, organization: Organization, name: str, scope: str, fallback: str) -> str:
    """A new, unused slug for a `model` row (League, Tournament) of `organization`.

    Slugs are unique across the site (they are the public addresses /leagues/<slug>/ and
    /events/<slug>/), but what one store gets must never depend on another store's rows, or
    a "-2" would tell a store that someone else has a private league or event of that name.
    So the slug is the store's own slug and the name ("dragons-den-friday-modern"), numbered
    against the store's own rows only (`scope` is the path from `model` to Organization). If
    another store does hold that exact slug (only possible through an ambiguous hyphenation,
    "dragons" + "den-x" against "dragons-den" + "x", or a slug from before this rule), a
    random suffix is used, which says nothing about which store or row. Call it inside the
    transaction that saves the row: an advisory lock per store serialises two at once.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtext('guildhall-slug'), %s)", [organization.pk]
        )
    max_length = model._meta.get_field("slug").max_length
    stem = slugify(name) or fallback
    base = f"{organization.slug}-{stem}"[: max_length - SLUG_SUFFIX_ROOM].strip("-")
    own = set(
        model.objects.filter(**{scope: organization}, slug__startswith=base).values_list(
            "slug", flat=True
        )
    )
    candidate, n = base, 1
    while candidate in own:
        n += 1
        candidate = f"{base}-{n}"
    while model.objects.filter(slug=candidate).exists():
        candidate = f"{base}-{secrets.token_hex(3)}"
    return candidate


def _lock_league(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


def game_date_latest() -> date:
    """The latest date a game may have: a day ahead of today in the store's time zone."""
    return latest_game_date(timezone.localdate())


def game_date_check(played_on: date, *, field: str = "played_on") -> date:
    """`played_on` if a game may be dated so, else LeagueError (code future_date)."""
    latest = game_date_latest()
    if future_date_problem(played_on, latest):
        raise LeagueError(
            _("%(date)s is in the future: a game can be dated %(latest)s at the latest.")
            % {"date": f"{played_on:%Y-%m-%d}", "latest": f"{latest:%Y-%m-%d}"},
            field=field,
            code="future_date",
        )
    return played_on
