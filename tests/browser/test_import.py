"""The journey the foundation issue ends on: import a Guildmaster CSV, see the standings."""

from pathlib import Path

import pytest

from leagues.models import Game
from tests.factories import LeagueFactory, organizer_of

pytestmark = pytest.mark.django_db(transaction=True)

MTGSCORES = Path(__file__).resolve().parents[3] / "shared" / "guildmaster" / "mtgscores.csv"


@pytest.fixture
def empty_league(db):
    league = LeagueFactory(name="Magic Mondays", slug="magic-mondays")
    organizer_of(league.organization, username="olive")
    return league


def test_import_guildmaster_file_then_see_standings(phone, empty_league):
    assert MTGSCORES.exists(), f"the Guildmaster sample is missing at {MTGSCORES}"
    phone.login("olive")
    phone.go("/leagues/magic-mondays/import/")
    phone.shot("import-upload-phone")
    page = phone.page
    page.set_input_files("input[type=file]", str(MTGSCORES))
    page.get_by_role("button", name="Upload and preview").click()
    page.wait_for_url("**/imports/*/")
    # The real file's mistake is shown with its line, and nothing is stored yet.
    assert "Line 142" in page.content() or "line 142" in page.content()
    assert not page.get_by_role("button", name="Import all").count()
    assert Game.objects.count() == 0
    phone.shot("import-preview-phone")
    page.get_by_role("button", name="Import the 224 valid rows and skip 1").click()
    page.wait_for_url("**/leagues/magic-mondays/")
    message = page.locator(".messages").inner_text()
    assert "Imported 224 games" in message and "142" in message
    names = page.locator("#standings tbody td.name").all_inner_texts()
    assert len(names) == 21 and "Dylan" in names
    phone.shot("import-standings-phone")
    assert Game.objects.filter(league=empty_league).count() == 224


def test_export_download(desktop, empty_league):
    desktop.go("/leagues/magic-mondays/")
    with desktop.page.expect_download() as download:
        desktop.page.get_by_role("link", name="Download CSV").click()
    assert download.value.suggested_filename == "magic-mondays-games.csv"


def test_rate_as_guildmaster_does_imports_the_whole_sample(phone, empty_league):
    """The upload's choice for a row naming a player twice, chosen on a phone."""
    phone.login("olive")
    phone.go("/leagues/magic-mondays/import/")
    page = phone.page
    page.set_input_files("input[type=file]", str(MTGSCORES))
    page.get_by_label("A row that names a player twice").select_option(
        label="Rate it as Guildmaster does"
    )
    phone.shot("import-upload-guildmaster-phone")
    page.get_by_role("button", name="Upload and preview").click()
    page.wait_for_url("**/imports/*/")
    content = page.content()
    assert "Line 142, column D (2nd place)" in content and "rated as Guildmaster does" in content
    phone.shot("import-preview-guildmaster-phone")
    page.get_by_role("button", name="Import all").click()
    page.wait_for_url("**/leagues/magic-mondays/")
    assert "Imported 225 games" in page.locator(".messages").inner_text()
    assert Game.objects.filter(league=empty_league).count() == 225
