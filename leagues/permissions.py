"""Who may see and change what: every check the views and the admin make goes through here.

Public leagues are visible to everyone; a private league only to members of its organization.
Owners and organizers change their own organization's leagues, players and games; judges run
tournaments (a later issue) but do not edit league history. Superusers may do everything.
"""

from django.db.models import Q, QuerySet

from .models import MANAGER_ROLES, League, Organization


def acting_user(user):
    """The user to record as having done something, or None for anonymous or no user."""
    return user if user is not None and user.is_authenticated else None


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
    """Ids of the organizations `user` belongs to in any role; None means all (superuser)."""
    if not _is_active(user):
        return set()
    if user.is_superuser:
        return None
    return set(user.memberships.values_list("organization_id", flat=True))


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
    """Leagues `user` may look at: the public ones and those of their own organizations."""
    leagues = League.objects.select_related("organization")
    ids = member_organization_ids(user)
    if ids is None:
        return leagues
    return leagues.filter(Q(is_public=True) | Q(organization_id__in=ids))


def can_run_events_of(user, organization_id: int) -> bool:
    """Owners, organizers and judges/TOs of the organization run its tournaments."""
    ids = member_organization_ids(user)
    return ids is None or organization_id in ids
