"""An import big enough for the job queue, followed in a phone's browser with a real worker.

About the queue: the database backend and a real `db_worker` subprocess run the jobs. The
page shows the progress card, htmx polls it (under the strict CSP: no inline script or style)
and, when the job ends, the page reloads itself into the preview, then into the result.
"""

import pytest

from leagues.models import Game
from tests.factories import LeagueFactory, organizer_of
from tests.jobs.test_worker_killed import guildmaster_csv, stop, worker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_big_import_shows_its_progress_then_its_result(phone, settings, tmp_path):
    settings.GUILDHALL_INLINE_IMPORT_ROWS = 10
    league = LeagueFactory(name="Magic Mondays", slug="magic-mondays")
    organizer_of(league.organization, username="olive")
    path = tmp_path / "big.csv"
    path.write_text(guildmaster_csv(60))
    phone.login("olive")
    phone.go("/leagues/magic-mondays/import/")
    page = phone.page
    page.set_input_files("input[type=file]", str(path))
    page.get_by_role("button", name="Upload and preview").click()
    page.wait_for_url("**/imports/*/")
    assert page.locator(".job-progress progress").count() == 1
    assert "Reading the file" in page.content()
    phone.shot("import-job-queued-phone")

    running = worker()
    try:
        # No reload from here on: htmx polls the card and reloads the page when it is done.
        page.get_by_role("button", name="Import all 60 games").wait_for(timeout=30_000)
        page.get_by_role("button", name="Import all 60 games").click()
        page.wait_for_url("**/imports/*/")
        page.get_by_text("60 games imported").wait_for(timeout=30_000)
        phone.shot("import-job-done-phone")
    finally:
        stop(running)
    assert Game.objects.filter(league=league).count() == 60
