"""Deleting league data asks first and says what goes with it (leagues.deletion).

`delete_preview` must name exactly the rows a delete removes; the site's game delete shows it
on GET and deletes only on POST; the admin shows it for every model, refuses a protected
delete with a sentence rather than a server error, and changes nothing then.
"""

from pathlib import Path

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from leagues.deletion import delete_preview
from leagues.models import ApiToken, Game, GameResult, ImportBatch, League, Membership, Player
from ratings import services as rating_services
from ratings.models import Rating, RatingChange
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)

pytestmark = pytest.mark.django_db

APPS = ("leagues", "ratings", "tournaments")


def all_rows() -> set[tuple[str, object]]:
    """(model label, pk) of every row of the project's own apps."""
    return {
        (model._meta.label, pk)
        for model in apps.get_models()
        if model._meta.app_label in APPS
        for pk in model._default_manager.values_list("pk", flat=True)
    }


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def rated(league, django_capture_on_commit_callbacks):
    """Three rated games of Ann, Bob and Cy (ratings computed after each commit)."""
    ann, bob, cy = (
        PlayerFactory(organization=league.organization, name=n) for n in ("Ann", "Bob", "Cy")
    )
    games = []
    for order in ([ann, bob, cy], [bob, cy], [cy, ann]):
        with django_capture_on_commit_callbacks(execute=True):
            games.append(GameFactory(league=league, players=order))
    return games


# --- the preview --------------------------------------------------------------------------


def test_the_preview_of_a_game_names_its_results_and_ledger_rows(rated):
    game = rated[0]
    preview = delete_preview(game)
    assert preview.allowed
    assert [str(c) for c in preview.deleted] == ["1 game", "3 game results", "3 rating changes"]
    assert [str(c) for c in preview.with_it] == ["3 game results", "3 rating changes"]
    assert preview.notes == (
        f"The ratings of {game.league} are recalculated from {game.played_on:%Y-%m-%d} on, "
        "as if this game had never been played.",
    )
    assert preview.count_of(RatingChange) == 3


def test_the_preview_is_exactly_what_the_delete_removes(rated, django_capture_on_commit_callbacks):
    game = rated[1]
    preview = delete_preview(game)
    before = all_rows()
    assert all_rows() == before  # looking deleted nothing
    with django_capture_on_commit_callbacks(execute=True):
        game.delete()
    gone = before - all_rows()
    # The replay after commit rewrites later ledger rows (new ids); compare what the cascade
    # itself removes: everything of the game, and nothing of the other games' results.
    derived = ("ratings.RatingChange", "ratings.Rating")
    assert {row for row in gone if row[0] not in derived} == {
        row for row in preview.rows if row[0] not in derived
    }
    assert not RatingChange.objects.filter(game_id=game.pk).exists()


def test_a_player_with_games_is_protected_and_the_refusal_says_why(rated):
    ann = Player.objects.get(name="Ann")
    preview = delete_preview(ann)
    assert not preview.allowed
    assert {type(row) for row in preview.protected} == {GameResult}
    assert preview.refusal() == (
        "“Ann” cannot be deleted: other records depend on it "
        "(2 game results (Ann #1, Ann #2)). Delete or correct those first."
    )


def test_a_player_without_games_may_go_and_takes_nothing(league):
    nobody = PlayerFactory(organization=league.organization, name="Nobody")
    preview = delete_preview(nobody)
    assert preview.allowed and preview.with_it == () and preview.notes == ()


def test_an_import_batch_leaves_its_games_unlinked_not_deleted(league):
    batch = ImportBatch.objects.create(league=league, sha256="a" * 64, content="x")
    GameFactory(league=league, import_batch=batch, source=Game.Source.IMPORT)
    preview = delete_preview(batch)
    assert [str(c) for c in preview.deleted] == ["1 import batch"]
    assert [str(u) for u in preview.unlinked] == ["Kept, with the import batch left empty: 1 game"]
    batch.delete()
    assert Game.objects.filter(league=league).count() == 1


def test_a_league_takes_its_games_ratings_and_imports(rated):
    league = rated[0].league
    ImportBatch.objects.create(league=league, sha256="a" * 64, content="x")
    preview = delete_preview(league)
    counts = {c.plural: c.number for c in preview.with_it}
    assert counts == {
        "games": 3,
        "game results": 7,
        "import batches": 1,
        "league ratings": 1,
        "ratings": 3,
        "rating changes": 7,
    }


# --- the site's game delete ---------------------------------------------------------------


def test_the_site_shows_what_goes_with_a_game_and_deletes_nothing_on_get(organizer_client, rated):
    game = rated[0]
    before = all_rows()
    page = text(organizer_client.get(reverse("game_delete", args=[game.pk])))
    assert "3 game results" in page
    assert "3 rating changes" in page
    assert f"recalculated from {game.played_on:%Y-%m-%d} on" in page
    assert all_rows() == before


def test_the_site_deletes_on_post_and_the_ratings_replay(
    organizer_client, rated, django_capture_on_commit_callbacks
):
    game = rated[0]
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer_client.post(reverse("game_delete", args=[game.pk]))
    assert response.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    after = sorted(Rating.objects.values_list("player__name", "value", "games"))
    rating_services.ratings_recalculate(league=game.league)
    assert sorted(Rating.objects.values_list("player__name", "value", "games")) == after
    assert dict((n, g) for n, _, g in after) == {"Ann": 1, "Bob": 1, "Cy": 2}


# --- the admin ----------------------------------------------------------------------------


def admin_url(obj, view="delete") -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_{view}", args=[obj.pk])


@pytest.fixture
def store(rated, organizer):
    """One row of every league model, for the admin's delete pages."""
    league = rated[0].league
    return {
        "organization": league.organization,
        "membership": Membership.objects.get(user=organizer),
        "player": Player.objects.get(name="Ann"),
        "spare player": PlayerFactory(organization=league.organization, name="Spare"),
        "league": league,
        "game": rated[0],
        "result": rated[0].results.first(),
        "import": ImportBatch.objects.create(league=league, sha256="a" * 64, content="x"),
        "token": ApiToken.issue(organization=league.organization, name="bot")[0],
    }


def test_every_model_admin_answers_its_delete_page_without_a_server_error(client, store):
    superuser = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(superuser)
    registered = {type(obj) for obj in store.values()}
    assert registered >= {m for m in admin.site._registry if m._meta.app_label == "leagues"}
    for obj in store.values():
        response = client.get(admin_url(obj))
        assert response.status_code in (200, 403), obj
        if response.status_code == 200:
            page = text(response)
            # Either the list of what goes with it, or why it cannot go.
            assert "Are you sure" in page or "cannot be deleted" in page, obj


def test_the_admin_game_delete_shows_the_ratings_replay_then_deletes_on_post(
    client, store, organizer
):
    client.force_login(organizer)
    game = store["game"]
    page = text(client.get(admin_url(game)))
    assert "Rating changes: 3" in page  # the admin's own summary counts the ledger rows
    assert f"recalculated from {game.played_on:%Y-%m-%d} on" in page
    assert Game.objects.filter(pk=game.pk).exists()
    assert client.post(admin_url(game), {"post": "yes"}).status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()


def test_the_admin_refuses_a_player_with_games_in_a_sentence_and_changes_nothing(
    client, store, organizer
):
    client.force_login(organizer)
    ann = store["player"]
    before = all_rows()
    for response in (client.get(admin_url(ann)), client.post(admin_url(ann), {"post": "yes"})):
        assert response.status_code == 200
        assert "“Ann” cannot be deleted: other records depend on it" in text(response)
        assert 'name="post"' not in text(response)
    response = client.post(
        reverse("admin:leagues_player_changelist"),
        {"action": "delete_selected", "_selected_action": [ann.pk], "post": "yes"},
    )
    assert response.status_code == 200
    assert "protected related objects" in text(response)
    assert "“Ann” cannot be deleted: other records depend on it" in text(response)
    assert all_rows() == before


def test_the_admin_bulk_delete_of_games_says_the_ratings_replay(client, store, organizer):
    client.force_login(organizer)
    games = Game.objects.order_by("played_on", "id")[:2]
    changelist = reverse("admin:leagues_game_changelist")
    selected = {"action": "delete_selected", "_selected_action": [g.pk for g in games]}
    page = text(client.post(changelist, selected))
    for game in games:
        assert f"recalculated from {game.played_on:%Y-%m-%d} on" in page
    assert "Rating changes: 5" in page
    assert Game.objects.count() == 3
    assert client.post(changelist, {**selected, "post": "yes"}).status_code == 302
    assert Game.objects.count() == 1


def test_the_admin_deletes_a_player_without_games(client, store, organizer):
    client.force_login(organizer)
    spare = store["spare player"]
    assert "Are you sure" in text(client.get(admin_url(spare)))
    assert client.post(admin_url(spare), {"post": "yes"}).status_code == 302
    assert not Player.objects.filter(pk=spare.pk).exists()


def test_the_admin_lists_a_leagues_games_before_deleting_it(client, store, organizer):
    client.force_login(organizer)
    league = store["league"]
    page = text(client.get(admin_url(league)))
    assert "Games: 3" in page and "Game results: 7" in page and "Import batches: 1" in page
    assert League.objects.filter(pk=league.pk).exists()
    other = LeagueFactory(organization=OrganizationFactory())
    GameFactory(league=other)
    assert client.post(admin_url(league), {"post": "yes"}).status_code == 302
    assert not League.objects.filter(pk=league.pk).exists()
    assert not Game.objects.filter(league_id=league.pk).exists()
    assert Game.objects.filter(league=other).count() == 1
    assert Player.objects.filter(organization=league.organization).count() == 4  # players stay


def test_an_organization_with_players_is_refused(client, store):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    organization = store["organization"]
    response = client.post(admin_url(organization), {"post": "yes"})
    assert response.status_code == 200
    assert "cannot be deleted: other records depend on it" in text(response)
    assert Membership.objects.filter(organization=organization).exists()


def test_an_organizer_of_another_store_gets_no_delete_page(client, store):
    client.force_login(organizer_of(OrganizationFactory()))
    for key in ("player", "league", "game"):
        obj = store[key]
        assert client.get(admin_url(obj)).status_code in (302, 403, 404)
        assert client.post(admin_url(obj), {"post": "yes"}).status_code in (302, 403, 404)
        assert type(obj).objects.filter(pk=obj.pk).exists()


def test_every_model_of_the_project_is_counted_in_the_readers_words():
    """A new model needs its counted noun, or its rows read "4 widgets" in every language."""
    from django.conf import settings

    ours = [
        model
        for model in apps.get_models()
        if Path(apps.get_app_config(model._meta.app_label).path).parent == Path(settings.BASE_DIR)
    ]
    assert len(ours) > 40
    without = [m._meta.label for m in ours if "counted" not in m.__dict__]
    assert without == []
    for model in ours:  # an English noun, its number first
        assert str(model.counted % {"n": 3}).startswith("3 "), model._meta.label


def test_a_preview_counts_in_the_readers_language_and_plural_forms(rated):
    from django.utils import translation

    game = Game.objects.filter(league=rated[0].league).first()  # Ann, Bob and Cy
    preview = delete_preview(game)
    with translation.override("de"):
        assert [str(c) for c in preview.deleted] == [
            "1 Spiel",
            "3 Spielergebnisse",
            "3 Wertungsänderungen",
        ]
    with translation.override("pl"):  # 2-4 and 5+ are two forms
        assert [str(c) for c in preview.deleted] == ["1 gra", "3 wyniki gier", "3 zmiany rankingu"]
        assert str(preview.deleted[1].__class__("game results", 5, "", GameResult.counted)) == (
            "5 wyników gier"
        )
