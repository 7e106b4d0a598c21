"""The job-kind registry: `jobs` names no kind of the apps above it; they register theirs.

A kind no app registered is refused when someone starts it (not found out by the worker), a
kind registered twice with other parts fails loudly, and a job's label and outcome page are
the ones its app gave.
"""

import pytest

from jobs.models import Job, job_page_url
from jobs.registry import kind_get, kind_register, kinds
from jobs.services import job_start
from leagues import jobs as league_jobs
from ratings import job_kinds
from tests.factories import LeagueFactory


def test_every_kind_the_apps_start_is_registered_with_its_page():
    assert set(kinds()) == {
        league_jobs.IMPORT_PREVIEW,
        league_jobs.IMPORT_APPLY,
        job_kinds.RERATE,
        job_kinds.CATCH_UP,
        job_kinds.LAB,
    }
    assert kind_get(job_kinds.LAB).label == "Running the rating lab"


@pytest.mark.django_db
def test_an_unknown_kind_is_refused_before_anything_is_stored():
    league = LeagueFactory()
    with pytest.raises(LookupError, match="No job kind 'reticulate' is registered"):
        job_start(kind="reticulate", league=league, key="x")
    assert not Job.objects.exists()


def test_a_kind_registered_twice_with_another_handler_fails_loudly():
    known = kind_get(job_kinds.LAB)
    with pytest.raises(ValueError, match="already registered"):
        kind_register(known.name, label=known.label, handler=print, page=known.page)
    # The same registration again (a second ready()) is harmless.
    assert kind_register(known.name, label=known.label, handler=known.handler, page=known.page)


@pytest.mark.django_db
def test_a_jobs_label_and_page_come_from_its_app():
    league = LeagueFactory()
    lab = Job(kind=job_kinds.LAB, league=league, key="l")
    rerate = Job(kind=job_kinds.RERATE, league=league, key="r")
    assert lab.label == "Running the rating lab"
    assert job_page_url(lab) == f"/leagues/{league.slug}/lab/"
    assert job_page_url(rerate) == f"/leagues/{league.slug}/rating-settings/"
    # A row of a kind no app registers any more still has a name to show.
    assert Job(kind="retired", league=league, key="o").label == "retired"
