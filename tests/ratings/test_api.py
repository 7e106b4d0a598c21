"""The JSON API: scores and ratings for anyone who may see the league, games posted with a token.

Expected ratings are worked out by hand with Guildmaster's rule (K 40, D 800, pairwise, each
player's summed delta rounded once per game):

- two players at 1500: E = 1 / (1 + 10^0) = 0.5, so the winner gets 40 * (1 - 0.5) = +20 and
  the loser -20;
- 1520 beats 1480: E = 1 / (1 + 10^(-40/800)) = 0.52874, 40 * (1 - 0.52874) = 18.85 -> +19/-19;
- four at 1500 finishing Ann, (Bob = Cy), Dee: Ann wins 3 pairs (+60); Bob and Cy each lose to
  Ann (-20), draw each other (0) and beat Dee (+20), so 0; Dee loses 3 pairs (-60).
"""

import datetime
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from leagues.models import ApiToken, Game, GameResult, League, Membership, Player, Role
from ratings.models import LeagueRating, Rating, RatingChange
from ratings.services import rating_system_set
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
YESTERDAY = TODAY - datetime.timedelta(days=1)


@pytest.fixture
def roster(league):
    return {
        name: PlayerFactory(organization=league.organization, name=name)
        for name in ["Ann", "Bob", "Cy", "Dee"]
    }


@pytest.fixture
def play(django_capture_on_commit_callbacks):
    """Store a game the way the site does, ratings caught up on commit."""

    def play(league, *players, on=YESTERDAY, places=None):
        with django_capture_on_commit_callbacks(execute=True):
            kwargs = {"players__places": places} if places else {}
            return GameFactory(league=league, players=list(players), played_on=on, **kwargs)

    return play


@pytest.fixture
def token(organization, organizer):
    _, plaintext = ApiToken.issue(organization=organization, name="scorebot", by=organizer)
    return plaintext


@pytest.fixture
def post_game(client, django_capture_on_commit_callbacks):
    """POST a game (a dict, or raw bytes/str as the body) with the given token."""

    def post(league_or_slug, body, token=None, *, using=None, headers=None):
        slug = getattr(league_or_slug, "slug", league_or_slug)
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        headers = dict(headers or {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        with django_capture_on_commit_callbacks(execute=True):
            return (using or client).post(
                reverse("api_games", args=[slug]),
                data=data,
                content_type="application/json",
                headers=headers,
            )

    return post


def counts() -> dict[str, int]:
    return {
        "games": Game.objects.count(),
        "results": GameResult.objects.count(),
        "players": Player.objects.count(),
        "changes": RatingChange.objects.count(),
        "ratings": Rating.objects.count(),
        "settings": LeagueRating.objects.count(),
        "tokens_used": ApiToken.objects.filter(last_used_at__isnull=False).count(),
    }


def error_of(response) -> dict:
    assert response["Content-Type"] == "application/json"
    return response.json()["error"]


# --- GET scores / ratings ------------------------------------------------------------------------


def test_scores_are_guildmasters_shape_with_keys_sorted(client, league, roster, play):
    zed = PlayerFactory(organization=league.organization, name="Zed")
    alice = PlayerFactory(organization=league.organization, name="alice")
    play(league, roster["Ann"], roster["Bob"])  # Ann 1520, Bob 1480
    play(league, roster["Ann"], roster["Bob"])  # Ann 1539, Bob 1461
    play(league, alice, zed)  # alice 1520, Zed 1480

    response = client.get(reverse("api_scores", args=[league.slug]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    # Code-point order, as Go's encoding/json sorts map keys: capitals before lower case.
    assert list(json.loads(response.content)) == ["Ann", "Bob", "Zed", "alice"]
    assert response.json() == {"Ann": 1539, "Bob": 1461, "Zed": 1480, "alice": 1520}
    assert all(type(v) is int for v in response.json().values())


def test_scores_of_a_league_without_games_is_empty(client, league):
    response = client.get(reverse("api_scores", args=[league.slug]))
    assert response.status_code == 200
    assert response.json() == {}


def test_ratings_list_the_leaderboard_with_each_players_last_game(client, league, roster, play):
    ann, bob, cy, dee = roster.values()
    old = play(league, cy, dee, on=TODAY - datetime.timedelta(days=60))  # Cy 1520, Dee 1480
    first = play(league, ann, bob)  # Ann 1520, Bob 1480
    second = play(league, ann, bob, on=TODAY)  # Ann 1539, Bob 1461

    response = client.get(reverse("api_ratings", args=[league.slug]))

    assert response.status_code == 200
    body = response.json()
    assert body["league"] == "friday"
    assert body["system"] == "guildmaster"
    assert body["ratings"] == [
        {
            "rank": 1,
            "tied": False,
            "player": "Ann",
            "rating": 1539,
            "games": 2,
            "wins": 2,
            "draws": 0,
            "losses": 0,
            "win_percent": 100.0,
            "change_30d": 39,
            "provisional": False,
            "last_game": {"id": second.pk, "date": TODAY.isoformat(), "delta": 19},
        },
        # Cy and Dee's game is older than 30 days: no recent change. Cy and Ann's 1520 would
        # tie, but Ann has moved on to 1539.
        {
            "rank": 2,
            "tied": False,
            "player": "Cy",
            "rating": 1520,
            "games": 1,
            "wins": 1,
            "draws": 0,
            "losses": 0,
            "win_percent": 100.0,
            "change_30d": 0,
            "provisional": False,
            "last_game": {"id": old.pk, "date": old.played_on.isoformat(), "delta": 20},
        },
        {
            "rank": 3,
            "tied": False,
            "player": "Dee",
            "rating": 1480,
            "games": 1,
            "wins": 0,
            "draws": 0,
            "losses": 1,
            "win_percent": 0.0,
            "change_30d": 0,
            "provisional": False,
            "last_game": {"id": old.pk, "date": old.played_on.isoformat(), "delta": -20},
        },
        {
            "rank": 4,
            "tied": False,
            "player": "Bob",
            "rating": 1461,
            "games": 2,
            "wins": 0,
            "draws": 0,
            "losses": 2,
            "win_percent": 0.0,
            "change_30d": -39,
            "provisional": False,
            "last_game": {"id": second.pk, "date": TODAY.isoformat(), "delta": -19},
        },
    ]
    assert first.pk != second.pk


def test_ratings_share_a_rank_when_tied(client, league, roster, play):
    ann, bob, cy, dee = roster.values()
    play(league, ann, bob)  # Ann 1520, Bob 1480
    play(league, cy, dee)  # Cy 1520, Dee 1480
    rows = client.get(reverse("api_ratings", args=[league.slug])).json()["ratings"]
    assert [(r["rank"], r["tied"], r["player"]) for r in rows] == [
        (1, True, "Ann"),
        (1, True, "Cy"),
        (3, True, "Bob"),
        (3, True, "Dee"),
    ]


def test_ratings_use_the_ratings_query_budget(
    client, league, roster, play, django_assert_max_num_queries
):
    for _ in range(3):
        play(league, *roster.values())
    # Anonymous: the league, its rating settings, recent changes, ratings and last games,
    # one query each whatever the number of players.
    with django_assert_max_num_queries(5):
        response = client.get(reverse("api_ratings", args=[league.slug]))
    assert len(response.json()["ratings"]) == 4


def test_float_systems_give_floats(client, league, roster, play, post_game, token):
    rating_system_set(league=league, system="openskill")
    response = post_game(league, {"players": ["Ann", "Bob"], "date": "2026-01-05"}, token)
    assert response.status_code == 201
    ann, bob = response.json()["results"]
    assert type(ann["rating"]) is float and type(ann["delta"]) is float
    assert ann["delta"] > 0 > bob["delta"]

    scores = client.get(reverse("api_scores", args=[league.slug])).json()
    assert scores == {"Ann": ann["rating"], "Bob": bob["rating"]}
    # The display value is OpenSkill's conservative mu - 3 sigma.
    stored = Rating.objects.get(league=league, player=roster["Ann"])
    assert scores["Ann"] == pytest.approx(stored.rating - 3 * stored.deviation)
    board = client.get(reverse("api_ratings", args=[league.slug])).json()
    assert board["system"] == "openskill"
    assert board["ratings"][0]["rating"] == ann["rating"]


# --- Who may read -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["api_scores", "api_ratings"])
def test_private_league_is_a_json_404_for_outsiders(client, organization, name):
    LeagueFactory(organization=organization, slug="secret", is_public=False)
    url = reverse(name, args=["secret"])

    response = client.get(url)
    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"
    # Same answer as a league that does not exist: nothing leaks.
    assert client.get(reverse(name, args=["nope"])).json() == response.json()

    client.force_login(organizer_of(OrganizationFactory()))
    assert client.get(url).status_code == 404

    client.force_login(organizer_of(organization, role=Role.JUDGE))
    assert client.get(url).status_code == 200


def test_a_token_may_read_its_own_private_leagues(client, organization, token):
    LeagueFactory(organization=organization, slug="secret", is_public=False)
    url = reverse("api_scores", args=["secret"])
    assert client.get(url).status_code == 404
    assert client.get(url, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    # A bad token is refused rather than ignored.
    response = client.get(url, headers={"Authorization": "Bearer gh_wrong"})
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    # Other schemes (say, Basic auth of a proxy in front of the site) are not our business.
    public = LeagueFactory(organization=organization, slug="open")
    response = client.get(
        reverse("api_scores", args=[public.slug]), headers={"Authorization": "Basic dTpw"}
    )
    assert response.status_code == 200


def test_get_never_changes_data(client, league, roster, play, token):
    empty = LeagueFactory(organization=league.organization, slug="empty")
    play(league, roster["Ann"], roster["Bob"])
    before = counts()
    stamps = list(ApiToken.objects.values_list("last_used_at", flat=True))
    headers = {"Authorization": f"Bearer {token}"}
    for slug in (league.slug, empty.slug):
        for name in ("api_scores", "api_ratings"):
            assert client.get(reverse(name, args=[slug])).status_code == 200
            assert client.get(reverse(name, args=[slug]), headers=headers).status_code == 200
    assert client.get(reverse("api_games", args=[league.slug]), headers=headers).status_code == 405
    assert counts() == before
    assert not LeagueRating.objects.filter(league=empty).exists()
    assert list(ApiToken.objects.values_list("last_used_at", flat=True)) == stamps


def test_everything_under_api_answers_json(client, league, token):
    response = client.get("/api/nothing/here")
    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"

    response = client.post(reverse("api_scores", args=[league.slug]))
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert error_of(response)["code"] == "method_not_allowed"

    response = client.get(reverse("api_games", args=[league.slug]))
    assert response.status_code == 405
    assert response["Allow"] == "POST"

    response = client.delete(
        reverse("api_games", args=[league.slug]), headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 405
    assert client.head(reverse("api_scores", args=[league.slug])).status_code == 200


# --- POST a game --------------------------------------------------------------------------------


def test_post_a_game_with_ties_and_new_players(league, roster, organizer, token, post_game):
    before = counts()
    response = post_game(
        league,
        {"players": ["ann", ["Bob", "Newcomer"], "Dee"], "date": "2026-03-07", "notes": " GG "},
        token,
    )

    assert response.status_code == 201, response.content
    body = response.json()
    game = Game.objects.get(league=league)
    assert body == {
        "game": {"id": game.pk, "date": "2026-03-07", "league": "friday"},
        # Existing players keep their stored spelling; 1, 2, 2, 4 (see the module docstring).
        "results": [
            {"player": "Ann", "place": 1, "delta": 60, "rating": 1560},
            {"player": "Bob", "place": 2, "delta": 0, "rating": 1500},
            {"player": "Newcomer", "place": 2, "delta": 0, "rating": 1500},
            {"player": "Dee", "place": 4, "delta": -60, "rating": 1440},
        ],
        "new_players": ["Newcomer"],
    }
    assert game.played_on == datetime.date(2026, 3, 7)
    assert game.notes == "GG"
    assert game.source == Game.Source.MANUAL
    assert game.entered_by == organizer
    assert sorted(game.results.values_list("player__name", "placement")) == [
        ("Ann", 1),
        ("Bob", 2),
        ("Dee", 4),
        ("Newcomer", 2),
    ]
    assert Player.objects.get(name="Newcomer").organization == league.organization
    after = counts()
    assert after["games"] == before["games"] + 1
    assert after["players"] == before["players"] + 1
    assert ApiToken.objects.get().last_used_at is not None


def test_post_then_scores_agree(client, league, token, post_game):
    assert (
        post_game(league, {"players": ["Ann", "Bob"], "date": "2026-01-01"}, token).status_code
        == 201
    )
    second = post_game(league, {"players": ["Ann", "Bob"], "date": "2026-01-02"}, token).json()
    assert [(r["delta"], r["rating"]) for r in second["results"]] == [(19, 1539), (-19, 1461)]
    assert client.get(reverse("api_scores", args=[league.slug])).json() == {
        "Ann": 1539,
        "Bob": 1461,
    }


def test_date_defaults_to_today(league, token, post_game):
    response = post_game(league, {"players": ["Ann", "Bob"]}, token)
    assert response.status_code == 201
    assert response.json()["game"]["date"] == timezone.localdate().isoformat()


def test_a_trailing_slash_works_too(client, league, token):
    response = client.post(
        reverse("api_games", args=[league.slug]) + "/",
        data=json.dumps({"players": ["Ann", "Bob"]}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201
    assert client.get(reverse("api_scores", args=[league.slug]) + "/").status_code == 200


BAD_INPUT = [
    ("not json", "body", "invalid_json"),
    (b"\xff\xfe\x00garbage", "body", "invalid_json"),
    ("[" * 5000 + "]" * 5000, "body", "invalid_json"),
    ('["Ann", "Bob"]', "body", "invalid_type"),
    ({}, "players", "required"),
    ({"players": "Ann, Bob"}, "players", "invalid_type"),
    ({"players": []}, "players", "too_few_players"),
    ({"players": ["Ann"]}, "players", "too_few_players"),
    ({"players": [["Ann"]]}, "players", "too_few_players"),
    ({"players": ["Ann", 5]}, "players[1]", "invalid_type"),
    ({"players": ["Ann", None]}, "players[1]", "invalid_type"),
    ({"players": ["Ann", ""]}, "players[1]", "empty_name"),
    ({"players": ["Ann", "   "]}, "players[1]", "empty_name"),
    ({"players": ["Ann", "x" * 101]}, "players[1]", "long_name"),
    ({"players": ["Ann", "Bo\x00b"]}, "players[1]", "control_characters"),
    ({"players": ["Ann", "Bob", "ANN"]}, "players[2]", "duplicate_player"),
    ({"players": ["Ann", ["Bob", " ann "]]}, "players[1][1]", "duplicate_player"),
    ({"players": ["Ann", ["Bob", 7]]}, "players[1][1]", "invalid_type"),
    ({"players": ["Ann", ["Bob", ["Cy"]]]}, "players[1][1]", "invalid_type"),
    ({"players": ["Ann", ["", "Bob"]]}, "players[1][0]", "empty_name"),
    ({"players": ["Ann", ["Bob", "  "]]}, "players[1][1]", "empty_name"),
    ({"players": ["Ann", "Bob", []]}, "players[2]", "empty_tie_group"),
    ({"players": [f"P{i}" for i in range(65)]}, "players", "too_many_players"),
    ({"players": ["Ann", "Bob"], "date": "2026-02-30"}, "date", "invalid_date"),
    ({"players": ["Ann", "Bob"], "date": "3/7/2026"}, "date", "invalid_date"),
    ({"players": ["Ann", "Bob"], "date": "2026-03-07T10:00"}, "date", "invalid_date"),
    ({"players": ["Ann", "Bob"], "date": 20260307}, "date", "invalid_date"),
    ({"players": ["Ann", "Bob"], "date": None}, "date", "invalid_date"),
    ({"players": ["Ann", "Bob"], "notes": 5}, "notes", "invalid_type"),
    ({"players": ["Ann", "Bob"], "notes": "x" * 2001}, "notes", "too_long"),
    ({"players": ["Ann", "Bob"], "winner": "Ann"}, "winner", "unknown"),
    ({"players": ["Ann", "Bob"], "seats": [1, 2]}, "seats", "unknown"),
]


@pytest.mark.parametrize(("body", "field", "code"), BAD_INPUT)
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(
    league, roster, token, post_game, body, field, code
):
    before = counts()
    response = post_game(league, body, token)
    assert response.status_code == 400, response.content
    error = error_of(response)
    assert (error["field"], error["code"]) == (field, code)
    assert error["message"]
    assert counts() == before


def test_a_new_name_in_a_refused_game_is_not_created(league, roster, token, post_game):
    before = counts()
    response = post_game(league, {"players": ["Brand New", "Ann", "ann"]}, token)
    assert response.status_code == 400
    assert counts() == before
    assert not Player.objects.filter(name="Brand New").exists()


def test_a_body_over_64_kb_is_refused(league, token, post_game):
    before = counts()
    body = json.dumps({"players": ["Ann", "Bob"], "notes": "x" * (64 * 1024)})
    response = post_game(league, body, token)
    assert response.status_code == 413
    assert error_of(response)["code"] == "too_large"
    assert counts() == before


# --- Who may post -------------------------------------------------------------------------------


def assert_401(response, *, invalid: bool):
    assert response.status_code == 401
    assert error_of(response)["code"] == "unauthorized"
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert ('error="invalid_token"' in response["WWW-Authenticate"]) is invalid


GAME = {"players": ["Ann", "Bob"], "date": "2026-03-07"}


def test_posting_needs_a_token(league, post_game):
    assert_401(post_game(league, GAME), invalid=False)
    assert_401(post_game(league, GAME, headers={"Authorization": "Basic dTpw"}), invalid=False)
    assert_401(post_game(league, GAME, "gh_not-a-real-token"), invalid=True)
    assert_401(post_game(league, GAME, headers={"Authorization": "Bearer"}), invalid=True)
    assert_401(post_game(league, GAME, headers={"Authorization": "Bearer a b"}), invalid=True)
    assert Game.objects.count() == 0


def test_a_logged_in_organizer_without_a_token_cannot_post(league, organizer, post_game):
    from django.test import Client

    for client in (Client(), Client(enforce_csrf_checks=True)):
        client.force_login(organizer)
        assert_401(post_game(league, GAME, using=client), invalid=False)
    assert Game.objects.count() == 0


def test_a_revoked_token_stops_working(league, token, post_game):
    assert post_game(league, GAME, token).status_code == 201
    assert ApiToken.objects.get().revoke() is True
    assert ApiToken.objects.get().revoke() is False
    assert_401(post_game(league, GAME, token), invalid=True)
    assert Game.objects.count() == 1


def test_a_token_of_another_organization(league, post_game):
    other = OrganizationFactory()
    _, foreign = ApiToken.issue(organization=other, name="theirs", by=organizer_of(other))
    # A public league of another store: seen, but not theirs to change.
    response = post_game(league, GAME, foreign)
    assert response.status_code == 403
    assert error_of(response)["code"] == "forbidden"
    # A private league of another store does not exist for them.
    LeagueFactory(organization=league.organization, slug="secret", is_public=False)
    assert post_game("secret", GAME, foreign).status_code == 404
    assert post_game("no-such-league", GAME, foreign).status_code == 404
    assert Game.objects.count() == 0
    assert ApiToken.objects.get().last_used_at is None


def test_a_token_may_post_to_its_own_private_league(organization, token, post_game):
    LeagueFactory(organization=organization, slug="secret", is_public=False)
    assert post_game("secret", GAME, token).status_code == 201


@pytest.mark.parametrize("change", ["judge", "removed", "deactivated"])
def test_a_token_dies_with_its_creators_rights(league, organizer, token, post_game, change):
    membership = Membership.objects.get(user=organizer)
    if change == "judge":
        membership.role = Role.JUDGE
        membership.save()
    elif change == "removed":
        membership.delete()
    else:
        organizer.is_active = False
        organizer.save()
    assert_401(post_game(league, GAME, token), invalid=True)
    assert Game.objects.count() == 0


def test_a_token_is_deleted_with_its_creator(league, organizer, token, post_game):
    organizer.delete()
    assert not ApiToken.objects.exists()
    assert_401(post_game(league, GAME, token), invalid=True)


def test_tokens_without_a_user_or_of_a_superuser_work(organization, league, post_game):
    _, orgs_own = ApiToken.issue(organization=organization, name="cli", by=None)
    admin = UserFactory(is_superuser=True, is_staff=True)
    _, admins = ApiToken.issue(organization=organization, name="admin", by=admin)
    assert post_game(league, GAME, orgs_own).status_code == 201
    assert post_game(league, GAME, admins).status_code == 201
    assert list(Game.objects.values_list("entered_by", flat=True).order_by("id")) == [
        None,
        admin.pk,
    ]


def test_token_is_stored_hashed():
    organization = OrganizationFactory()
    token, plaintext = ApiToken.issue(organization=organization, name="bot", by=None)
    assert plaintext.startswith("gh_") and len(plaintext) > 40
    assert token.prefix == plaintext[:8]
    assert len(token.key_hash) == 64 and plaintext not in token.key_hash
    assert ApiToken.authenticate(plaintext) == token
    assert ApiToken.authenticate(plaintext + "x") is None
    assert ApiToken.authenticate(token.key_hash) is None
    assert ApiToken.authenticate(None) is None


# --- The api_token command ----------------------------------------------------------------------


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("api_token", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def table_text(table: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT coalesce(string_agg(row_to_json(t)::text, ' '), '') FROM {table} t")
        return cursor.fetchone()[0]


def test_api_token_command_create_list_revoke(league, organizer, post_game):
    out, err = run(
        "create", "--organization", "dragons-den", "--name", "scorebot", "--user", "olive"
    )
    plaintext = out.strip()
    assert plaintext.startswith("gh_")
    assert "shown only now" in err
    # The database holds no trace of the token itself.
    assert plaintext not in table_text("leagues_apitoken")
    assert plaintext[8:] not in table_text("leagues_apitoken")

    assert post_game(league, GAME, plaintext).status_code == 201
    assert Game.objects.get().entered_by == organizer

    token = ApiToken.objects.get()
    listing, _ = run("list", "--organization", "dragons-den")
    assert token.prefix in listing and "scorebot" in listing and "active" in listing
    assert "olive" in listing
    assert plaintext not in listing

    out, _ = run("revoke", token.prefix)
    assert "Revoked" in out
    assert_401(post_game(league, GAME, plaintext), invalid=True)
    listing, _ = run("list", "--organization", "dragons-den")
    assert "revoked" in listing
    out, _ = run("revoke", str(token.pk))
    assert "already revoked" in out


def test_api_token_command_without_a_user(league, post_game):
    out, _ = run("create", "--organization", "dragons-den", "--name", "till")
    assert ApiToken.objects.get().created_by is None
    assert post_game(league, GAME, out.strip()).status_code == 201


def test_api_token_command_refusals(organization):
    judge = organizer_of(organization, role=Role.JUDGE, username="jude")
    outsider = organizer_of(OrganizationFactory(), username="otto")
    with pytest.raises(CommandError, match="No organization"):
        run("create", "--organization", "nope", "--name", "x")
    with pytest.raises(CommandError, match="not an owner or organizer"):
        run("create", "--organization", organization.slug, "--name", "x", "--user", judge.username)
    with pytest.raises(CommandError, match="not an owner or organizer"):
        run("create", "--organization", organization.slug, "--name", "x", "--user", "otto")
    with pytest.raises(CommandError, match="No user"):
        run("create", "--organization", organization.slug, "--name", "x", "--user", "ghost")
    with pytest.raises(CommandError, match="--name"):
        run("create", "--organization", organization.slug, "--name", "  ")
    with pytest.raises(CommandError, match="No API token"):
        run("revoke", "gh_abcde")
    with pytest.raises(CommandError, match="neither"):
        run("revoke", "abc")
    assert not ApiToken.objects.exists()
    assert outsider.is_active
    assert League.objects.count() == 0
