"""The store's staff changed by two owners at once, for real (two threads, two connections):
a store always keeps an owner, and one form posted twice at once makes one league."""

import pytest

from leagues import services
from leagues.models import League, Membership, Role
from tests import concurrency
from tests.factories import OrganizationFactory, organizer_of


def codes(*jobs) -> list[str]:
    return sorted(
        outcome.code if isinstance(outcome, services.LeagueError) else "ok"
        for outcome in concurrency.run_together(*jobs)
    )


@pytest.mark.django_db(transaction=True)
def test_two_owners_removing_each_other_at_once_leave_one_owner():
    store = OrganizationFactory()
    owners = [organizer_of(store, role=Role.OWNER) for _ in range(2)]
    ids = [Membership.objects.get(user=user).pk for user in owners]
    outcomes = codes(
        *(
            lambda mine=mine: services.staff_remove(organization=store, membership_id=mine)
            for mine in ids
        )
    )
    assert outcomes == ["last_owner", "ok"]
    assert Membership.objects.filter(organization=store, role=Role.OWNER).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_owners_stepping_down_at_once_leave_one_owner():
    store = OrganizationFactory()
    owners = [organizer_of(store, role=Role.OWNER) for _ in range(2)]
    ids = [Membership.objects.get(user=user).pk for user in owners]
    outcomes = codes(
        *(
            lambda mine=mine: services.staff_role_set(
                organization=store, membership_id=mine, role="organizer"
            )
            for mine in ids
        )
    )
    assert outcomes == ["last_owner", "ok"]
    assert Membership.objects.filter(organization=store, role=Role.OWNER).count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_new_league_form_posted_twice_at_once_makes_one_league():
    store = OrganizationFactory()

    def create():
        return services.league_create(organization=store, name="Friday", entry_key="k1")

    concurrency.run_together(create, create)
    assert League.objects.filter(organization=store).count() == 1
