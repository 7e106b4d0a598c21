"""Upload → preview → confirm, and the CSV download, through the web pages."""

import re
from datetime import date

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues import services
from leagues.models import Game, ImportBatch, Player
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    organizer_of,
)
from tests.forms import error_summary

CLEAN = b",2024-01-01,Ann,Bob,Cid\r\n,2024-01-02,Bob,Ann,,Long night\r\n"
WITH_PROBLEMS = (
    b",2024-01-01,Ann,Bob\r\n,2024-01-0x,Ann,Bob\r\n,2024-01-03,Cid,Cid\r\n,2024-01-04,Bob,Ann\r\n"
)


def upload_url(league):
    return reverse("import_upload", kwargs={"slug": league.slug})


def preview_url(batch):
    return reverse("import_preview", kwargs={"pk": batch.pk})


def upload(client, league, data: bytes, name="games.csv"):
    return client.post(upload_url(league), {"file": SimpleUploadedFile(name, data, "text/csv")})


def uploaded_batch(client, league, data: bytes) -> ImportBatch:
    response = upload(client, league, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    batch = ImportBatch.objects.latest("id")
    assert response["Location"] == preview_url(batch)
    return batch


def has_button(response, action: str) -> bool:
    return bool(re.search(rf'name="action" value="{action}"', response.content.decode()))


def message_texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def stranger_client(client, db):
    """Logged in as an organizer of a different store."""
    client.force_login(organizer_of(OrganizationFactory(), username="mallory"))
    return client


# --- who may do what ------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_log_in(client, league):
    for response in (
        client.get(upload_url(league)),
        client.post(upload_url(league), {"file": SimpleUploadedFile("g.csv", CLEAN)}),
    ):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))
    assert not ImportBatch.objects.exists()


def test_organizers_of_another_store_cannot_upload(stranger_client, league):
    assert stranger_client.get(upload_url(league)).status_code == 403
    response = upload(stranger_client, league, CLEAN)
    assert response.status_code == 403
    assert not ImportBatch.objects.exists()

    league.is_public = False
    league.save()
    assert stranger_client.get(upload_url(league)).status_code == 404


def test_organizers_of_another_store_cannot_see_or_confirm_a_batch(
    organizer_client, league, django_user_model
):
    batch = uploaded_batch(organizer_client, league, CLEAN)
    organizer_client.logout()
    organizer_client.force_login(organizer_of(OrganizationFactory(), username="mallory"))

    assert organizer_client.get(preview_url(batch)).status_code == 403
    for action in ("import", "import_valid", "cancel"):
        assert organizer_client.post(preview_url(batch), {"action": action}).status_code == 403
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.PENDING
    assert not Game.objects.exists()

    league.is_public = False
    league.save()
    assert organizer_client.get(preview_url(batch)).status_code == 404
    assert organizer_client.post(preview_url(batch), {"action": "import"}).status_code == 404
    assert not Game.objects.exists()


def test_the_upload_page_explains_the_format(organizer_client, league):
    response = organizer_client.get(upload_url(league))

    assert response.status_code == 200
    page = response.content.decode()
    assert 'type="file"' in page
    assert 'accept=".csv,text/csv"' in page
    assert "Nothing is imported yet" in page


# --- the flow -------------------------------------------------------------------------------


def test_a_clean_file_previews_and_imports_all(organizer_client, league):
    PlayerFactory(organization=league.organization, name="ann")
    batch = uploaded_batch(organizer_client, league, CLEAN)

    preview = organizer_client.get(preview_url(batch))

    assert preview.status_code == 200
    assert has_button(preview, "import")
    assert not has_button(preview, "import_valid")
    assert preview.context["preview"]["counts"] == {
        "rows": 2,
        "games": 2,
        "problems": 0,
        "duplicates": 0,
        "new_players": 2,
    }
    assert preview.context["preview"]["new_players"] == ["Bob", "Cid"]
    assert "Long night" in preview.content.decode()
    assert not Game.objects.exists(), "the preview must not import anything"

    response = organizer_client.post(preview_url(batch), {"action": "import"})

    assert response.status_code == 302
    assert response["Location"] == league.get_absolute_url()
    assert league.games.count() == 2
    assert league.games.get(played_on=date(2024, 1, 2)).notes == "Long night"
    [message] = message_texts(response)
    assert "2 games" in message
    assert "Bob" in message and "Cid" in message
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.IMPORTED
    assert batch.created_by.username == "olive"


def test_problems_are_listed_and_only_the_valid_rows_can_be_imported(organizer_client, league):
    batch = uploaded_batch(organizer_client, league, WITH_PROBLEMS)

    preview = organizer_client.get(preview_url(batch))

    page = preview.content.decode()
    assert preview.status_code == 200
    assert re.search(r"Line 2, column B", page)
    assert re.search(r"Line 3, column D", page)
    assert preview.context["preview"]["counts"]["problems"] == 2
    assert preview.context["preview"]["refusal"]
    assert not has_button(preview, "import")
    assert has_button(preview, "import_valid")
    assert page.count('class="bad"') >= 2

    response = organizer_client.post(preview_url(batch), {"action": "import_valid"})

    assert response.status_code == 302
    assert [g.played_on for g in league.games.order_by("played_on")] == [
        date(2024, 1, 1),
        date(2024, 1, 4),
    ]
    [message] = message_texts(response)
    assert re.search(r"\b2, 3\b", message), message
    assert not Player.objects.filter(name="Cid").exists()


def test_importing_all_of_a_file_with_problems_is_refused(organizer_client, league):
    batch = uploaded_batch(organizer_client, league, WITH_PROBLEMS)

    response = organizer_client.post(preview_url(batch), {"action": "import"})

    assert response.status_code == 400
    assert "Nothing was imported" in response.content.decode()
    assert not Game.objects.exists()
    assert not Player.objects.exists()
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.PENDING


def test_rows_already_in_the_league_are_marked_and_skipped(organizer_client, league):
    ann = PlayerFactory(organization=league.organization, name="Ann")
    bob = PlayerFactory(organization=league.organization, name="Bob")
    GameFactory(league=league, played_on=date(2024, 1, 1), players=[ann, bob])
    batch = uploaded_batch(organizer_client, league, b",2024-01-01,Ann,Bob\n,2024-01-05,Bob,Ann\n")

    preview = organizer_client.get(preview_url(batch))

    assert preview.context["preview"]["counts"]["duplicates"] == 1
    assert 'class="dup"' in preview.content.decode()
    assert not has_button(preview, "import")
    assert organizer_client.post(preview_url(batch), {"action": "import"}).status_code == 409
    assert league.games.count() == 1

    organizer_client.post(preview_url(batch), {"action": "import_valid"})
    assert league.games.count() == 2


def test_cancel_marks_the_batch_cancelled_and_imports_nothing(organizer_client, league):
    batch = uploaded_batch(organizer_client, league, CLEAN)

    response = organizer_client.post(preview_url(batch), {"action": "cancel"})

    assert response.status_code == 302
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.CANCELLED
    page = organizer_client.get(preview_url(batch))
    assert "Cancelled" in page.content.decode()
    assert not has_button(page, "import") and not has_button(page, "cancel")
    late = organizer_client.post(preview_url(batch), {"action": "import"})
    assert late.status_code == 409
    assert not Game.objects.exists()


def test_confirming_twice_imports_once(organizer_client, league):
    batch = uploaded_batch(organizer_client, league, CLEAN)

    first = organizer_client.post(preview_url(batch), {"action": "import"})
    second = organizer_client.post(preview_url(batch), {"action": "import"})

    assert first.status_code == 302
    assert second.status_code == 409
    assert "already imported" in second.content.decode()
    assert league.games.count() == 2
    assert not has_button(second, "import")


def test_a_large_file_shows_a_capped_table_but_every_problem(organizer_client, league):
    rows = [f",2024-01-01,Ann,Bob,P{n}" for n in range(1, 351)]
    rows[339] = ",2024-01-01,Ann,Ann"  # line 340, past the table's cap
    batch = uploaded_batch(organizer_client, league, "\n".join(rows).encode())

    preview = organizer_client.get(preview_url(batch))

    page = preview.content.decode()
    assert len(preview.context["preview"]["rows"]) < 350
    assert preview.context["preview"]["rows_hidden"] == 350 - len(
        preview.context["preview"]["rows"]
    )
    assert f"{preview.context['preview']['rows_hidden']} more rows" in page
    assert "Line 340," in page


# --- bad uploads ----------------------------------------------------------------------------


def test_a_too_large_file_is_a_form_error(organizer_client, league, settings):
    settings.GUILDHALL_MAX_IMPORT_BYTES = 40

    response = upload(organizer_client, league, CLEAN * 2)

    assert response.status_code == 400
    assert response.context["form"].errors["file"]
    assert "largest file" in response.context["form"].errors["file"][0]
    assert 'href="#id_file"' in error_summary(response.content.decode())
    assert not ImportBatch.objects.exists()


@pytest.mark.parametrize(
    "data",
    [b",2024-01-01,Ann\x00,Bob\n", b",2024-01-01,\x81\x8d\x90,Bob\n", b"PK\x03\x04\x00\x00\x00"],
    ids=["nul", "not-utf8-nor-1252", "zip"],
)
def test_a_file_that_is_not_text_is_a_form_error(organizer_client, league, data):
    response = upload(organizer_client, league, data)

    assert response.status_code == 400
    assert response.context["form"].errors["file"]
    assert not ImportBatch.objects.exists()


def test_an_empty_or_missing_file_is_a_form_error(organizer_client, league):
    assert upload(organizer_client, league, b"").status_code == 400
    assert organizer_client.post(upload_url(league), {}).status_code == 400
    assert not ImportBatch.objects.exists()


def test_a_windows_1252_file_is_accepted_with_a_warning(organizer_client, league):
    batch = uploaded_batch(organizer_client, league, ",2024-01-01,Zoë,Ann\r\n".encode("cp1252"))

    preview = organizer_client.get(preview_url(batch))

    assert any("Windows-1252" in m for m in message_texts(preview))
    assert preview.context["preview"]["new_players"] == ["Ann", "Zoë"]


# --- export ---------------------------------------------------------------------------------


def test_the_export_is_a_csv_download_of_the_games(client, league):
    ann = PlayerFactory(organization=league.organization, name="Ann")
    bob = PlayerFactory(organization=league.organization, name="Bob, Jr.")
    GameFactory(league=league, played_on=date(2024, 1, 2), players=[bob, ann])
    GameFactory(
        league=league, played_on=date(2024, 1, 1), players=[ann, bob], players__places=[1, 1]
    )

    response = client.get(reverse("league_export", kwargs={"slug": league.slug}))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="friday-games.csv"'
    lines = response.content.decode("utf-8").split("\r\n")
    assert lines[1] == ',2024-01-02,"Bob, Jr.",Ann'
    assert lines[0].endswith(',2024-01-01,Ann,"Bob, Jr."')
    assert '""places"": [1, 1]' in lines[0]
    assert lines[2:] == [""]


def test_the_export_of_a_private_league_is_404_for_outsiders(client, league, organizer):
    private = LeagueFactory(organization=league.organization, is_public=False, slug="secret")
    url = reverse("league_export", kwargs={"slug": private.slug})

    assert client.get(url).status_code == 404

    client.force_login(organizer)
    assert client.get(url).status_code == 200


# --- a row that names a player twice: refused, or rated as Guildmaster does -------------------

REPEATED = b",8/21/2021,Caid,Caid,Dylan,,,,,\r\n,8/21/2021,Dylan,Caid,,,,,,\r\n"


def test_by_default_a_row_naming_a_player_twice_is_a_problem(organizer_client, league):
    batch = uploaded_batch(organizer_client, league, REPEATED)

    preview = organizer_client.get(preview_url(batch))

    assert batch.repeated_names == "refuse"
    assert preview.context["preview"]["counts"]["problems"] == 1
    assert re.search(
        r"Line 1, column D \(2nd place\): &quot;Caid&quot; is named twice", preview.content.decode()
    )
    assert organizer_client.post(preview_url(batch), {"action": "import"}).status_code == 400
    assert not Game.objects.exists()


def test_rate_as_guildmaster_does_imports_the_row_with_its_columns(organizer_client, league):
    response = organizer_client.post(
        upload_url(league),
        {
            "file": SimpleUploadedFile("gm.csv", REPEATED, "text/csv"),
            "repeated_names": "guildmaster",
        },
    )
    assert response.status_code == 302
    batch = ImportBatch.objects.latest("id")
    assert batch.repeated_names == "guildmaster"

    preview = organizer_client.get(preview_url(batch))

    page = preview.content.decode()
    assert preview.context["preview"]["counts"]["games"] == 2
    assert preview.context["preview"]["counts"]["problems"] == 0
    assert re.search(
        r"Line 1, column D \(2nd place\): &quot;Caid&quot; is named twice .*Guildmaster", page
    )
    assert "rated as Guildmaster does" in page
    assert has_button(preview, "import")

    first = organizer_client.post(preview_url(batch), {"action": "import"})
    again = organizer_client.post(preview_url(batch), {"action": "import"})

    assert first.status_code == 302 and again.status_code == 409
    game = league.games.filter(results__stats__has_key="guildmaster_order").distinct().get()
    assert sorted(game.results.values_list("player__name", "placement", "stats")) == [
        ("Caid", 1, {"guildmaster_order": [1, 2]}),
        ("Dylan", 2, {"guildmaster_order": [3]}),
    ]
    assert league.games.count() == 2


def test_an_unknown_choice_for_repeated_names_is_a_form_error(organizer_client, league):
    response = organizer_client.post(
        upload_url(league),
        {"file": SimpleUploadedFile("gm.csv", REPEATED, "text/csv"), "repeated_names": "merge"},
    )

    assert response.status_code == 400
    assert "twice" in response.context["form"].errors["repeated_names"][0]
    assert not ImportBatch.objects.exists()


def test_a_preview_made_by_a_job_reads_the_file_as_the_upload_chose(league):
    batch = services.import_batch_create(
        league=league, text=REPEATED.decode(), preview_rows=0, repeated_names="guildmaster"
    )
    assert batch.preview is None

    preview = services.import_batch_preview(batch=batch)

    assert preview["counts"]["games"] == 2 and preview["problems"] == []
