"""Who sees a store's private leagues (issue 30, break 1): the store's members, and the players
whose account the store vouches for. Registering online for a public event makes an account
a player of the store, and that alone opens nothing private, before or after unregistering.
"""

import pytest
from django.urls import reverse

from leagues import services as league_services
from leagues.models import Player
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)
from tournaments.services.events import tournament_create
from tournaments.services.registration import registration_settings_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def store():
    store = OrganizationFactory(name="Alpha Games", slug="alpha")
    public = LeagueFactory(organization=store, slug="open-league", is_public=True)
    private = LeagueFactory(organization=store, slug="staff-league", is_public=False)
    GameFactory(
        league=private,
        players=[PlayerFactory(organization=store, name=n) for n in ("Big7", "Kai")],
    )
    event = tournament_create(league=public, name="Open Friday", format="pods")
    registration_settings_set(tournament=event, open=True, cap=8, deadline=None, note="")
    private_event = tournament_create(league=private, name="Staff Night", format="pods")
    return {"store": store, "private": private, "event": event, "private_event": private_event}


def private_urls(store) -> list[str]:
    slug = store["private"].slug
    return [
        reverse("league_detail", args=[slug]),
        reverse("league_games", args=[slug]),
        reverse("league_export", args=[slug]),
        reverse("event_list", args=[slug]),
        reverse("event_detail", args=[store["private_event"].slug]),
        reverse("api_ratings", args=[slug]),
        reverse("api_scores", args=[slug]),
    ]


def answers(client, store) -> dict[str, int]:
    return {url: client.get(url).status_code for url in private_urls(store)}


def join_online(client, store, name="Newcomer"):
    url = reverse("event_join", args=[store["event"].slug])
    response = client.post(url, {"name": name})
    assert response.status_code == 302
    return Player.objects.get(user=response.wsgi_request.user, organization=store["store"])


def test_registering_online_opens_no_private_league(client, store):
    client.force_login(UserFactory(username="newcomer"))
    join_online(client, store)
    assert set(answers(client, store).values()) == {404}


def test_nor_after_unregistering(client, store):
    client.force_login(UserFactory(username="newcomer"))
    join_online(client, store)
    client.post(reverse("event_leave", args=[store["event"].slug]))
    assert set(answers(client, store).values()) == {404}


def test_another_stores_owner_registering_online_sees_nothing_private(client, store):
    other = OrganizationFactory(name="Beta Cards", slug="beta")
    client.force_login(organizer_of(other, username="bea"))
    join_online(client, store, name="Bea")
    assert set(answers(client, store).values()) == {404}


def test_a_player_linked_by_the_stores_claim_code_sees_them(client, store):
    kai = Player.objects.get(name="Kai")
    code = league_services.claim_code_issue(by=None, player=kai)
    user = UserFactory(username="kai")
    league_services.claim_with_code(user=user, code=code.code)
    client.force_login(user)
    assert set(answers(client, store).values()) == {200}


def test_the_store_may_vouch_for_a_player_who_joined_online(client, store):
    client.force_login(UserFactory(username="newcomer"))
    player = join_online(client, store)
    player.sees_private_leagues = True  # the organizer ticks it in the admin
    player.save(update_fields=["sees_private_leagues"])
    assert set(answers(client, store).values()) == {200}


def test_the_stores_judge_sees_them(client, store):
    client.force_login(organizer_of(store["store"], role="judge", username="judy"))
    assert set(answers(client, store).values()) == {200}
