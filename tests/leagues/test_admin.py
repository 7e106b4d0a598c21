"""The admin, through the test client: each store sees and changes only its own data.

Store A ("Alpha Games") and store B ("Beta Cards") each have players, a league, a game and
an import. Names are chosen so that B's never appear on a page of A's organizer.
"""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues import services
from leagues.models import (
    Game,
    GameResult,
    ImportBatch,
    League,
    Membership,
    Organization,
    Player,
    Role,
)
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)

pytestmark = pytest.mark.django_db


class World:
    """Two stores with a bit of everything."""

    def __init__(self):
        self.a = OrganizationFactory(name="Alpha Games", slug="alpha")
        self.b = OrganizationFactory(name="Beta Cards", slug="beta")
        self.ann, self.bob, self.cy, self.dee = (
            PlayerFactory(organization=self.a, name=name)
            for name in ("Ann Alpha", "Bob Alpha", "Cy Alpha", "Dee Alpha")
        )
        self.zed, self.yan = (
            PlayerFactory(organization=self.b, name=name) for name in ("Zed Beta", "Yan Beta")
        )
        self.league_a = LeagueFactory(organization=self.a, name="Alpha Commander", slug="ac")
        self.league_b = LeagueFactory(organization=self.b, name="Beta Modern", slug="bm")
        self.game_a = GameFactory(
            league=self.league_a, players=[self.ann, self.bob], notes="alpha night"
        )
        self.game_b = GameFactory(
            league=self.league_b, players=[self.zed, self.yan], notes="beta night"
        )
        self.import_a = ImportBatch.objects.create(
            league=self.league_a,
            filename="alpha-export.csv",
            sha256="a" * 64,
            content="x,2024-01-01,Ann Alpha,Bob Alpha",
        )
        self.import_b = ImportBatch.objects.create(
            league=self.league_b,
            filename="beta-export.csv",
            sha256="b" * 64,
            content="x,2024-01-01,Zed Beta,Yan Beta",
        )
        self.organizer = organizer_of(self.a, username="olive")
        self.owner = organizer_of(self.a, role=Role.OWNER, username="owen")
        self.judge = organizer_of(self.a, role=Role.JUDGE, username="judy")
        self.staff = UserFactory(username="nobody", is_staff=True)
        self.superuser = UserFactory(username="root", is_staff=True, is_superuser=True)
        self.owner_b = organizer_of(self.b, role=Role.OWNER, username="bea")

    # What must never show on a page of store A's people.
    def b_names(self):
        return ["Beta Cards", "Zed Beta", "Yan Beta", "Beta Modern", "beta-export.csv"]


@pytest.fixture
def world():
    return World()


def url(model, view="changelist", *args):
    return reverse(f"admin:leagues_{model}_{view}", args=args)


def as_user(client, user):
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def option_values(response, field_name) -> set[str]:
    """The values of a select's options in a rendered admin form (by the bound field)."""
    for form in [response.context["adminform"].form] + [
        form for fs in response.context["inline_admin_formsets"] for form in fs.formset.forms
    ]:
        if field_name in form.fields:
            return {str(value) for value, _ in form.fields[field_name].choices if value != ""}
    raise AssertionError(f"no field {field_name}")


# --- anonymous users ----------------------------------------------------------------------


@pytest.mark.parametrize("model", ["player", "league", "game", "importbatch", "organization"])
def test_anonymous_users_are_sent_to_the_admin_login(client, world, model):
    changelist = url(model)
    response = client.get(changelist)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('admin:login')}?next={changelist}"


def test_anonymous_users_cannot_post(client, world):
    response = client.post(url("player", "add"), {"organization": world.a.pk, "name": "Sneaky"})
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]
    response = client.post(
        url("player", "change", world.ann.pk), {"organization": world.a.pk, "name": "Renamed"}
    )
    assert response.status_code == 302
    assert not Player.objects.filter(name__in=["Sneaky", "Renamed"]).exists()


# --- who sees the leagues app -------------------------------------------------------------


@pytest.mark.parametrize("who", ["judge", "staff"])
def test_judges_and_staff_without_membership_see_no_league_models(client, world, who):
    as_user(client, getattr(world, who))
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200
    assert "/admin/leagues/" not in text(index)
    assert client.get(reverse("admin:app_list", args=["leagues"])).status_code == 404
    for model in ["organization", "membership", "player", "league", "game", "importbatch"]:
        assert client.get(url(model)).status_code == 403, model
    assert client.get(url("player", "change", world.ann.pk)).status_code == 403
    assert client.get(url("player", "add")).status_code == 403


def test_an_organizer_sees_every_league_model(client, world):
    index = as_user(client, world.organizer).get(reverse("admin:index"))
    for model in ["organization", "membership", "player", "league", "game", "importbatch"]:
        assert url(model) in text(index), model
    # ...but may add none of these: organizations (superusers), memberships (owners),
    # imports (the site does them), lone results (inside a game).
    for model in ["organization", "membership", "importbatch", "gameresult"]:
        assert client.get(url(model, "add")).status_code == 403, model


# --- changelists show only the user's stores ----------------------------------------------


@pytest.mark.parametrize(
    ("model", "a_names"),
    [
        ("player", ["Ann Alpha", "Dee Alpha"]),
        ("league", ["Alpha Commander"]),
        ("game", ["1 Ann Alpha · 2 Bob Alpha"]),
        ("importbatch", ["alpha-export.csv"]),
        ("gameresult", ["Ann Alpha", "Bob Alpha"]),
        ("organization", ["Alpha Games"]),
        ("membership", ["olive", "owen", "judy"]),
    ],
)
def test_an_organizer_sees_only_their_stores_rows(client, world, model, a_names):
    response = as_user(client, world.organizer).get(url(model))
    assert response.status_code == 200
    page = text(response)
    for name in a_names:
        assert name in page, name
    for name in [*world.b_names(), "bea"]:
        assert name not in page, name


def test_changelist_filters_offer_only_the_users_stores(client, world):
    as_user(client, world.organizer)
    for model in ["player", "league", "game", "importbatch", "gameresult"]:
        page = text(client.get(url(model)))
        assert "Beta" not in page, model


def test_a_superuser_sees_both_stores(client, world):
    as_user(client, world.superuser)
    players = text(client.get(url("player")))
    assert "Ann Alpha" in players
    assert "Zed Beta" in players
    games = text(client.get(url("game")))
    assert "Alpha Commander" in games
    assert "Beta Modern" in games
    assert "beta-export.csv" in text(client.get(url("importbatch")))
    assert client.get(url("game", "change", world.game_b.pk)).status_code == 200
    assert client.get(url("organization", "add")).status_code == 200


def test_games_can_be_searched_by_player_and_note(client, world):
    as_user(client, world.organizer)
    GameFactory(league=world.league_a, players=[world.cy, world.dee], notes="finals")
    by_player = text(client.get(url("game"), {"q": "cy alpha"}))
    assert "1 Cy Alpha · 2 Dee Alpha" in by_player
    assert "1 Ann Alpha" not in by_player
    by_note = text(client.get(url("game"), {"q": "alpha night"}))
    assert "1 Ann Alpha · 2 Bob Alpha" in by_note
    assert "Cy Alpha" not in by_note
    # Searching for a name of store B finds nothing.
    assert "Zed" not in text(client.get(url("game"), {"q": "zed"}))


def test_the_game_changelist_makes_no_query_per_game(client, world):
    as_user(client, world.organizer)
    client.get(url("game"))  # warm up (session, content types)
    with CaptureQueriesContext(connection) as one_game:
        assert client.get(url("game")).status_code == 200
    for _ in range(5):
        GameFactory(league=world.league_a, players__n=4)
    with CaptureQueriesContext(connection) as six_games:
        response = client.get(url("game"))
    assert response.context["cl"].result_count == 6
    assert len(six_games) == len(one_game)


@pytest.mark.parametrize("model", ["player", "league", "organization"])
def test_other_changelists_make_no_query_per_row(client, world, model):
    as_user(client, world.superuser)
    client.get(url(model))
    with CaptureQueriesContext(connection) as before:
        client.get(url(model))
    for _ in range(3):
        store = OrganizationFactory()
        league = LeagueFactory(organization=store)
        GameFactory(
            league=league,
            players=[PlayerFactory(organization=store, user=UserFactory()) for _ in range(2)],
        )
    with CaptureQueriesContext(connection) as after:
        client.get(url(model))
    assert len(after) == len(before)


# --- another store's objects are out of reach ---------------------------------------------


@pytest.mark.parametrize(
    ("model", "attr"),
    [
        ("player", "zed"),
        ("league", "league_b"),
        ("game", "game_b"),
        ("importbatch", "import_b"),
        ("organization", "b"),
    ],
)
def test_another_stores_object_pages_are_not_accessible(client, world, model, attr):
    as_user(client, world.organizer)
    pk = getattr(world, attr).pk
    for view in ["change", "delete", "history"]:
        response = client.get(url(model, view, pk))
        # The admin treats an object outside the queryset as missing: back to the index.
        assert response.status_code in (302, 403, 404), view
        if response.status_code == 302:
            assert response["Location"] == reverse("admin:index")
        assert "Beta" not in text(response)


def test_posting_to_another_stores_objects_changes_nothing(client, world):
    as_user(client, world.organizer)
    client.post(
        url("player", "change", world.zed.pk), {"organization": world.a.pk, "name": "Stolen"}
    )
    client.post(
        url("league", "change", world.league_b.pk),
        {"organization": world.b.pk, "name": "Hacked", "slug": "bm"},
    )
    client.post(
        url("game", "change", world.game_b.pk),
        {"league": world.league_b.pk, "played_on": "2024-01-01", "notes": "hacked"},
    )
    client.post(url("game", "delete", world.game_b.pk), {"post": "yes"})
    client.post(url("player", "delete", world.yan.pk), {"post": "yes"})
    client.post(
        url("game"),
        {"action": "delete_selected", "_selected_action": [world.game_b.pk], "post": "yes"},
    )
    world.zed.refresh_from_db()
    world.league_b.refresh_from_db()
    world.game_b.refresh_from_db()
    assert world.zed.name == "Zed Beta"
    assert world.zed.organization == world.b
    assert world.league_b.name == "Beta Modern"
    assert world.game_b.notes == "beta night"
    assert Player.objects.filter(pk=world.yan.pk).exists()


def test_the_bulk_delete_action_only_reaches_the_users_games(client, world):
    as_user(client, world.organizer)
    response = client.post(
        url("game"),
        {
            "action": "delete_selected",
            "_selected_action": [world.game_a.pk, world.game_b.pk],
            "post": "yes",
        },
    )
    assert response.status_code == 302
    assert not Game.objects.filter(pk=world.game_a.pk).exists()
    assert Game.objects.filter(pk=world.game_b.pk).exists()


def test_an_organizer_cannot_move_a_player_to_another_store(client, world):
    as_user(client, world.organizer)
    response = client.post(
        url("player", "change", world.ann.pk), {"organization": world.b.pk, "name": "Ann Alpha"}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in text(response)
    world.ann.refresh_from_db()
    assert world.ann.organization == world.a


# --- forms offer only the user's stores ---------------------------------------------------


def test_the_game_add_form_lists_only_the_users_leagues_and_players(client, world):
    response = as_user(client, world.organizer).get(url("game", "add"))
    assert response.status_code == 200
    assert option_values(response, "league") == {str(world.league_a.pk)}
    a_players = {str(p.pk) for p in (world.ann, world.bob, world.cy, world.dee)}
    assert option_values(response, "player") == a_players
    assert "Zed Beta" not in text(response)


def test_the_game_change_form_lists_the_games_store_players(client, world):
    # A user managing both stores sees only the game's own store's players in its results.
    Membership.objects.create(organization=world.b, user=world.organizer, role=Role.ORGANIZER)
    response = as_user(client, world.organizer).get(url("game", "change", world.game_a.pk))
    assert option_values(response, "player") == {
        str(p.pk) for p in (world.ann, world.bob, world.cy, world.dee)
    }
    assert option_values(response, "league") == {str(world.league_a.pk), str(world.league_b.pk)}


def test_the_player_and_league_add_forms_list_only_the_users_store(client, world):
    as_user(client, world.organizer)
    for model in ["player", "league"]:
        response = client.get(url(model, "add"))
        assert response.status_code == 200
        assert option_values(response, "organization") == {str(world.a.pk)}
        # With a single store it is already chosen.
        assert response.context["adminform"].form["organization"].value() == world.a.pk


def test_an_organizer_adds_a_player_to_their_store_only(client, world):
    as_user(client, world.organizer)
    response = client.post(url("player", "add"), {"organization": world.a.pk, "name": "Eve"})
    assert response.status_code == 302
    assert Player.objects.get(name="Eve").organization == world.a
    response = client.post(url("player", "add"), {"organization": world.b.pk, "name": "Mal"})
    assert response.status_code == 200
    assert "Select a valid choice" in text(response)
    assert not Player.objects.filter(name="Mal").exists()


def test_a_duplicate_player_name_gets_a_friendly_message(client, world):
    response = as_user(client, world.organizer).post(
        url("player", "add"), {"organization": world.a.pk, "name": "ann ALPHA"}
    )
    assert response.status_code == 200
    assert "This organization already has a player with this name." in text(response)
    assert Player.objects.filter(organization=world.a).count() == 4


def test_the_player_user_link_is_for_superusers(client, world):
    page = as_user(client, world.organizer).get(url("player", "change", world.ann.pk))
    assert "user" not in page.context["adminform"].form.fields
    page = as_user(client, world.superuser).get(url("player", "change", world.ann.pk))
    assert "user" in page.context["adminform"].form.fields


def test_a_league_ending_before_it_starts_gets_a_friendly_message(client, world):
    response = as_user(client, world.organizer).post(
        url("league", "add"),
        {
            "organization": world.a.pk,
            "name": "Backwards",
            "slug": "backwards",
            "game_label": "Commander",
            "is_public": "on",
            "starts_on": "2024-06-01",
            "ends_on": "2024-05-01",
        },
    )
    assert response.status_code == 200
    assert "A league cannot end before it starts." in text(response)
    assert not League.objects.filter(slug="backwards").exists()


# --- adding and changing games with their results -----------------------------------------


def game_data(league, rows, *, initial=0, played_on="2024-06-01", notes="", game=None):
    """POST data for the game form and its results inline.

    rows: (player, placement, seat) tuples or dicts with player/placement/seat/id/DELETE.
    """
    data = {
        "league": league.pk,
        "played_on": played_on,
        "notes": notes,
        "results-TOTAL_FORMS": len(rows),
        "results-INITIAL_FORMS": initial,
        "results-MIN_NUM_FORMS": 0,
        "results-MAX_NUM_FORMS": 1000,
    }
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            player, placement, seat = (*row, None)[:3]
            row = {"player": player, "placement": placement, "seat": seat}
        prefix = f"results-{index}-"
        data[prefix + "player"] = row["player"].pk
        data[prefix + "placement"] = row["placement"]
        data[prefix + "seat"] = row.get("seat") or ""
        data[prefix + "stats"] = "{}"
        data["initial-" + prefix + "stats"] = "{}"  # as the admin renders it
        if "id" in row:
            data[prefix + "id"] = row["id"]
            data[prefix + "game"] = game.pk
        if row.get("DELETE"):
            data[prefix + "DELETE"] = "on"
    return data


def test_adding_a_game_with_its_results(client, world):
    as_user(client, world.organizer)
    data = game_data(
        world.league_a,
        [(world.ann, 1, 2), (world.bob, 2, 1), (world.cy, 2, 4), (world.dee, 4, 3)],
        notes="top cut",
    )
    response = client.post(url("game", "add"), data)
    assert response.status_code == 302, response.context and response.context["errors"]
    game = Game.objects.get(notes="top cut")
    assert game.league == world.league_a
    assert game.entered_by == world.organizer
    assert game.source == Game.Source.MANUAL
    assert sorted(game.results.values_list("player__name", "placement", "seat")) == [
        ("Ann Alpha", 1, 2),
        ("Bob Alpha", 2, 1),
        ("Cy Alpha", 2, 4),
        ("Dee Alpha", 4, 3),
    ]
    listing = text(client.get(url("game")))
    assert "1 Ann Alpha · 2 Bob Alpha · 2 Cy Alpha · 4 Dee Alpha" in listing


def test_a_four_way_draw_is_a_game(client, world):
    as_user(client, world.organizer)
    players = [world.ann, world.bob, world.cy, world.dee]
    response = client.post(
        url("game", "add"), game_data(world.league_a, [(p, 1) for p in players], notes="draw")
    )
    assert response.status_code == 302
    assert list(Game.objects.get(notes="draw").results.values_list("placement", flat=True)) == [
        1,
        1,
        1,
        1,
    ]


def test_blank_extra_rows_are_ignored(client, world):
    data = game_data(world.league_a, [(world.ann, 1), (world.bob, 2)], notes="with blanks")
    data["results-TOTAL_FORMS"] = 4
    for index in (2, 3):  # what a browser sends for an untouched row
        for field in ("player", "placement", "seat"):
            data[f"results-{index}-{field}"] = ""
        data[f"results-{index}-stats"] = "{}"
        data[f"initial-results-{index}-stats"] = "{}"
    response = as_user(client, world.organizer).post(url("game", "add"), data)
    assert response.status_code == 302, response.context["errors"]
    assert Game.objects.get(notes="with blanks").results.count() == 2


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            lambda w: [(w.ann, 1), (w.bob, 3)],
            "Places 1, 3 are not a ranking: tied players share a place and the next place "
            "skips past them (1, 2, 2, 4).",
        ),
        (lambda w: [(w.ann, 2), (w.bob, 3)], "Places 2, 3 are not a ranking"),
        (lambda w: [(w.ann, 1), (w.ann, 2)], "Ann Alpha is listed twice in this game."),
        (
            lambda w: [(w.ann, 1)],
            "A game needs at least 2 players; this one has 1.",
        ),
        (lambda w: [], "A game needs at least 2 players; this one has 0."),
        (lambda w: [(w.ann, 1, 1), (w.bob, 2, 1)], "Two players cannot have the same seat."),
        (lambda w: [(w.ann, 0), (w.bob, 1)], "Ensure this value is greater than or equal to 1."),
        (lambda w: [(w.ann, 1), (w.zed, 2)], "Select a valid choice."),
    ],
    ids=["gap", "no-winner", "twice", "one-player", "no-players", "same-seat", "place-0", "b"],
)
def test_an_invalid_game_gets_a_form_error_and_stores_nothing(client, world, rows, message):
    games, results = Game.objects.count(), GameResult.objects.count()
    response = as_user(client, world.organizer).post(
        url("game", "add"), game_data(world.league_a, rows(world), notes="bad")
    )
    assert response.status_code == 200
    assert message in text(response)
    assert "Please correct the error" in text(response)
    assert Game.objects.count() == games
    assert GameResult.objects.count() == results


def test_a_player_of_another_store_is_refused_for_a_superuser_too(client, world):
    response = as_user(client, world.superuser).post(
        url("game", "add"), game_data(world.league_a, [(world.ann, 1), (world.zed, 2)])
    )
    assert response.status_code == 200
    assert "Zed Beta is not a player of Alpha Games." in text(response)
    assert not Game.objects.filter(league=world.league_a).exclude(pk=world.game_a.pk).exists()


def test_an_invalid_game_is_refused_even_without_the_service_checks(client, world, monkeypatch):
    """If the services' checks miss something, the database's refusal becomes a form error.

    (The deferred ranking trigger fires at commit: test_game_writes_with_real_commits.)
    """
    monkeypatch.setattr(services.games, "_check_results", lambda league, results: None)
    as_user(client, world.organizer)
    games = Game.objects.count()
    response = client.post(
        url("game", "add"), game_data(world.league_a, [(world.ann, 1, 1), (world.bob, 2, 1)])
    )
    assert response.status_code == 200
    assert "Two players cannot have the same seat." in text(response)
    assert Game.objects.count() == games


@pytest.fixture
def game_of_three(world):
    game = GameFactory(league=world.league_a, players=[world.ann, world.bob, world.cy])
    for seat, player in enumerate([world.ann, world.bob, world.cy], start=1):
        GameResult.objects.filter(game=game, player=player).update(seat=seat)
    return game


def existing_rows(game):
    return [
        {"id": r.pk, "player": r.player, "placement": r.placement, "seat": r.seat}
        for r in game.results.select_related("player").order_by("placement")
    ]


def test_changing_a_games_places(client, world, game_of_three):
    rows = existing_rows(game_of_three)
    rows[1]["placement"] = 1  # Bob shares the win
    rows[2]["placement"] = 3
    response = as_user(client, world.organizer).post(
        url("game", "change", game_of_three.pk),
        game_data(world.league_a, rows, initial=3, game=game_of_three),
    )
    assert response.status_code == 302
    assert dict(game_of_three.results.values_list("player__name", "placement")) == {
        "Ann Alpha": 1,
        "Bob Alpha": 1,
        "Cy Alpha": 3,
    }


def test_swapping_seats_and_players_in_a_game(client, world, game_of_three):
    ids = [r.pk for r in game_of_three.results.order_by("placement")]
    rows = existing_rows(game_of_three)
    rows[0]["seat"], rows[1]["seat"] = rows[1]["seat"], rows[0]["seat"]  # Ann 2, Bob 1
    rows[1]["player"], rows[2]["player"] = rows[2]["player"], rows[1]["player"]  # Cy 2nd
    response = as_user(client, world.organizer).post(
        url("game", "change", game_of_three.pk),
        game_data(world.league_a, rows, initial=3, game=game_of_three),
    )
    assert response.status_code == 302
    assert sorted(game_of_three.results.values_list("player__name", "placement", "seat")) == [
        ("Ann Alpha", 1, 2),
        ("Bob Alpha", 3, 3),
        ("Cy Alpha", 2, 1),
    ]
    assert sorted(game_of_three.results.values_list("pk", flat=True)) == sorted(ids)


def test_removing_a_player_and_adding_another(client, world, game_of_three):
    rows = existing_rows(game_of_three)
    rows[2]["DELETE"] = True  # Cy leaves...
    rows.append({"player": world.cy, "placement": 3, "seat": 4})  # ...and comes back
    rows.append({"player": world.dee, "placement": 3})
    response = as_user(client, world.organizer).post(
        url("game", "change", game_of_three.pk),
        game_data(world.league_a, rows, initial=3, game=game_of_three),
    )
    assert response.status_code == 302
    assert sorted(game_of_three.results.values_list("player__name", "placement", "seat")) == [
        ("Ann Alpha", 1, 1),
        ("Bob Alpha", 2, 2),
        ("Cy Alpha", 3, 4),
        ("Dee Alpha", 3, None),
    ]


def test_an_invalid_change_keeps_the_game_as_it_was(client, world, game_of_three):
    before = sorted(game_of_three.results.values_list("pk", "player", "placement", "seat"))
    rows = existing_rows(game_of_three)
    rows[1]["DELETE"] = True  # leaves places 1, 3
    response = as_user(client, world.organizer).post(
        url("game", "change", game_of_three.pk),
        game_data(world.league_a, rows, initial=3, game=game_of_three, notes="changed"),
    )
    assert response.status_code == 200
    assert "Places 1, 3 are not a ranking" in text(response)
    game_of_three.refresh_from_db()
    assert game_of_three.notes == ""
    assert sorted(game_of_three.results.values_list("pk", "player", "placement", "seat")) == before


def test_deleting_a_game_in_the_admin(client, world):
    as_user(client, world.organizer)
    response = client.post(url("game", "delete", world.game_a.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not Game.objects.filter(pk=world.game_a.pk).exists()
    assert not GameResult.objects.filter(game_id=world.game_a.pk).exists()


# --- organizations and memberships --------------------------------------------------------


def test_an_organizer_may_view_but_not_change_their_organization(client, world):
    as_user(client, world.organizer)
    response = client.get(url("organization", "change", world.a.pk))
    assert response.status_code == 200
    assert "View organization" in text(response)
    response = client.post(
        url("organization", "change", world.a.pk), {"name": "Renamed", "slug": "alpha"}
    )
    assert response.status_code == 403
    world.a.refresh_from_db()
    assert world.a.name == "Alpha Games"


def test_an_owner_changes_their_organization_and_adds_a_member(client, world):
    newcomer = UserFactory(username="nina")
    # An inactive member (the "gone" owner) must not stop the page from being saved.
    organizer_of(world.a, role=Role.ORGANIZER, username="gone", is_active=False)
    as_user(client, world.owner)
    memberships = list(world.a.memberships.order_by("pk"))
    data = {
        "name": "Alpha Games & Cafe",
        "slug": "alpha",
        "memberships-TOTAL_FORMS": len(memberships) + 1,
        "memberships-INITIAL_FORMS": len(memberships),
        "memberships-MIN_NUM_FORMS": 0,
        "memberships-MAX_NUM_FORMS": 1000,
    }
    for index, membership in enumerate(memberships):
        data[f"memberships-{index}-id"] = membership.pk
        data[f"memberships-{index}-organization"] = world.a.pk
        data[f"memberships-{index}-user"] = membership.user.username
        data[f"memberships-{index}-role"] = membership.role
    new = len(memberships)
    data[f"memberships-{new}-organization"] = world.a.pk
    data[f"memberships-{new}-user"] = "nina"
    data[f"memberships-{new}-role"] = Role.JUDGE
    response = client.post(url("organization", "change", world.a.pk), data)
    assert response.status_code == 302, response.context and response.context["errors"]
    world.a.refresh_from_db()
    assert world.a.name == "Alpha Games & Cafe"
    assert Membership.objects.get(user=newcomer).role == Role.JUDGE


def test_an_owner_cannot_change_another_organization(client, world):
    as_user(client, world.owner)
    response = client.post(
        url("organization", "change", world.b.pk), {"name": "Taken", "slug": "beta"}
    )
    assert response.status_code == 302
    world.b.refresh_from_db()
    assert world.b.name == "Beta Cards"


def test_only_superusers_add_organizations(client, world):
    assert as_user(client, world.owner).get(url("organization", "add")).status_code == 403
    as_user(client, world.superuser)
    response = client.post(
        url("organization", "add"),
        {
            "name": "Gamma",
            "slug": "gamma",
            "memberships-TOTAL_FORMS": 0,
            "memberships-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302
    assert Organization.objects.filter(slug="gamma").exists()


def test_a_new_stores_slug_is_what_was_typed_or_made_from_the_name(client, world):
    """Issue 43: the add form's script filled the slug from the name as it was typed, and a
    superuser who then typed the slug they wanted got both ("goblin-forge-gamesgoblin-forge").
    No script fills it now: what is typed is the slug, and an empty one is made from the name."""
    as_user(client, world.superuser)
    page = client.get(url("organization", "add")).content.decode()
    assert 'data-prepopulated-fields="[]"' in page  # the admin's script fills no field
    assert "made from the name" in page
    empty = {"memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0}
    response = client.post(url("organization", "add"), {"name": "Goblin Forge Games", **empty})
    assert response.status_code == 302
    assert Organization.objects.filter(name="Goblin Forge Games").get().slug == "goblin-forge-games"
    response = client.post(
        url("organization", "add"), {"name": "Goblin Forge Games", "slug": "", **empty}
    )
    assert response.status_code == 302  # a second store of that name: numbered, not refused
    assert Organization.objects.filter(slug="goblin-forge-games-2").exists()
    response = client.post(
        url("organization", "add"), {"name": "Goblin Forge", "slug": "goblin-forge", **empty}
    )
    assert Organization.objects.filter(name="Goblin Forge").get().slug == "goblin-forge"
    # Nor the league's or the event's add form, for a superuser.
    page = client.get(url("league", "add")).content.decode()
    assert 'data-prepopulated-fields="[]"' in page


def test_membership_changes_are_for_owners(client, world):
    olive = Membership.objects.get(user=world.organizer)
    as_user(client, world.organizer)
    assert client.get(url("membership", "change", olive.pk)).status_code == 200  # view only
    response = client.post(
        url("membership", "change", olive.pk),
        {"organization": world.a.pk, "user": "olive", "role": Role.OWNER},
    )
    assert response.status_code == 403
    olive.refresh_from_db()
    assert olive.role == Role.ORGANIZER

    as_user(client, world.owner)
    response = client.get(url("membership", "add"))
    assert option_values(response, "organization") == {str(world.a.pk)}
    response = client.post(
        url("membership", "add"),
        {"organization": world.a.pk, "user": "nobody", "role": Role.ORGANIZER},
    )
    assert response.status_code == 302
    assert Membership.objects.filter(user=world.staff, organization=world.a).exists()
    response = client.post(
        url("membership", "add"),
        {"organization": world.b.pk, "user": "root", "role": Role.OWNER},
    )
    assert response.status_code == 200
    assert not Membership.objects.filter(user=world.superuser).exists()


def test_a_membership_needs_an_existing_username(client, world):
    response = as_user(client, world.owner).post(
        url("membership", "add"),
        {"organization": world.a.pk, "user": "nosuchuser", "role": Role.JUDGE},
    )
    assert response.status_code == 200
    assert "There is no user with this username." in text(response)


# --- imports and results are records ------------------------------------------------------


def test_imports_are_read_only(client, world):
    as_user(client, world.organizer)
    assert client.get(url("importbatch", "add")).status_code == 403
    response = client.get(url("importbatch", "change", world.import_a.pk))
    assert response.status_code == 200
    page = text(response)
    assert "View import batch" in page
    assert "x,2024-01-01,Ann Alpha,Bob Alpha" in page
    response = client.post(
        url("importbatch", "change", world.import_a.pk), {"filename": "renamed.csv"}
    )
    assert response.status_code == 403
    assert client.post(url("importbatch", "delete", world.import_a.pk)).status_code == 403
    world.import_a.refresh_from_db()
    assert world.import_a.filename == "alpha-export.csv"


def test_imports_filter_by_status(client, world):
    ImportBatch.objects.filter(pk=world.import_a.pk).update(status=ImportBatch.Status.IMPORTED)
    ImportBatch.objects.create(
        league=world.league_a, filename="pending.csv", sha256="c" * 64, content=""
    )
    as_user(client, world.organizer)
    page = text(client.get(url("importbatch"), {"status__exact": "imported"}))
    assert "alpha-export.csv" in page
    assert "pending.csv" not in page


def test_results_are_read_only_on_their_own(client, world):
    result = world.game_a.results.get(player=world.ann)
    as_user(client, world.organizer)
    response = client.get(url("gameresult", "change", result.pk))
    assert response.status_code == 200
    assert "View game result" in text(response)
    response = client.post(
        url("gameresult", "change", result.pk),
        {"game": world.game_a.pk, "player": world.ann.pk, "placement": 5},
    )
    assert response.status_code == 403
    other = world.game_b.results.first()
    assert client.get(url("gameresult", "change", other.pk)).status_code == 302


def test_game_dates_can_be_browsed(client, world):
    as_user(client, world.organizer)
    GameFactory(league=world.league_a, played_on=datetime.date(2023, 3, 4))
    page = text(client.get(url("game"), {"played_on__year": "2023"}))
    assert "2023" in page
    assert "1 Ann Alpha" not in page


def test_an_organizer_deletes_a_league_with_its_games_and_imports(client, world):
    as_user(client, world.organizer)
    confirm = client.get(url("league", "delete", world.league_a.pk))
    assert confirm.status_code == 200
    assert "Are you sure" in text(confirm)
    response = client.post(url("league", "delete", world.league_a.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not League.objects.filter(pk=world.league_a.pk).exists()
    assert not Game.objects.filter(pk=world.game_a.pk).exists()
    assert not ImportBatch.objects.filter(pk=world.import_a.pk).exists()
    assert Game.objects.filter(pk=world.game_b.pk).exists()


def test_a_player_with_games_cannot_be_deleted(client, world):
    as_user(client, world.organizer)
    response = client.post(url("player", "delete", world.ann.pk), {"post": "yes"})
    assert response.status_code == 200
    assert "Cannot delete player" in text(response)
    assert "protected related objects" in text(response)
    assert Player.objects.filter(pk=world.ann.pk).exists()


def test_the_organization_list_counts_leagues_and_players(client, world):
    response = as_user(client, world.superuser).get(url("organization"))
    counts = {o.name: (o.league_count, o.player_count) for o in response.context["cl"].result_list}
    assert counts == {"Alpha Games": (1, 4), "Beta Cards": (1, 2)}
    response = client.get(url("player"))
    games = {p.name: p.games_played for p in response.context["cl"].result_list}
    assert games["Ann Alpha"] == 1
    assert games["Cy Alpha"] == 0


def test_a_superuser_links_a_player_to_an_account_by_autocomplete(client, world):
    as_user(client, world.superuser)
    response = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "leagues", "model_name": "player", "field_name": "user", "term": "oli"},
    )
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["olive"]
    response = client.post(
        url("player", "change", world.ann.pk),
        {"organization": world.a.pk, "name": "Ann Alpha", "user": world.organizer.pk},
    )
    assert response.status_code == 302
    world.ann.refresh_from_db()
    assert world.ann.user == world.organizer


@pytest.mark.django_db(transaction=True)
def test_game_writes_with_real_commits(client, monkeypatch):
    """Without the test's wrapping transaction: saves commit, refusals roll back."""
    world = World()
    as_user(client, world.organizer)
    response = client.post(
        url("game", "add"),
        game_data(world.league_a, [(world.cy, 1), (world.dee, 1)], notes="committed"),
    )
    assert response.status_code == 302
    assert Game.objects.filter(notes="committed").exists()

    monkeypatch.setattr(services.games, "_check_results", lambda league, results: None)
    response = client.post(
        url("game", "add"),
        game_data(world.league_a, [(world.cy, 1), (world.dee, 3)], notes="refused"),
    )
    assert response.status_code == 200
    assert "The places are not a ranking" in text(response)
    assert not Game.objects.filter(notes="refused").exists()

    response = client.post(
        url("game"),
        {
            "action": "delete_selected",
            "_selected_action": list(Game.objects.values_list("pk", flat=True)),
            "post": "yes",
        },
    )
    assert response.status_code == 302
    assert list(Game.objects.all()) == [world.game_b]


def test_api_tokens_are_listed_per_store_and_revoked_from_the_admin(client):
    from leagues.models import ApiToken

    mine, theirs = OrganizationFactory(), OrganizationFactory()
    organizer = organizer_of(mine)
    token, plaintext = ApiToken.issue(organization=mine, name="scorebot", by=organizer)
    other, _ = ApiToken.issue(organization=theirs, name="their-bot", by=None)
    client.force_login(organizer)
    listing = client.get(reverse("admin:leagues_apitoken_changelist")).content.decode()
    assert "scorebot" in listing and "their-bot" not in listing
    assert token.key_hash not in listing and plaintext not in listing
    response = client.post(
        reverse("admin:leagues_apitoken_changelist"),
        {"action": "revoke_tokens", "_selected_action": [token.pk, other.pk]},
    )
    assert response.status_code == 302
    token.refresh_from_db()
    other.refresh_from_db()
    assert token.revoked_at is not None
    assert other.revoked_at is None  # another store's token is out of reach
    assert ApiToken.authenticate(plaintext) is None
