"""Who may see and change what: every check the views and the admin make goes through here
(and through tournaments.permissions for the per-event judge, which builds on these).

The roles, from least to most powerful ("the store" is one Organization):

- anonymous visitor: sees public leagues, their events and the read API; changes nothing.
- player (a user linked to a `Player` of the store, no membership): sees what a visitor
  sees plus the store's private leagues, read-only; changes nothing.
- event judge (`tournaments.TournamentJudge`, no membership): sees what a visitor sees plus
  that one event's pages; runs that event's console (registration, pairing, results, drops,
  top cut) and nothing else.
- judge / TO (`Membership` role judge): sees the store's private leagues; runs and creates
  every event of the store; does not change league history (games, players, imports).
- organizer, owner: as a judge, plus the store's players, games, imports and rating
  settings, and the store's rows in the admin (owners also edit the memberships).
- superuser: everything.

A private league, and everything in it (players, games, imports, events, API data), is a
404 to whoever may not see it, so its existence does not leak; someone who may see a page but
not change it gets a 403. Pages that need a login send anonymous visitors to the login page
before looking anything up, so that redirect leaks nothing either. Writes need a POST with a
CSRF token, except the API's POST, which needs an organization's API token and takes no
session (see ratings.api). tests/test_permission_matrix.py checks these rules against every
URL of the site.

Why players see their store's private leagues: a private league hides the store's results
from the world, not from the people who play in it. A player gets no rights to change
anything; only memberships (and superusers) do.
"""

from django.db.models import Q, QuerySet

from .models import MANAGER_ROLES, League, Organization


def _is_active(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active)


def managed_organization_ids(user) -> set[int] | None:
    """Ids of the organizations `user` manages; None means all of them (superuser)."""
    if not _is_active(user):
        return set()
    if user.is_superuser:
        return None
    return set(
        user.memberships.filter(role__in=MANAGER_ROLES).values_list("organization_id", flat=True)
    )


def member_organization_ids(user) -> set[int] | None:
    """Ids of the organizations `user` belongs to in any role; None means all (superuser).

    Read once per user object: a request asks it twice or more (may they see the league,
    may they run its event), and its `request.user` lives only as long as the request."""
    if not _is_active(user):
        return set()
    if user.is_superuser:
        return None
    ids = getattr(user, "_member_organization_ids", None)
    if ids is None:
        ids = frozenset(user.memberships.values_list("organization_id", flat=True))
        user._member_organization_ids = ids
    return set(ids)


def player_organization_ids(user) -> set[int]:
    """Ids of the organizations where `user` is linked to a player (read-only access)."""
    if not _is_active(user):
        return set()
    return set(user.players.values_list("organization_id", flat=True))


def viewer_organization_ids(user) -> set[int] | None:
    """Ids of the organizations whose private leagues `user` may look at; None means all."""
    ids = member_organization_ids(user)
    if ids is None:
        return None
    return ids | player_organization_ids(user)


def scope(queryset: QuerySet, org_ids: set[int] | None, path: str = "organization") -> QuerySet:
    """Restrict `queryset` to rows whose organization (reached through `path`) is in org_ids."""
    if org_ids is None:
        return queryset
    return queryset.filter(**{f"{path}__in": org_ids})


def can_manage_organization(user, organization: Organization) -> bool:
    ids = managed_organization_ids(user)
    return ids is None or organization.pk in ids


def can_manage_league(user, league: League) -> bool:
    return can_manage_organization_id(user, league.organization_id)


def can_manage_organization_id(user, organization_id: int) -> bool:
    ids = managed_organization_ids(user)
    return ids is None or organization_id in ids


def visible_leagues(user) -> QuerySet:
    """Leagues `user` may look at: the public ones, and the private ones of the organizations
    they belong to or play for."""
    leagues = League.objects.select_related("organization")
    ids = viewer_organization_ids(user)
    if ids is None:
        return leagues
    return leagues.filter(Q(is_public=True) | Q(organization_id__in=ids))


def can_run_events_of(user, organization_id: int) -> bool:
    """Owners, organizers and judges/TOs of the organization run its tournaments."""
    ids = member_organization_ids(user)
    return ids is None or organization_id in ids
