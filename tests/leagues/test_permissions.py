"""leagues.permissions for every kind of user: who manages, who belongs, who sees which league."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from leagues import permissions
from leagues.models import League, Player, Role
from tests.factories import (
    LeagueFactory,
    MembershipFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def store_a():
    return OrganizationFactory(name="Alpha Games")


@pytest.fixture
def store_b():
    return OrganizationFactory(name="Beta Cards")


@pytest.fixture
def users(store_a):
    """One user per role, all of store A where they have a membership."""
    inactive = organizer_of(store_a, role=Role.OWNER, username="gone", is_active=False)
    return {
        "anonymous": AnonymousUser(),
        "inactive": inactive,
        "no_membership": UserFactory(username="nobody", is_staff=True),
        "player": PlayerFactory(organization=store_a, user=UserFactory(username="pat")).user,
        "judge": organizer_of(store_a, role=Role.JUDGE, username="judy"),
        "organizer": organizer_of(store_a, role=Role.ORGANIZER, username="olive"),
        "owner": organizer_of(store_a, role=Role.OWNER, username="owen"),
        "superuser": UserFactory(username="root", is_superuser=True, is_staff=True),
    }


# Expected answers for store A; ALL means "every organization" (None from the function).
ALL = "all"
MANAGED = {
    "anonymous": set(),
    "inactive": set(),
    "no_membership": set(),
    "player": set(),
    "judge": set(),
    "organizer": {"a"},
    "owner": {"a"},
    "superuser": ALL,
}
MEMBER = {**MANAGED, "judge": {"a"}}


def expected(answer, store_a):
    if answer == ALL:
        return None
    return {store_a.pk for _ in answer}


@pytest.mark.parametrize("role", MANAGED)
def test_managed_organization_ids(users, store_a, store_b, role):
    assert permissions.managed_organization_ids(users[role]) == expected(MANAGED[role], store_a)


@pytest.mark.parametrize("role", MEMBER)
def test_member_organization_ids(users, store_a, store_b, role):
    assert permissions.member_organization_ids(users[role]) == expected(MEMBER[role], store_a)


@pytest.mark.parametrize("role", MANAGED)
def test_can_manage_own_organization_only_as_owner_or_organizer(users, store_a, store_b, role):
    user = users[role]
    manages_a = MANAGED[role] != set()
    assert permissions.can_manage_organization(user, store_a) is manages_a
    assert permissions.can_manage_organization_id(user, store_a.pk) is manages_a
    assert permissions.can_manage_league(user, LeagueFactory(organization=store_a)) is manages_a
    # Only a superuser manages store B, where nobody here has a membership.
    manages_b = role == "superuser"
    assert permissions.can_manage_organization(user, store_b) is manages_b
    assert permissions.can_manage_organization_id(user, store_b.pk) is manages_b
    assert permissions.can_manage_league(user, LeagueFactory(organization=store_b)) is manages_b


def test_none_is_nobody():
    assert permissions.managed_organization_ids(None) == set()
    assert permissions.member_organization_ids(None) == set()


def test_an_inactive_superuser_has_no_rights(store_a):
    user = UserFactory(is_superuser=True, is_staff=True, is_active=False)
    assert permissions.managed_organization_ids(user) == set()
    assert permissions.member_organization_ids(user) == set()
    assert not permissions.can_manage_organization(user, store_a)


def test_roles_are_per_organization(store_a, store_b):
    """Organizer of A and judge of B: manages A only, belongs to both."""
    user = organizer_of(store_a)
    MembershipFactory(organization=store_b, user=user, role=Role.JUDGE)
    assert permissions.managed_organization_ids(user) == {store_a.pk}
    assert permissions.member_organization_ids(user) == {store_a.pk, store_b.pk}
    assert permissions.can_manage_organization(user, store_a)
    assert not permissions.can_manage_organization(user, store_b)


def test_owner_of_two_stores_manages_both(store_a, store_b):
    user = organizer_of(store_a, role=Role.OWNER)
    MembershipFactory(organization=store_b, user=user, role=Role.ORGANIZER)
    assert permissions.managed_organization_ids(user) == {store_a.pk, store_b.pk}


def test_losing_a_membership_loses_the_rights(store_a):
    user = organizer_of(store_a)
    assert permissions.can_manage_organization(user, store_a)
    user.memberships.all().delete()
    assert not permissions.can_manage_organization(user, store_a)


# --- scope --------------------------------------------------------------------------------


def test_scope_none_means_everything(store_a, store_b):
    PlayerFactory(organization=store_a)
    PlayerFactory(organization=store_b)
    queryset = Player.objects.all()
    assert permissions.scope(queryset, None) is queryset


def test_scope_filters_by_organization_ids(store_a, store_b):
    ann = PlayerFactory(organization=store_a)
    PlayerFactory(organization=store_b)
    assert list(permissions.scope(Player.objects.all(), {store_a.pk})) == [ann]
    assert not permissions.scope(Player.objects.all(), set()).exists()


def test_scope_follows_a_path(store_a, store_b):
    league_a = LeagueFactory(organization=store_a)
    LeagueFactory(organization=store_b)
    scoped = permissions.scope(
        League.objects.all(), {store_a.pk}, path="organization__pk"
    ).values_list("pk", flat=True)
    assert list(scoped) == [league_a.pk]


# --- visible_leagues ----------------------------------------------------------------------


@pytest.fixture
def leagues(store_a, store_b):
    return {
        "a_public": LeagueFactory(organization=store_a, name="A open", is_public=True),
        "a_private": LeagueFactory(organization=store_a, name="A secret", is_public=False),
        "b_public": LeagueFactory(organization=store_b, name="B open", is_public=True),
        "b_private": LeagueFactory(organization=store_b, name="B secret", is_public=False),
    }


VISIBLE = {
    "anonymous": {"a_public", "b_public"},
    "inactive": {"a_public", "b_public"},
    "no_membership": {"a_public", "b_public"},
    "player": {"a_public", "a_private", "b_public"},  # read-only: see MANAGED
    "judge": {"a_public", "a_private", "b_public"},
    "organizer": {"a_public", "a_private", "b_public"},
    "owner": {"a_public", "a_private", "b_public"},
    "superuser": {"a_public", "a_private", "b_public", "b_private"},
}


@pytest.mark.parametrize("role", VISIBLE)
def test_visible_leagues(users, leagues, role):
    visible = permissions.visible_leagues(users[role])
    assert isinstance(visible, QuerySet)
    assert set(visible) == {leagues[key] for key in VISIBLE[role]}


def test_a_private_league_is_hidden_from_members_of_other_stores(store_b, leagues):
    outsider = organizer_of(store_b, role=Role.OWNER)
    visible = set(permissions.visible_leagues(outsider))
    assert leagues["a_private"] not in visible
    assert leagues["b_private"] in visible


def test_visible_leagues_loads_the_organizations_in_one_query(
    users, leagues, django_assert_num_queries
):
    user = users["superuser"]
    with django_assert_num_queries(1):
        names = [league.organization.name for league in permissions.visible_leagues(user)]
    assert sorted(names) == ["Alpha Games", "Alpha Games", "Beta Cards", "Beta Cards"]


def test_a_player_sees_the_private_leagues_of_the_stores_they_play_for(store_a, store_b, leagues):
    user = PlayerFactory(organization=store_b, user=UserFactory()).user
    assert set(permissions.visible_leagues(user)) == {
        leagues["a_public"],
        leagues["b_public"],
        leagues["b_private"],
    }
    assert permissions.player_organization_ids(user) == {store_b.pk}
    assert permissions.viewer_organization_ids(user) == {store_b.pk}
    # ... and runs nothing there.
    assert not permissions.can_run_events_of(user, store_b.pk)
    assert not permissions.can_manage_organization(user, store_b)


def test_an_inactive_player_sees_only_public_leagues(store_a, leagues):
    user = PlayerFactory(organization=store_a, user=UserFactory(is_active=False)).user
    assert set(permissions.visible_leagues(user)) == {leagues["a_public"], leagues["b_public"]}


def test_unlinking_the_player_hides_the_private_leagues_again(store_a, leagues):
    player = PlayerFactory(organization=store_a, user=UserFactory())
    user = player.user
    assert leagues["a_private"] in set(permissions.visible_leagues(user))
    player.user = None
    player.save()
    assert leagues["a_private"] not in set(permissions.visible_leagues(user))
