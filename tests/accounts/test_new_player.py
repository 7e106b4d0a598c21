"""Someone new to the store registers for an event with the name they play under: they become
the store's player (linked to their account) and registered in one step, or neither."""

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from leagues.models import Player
from tests.factories import GameFactory, LeagueFactory, PlayerFactory, UserFactory
from tournaments.models import Registration
from tournaments.services.events import tournament_create
from tournaments.services.registration import registration_settings_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    league = LeagueFactory(name="cEDH League", slug="cedh")
    event = tournament_create(league=league, name="cEDH Friday", format="pods")
    return registration_settings_set(tournament=event, open=True, cap=4, deadline=None, note="")


def join(client, event, name):
    return client.post(reverse("event_join", args=[event.slug]), {"name": name})


def test_a_new_player_registers_under_their_name(client, event):
    nia = UserFactory(username="nia")
    client.force_login(nia)
    page = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "New to" in page and 'name="name"' in page

    response = join(client, event, "  Nia Noor ")

    assert response.status_code == 302
    player = Player.objects.get(user=nia)
    assert player.name == "Nia Noor" and player.organization == event.league.organization
    assert Registration.objects.get(player=player).status == "seated"
    assert AuditEntry.objects.filter(action="player.join", object_id=player.pk).exists()
    # A second tap: already registered, nothing new.
    join(client, event, "Nia Noor")
    assert Player.objects.filter(user=nia).count() == 1
    assert Registration.objects.filter(player=player).count() == 1


def test_a_name_the_store_has_is_claimed_not_made_twice(client, event):
    store = event.league.organization
    nia = PlayerFactory(organization=store, name="Nia Noor")
    # She played in the public league: her name is on its page for anyone to read.
    GameFactory(league=event.league, players=[nia, PlayerFactory(organization=store)])
    client.force_login(UserFactory(username="nia"))

    response = join(client, event, "nia noor")

    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("already has a player named Nia Noor" in m for m in messages), messages
    assert Player.objects.filter(name__iexact="nia noor").count() == 1
    assert not Registration.objects.exists()


@pytest.mark.parametrize("where", ["private league", "nowhere yet"])
def test_the_refusal_does_not_confirm_a_name_the_person_cannot_see(client, event, where):
    """Issue 30, break 10: "already has a player named Big7" told anyone that a private
    league's player exists, and how the store spells them."""
    store = event.league.organization
    big7 = PlayerFactory(organization=store, name="Big7")
    if where == "private league":
        private = LeagueFactory(organization=store, slug="staff", is_public=False)
        GameFactory(league=private, players=[big7, PlayerFactory(organization=store)])
    client.force_login(UserFactory(username="nosy"))

    response = join(client, event, "BIG7")

    said = " ".join(str(m) for m in response.wsgi_request._messages)
    assert "cannot be used" in said
    assert "Big7" not in said and "already has" not in said
    assert not Registration.objects.exists()
    assert Player.objects.filter(name__iexact="big7").count() == 1


def test_a_refused_registration_makes_no_player(client, event):
    event = registration_settings_set(tournament=event, open=False, cap=4, deadline=None, note="")
    client.force_login(UserFactory(username="nia"))

    join(client, event, "Nia Noor")

    assert not Player.objects.filter(name="Nia Noor").exists()
    assert not AuditEntry.objects.filter(action="player.join").exists()


@pytest.mark.parametrize("name", ["", "   ", "x" * 101, "Nia\x00Noor"])
def test_a_bad_name_is_refused_and_changes_nothing(client, event, name):
    client.force_login(UserFactory(username="nia"))
    response = join(client, event, name)
    assert response.status_code in (302, 403)
    assert not Player.objects.exists()
    assert not Registration.objects.exists()
