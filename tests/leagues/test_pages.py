"""The public pages: what a player sees without logging in."""

import datetime

import pytest
from django.urls import reverse

from tests.factories import GameFactory, LeagueFactory, PlayerFactory, UserFactory, organizer_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(league):
    """Three games each: Ann wins two; Bob and Cy share first place in the third."""
    org = league.organization
    ann, bob, cy = (PlayerFactory(organization=org, name=n) for n in ["Ann", "Bob", "Cy"])
    day = datetime.date(2026, 3, 1)
    GameFactory(league=league, played_on=day, players=[ann, bob, cy])
    GameFactory(league=league, played_on=day, players=[ann, cy, bob])
    GameFactory(
        league=league,
        played_on=day + datetime.timedelta(days=7),
        players=[bob, cy, ann],
        players__places=[1, 1, 3],
        notes="Went to time",
    )
    return {"Ann": ann, "Bob": bob, "Cy": cy}


def rows(html: str) -> list[list[str]]:
    """The standings table's body cells as text, row by row."""
    import re

    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    out = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        out.append([re.sub(r"<[^>]+>", "", c).strip() for c in cells])
    return out


def test_home_lists_public_leagues_only(client, league, played):
    hidden = LeagueFactory(organization=league.organization, name="Staff Only", is_public=False)
    html = client.get(reverse("home")).content.decode()
    assert league.name in html
    assert league.organization.name.replace("'", "&#x27;") in html
    assert hidden.name not in html


def test_standings_rank_by_wins_then_win_rate(client, league, played):
    response = client.get(reverse("league_detail", args=[league.slug]))
    assert response.status_code == 200
    table = rows(response.content.decode())
    assert [r[1] for r in table] == ["Ann", "Bob", "Cy"]
    assert table[0] == ["1", "Ann", "3", "2", "66.7", "2026-03-08"]
    # Bob and Cy both have one (shared) win in 3 games: same rank, marked tied.
    assert table[1][0] == "2=" and table[2][0] == "2="


def test_standings_sort_by_a_column(client, league, played):
    url = reverse("league_detail", args=[league.slug])
    table = rows(client.get(url, {"sort": "-games"}).content.decode())
    assert len(table) == 3
    table = rows(client.get(url, {"sort": "name"}).content.decode())
    assert [r[1] for r in table] == ["Ann", "Bob", "Cy"]
    table = rows(client.get(url, {"sort": "-name"}).content.decode())
    assert [r[1] for r in table] == ["Cy", "Bob", "Ann"]


def test_search_returns_only_the_table_fragment_to_htmx(client, league, played):
    url = reverse("league_detail", args=[league.slug])
    response = client.get(url, {"q": "bo"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="standings")
    html = response.content.decode()
    assert "<html" not in html and 'id="standings"' in html
    table = rows(html)
    assert [r[1] for r in table] == ["Bob"]
    assert table[0][0] == "2="  # the rank stays the league rank, not the position in results
    full = client.get(url, {"q": "bo"}).content.decode()
    assert "<html" in full and 'value="bo"' in full


def test_search_with_no_match_says_so(client, league, played):
    html = client.get(reverse("league_detail", args=[league.slug]), {"q": "zzz"}).content
    assert b"No player matches" in html


def test_standings_paginate(client, league):
    org = league.organization
    players = PlayerFactory.create_batch(60, organization=org)
    for a, b in zip(players[::2], players[1::2], strict=True):
        GameFactory(league=league, players=[a, b])
    url = reverse("league_detail", args=[league.slug])
    first = client.get(url).content.decode()
    assert len(rows(first)) == 50
    assert 'rel="next"' in first
    assert len(rows(client.get(url, {"page": 2}).content.decode())) == 10


def test_player_page_shows_their_games_newest_first(client, league, played):
    url = reverse("player_detail", args=[league.slug, played["Ann"].pk])
    html = client.get(url).content.decode()
    assert html.index("Sun 8 Mar 2026") < html.index("Sun 1 Mar 2026")
    assert "Went to time" in html
    assert html.count('class="game"') == 3


def test_player_from_another_league_is_404(client, league, played):
    stranger = PlayerFactory(organization=league.organization)
    url = reverse("player_detail", args=[league.slug, stranger.pk])
    assert client.get(url).status_code == 404


def test_game_log_newest_first_with_places(client, league, played):
    html = client.get(reverse("league_games", args=[league.slug])).content.decode()
    assert "3 games" in html
    first = html.index('class="game"')
    assert html.index("Sun 8 Mar 2026") < html.index("Sun 1 Mar 2026")
    assert "Edit" not in html[first:]  # anonymous visitors get no edit links


def test_game_log_shows_edit_links_to_organizers(organizer_client, league, played):
    html = organizer_client.get(reverse("league_games", args=[league.slug])).content.decode()
    assert html.count(">Edit</a>") == 3


def test_private_league_is_404_for_outsiders_and_visible_to_members(client, organization):
    private = LeagueFactory(organization=organization, is_public=False)
    GameFactory(league=private)
    urls = [
        reverse("league_detail", args=[private.slug]),
        reverse("league_games", args=[private.slug]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(UserFactory())
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(organizer_of(organization))
    for url in urls:
        assert client.get(url).status_code == 200


def test_unknown_league_is_404(client, db):
    assert client.get(reverse("league_detail", args=["nope"])).status_code == 404


@pytest.mark.parametrize("players", [6, 60])
def test_standings_and_log_queries_do_not_grow_with_players(
    client, league, players, django_assert_max_num_queries
):
    roster = PlayerFactory.create_batch(players, organization=league.organization)
    for i in range(0, players, 3):
        GameFactory(league=league, players=roster[i : i + 3])
    with django_assert_max_num_queries(6):
        client.get(reverse("league_detail", args=[league.slug]))
    with django_assert_max_num_queries(8):
        client.get(reverse("league_games", args=[league.slug]))
    with django_assert_max_num_queries(8):
        client.get(reverse("player_detail", args=[league.slug, roster[0].pk]))
