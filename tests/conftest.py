import pytest

from tests.factories import LeagueFactory, OrganizationFactory, organizer_of


@pytest.fixture
def organization(db):
    return OrganizationFactory(name="Dragon's Den", slug="dragons-den")


@pytest.fixture
def league(organization):
    return LeagueFactory(organization=organization, name="Friday Commander", slug="friday")


@pytest.fixture
def organizer(organization):
    return organizer_of(organization, username="olive")


@pytest.fixture
def organizer_client(client, organizer):
    client.force_login(organizer)
    return client
