"""Jobs as the pages see them: stored previews, the progress fragment, the lab and catch-ups.

These tests are not about the queue itself: where a job must run they call `job_run` (what
the worker calls) in the test process, and say so; the real worker, SIGKILL and retries are
in test_worker_killed.py. They run on the real database backend (the site's setting), so a
job that is merely enqueued stays queued.
"""

import datetime
import io

import pytest

from jobs.models import Job
from jobs.runner import job_run
from jobs.services import jobs_reap
from leagues import jobs as league_jobs
from leagues import services as league_services
from leagues.models import ImportBatch
from ratings import job_kinds
from ratings.models import LeagueRating
from tests.factories import LeagueFactory, PlayerFactory, UserFactory, organizer_of
from tests.ratings.test_recalculate_killed import ledger_snapshot, replayed

DAY = datetime.date(2026, 3, 1)


def upload(client, league, text: str, name="games.csv"):
    file = io.BytesIO(text.encode())
    file.name = name
    return client.post(f"/leagues/{league.slug}/import/", {"file": file})


def test_the_preview_is_computed_once_and_read_back(organizer_client, league):
    response = upload(organizer_client, league, "x,2026-11-20,Ann,Bob\nx,2026-11-21,Bob,Cy\n")
    batch = ImportBatch.objects.get(league=league)
    assert batch.preview["counts"]["games"] == 2
    # Whatever is stored is what the page shows: it does not plan the file again.
    batch.preview["counts"]["games"] = 1234
    ImportBatch.objects.filter(pk=batch.pk).update(preview=batch.preview)
    page = organizer_client.get(response["Location"]).content.decode()
    assert "1234" in page


def test_a_big_upload_is_read_by_a_job_and_the_page_shows_its_progress(
    organizer_client, league, settings
):
    settings.GUILDHALL_INLINE_IMPORT_ROWS = 1
    response = upload(organizer_client, league, "x,2026-11-20,Ann,Bob\nx,2026-11-21,Bob,Cy\n")
    batch = ImportBatch.objects.get(league=league)
    assert batch.preview is None
    job = Job.objects.get(import_batch=batch, kind=league_jobs.IMPORT_PREVIEW)
    assert job.task_id  # enqueued on the database backend
    page = organizer_client.get(response["Location"]).content.decode()
    assert f'hx-get="/jobs/{job.pk}/"' in page and "<progress" in page
    assert 'value="import"' not in page  # nothing to confirm before the preview exists
    organizer_client.get(response["Location"])
    assert Job.objects.filter(import_batch=batch).count() == 1  # revisits share the job
    fragment = organizer_client.get(f"/jobs/{job.pk}/", headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert b"<html" not in fragment.content and b"waiting for a worker" in fragment.content
    plain = organizer_client.get(f"/jobs/{job.pk}/")
    assert plain.status_code == 302 and plain["Location"] == response["Location"]


def test_who_may_follow_a_job(client, league):
    private = LeagueFactory(organization=league.organization, is_public=False)
    batch = league_services.import_batch_create(league=league, text="x,2026-11-20,Ann,Bob\n")
    imports = Job.objects.create(
        kind=league_jobs.IMPORT_APPLY, league=league, import_batch=batch, key="i"
    )
    lab = Job.objects.create(kind=job_kinds.LAB, league=league, key="l")
    hidden = Job.objects.create(kind=job_kinds.LAB, league=private, key="p")
    htmx = {"HX-Request": "true"}
    assert client.get(f"/jobs/{lab.pk}/", headers=htmx).status_code == 200
    assert client.get(f"/jobs/{hidden.pk}/", headers=htmx).status_code == 404
    assert client.get(f"/jobs/{imports.pk}/", headers=htmx).status_code == 302  # log in
    client.force_login(UserFactory())
    assert client.get(f"/jobs/{imports.pk}/", headers=htmx).status_code == 403
    assert client.get(f"/jobs/{hidden.pk}/", headers=htmx).status_code == 404
    client.force_login(organizer_of(league.organization))
    assert client.get(f"/jobs/{imports.pk}/", headers=htmx).status_code == 200
    assert client.get(f"/jobs/{hidden.pk}/", headers=htmx).status_code == 200


def rated_league(games: int):
    league = LeagueFactory()
    roster = PlayerFactory.create_batch(6, organization=league.organization)
    recorded = []
    for n in range(games):
        pod = roster[n % 3 : n % 3 + 3]
        recorded.append(
            league_services.game_record(
                league=league,
                results=[league_services.ResultIn(player=p, place=i) for i, p in enumerate(pod, 1)],
                played_on=DAY + datetime.timedelta(days=n),
            )
        )
    return league, recorded


@pytest.mark.django_db(transaction=True)
def test_the_lab_of_a_big_league_is_a_job_whose_result_is_kept(client, monkeypatch):
    """job_run is called here as the worker would call it."""
    monkeypatch.setattr("ratings.views.LAB_IN_REQUEST_GAMES", 5)
    league, _ = rated_league(12)
    first = client.get(f"/leagues/{league.slug}/lab/")
    job = Job.objects.get(league=league, kind=job_kinds.LAB)
    assert first.context["job"] == job and b"<progress" in first.content
    client.get(f"/leagues/{league.slug}/lab/")
    assert Job.objects.filter(league=league, kind=job_kinds.LAB).count() == 1

    assert job_run(job_id=job.pk) == "done"
    done = client.get(f"/leagues/{league.slug}/lab/")
    assert done.context["games"] == 12 and done.context["results"]
    assert b"<progress" not in done.content
    assert job_run(job_id=job.pk) == "finished"  # a second run does nothing


@pytest.mark.django_db(transaction=True)
def test_a_correction_far_back_in_a_big_league_is_re_rated_by_a_job(settings):
    """job_run is called here as the worker would call it."""
    league, games = rated_league(20)
    settings.GUILDHALL_INLINE_RERATE_GAMES = 5
    before = ledger_snapshot(league)
    first = games[0]
    results = [
        league_services.ResultIn(player=r.player, place=len(first.results.all()) + 1 - r.placement)
        for r in first.results.all()
    ]
    league_services.game_update(game=first, results=results, played_on=first.played_on)
    marker = LeagueRating.objects.get(league=league)
    assert marker.dirty_from is not None  # deferred: the standings keep the last ratings
    assert ledger_snapshot(league) == before
    job = Job.objects.get(league=league, kind=job_kinds.CATCH_UP)

    assert job_run(job_id=job.pk) == "done"
    assert LeagueRating.objects.get(league=league).dirty_from is None
    assert ledger_snapshot(league) == replayed(league) != before


@pytest.mark.django_db(transaction=True)
def test_the_reaper_leaves_live_and_fresh_jobs_alone(league):
    queued = Job.objects.create(kind=job_kinds.LAB, league=league, key="fresh")
    from jobs.services import _enqueue

    _enqueue(queued)
    assert jobs_reap() == []  # its task is ready to run
