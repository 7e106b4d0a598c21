"""The ratings' background jobs: importing games (then rating them), re-rating, the lab.

Each handler runs inside the job's transaction and returns a JSON-able result; a refusal a
person can act on is raised as JobRefused with the service's own message. Registered with
`jobs.registry` in `RatingsConfig.ready()`.
"""

from django.urls import reverse
from django.utils.translation import gettext as _

from jobs.errors import JobRefused
from jobs.models import Job
from leagues import services as league_services
from leagues.models import ImportBatch

from . import services as rating_services
from .domain.base import ParamError
from .lab import lab_compute


def rating_settings_page(job: Job) -> str:
    return reverse("rating_settings", args=[job.league.slug])


def lab_page(job: Job) -> str:
    return reverse("rating_lab", args=[job.league.slug])


def league_page(job: Job) -> str:
    return reverse("league_detail", args=[job.league.slug])


def import_apply(job: Job, progress) -> dict:
    batch = ImportBatch.objects.get(pk=job.import_batch_id)
    try:
        report = league_services.games_import(
            league=job.league,
            text=batch.content,
            filename=batch.filename,
            by=job.created_by,
            skip_invalid=job.params.get("skip_invalid", False),
            batch=batch,
            progress=progress,
        )
    except league_services.LeagueError as refused:
        raise JobRefused(
            message=_("Nothing was imported. %(why)s") % {"why": refused}, code=refused.code
        ) from None
    # Rate the new games in the same transaction: "done" means the standings are true too.
    rating_services.ratings_catch_up(league_id=job.league_id, progress=progress)
    return {
        "games": report.games,
        "players_created": report.players_created,
        "skipped_lines": sorted({p.line for p in report.skipped}),
    }


def rerate(job: Job, progress) -> dict:
    try:
        report = rating_services.rating_system_set(
            league=job.league,
            system=job.params["system"],
            params=job.params.get("params") or {},
            progress=progress,
        )
    except ParamError as error:
        raise JobRefused(
            message=_("Nothing was changed. %(why)s") % {"why": error.message}, code=error.code
        ) from None
    return {"games": report.games, "system": job.params["system"]}


def catch_up(job: Job, progress) -> dict:
    report = rating_services.ratings_catch_up(league_id=job.league_id, progress=progress)
    return {"games": report.games if report else 0}


def lab(job: Job, progress) -> dict:
    return lab_compute(league=job.league, progress=progress)
