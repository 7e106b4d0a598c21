"""Who may see and change what: every check the views and the admin make goes through here
(and through tournaments.permissions for the per-event judge, which builds on these).

The roles, from least to most powerful ("the store" is one Organization):

- anonymous visitor: sees public leagues, their events and the read API; changes nothing.
- player (a user linked to a `Player` of the store, no membership): sees what a visitor
  sees plus the store's private leagues, read-only, when the store vouches for the link
  (`Player.sees_private_leagues`); changes nothing. A player who joined online (an
  account that typed a name on a public event's join form) sees only what a visitor sees.
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

Why only players the store vouches for: anyone can become a store's player by registering
online for one of its public events, so "is a player of the store" says nothing about who
the person is (another store's owner did exactly that to read a store's private game log).
The store vouches for an account when it links it itself: it approves the account's claim,
hands out the claim code, or links it in the admin. An account that made its own player on
a join form sees no private league until an organizer ticks "may see private leagues" on
that player in the admin. The rule is per store, not per league, because that is how a
store thinks of its regulars ("our players see our private leagues"), and a rule per
league ("played a game in it") would hide a private event from a regular before they
have played in it. This file is the only place the rule is decided: pages, exports, the
API and events all ask `visible_leagues`.
"""

from django.db.models import Q, QuerySet

from .models import MANAGER_ROLES, League, Organization, Player


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
    """Ids of the organizations where `user` is linked to a player the store vouches for
    (read-only access to its private leagues; see the module's docstring)."""
    if not _is_active(user):
        return set()
    vouched = user.players.filter(sees_private_leagues=True)
    return set(vouched.values_list("organization_id", flat=True))


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
    they belong to or play for as a player the store vouches for."""
    leagues = League.objects.select_related("organization")
    ids = viewer_organization_ids(user)
    if ids is None:
        return leagues
    return leagues.filter(Q(is_public=True) | Q(organization_id__in=ids))


def can_run_events_of(user, organization_id: int) -> bool:
    """Owners, organizers and judges/TOs of the organization run its tournaments."""
    ids = member_organization_ids(user)
    return ids is None or organization_id in ids


def player_is_visible(user, player: Player) -> bool:
    """Whether `user` may see `player`'s name somewhere: in a game of a league they may see,
    or as an entry of an event of one (an event's pages list its entries). A message to
    `user` names a player only when this holds, so a private league's players do not leak."""
    leagues = visible_leagues(user)
    return (
        Player.objects.filter(pk=player.pk)
        .filter(Q(results__game__league__in=leagues) | Q(entries__tournament__league__in=leagues))
        .exists()
    )
