"""The audit log of league games: every entry point writes an entry with the right before and
after; stale corrections are refused, identical ones change nothing; a double-tapped "save"
stores one game; a correction or a deletion can be undone once, and not after a later change.
"""

import datetime
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit import services as audit_services
from audit.models import AuditEntry
from leagues import services
from leagues.models import ApiToken, Game, Role
from ratings.models import RatingChange
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 20)


@pytest.fixture
def roster(league):
    return {
        name: PlayerFactory(organization=league.organization, name=name)
        for name in ["Ann", "Bob", "Cy", "Dee"]
    }


def lines(snapshot):
    """(player, place, seat) of a snapshot's results, in order."""
    return [(r["player"], r["place"], r.get("seat")) for r in snapshot["results"]]


def record(league, roster, *order, by=None, **extra):
    results = [services.ResultIn(player=roster[n], place=i) for i, n in enumerate(order, 1)]
    return services.game_record(league=league, results=results, played_on=DAY, by=by, **extra)


def results_of(roster, *order, places=None):
    places = places or range(1, len(order) + 1)
    return [
        services.ResultIn(player=roster[n], place=p) for n, p in zip(order, places, strict=True)
    ]


def entry_form(*names, version=None, entry_key=None, played_on="2026-11-20", notes=""):
    data = {"played_on": played_on, "notes": notes}
    for i, name in enumerate(names):
        data[f"player_{i}"] = name
    if version is not None:
        data["version"] = version
    if entry_key is not None:
        data["entry_key"] = entry_key
    return data


# --- the services write the log ----------------------------------------------------------


def test_recording_a_game_logs_who_and_the_result(league, roster, organizer):
    game = record(league, roster, "Ann", "Bob", by=organizer)
    entry = AuditEntry.objects.get()
    assert entry.action == "game.create" and entry.object_type == "game"
    assert entry.object_id == game.pk
    assert entry.organization == league.organization and entry.league == league
    assert entry.actor == organizer and entry.actor_label == "olive"
    assert entry.before is None
    assert lines(entry.after) == [("Ann", 1, None), ("Bob", 2, None)]
    assert entry.after["played_on"] == "2026-11-20" and entry.after["version"] == 0


def test_a_correction_logs_before_and_after_and_counts_a_version(league, roster, organizer):
    game = record(league, roster, "Ann", "Bob")
    game = services.game_update(
        game=game,
        results=results_of(roster, "Bob", "Ann", "Cy"),
        played_on=DAY,
        notes="recount",
        by=organizer,
        expected_version=0,
    )
    assert game.changed and game.version == 1
    entry = AuditEntry.objects.get(action="game.correct")
    assert lines(entry.before) == [("Ann", 1, None), ("Bob", 2, None)]
    assert lines(entry.after) == [("Bob", 1, None), ("Ann", 2, None), ("Cy", 3, None)]
    assert entry.before["version"] == 0 and entry.after["version"] == 1
    assert entry.after["notes"] == "recount" and entry.actor_label == "olive"


def test_an_identical_correction_is_a_no_op_even_from_an_old_form(
    league, roster, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = record(league, roster, "Ann", "Bob")
    ledger = list(RatingChange.objects.values_list("pk", "delta"))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        same = services.game_update(
            game=game, results=results_of(roster, "Ann", "Bob"), played_on=DAY, expected_version=0
        )
    assert not same.changed and same.version == 0
    assert callbacks == []  # nothing marked for re-rating
    assert list(RatingChange.objects.values_list("pk", "delta")) == ledger
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    # A double tap of that correction from the form that still says version 0: no conflict.
    again = services.game_update(
        game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY, expected_version=0
    )
    assert not again.changed and again.version == 1
    assert AuditEntry.objects.filter(action="game.correct").count() == 1


def test_a_different_correction_from_a_stale_form_is_refused(league, roster):
    game = record(league, roster, "Ann", "Bob")
    services.game_update(
        game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY, expected_version=0
    )
    with pytest.raises(services.GameConflict) as conflict:
        services.game_update(
            game=game,
            results=results_of(roster, "Ann", "Bob", places=[1, 1]),
            played_on=DAY,
            expected_version=0,
        )
    assert conflict.value.code == "stale"
    assert conflict.value.game.version == 1  # the game as it is now, for the form
    game.refresh_from_db()
    assert [r.player.name for r in game.results.order_by("placement")] == ["Bob", "Ann"]
    assert AuditEntry.objects.filter(action="game.correct").count() == 1


def test_deleting_logs_the_whole_game(league, roster, organizer):
    game = record(league, roster, "Ann", "Bob", "Cy")
    pk = game.pk
    services.game_delete(game=game, by=organizer)
    entry = AuditEntry.objects.get(action="game.delete")
    assert entry.object_id == pk and entry.after is None
    assert lines(entry.before) == [("Ann", 1, None), ("Bob", 2, None), ("Cy", 3, None)]


def test_deleting_a_game_changed_since_the_page_loaded_is_refused(league, roster):
    game = record(league, roster, "Ann", "Bob")
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    with pytest.raises(services.GameConflict):
        services.game_delete(game=game, expected_version=0)
    assert Game.objects.filter(pk=game.pk).exists()


def test_the_log_outlives_the_league(league, roster):
    record(league, roster, "Ann", "Bob")
    other = LeagueFactory(organization=league.organization)
    record(other, roster, "Bob", "Ann")
    other.delete()
    assert AuditEntry.objects.count() == 2
    assert AuditEntry.objects.filter(league__isnull=True).count() == 1


def test_an_import_logs_one_entry_for_the_file(league, organizer):
    text = "x,2026-11-20,Ann,Bob\nx,2026-11-21,Bob,Cy,Dee\n"
    report = services.games_import(league=league, text=text, filename="night.csv", by=organizer)
    entry = AuditEntry.objects.get()
    assert entry.action == "import.apply" and entry.object_id == report.batch.pk
    assert entry.actor_label == "olive (import)"
    assert entry.after["games"] == 2 and entry.after["filename"] == "night.csv"
    assert sorted(entry.after["players_created"]) == ["Ann", "Bob", "Cy", "Dee"]


# --- idempotency: a double-tapped "save" ----------------------------------------------------


def test_the_same_entry_key_twice_stores_one_game(league, roster):
    first = record(league, roster, "Ann", "Bob", entry_key="k1")
    second = record(league, roster, "Ann", "Bob", entry_key="k1")
    assert not first.is_replay and second.is_replay and second.pk == first.pk
    assert Game.objects.count() == 1 and AuditEntry.objects.count() == 1
    # The key belongs to one league: another league's form may not find this game.
    other = LeagueFactory(organization=league.organization)
    assert not record(other, roster, "Ann", "Bob", entry_key="k1").is_replay


# --- every entry point ---------------------------------------------------------------------


def test_the_entry_form_logs_and_a_double_tap_saves_one_game(organizer_client, league, roster):
    url = reverse("game_create", args=[league.slug])
    page = organizer_client.get(url)
    key = page.context["form"].initial["entry_key"]
    assert f'name="entry_key" value="{key}"' in page.content.decode()
    data = entry_form("Ann", "Bob", "Cy", entry_key=key)
    assert organizer_client.post(url, data).status_code == 302
    again = organizer_client.post(url, data, follow=True)
    assert again.status_code == 200
    assert "This game was already saved" in again.content.decode()
    assert Game.objects.count() == 1
    entry = AuditEntry.objects.get()
    assert entry.action == "game.create" and entry.actor_label == "olive"
    assert lines(entry.after) == [("Ann", 1, None), ("Bob", 2, None), ("Cy", 3, None)]


def test_the_edit_form_carries_the_version_and_logs_the_correction(
    organizer_client, league, roster
):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]], played_on=DAY)
    url = reverse("game_edit", args=[game.pk])
    assert 'name="version" value="0"' in organizer_client.get(url).content.decode()
    response = organizer_client.post(url, entry_form("Bob", "Ann", version=0))
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="game.correct")
    assert lines(entry.before) == [("Ann", 1, None), ("Bob", 2, None)]
    assert lines(entry.after) == [("Bob", 1, None), ("Ann", 2, None)]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_stale_edit_form_is_a_409_showing_the_current_game(
    organizer_client, league, roster, htmx
):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]], played_on=DAY)
    url = reverse("game_edit", args=[game.pk])
    assert organizer_client.post(url, entry_form("Bob", "Ann", version=0)).status_code == 302
    headers = {"HX-Request": "true"} if htmx else {}
    stale = organizer_client.post(url, entry_form("Cy", "Ann", version=0), headers=headers)
    assert stale.status_code == 409
    html = stale.content.decode()
    assert "olive changed this game at" in html
    assert 'name="version" value="1"' in html  # the current version, to change it on purpose
    form = stale.context["form"]
    assert [form.initial["player_0"], form.initial["player_1"]] == ["Bob", "Ann"]
    game.refresh_from_db()
    assert game.version == 1
    assert [r.player.name for r in game.results.order_by("placement")] == ["Bob", "Ann"]


def test_an_identical_resubmission_of_the_edit_form_is_a_success(organizer_client, league, roster):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]], played_on=DAY)
    url = reverse("game_edit", args=[game.pk])
    data = entry_form("Bob", "Ann", version=0)
    assert organizer_client.post(url, data).status_code == 302
    again = organizer_client.post(url, data)  # a double tap, the form still says version 0
    assert again.status_code == 302
    assert AuditEntry.objects.filter(action="game.correct").count() == 1
    game.refresh_from_db()
    assert game.version == 1


def test_correcting_a_game_deleted_since_the_form_loaded_is_a_404(organizer_client, league, roster):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]], played_on=DAY)
    url = reverse("game_edit", args=[game.pk])
    form_page = organizer_client.get(url)
    assert form_page.status_code == 200
    # Deleted after the page was loaded but before the POST reached the service.
    response = organizer_client.post(
        reverse("game_delete", args=[game.pk]), {"version": 0}, follow=True
    )
    assert response.status_code == 200
    assert organizer_client.post(url, entry_form("Bob", "Ann", version=0)).status_code == 404


def test_the_delete_page_refuses_a_game_changed_since_with_409(organizer_client, league, roster):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]], played_on=DAY)
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    response = organizer_client.post(reverse("game_delete", args=[game.pk]), {"version": 0})
    assert response.status_code == 409
    assert Game.objects.filter(pk=game.pk).exists()
    assert (
        organizer_client.post(reverse("game_delete", args=[game.pk]), {"version": 1}).status_code
        == 302
    )
    assert not Game.objects.filter(pk=game.pk).exists()
    assert AuditEntry.objects.filter(action="game.delete").count() == 1


def test_a_second_tap_of_delete_says_the_game_is_already_deleted(
    client, organizer_client, league, roster
):
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]], played_on=DAY)
    url = reverse("game_delete", args=[game.pk])
    assert organizer_client.post(url, {"version": 0}).status_code == 302
    again = organizer_client.post(url, {"version": 0})
    assert again.status_code == 302 and again.url == reverse("league_games", args=[league.slug])
    page = organizer_client.get(again.url).content.decode()
    assert "That game is already deleted" in page
    assert AuditEntry.objects.filter(action="game.delete").count() == 1
    # To anyone who does not run the league, the game simply does not exist.
    other = organizer_of(OrganizationFactory(), username="stranger")
    client.force_login(other)
    assert client.post(url, {"version": 0}).status_code == 404


def admin_game_data(league, rows, *, initial=0, game=None, played_on="2026-11-20"):
    data = {
        "league": league.pk,
        "played_on": played_on,
        "notes": "",
        "results-TOTAL_FORMS": len(rows),
        "results-INITIAL_FORMS": initial,
        "results-MIN_NUM_FORMS": 0,
        "results-MAX_NUM_FORMS": 1000,
    }
    for index, row in enumerate(rows):
        prefix = f"results-{index}-"
        data[prefix + "player"] = row["player"].pk
        data[prefix + "placement"] = row["placement"]
        data[prefix + "seat"] = ""
        data[prefix + "stats"] = "{}"
        data["initial-" + prefix + "stats"] = "{}"
        if "id" in row:
            data[prefix + "id"] = row["id"]
            data[prefix + "game"] = game.pk
    return data


def test_the_admin_logs_add_change_and_delete(client, league, roster, organizer):
    client.force_login(organizer)
    add = client.post(
        reverse("admin:leagues_game_add"),
        admin_game_data(
            league,
            [{"player": roster["Ann"], "placement": 1}, {"player": roster["Bob"], "placement": 2}],
        ),
    )
    assert add.status_code == 302
    game = Game.objects.get()
    created = AuditEntry.objects.get(action="game.create")
    assert created.actor_label == "olive (admin)"
    assert lines(created.after) == [("Ann", 1, None), ("Bob", 2, None)]

    rows = [
        {"player": r.player, "placement": 3 - r.placement, "id": r.pk}
        for r in game.results.order_by("placement")
    ]
    change = client.post(
        reverse("admin:leagues_game_change", args=[game.pk]),
        admin_game_data(league, rows, initial=2, game=game),
    )
    assert change.status_code == 302
    corrected = AuditEntry.objects.get(action="game.correct")
    assert lines(corrected.before) == [("Ann", 1, None), ("Bob", 2, None)]
    assert lines(corrected.after) == [("Bob", 1, None), ("Ann", 2, None)]
    game.refresh_from_db()
    assert game.version == 1

    delete = client.post(reverse("admin:leagues_game_delete", args=[game.pk]), {"post": "yes"})
    assert delete.status_code == 302
    deleted = AuditEntry.objects.get(action="game.delete")
    assert lines(deleted.before) == [("Bob", 1, None), ("Ann", 2, None)]
    assert deleted.actor_label == "olive (admin)"


def test_a_game_from_the_admin_is_logged_and_rated_as_one_from_the_site_form(
    client, league, other_league, roster, organizer, django_capture_on_commit_callbacks
):
    """One write path: the same game entered on the site and in the admin (two leagues of the
    store, so the same players) gives the same log entry and the same rating ledger."""
    client.force_login(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        site = client.post(
            reverse("game_create", args=[league.slug]), entry_form("Ann", "Bob", "Cy")
        )
        rows = [
            {"player": roster[n], "placement": p} for p, n in enumerate(["Ann", "Bob", "Cy"], 1)
        ]
        admin = client.post(reverse("admin:leagues_game_add"), admin_game_data(other_league, rows))
    assert site.status_code == 302 and admin.status_code == 302

    def logged(league):
        entry = AuditEntry.objects.get(league=league)
        game = Game.objects.get(league=league)
        assert entry.after == services.game_snapshot(game)
        after = {k: v for k, v in entry.after.items() if k not in ("game", "league")}
        return entry.action, entry.actor_label.removesuffix(" (admin)"), after, game.entered_by

    def ledger(league):
        return sorted(
            RatingChange.objects.filter(league=league).values_list(
                "player__name", "before", "after", "delta"
            )
        )

    assert logged(other_league) == logged(league)
    assert AuditEntry.objects.get(league=other_league).actor_label == "olive (admin)"
    assert ledger(other_league) == ledger(league) != []


def test_an_admin_save_that_changes_nothing_is_no_new_version(client, league, roster, organizer):
    client.force_login(organizer)
    game = record(league, roster, "Ann", "Bob")
    rows = [
        {"player": r.player, "placement": r.placement, "id": r.pk}
        for r in game.results.order_by("placement")
    ]
    data = admin_game_data(league, rows, initial=2, game=game)
    data["seen_version"] = 0
    for _ in range(2):  # and pressing "Save" twice is the same
        response = client.post(reverse("admin:leagues_game_change", args=[game.pk]), data)
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 0
    assert list(AuditEntry.objects.values_list("action", flat=True)) == ["game.create"]


def test_the_admin_moves_a_game_to_another_league_and_both_rerate(
    client, league, other_league, roster, organizer, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        game = record(league, roster, "Ann", "Bob")
    assert RatingChange.objects.filter(league=league).count() == 2
    rows = [
        {"player": r.player, "placement": r.placement, "id": r.pk}
        for r in game.results.order_by("placement")
    ]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:leagues_game_change", args=[game.pk]),
            admin_game_data(other_league, rows, initial=2, game=game),
        )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.league == other_league and game.version == 1
    assert not RatingChange.objects.filter(league=league).exists()
    assert RatingChange.objects.filter(league=other_league).count() == 2
    moved = AuditEntry.objects.get(action="game.correct")
    assert (moved.before["league"], moved.after["league"]) == (league.slug, other_league.slug)
    assert moved.actor_label == "olive (admin)"


def test_the_admin_delete_action_logs_every_game(client, league, roster, organizer):
    client.force_login(organizer)
    games = [GameFactory(league=league, players=[roster["Ann"], roster["Bob"]]) for _ in range(2)]
    response = client.post(
        reverse("admin:leagues_game_changelist"),
        {"action": "delete_selected", "_selected_action": [g.pk for g in games], "post": "yes"},
    )
    assert response.status_code == 302
    assert not Game.objects.exists()
    assert sorted(AuditEntry.objects.values_list("object_id", flat=True)) == sorted(
        g.pk for g in games
    )


def test_the_api_logs_the_token_and_an_idempotency_key_stores_one_game(
    client, league, roster, organizer
):
    _, plaintext = ApiToken.issue(organization=league.organization, name="scorebot", by=organizer)
    url = reverse("api_games", args=[league.slug])
    headers = {"Authorization": f"Bearer {plaintext}", "Idempotency-Key": "retry-1"}
    body = json.dumps({"players": ["Ann", "Bob"], "date": "2026-11-20"})
    first = client.post(url, body, content_type="application/json", headers=headers)
    assert first.status_code == 201
    again = client.post(url, body, content_type="application/json", headers=headers)
    assert again.status_code == 200 and again.json()["game"]["id"] == first.json()["game"]["id"]
    assert Game.objects.count() == 1
    entry = AuditEntry.objects.get()
    assert entry.action == "game.create" and entry.actor == organizer
    assert entry.actor_label == "olive (API token scorebot)"
    assert lines(entry.after) == [("Ann", 1, None), ("Bob", 2, None)]


# --- undo ----------------------------------------------------------------------------------


def test_undoing_a_correction_restores_the_game_and_the_ratings(
    league, roster, organizer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = record(league, roster, "Ann", "Bob")
    ledger = sorted(RatingChange.objects.values_list("player__name", "delta"))
    with django_capture_on_commit_callbacks(execute=True):
        services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    assert sorted(RatingChange.objects.values_list("player__name", "delta")) != ledger
    correction = AuditEntry.objects.get(action="game.correct")
    with django_capture_on_commit_callbacks(execute=True):
        undo = audit_services.audit_undo(entry=correction, by=organizer)
    assert undo.action == "game.undo" and undo.reverts == correction
    assert lines(undo.before) == [("Bob", 1, None), ("Ann", 2, None)]
    assert lines(undo.after) == [("Ann", 1, None), ("Bob", 2, None)]
    game.refresh_from_db()
    assert game.version == 2
    assert sorted(RatingChange.objects.values_list("player__name", "delta")) == ledger
    with pytest.raises(services.UndoRefused, match="already undone"):
        audit_services.audit_undo(entry=correction, by=organizer)


def test_an_undo_after_a_later_change_is_refused(league, roster):
    game = record(league, roster, "Ann", "Bob")
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann", "Cy"), played_on=DAY)
    first = AuditEntry.objects.filter(action="game.correct").earliest("id")
    with pytest.raises(services.UndoRefused, match="changed again") as refused:
        audit_services.audit_undo(entry=first)
    assert refused.value.code == "stale"
    assert Game.objects.get().version == 2
    assert not AuditEntry.objects.filter(action="game.undo").exists()


def test_a_deleted_game_is_restored_once(league, roster, organizer):
    game = record(league, roster, "Ann", "Bob", "Cy", notes="finals")
    services.game_delete(game=game)
    deletion = AuditEntry.objects.get(action="game.delete")
    restore = audit_services.audit_undo(entry=deletion, by=organizer)
    restored = Game.objects.get()
    assert restore.action == "game.restore" and restore.object_id == restored.pk
    assert restored.notes == "finals" and restored.played_on == DAY
    assert [r.player.name for r in restored.results.order_by("placement")] == ["Ann", "Bob", "Cy"]
    with pytest.raises(services.UndoRefused):
        audit_services.audit_undo(entry=deletion)
    assert Game.objects.count() == 1


def test_entries_that_are_not_corrections_cannot_be_undone(league, roster):
    record(league, roster, "Ann", "Bob")
    with pytest.raises(services.UndoRefused, match="Only a correction"):
        audit_services.audit_undo(entry=AuditEntry.objects.get())


# --- the history page ------------------------------------------------------------------------


def history_url(league_, **params):
    url = reverse("audit_log", args=[league_.organization.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def test_the_history_page_is_only_for_the_stores_managers(client, league, roster):
    record(league, roster, "Ann", "Bob")
    url = history_url(league)
    assert client.get(url).status_code == 404  # anonymous
    stranger = organizer_of(OrganizationFactory())
    client.force_login(stranger)
    assert client.get(url).status_code == 404  # another store's organizer
    judge = organizer_of(league.organization, role=Role.JUDGE)
    client.force_login(judge)
    assert client.get(url).status_code == 404
    owner = organizer_of(league.organization, role=Role.OWNER)
    client.force_login(owner)
    assert client.get(url).status_code == 200
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    assert client.get(url).status_code == 200


def test_the_undo_button_is_only_for_the_stores_managers(client, league, roster):
    game = record(league, roster, "Ann", "Bob")
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    entry = AuditEntry.objects.get(action="game.correct")
    url = reverse("audit_undo", args=[league.organization.slug, entry.pk])
    assert client.post(url).status_code == 404
    client.force_login(organizer_of(OrganizationFactory()))
    assert client.post(url).status_code == 404
    client.force_login(organizer_of(league.organization, role=Role.JUDGE))
    assert client.post(url).status_code == 404
    assert not AuditEntry.objects.filter(action="game.undo").exists()


def test_the_history_shows_before_and_after_newest_first(organizer_client, league, roster):
    game = record(league, roster, "Ann", "Bob")
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    response = organizer_client.get(history_url(league, league=league.slug))
    assert response.status_code == 200
    entries = [row.record for row in response.context["table"].page]
    assert [e.action for e in entries] == ["game.correct", "game.create"]
    html = response.content.decode()
    assert "<del>1st Ann</del>" in html and "<ins>1st Bob</ins>" in html
    assert "Undo this correction" in html
    assert 'aria-current="page">History' in html  # the league's menu, History marked


def test_the_league_menu_links_the_history_for_managers_only(client, organizer_client, league):
    link = history_url(league, league=league.slug)
    assert (
        link in organizer_client.get(reverse("league_detail", args=[league.slug])).content.decode()
    )
    client.logout()
    assert link not in client.get(reverse("league_detail", args=[league.slug])).content.decode()


def test_the_history_filters_by_league_and_pages(organizer_client, league, roster):
    other = LeagueFactory(organization=league.organization, slug="tuesday")
    for _ in range(30):
        record(league, roster, "Ann", "Bob")
    record(other, roster, "Bob", "Ann")
    everything = organizer_client.get(history_url(league))
    assert everything.context["table"].paginator.count == 31
    first = organizer_client.get(history_url(league, league=league.slug))
    assert first.context["table"].paginator.count == 30
    assert len(first.context["table"].page.object_list) == 25
    assert f"?league={league.slug}&amp;page=2" in first.content.decode()
    second = organizer_client.get(history_url(league, league=league.slug, page=2))
    assert len(second.context["table"].page.object_list) == 5
    only = organizer_client.get(history_url(league, league="tuesday"))
    assert [row.record.league_id for row in only.context["table"].page] == [other.pk]
    # Another store's league is not a filter of this store's page.
    foreign = LeagueFactory(slug="elsewhere")
    assert organizer_client.get(history_url(league, league=foreign.slug)).status_code == 404


def test_undo_from_the_page_then_a_second_undo_is_refused(organizer_client, league, roster):
    game = record(league, roster, "Ann", "Bob")
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    entry = AuditEntry.objects.get(action="game.correct")
    url = reverse("audit_undo", args=[league.organization.slug, entry.pk])
    done = organizer_client.post(url, {"league": league.slug}, follow=True)
    assert done.status_code == 200
    assert "Undone:" in done.content.decode()
    assert done.redirect_chain[-1][0] == history_url(league, league=league.slug)
    assert [r.player.name for r in Game.objects.get().results.order_by("placement")] == [
        "Ann",
        "Bob",
    ]
    undo = AuditEntry.objects.get(action="game.undo")
    assert undo.actor_label == "olive" and undo.reverts == entry
    again = organizer_client.post(url, {"league": league.slug}, follow=True)
    assert "Not undone: This change was already undone." in again.content.decode()
    stale = organizer_client.post(url, headers={"HX-Request": "true"})
    assert stale.status_code == 409
    fragment = stale.content.decode()  # the refusal alone, for htmx to swap in
    assert "Not undone: This change was already undone." in fragment and "<html" not in fragment
    assert 'data-code="already_undone"' in fragment
    assert AuditEntry.objects.filter(action="game.undo").count() == 1


def test_an_undo_that_would_change_nothing_is_refused(league, roster):
    # An admin save that only moved the game would log a correction whose results are the
    # same before and after: putting `before` back changes nothing, so nothing is recorded.
    game = record(league, roster, "Ann", "Bob")
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    entry = AuditEntry.objects.get(action="game.correct")
    AuditEntry.objects.filter(pk=entry.pk).update(before=entry.after)
    entry.refresh_from_db()
    with pytest.raises(services.UndoRefused, match="Nothing to undo") as refused:
        audit_services.audit_undo(entry=entry)
    assert refused.value.code == "no_change"
    assert not AuditEntry.objects.filter(reverts=entry).exists()


def test_the_api_refuses_a_key_reused_for_another_game_with_409(client, league, roster, organizer):
    _, plaintext = ApiToken.issue(organization=league.organization, name="scorebot", by=organizer)
    url = reverse("api_games", args=[league.slug])
    headers = {"Authorization": f"Bearer {plaintext}", "Idempotency-Key": "night-1"}
    body = json.dumps({"players": ["Ann", "Bob"], "date": "2026-11-20"})
    assert (
        client.post(url, body, content_type="application/json", headers=headers).status_code == 201
    )
    other = json.dumps({"players": ["Bob", "Newcomer"], "date": "2026-11-20"})
    reused = client.post(url, other, content_type="application/json", headers=headers)
    assert reused.status_code == 409 and reused.json()["error"]["code"] == "key_reused"
    assert Game.objects.count() == 1 and AuditEntry.objects.count() == 1
    assert not league.organization.players.filter(name="Newcomer").exists()  # nothing stored


def test_a_stale_admin_change_form_is_refused(client, league, roster, organizer):
    client.force_login(organizer)
    game = GameFactory(league=league, players=[roster["Ann"], roster["Bob"]], played_on=DAY)
    page = client.get(reverse("admin:leagues_game_change", args=[game.pk]))
    assert 'name="seen_version" value="0"' in page.content.decode()
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    rows = [
        {"player": r.player, "placement": r.placement, "id": r.pk}
        for r in game.results.order_by("placement")
    ]
    data = admin_game_data(league, rows, initial=2, game=game)
    data["notes"] = "from an old page"
    data["seen_version"] = 0
    response = client.post(reverse("admin:leagues_game_change", args=[game.pk]), data)
    assert response.status_code == 200
    assert "Someone changed this game after you opened this page" in response.content.decode()
    game.refresh_from_db()
    assert game.notes == "" and game.version == 1
    data["seen_version"] = 1
    saved = client.post(reverse("admin:leagues_game_change", args=[game.pk]), data)
    assert saved.status_code == 302
    game.refresh_from_db()
    assert game.notes == "from an old page" and game.version == 2


def test_the_history_page_makes_no_query_per_entry(organizer_client, league, roster):
    url = history_url(league, league=league.slug)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert organizer_client.get(url).status_code == 200
        return len(captured)

    game = record(league, roster, "Ann", "Bob")
    services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
    few = queries()
    for _ in range(10):
        game = record(league, roster, "Ann", "Bob")
        services.game_update(game=game, results=results_of(roster, "Bob", "Ann"), played_on=DAY)
        audit_services.audit_undo(entry=AuditEntry.objects.filter(action="game.correct").first())
    assert queries() == few
