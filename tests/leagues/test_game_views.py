"""Organizer game entry on the site: add, correct, delete; and who may not."""

import datetime

import pytest
from django.urls import reverse

from leagues.models import Game, GameResult, Player, Role
from tests.factories import GameFactory, LeagueFactory, PlayerFactory, UserFactory, organizer_of
from tests.forms import error_summary

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster(league):
    return {
        name: PlayerFactory(organization=league.organization, name=name)
        for name in ["Ann", "Bob", "Cy", "Dee"]
    }


def entry(*names, tied=(), seats=None, played_on="2026-11-20", **extra):
    data = {"played_on": played_on, "notes": extra.pop("notes", "")}
    for i, name in enumerate(names):
        data[f"player_{i}"] = name
        if i in tied:
            data[f"tied_{i}"] = "on"
        if seats:
            data[f"seat_{i}"] = seats[i]
    data.update(extra)
    return data


def finish(game):
    return [(r.player.name, r.placement, r.seat) for r in game.results.order_by("placement", "id")]


def test_add_game_in_finishing_order_with_a_tie(organizer_client, league, roster):
    url = reverse("game_create", args=[league.slug])
    response = organizer_client.post(
        url, entry("ann", "Bob", "Cy", "Dee", tied=[2], seats=[2, 1, 4, 3], notes="close one")
    )
    assert response.status_code == 302
    game = Game.objects.get(league=league)
    assert finish(game) == [("Ann", 1, 2), ("Bob", 2, 1), ("Cy", 2, 4), ("Dee", 4, 3)]
    assert game.played_on == datetime.date(2026, 11, 20)
    assert game.notes == "close one"
    assert game.entered_by.username == "olive"
    assert game.source == Game.Source.MANUAL
    # Reflected on the public pages at once.
    standings = organizer_client.get(reverse("league_detail", args=[league.slug]))
    assert "Ann" in standings.content.decode()


def test_blank_rows_are_ignored_and_a_draw_is_everyone_tied(organizer_client, league, roster):
    data = entry("Ann", "", "Bob", "Cy", tied=[2, 3])
    response = organizer_client.post(reverse("game_create", args=[league.slug]), data)
    assert response.status_code == 302
    assert finish(Game.objects.get()) == [("Ann", 1, None), ("Bob", 1, None), ("Cy", 1, None)]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (entry("Ann"), "at least 2 players"),
        (entry(), "Enter the players"),
        (entry("Ann", "ann"), "already in this game"),
        (entry("Ann", "Bob", tied=[0]), "nobody above to tie with"),
        (entry("Ann", "Bob", seats=[1, 1]), "Seat 1 is taken"),
        (entry("Ann", "Bob", played_on="20/11/2026"), "Enter a valid date"),
        (entry("Ann", "Bobb"), "No player &quot;Bobb&quot;"),
        (entry("Ann", "x" * 101), "at most 100 characters"),
    ],
)
def test_bad_entries_say_why_and_store_nothing(organizer_client, league, roster, data, message):
    players_before = Player.objects.count()
    response = organizer_client.post(reverse("game_create", args=[league.slug]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Game.objects.count() == 0
    assert Player.objects.count() == players_before
    # What the organizer typed is still in the form.
    if data.get("player_0"):
        assert f'value="{data["player_0"]}"' in response.content.decode()


def test_unknown_names_become_players_only_when_asked(organizer_client, league, roster):
    data = entry("Ann", "Newcomer Nia", add_new_players="on")
    response = organizer_client.post(reverse("game_create", args=[league.slug]), data)
    assert response.status_code == 302
    nia = Player.objects.get(name="Newcomer Nia")
    assert nia.organization == league.organization
    assert finish(Game.objects.get())[1] == ("Newcomer Nia", 2, None)


def test_save_and_add_another_returns_to_an_empty_form(organizer_client, league, roster):
    url = reverse("game_create", args=[league.slug])
    response = organizer_client.post(url, entry("Ann", "Bob", add_another="1"))
    assert response.status_code == 302
    assert response.url == url
    page = organizer_client.get(url)
    assert "Game saved: 1st Ann, 2nd Bob." in page.content.decode()


def test_add_row_fragment_for_htmx(organizer_client, league):
    url = reverse("game_form_row", args=[league.slug])
    response = organizer_client.get(url, {"index": 4}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="player_4"' in html
    assert "index=5" in html  # the next "add" button
    assert "<html" not in html
    assert organizer_client.get(url, {"index": 99}).status_code == 400


def test_a_bad_game_comes_back_with_the_error_summary_linking_its_fields(
    organizer_client, league, roster
):
    data = entry("Ann", "Bobb", played_on="20/11/2026")
    page = organizer_client.post(reverse("game_create", args=[league.slug]), data)
    summary = error_summary(page.content.decode())
    assert 'href="#id_played_on"' in summary and "Enter a valid date" in summary
    assert 'href="#id_player_1"' in summary and "No player &quot;Bobb&quot;" in summary


def test_rows_added_in_the_browser_are_kept_on_error(organizer_client, league, roster):
    data = entry("Ann", "Bob", "Cy", "Dee", "Nobody")
    response = organizer_client.post(reverse("game_create", args=[league.slug]), data)
    assert response.status_code == 400
    assert 'value="Nobody"' in response.content.decode()


def test_correct_a_game_keeps_stats_and_swaps_seats(organizer_client, league, roster):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"], roster["Cy"]])
    GameResult.objects.filter(game=game, player=roster["Ann"]).update(seat=1, stats={"kills": 2})
    GameResult.objects.filter(game=game, player=roster["Bob"]).update(seat=2)
    edit = reverse("game_edit", args=[game.pk])
    form = organizer_client.get(edit)
    assert 'value="Ann"' in form.content.decode()
    response = organizer_client.post(
        edit, entry("Bob", "Ann", "Dee", seats=[1, 2, 3], played_on="2026-01-02", notes="fixed")
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert finish(game) == [("Bob", 1, 1), ("Ann", 2, 2), ("Dee", 3, 3)]
    assert game.results.get(player=roster["Ann"]).stats == {"kills": 2}
    assert game.played_on == datetime.date(2026, 1, 2)
    assert game.notes == "fixed"


def test_a_bad_correction_changes_nothing(organizer_client, league, roster):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]])
    response = organizer_client.post(reverse("game_edit", args=[game.pk]), entry("Ann"))
    assert response.status_code == 400
    assert finish(game) == [("Ann", 1, None), ("Bob", 2, None)]


def test_delete_asks_first_then_deletes(organizer_client, league, roster):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]])
    url = reverse("game_delete", args=[game.pk])
    confirm = organizer_client.get(url)
    assert confirm.status_code == 200
    assert "Delete this game?" in confirm.content.decode()
    assert Game.objects.filter(pk=game.pk).exists()
    response = organizer_client.post(url)
    assert response.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    assert Player.objects.filter(name="Ann").exists()  # players stay


def test_anonymous_users_are_sent_to_log_in_and_cannot_post(client, league, roster):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]])
    for url in [
        reverse("game_create", args=[league.slug]),
        reverse("game_edit", args=[game.pk]),
        reverse("game_delete", args=[game.pk]),
    ]:
        assert client.get(url).status_code == 302
        response = client.post(url, entry("Ann", "Bob"))
        assert response.status_code == 302
        assert reverse("account_login") in response.url
    assert Game.objects.count() == 1
    assert finish(game) == [("Ann", 1, None), ("Bob", 2, None)]


def test_organizer_of_another_store_cannot_touch_this_league(client, league, roster):
    other = organizer_of(LeagueFactory().organization)
    client.force_login(other)
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]])
    assert (
        client.post(reverse("game_create", args=[league.slug]), entry("Ann", "Bob")).status_code
        == 403
    )
    assert client.post(reverse("game_edit", args=[game.pk]), entry("Bob", "Ann")).status_code == 403
    assert client.post(reverse("game_delete", args=[game.pk])).status_code == 403
    assert Game.objects.count() == 1
    assert finish(game) == [("Ann", 1, None), ("Bob", 2, None)]


def test_private_league_is_404_to_outsiders(client, organization):
    private = LeagueFactory(organization=organization, is_public=False)
    game = GameFactory(league=private)
    client.force_login(UserFactory())
    assert client.get(reverse("game_create", args=[private.slug])).status_code == 404
    assert client.post(reverse("game_delete", args=[game.pk])).status_code == 404
    assert Game.objects.filter(pk=game.pk).exists()


def test_judges_can_look_but_not_enter_league_games(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE))
    assert client.get(reverse("game_create", args=[league.slug])).status_code == 403
