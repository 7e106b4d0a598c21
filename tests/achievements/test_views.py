"""The achievement pages through Django's test client: the player's taps, the organizer's
forms, and what each page shows."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from achievements import services
from achievements.models import Achievement, Claim
from seasons.services import season_create
from tests.factories import GameFactory, LeagueFactory

from .conftest import FRIDAY

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def mine_url(pod) -> str:
    return reverse("achievement_mine", args=[pod.league.slug])


def test_a_player_claims_and_a_podmate_confirms_by_tapping(pod):
    ann, bob = pod.players[:2]
    response = client_of(ann.user).post(
        mine_url(pod),
        {"action": "claim", "game": pod.game.pk, "achievement": pod.per_game.pk},
    )
    assert response.status_code == 302 and response.url.endswith("?said=claimed")
    claim = Claim.objects.get()
    bob_client = client_of(bob.user)
    page = bob_client.get(mine_url(pod))
    assert page.status_code == 200
    assert "1 claim from your podmates waits for you" in page.content.decode()
    assert b'value="confirm"' in page.content
    response = bob_client.post(mine_url(pod), {"action": "confirm", "claim": claim.pk})
    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.status == "confirmed" and claim.answered_by == bob
    # A second tap: said once, nothing changed.
    again = bob_client.post(mine_url(pod), {"action": "confirm", "claim": claim.pk}, follow=True)
    assert "You already confirmed it." in again.content.decode()


def test_the_claimer_is_not_offered_to_confirm_and_is_refused(pod):
    ann = pod.players[0]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    client = client_of(ann.user)
    page = client.get(mine_url(pod)).content.decode()
    assert 'value="confirm"' not in page and 'value="withdraw"' in page
    response = client.post(mine_url(pod), {"action": "confirm", "claim": claim.pk})
    assert response.status_code == 400
    assert "You cannot confirm or decline your own claim" in response.content.decode()
    claim.refresh_from_db()
    assert claim.status == "pending"


def test_a_refused_claim_says_the_rule(pod):
    ann, bob = pod.players[:2]
    second = GameFactory(league=pod.league, played_on=FRIDAY, players=[ann, bob])
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_night)
    response = client_of(ann.user).post(
        mine_url(pod), {"action": "claim", "game": second.pk, "achievement": pod.per_night.pk}
    )
    assert response.status_code == 409
    assert "First blood is earned once per night" in response.content.decode()
    assert Claim.objects.count() == 1


def test_a_rate_limited_claim_is_a_429(pod, monkeypatch):
    monkeypatch.setattr(services, "CLAIM_LIMIT", 1)
    ann = pod.players[0]
    client = client_of(ann.user)
    client.post(
        mine_url(pod), {"action": "claim", "game": pod.game.pk, "achievement": pod.per_game.pk}
    )
    response = client.post(
        mine_url(pod), {"action": "claim", "game": pod.game.pk, "achievement": pod.per_night.pk}
    )
    assert response.status_code == 429
    assert "wait a little" in response.content.decode()


def test_a_claim_in_another_leagues_game_is_refused(pod):
    another = LeagueFactory(organization=pod.league.organization, slug="other")
    other = GameFactory(league=another, players=[pod.players[0], pod.players[1]])
    response = client_of(pod.players[0].user).post(
        mine_url(pod), {"action": "claim", "game": other.pk, "achievement": pod.per_game.pk}
    )
    assert response.status_code == 400
    assert "Choose one of your games." in response.content.decode()


def test_the_leaderboard_lists_each_players_achievements_and_the_rules(pod):
    ann, bob = pod.players[:2]
    season_create(
        league=pod.league,
        name="Winter",
        starts_on=datetime.date(2026, 11, 1),
        ends_on=datetime.date(2027, 1, 31),
    )
    services.scoring_set(league=pod.league, per_game=1, placings=[2])
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    services.claim_confirm(claim=claim, podmate=bob)
    waiting = services.claim_submit(game=pod.game, player=bob, achievement=pod.per_night)
    assert waiting.status == "pending"
    page = Client().get(reverse("achievement_board", args=[pod.league.slug]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "<title>Achievements · Winter" in html
    rows = page.context["lines"]
    # Ann: Knockout 2 + 1 a game + 2 for 1st = 5; Bob's claim waits: 1 for the game.
    assert [(r.name, r.points) for r in rows][:2] == [("Ann", 5), ("Bob", 1)]
    assert rows[0].achievements == (("Knockout", 1, 2),)
    assert "once per night" in html and "once per season" in html
    assert "1 point for each game played; by placing 1st 2" in html
    # Every game: the same here; a season with nothing in it: empty.
    assert Client().get(reverse("achievement_board", args=[pod.league.slug]) + "?season=all")
    spring = season_create(
        league=pod.league,
        name="Spring",
        starts_on=datetime.date(2027, 2, 1),
        ends_on=datetime.date(2027, 4, 30),
    )
    empty = Client().get(
        reverse("achievement_board", args=[pod.league.slug]) + f"?season={spring.pk}"
    )
    assert empty.context["lines"] == []
    assert "Nothing earned in Spring yet." in empty.content.decode()


def test_the_board_links_a_player_to_their_games_and_staff_to_the_claims(pod):
    url = reverse("achievement_board", args=[pod.league.slug])
    assert mine_url(pod) in client_of(pod.players[0].user).get(url).content.decode()
    assert mine_url(pod) not in client_of(pod.organizer).get(url).content.decode()
    claims = reverse("achievement_claims", args=[pod.league.slug])
    assert claims in client_of(pod.organizer).get(url).content.decode()
    assert claims not in Client().get(url).content.decode()


def test_the_organizer_settles_a_disputed_claim(pod):
    ann, bob = pod.players[:2]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    services.claim_decline(claim=claim, podmate=bob)
    client = client_of(pod.organizer)
    page = client.get(reverse("achievement_claims", args=[pod.league.slug])).content.decode()
    assert "declined by Bob" in page
    url = reverse("achievement_settle", args=[pod.league.slug, claim.pk])
    response = client.post(url, {"decision": "refuse"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Ann's Knockout refused."]
    claim.refresh_from_db()
    assert claim.status == "rejected"


def test_the_organizer_adds_an_achievement_twice_pressed_once_made(pod):
    client = client_of(pod.organizer)
    url = reverse("achievement_new", args=[pod.league.slug])
    data = {"name": "Salt", "points": "-1", "per": "night", "active": "on"}
    assert client.post(url, data).status_code == 302
    second = client.post(url, data, follow=True)
    assert "Salt is already added." in second.content.decode()
    assert Achievement.objects.filter(name="Salt").count() == 1
    bad = client.post(url, {"name": "", "points": "500", "per": "week"})
    assert bad.status_code == 400
    assert bad.context["form"].errors.keys() == {"name", "points", "per"}


def test_the_organizer_retires_an_achievement(pod):
    client = client_of(pod.organizer)
    url = reverse("achievement_edit", args=[pod.league.slug, pod.per_game.pk])
    assert client.post(url, {"name": "Knockout", "points": "2", "per": "game"}).status_code == 302
    pod.per_game.refresh_from_db()
    assert pod.per_game.active is False
    page = client_of(pod.players[0].user).get(mine_url(pod)).content.decode()
    assert f'<option value="{pod.per_game.pk}">' not in page


def test_the_points_form_names_the_row_at_fault(pod):
    client = client_of(pod.organizer)
    url = reverse("achievement_scoring", args=[pod.league.slug])
    response = client.post(url, {"per_game": "1", "placings": "2, 3"})
    assert response.status_code == 400
    assert response.context["form"].errors["placings"] == [
        "Place 2 pays 3, more than place 1 (2): a better place never pays less."
    ]
    response = client.post(url, {"per_game": "1", "placings": "two"})
    assert response.status_code == 400


def test_the_award_form(pod):
    client = client_of(pod.organizer)
    url = reverse("achievement_award", args=[pod.league.slug])
    ann = pod.players[0]
    # A per-game achievement with no game: refused beside the game field.
    response = client.post(
        url, {"player": ann.pk, "achievement": pod.per_game.pk, "night": "2026-11-20"}
    )
    assert response.status_code == 400
    assert "choose the game" in response.context["form"].errors["game"][0]
    response = client.post(
        url, {"player": ann.pk, "achievement": pod.per_game.pk, "game": pod.game.pk}
    )
    assert response.status_code == 302
    claim = Claim.objects.get()
    assert (claim.source, claim.status, claim.decided_by) == ("award", "confirmed", pod.organizer)


def test_a_league_without_achievements_says_so(db):
    league = LeagueFactory(slug="plain")
    GameFactory(league=league)
    page = Client().get(reverse("achievement_board", args=[league.slug])).content.decode()
    assert "No achievements in this league" in page
    assert "achievement-table" not in page
