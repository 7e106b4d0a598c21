import pytest

from tests.factories import LeagueFactory, OrganizationFactory, organizer_of


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The default PBKDF2 costs ~0.4 s a user; tests make many users and test no hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
