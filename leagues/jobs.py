"""The leagues' side of background jobs: reading an uploaded CSV, and who may follow a job.

Registered with `jobs.registry` in `LeaguesConfig.ready()`. Importing the games (which also
re-rates them) is the ratings app's handler, since it needs both apps.
"""

from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.languages import recipient_language
from jobs.models import Job

from . import selectors
from . import services as league_services
from .permissions import can_manage_league

IMPORT_PREVIEW = "import_preview"  # reading an uploaded CSV into its preview
# Applying a previewed import: started here, run by the ratings app (it rates what it adds).
IMPORT_APPLY = "import_apply"


def import_page(job: Job) -> str:
    """An import's preview page (reading the file and applying it both end there)."""
    return reverse("import_preview", args=[job.import_batch_id])


def import_preview(job: Job, progress) -> dict:
    batch = job.import_batch
    progress(0, 1)
    # The preview's sentences in the language of whoever uploaded the file (a worker has none).
    language = recipient_language(job.created_by, batch.league.organization.language)
    with translation.override(language):
        preview = league_services.import_batch_preview(batch=batch)
    progress(1, 1)
    return {"counts": preview["counts"]}


def job_league(user, job: Job):
    """The job's league as `user` may see it: 404 if hidden, 403 for someone else's import.

    Imports are the league's organizers' business; a re-rating's or the lab's progress is as
    public as the league.
    """
    league = selectors.league_get(slug=job.league.slug, user=user)
    if job.import_batch_id and not can_manage_league(user, league):
        raise PermissionDenied(_("Only the league's organizers can follow its imports."))
    return league
