"""Look-alike player names on every way a player is made (issue 30, break 9): "Reg1" with a
zero-width space is Reg1; "Reg1" with a Cyrillic e is refused until the person confirms that
it is someone else. Nothing is created by a refusal."""

import json

import pytest
from django.urls import reverse

from leagues import services
from leagues.models import ApiToken, Game, Player
from tests.factories import GameFactory, LeagueFactory, PlayerFactory, UserFactory
from tournaments.models import Entry, Registration
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.registration import registration_settings_set

pytestmark = pytest.mark.django_db

ZWSP = "Reg1\u200b"
CYRILLIC = "R\u0435g1"


@pytest.fixture
def reg1(league):
    reg1 = PlayerFactory(organization=league.organization, name="Reg1")
    GameFactory(league=league, players=[reg1, PlayerFactory(organization=league.organization)])
    return reg1


def count(name):
    return Player.objects.filter(name=name).count()


# --- the service every path uses -------------------------------------------------------------


def test_an_invisible_character_finds_the_player_it_reads_as(league, reg1):
    players, created = services.players_get_or_create(
        organization=league.organization, names=[ZWSP]
    )
    assert players["reg1"] == reg1 and created == []
    assert services.player_name_clean(ZWSP) == "Reg1"


def test_a_look_alike_is_refused_until_confirmed(league, reg1):
    with pytest.raises(services.LookAlikeNames) as refused:
        services.players_get_or_create(organization=league.organization, names=[CYRILLIC])
    assert refused.value.pairs == {CYRILLIC: "Reg1"}
    assert count(CYRILLIC) == 0

    _, created = services.players_get_or_create(
        organization=league.organization, names=[CYRILLIC], look_alikes_confirmed=True
    )
    assert [p.name for p in created] == [CYRILLIC]


# --- the game form ----------------------------------------------------------------------------


def game(*names, **extra):
    data = {"played_on": "2026-11-20", "notes": "", "add_new_players": "on", **extra}
    data.update({f"player_{i}": name for i, name in enumerate(names)})
    return data


def test_the_game_form_asks_about_a_look_alike(organizer_client, league, reg1):
    url = reverse("game_create", args=[league.slug])
    Player.objects.create(organization=league.organization, name="Ann")
    games = Game.objects.count()

    response = organizer_client.post(url, game(CYRILLIC, "Ann"))

    assert response.status_code == 400
    page = response.content.decode()
    assert "reads like Reg1" in page and 'name="look_alikes_ok"' in page
    assert count(CYRILLIC) == 0 and Game.objects.count() == games

    response = organizer_client.post(url, game(CYRILLIC, "Ann", look_alikes_ok="on"))
    assert response.status_code == 302
    assert count(CYRILLIC) == 1


def test_the_game_form_stores_the_player_a_zero_width_space_hides(organizer_client, league, reg1):
    Player.objects.create(organization=league.organization, name="Ann")
    response = organizer_client.post(reverse("game_create", args=[league.slug]), game(ZWSP, "Ann"))
    assert response.status_code == 302
    assert Game.objects.latest("pk").results.filter(player=reg1).exists()
    assert not Player.objects.filter(name__startswith="Reg1\u200b").exists()


# --- the join form ----------------------------------------------------------------------------


@pytest.fixture
def event(league):
    event = tournament_create(league=league, name="Open", format="pods")
    return registration_settings_set(tournament=event, open=True, cap=8, deadline=None, note="")


def join(client, event, name, **extra):
    response = client.post(reverse("event_join", args=[event.slug]), {"name": name, **extra})
    return " ".join(str(m) for m in response.wsgi_request._messages)


def test_joining_as_a_look_alike_needs_the_box(client, event, reg1):
    client.force_login(UserFactory(username="mallory"))

    said = join(client, event, CYRILLIC)
    assert "reads like Reg1" in said
    assert count(CYRILLIC) == 0 and not Registration.objects.exists()

    said = join(client, event, CYRILLIC, not_a_look_alike="1")
    assert "Welcome" in said
    assert count(CYRILLIC) == 1


def test_joining_with_a_zero_width_space_is_the_taken_name(client, event, reg1):
    client.force_login(UserFactory(username="mallory"))
    said = join(client, event, ZWSP)
    assert "already has a player named Reg1" in said
    assert Player.objects.filter(organization=event.league.organization).count() == 2


def test_a_look_alike_of_a_player_the_person_cannot_see_is_refused_unnamed(client, event):
    store = event.league.organization
    private = LeagueFactory(organization=store, slug="staff", is_public=False)
    hidden = PlayerFactory(organization=store, name="Reg1")
    GameFactory(league=private, players=[hidden, PlayerFactory(organization=store)])
    client.force_login(UserFactory(username="mallory"))

    said = join(client, event, CYRILLIC, not_a_look_alike="1")

    assert "cannot be used" in said and "Reg1" not in said
    assert count(CYRILLIC) == 0


# --- a TO's walk-in, an import, the API, the admin --------------------------------------------


def test_a_walk_in_look_alike_needs_the_tos_confirmation(event, reg1):
    with pytest.raises(services.LookAlikeNames) as refused:
        entry_register(tournament=event, name=CYRILLIC, create_player=True)
    assert refused.value.field == "name"
    assert not Entry.objects.exists() and count(CYRILLIC) == 0
    entry_register(tournament=event, name=CYRILLIC, create_player=True, look_alike_confirmed=True)
    assert Entry.objects.get().player.name == CYRILLIC


def test_the_console_shows_the_look_alike_box(client, event, reg1, organizer):
    client.force_login(organizer)
    url = reverse("event_register", args=[event.slug])
    response = client.post(url, {"name": CYRILLIC, "new_player": "on"})
    assert response.status_code == 400
    assert 'name="look_alike_ok"' in response.content.decode()
    response = client.post(url, {"name": CYRILLIC, "new_player": "on", "look_alike_ok": "on"})
    assert response.status_code == 302
    assert count(CYRILLIC) == 1


def test_an_import_preview_lists_look_alikes_and_the_confirmed_import_makes_them(league, reg1):
    text = f"g1,2026-11-20,{CYRILLIC},Reg1\n"
    with pytest.raises(services.LookAlikeNames):
        services.games_import(league=league, text=text)  # no preview was seen: refused
    batch = services.import_batch_create(league=league, text=text, filename="games.csv")
    preview = services.import_batch_preview(batch=batch)
    assert preview["look_alikes"] == [[CYRILLIC, "Reg1"]]
    services.games_import(league=league, text=text, batch=batch)
    assert count(CYRILLIC) == 1


def test_the_api_refuses_a_look_alike(client, league, reg1):
    _, token = ApiToken.issue(organization=league.organization, name="bot")
    response = client.post(
        reverse("api_games", args=[league.slug]),
        json.dumps({"players": [CYRILLIC, "Reg1"], "date": "2026-11-20"}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 400
    assert "reads like Reg1" in response.content.decode()
    assert count(CYRILLIC) == 0


def test_the_admin_asks_about_a_look_alike(client, league, reg1, organizer):
    organizer.is_staff = True
    organizer.save()
    client.force_login(organizer)
    url = reverse("admin:leagues_player_add")
    data = {"organization": league.organization.pk, "name": CYRILLIC, "sees_private_leagues": "on"}
    response = client.post(url, data)
    assert response.status_code == 200 and "reads like Reg1" in response.content.decode()
    assert count(CYRILLIC) == 0
    response = client.post(url, {**data, "look_alike_ok": "on"})
    assert response.status_code == 302
    assert count(CYRILLIC) == 1
    response = client.post(url, {**data, "name": "Ann\u200b  Lee"})
    assert Player.objects.filter(name="Ann Lee").exists()
