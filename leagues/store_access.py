"""Who may set a store up from its pages (leagues.views.store, ratings.league_new).

- The store's owners (and superusers) change its profile and its staff: whoever may make
  someone an owner holds the store, so that stays with the people who already do, as in the
  admin, where only owners edit memberships.
- Owners and organizers create leagues. An organizer already changes every league of the
  store (players, games, imports, rating settings) and may add a league in the admin, so a
  page that does the same grants nothing new; judges / TOs run events and do not shape the
  store's league history, so they may not.
- The store's other staff get a 403 with the reason (they know the store and may ask its
  owner); anyone else a 404, so a store's staff pages reveal nothing. Anonymous visitors are
  sent to log in first (login_required on the views), before anything is looked up.

Kept apart from leagues.permissions (which decides who sees which league) on purpose: these
rules are about the store's own setup pages only.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from .models import MANAGER_ROLES, Membership, Organization, Role


def _store_and_role(request: HttpRequest, slug: str) -> tuple[Organization, str | None]:
    """The store and the user's role in it (None for a superuser who is not a member);
    404 when the user is not on its staff."""
    organization = get_object_or_404(Organization, slug=slug)
    user = request.user
    if not (user.is_authenticated and user.is_active):
        raise Http404(_("No such page."))
    role = (
        Membership.objects.filter(organization=organization, user=user)
        .values_list("role", flat=True)
        .first()
    )
    if role is None and not user.is_superuser:
        raise Http404(_("No such page."))
    return organization, role


def store_for_owner(request: HttpRequest, slug: str) -> Organization:
    """The store whose profile and staff the user may change; 403 / 404 otherwise."""
    organization, role = _store_and_role(request, slug)
    if role != Role.OWNER and not request.user.is_superuser:
        raise PermissionDenied(
            _("Only an owner of %(name)s changes its profile and its staff.")
            % {"name": organization.name}
        )
    return organization


def store_for_manager(request: HttpRequest, slug: str) -> Organization:
    """The store whose setup page the user may open and whose leagues they may create."""
    organization, role = _store_and_role(request, slug)
    if role not in MANAGER_ROLES and not request.user.is_superuser:
        raise PermissionDenied(
            _(
                "Only the owners and organizers of %(name)s create its leagues and see "
                "its staff; ask one of them."
            )
            % {"name": organization.name}
        )
    return organization


def may_change_staff(request: HttpRequest, organization: Organization) -> bool:
    if request.user.is_superuser:
        return True
    return Membership.objects.filter(
        organization=organization, user=request.user, role=Role.OWNER
    ).exists()
