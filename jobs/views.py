"""A job's progress, as an htmx fragment that polls itself until the job ends.

Who may look: imports are the league's organizers' business (the login page for visitors,
403 to others who may see the league); a re-rating's or the lab's progress is as public as the
league. A league the user may not see answers 404, so its jobs do not reveal it. The leagues
app decides that (`jobs.registry.league_access`), as it does for the league's own pages.
"""

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django_htmx.http import HttpResponseClientRefresh

from .models import Job, job_page_url
from .registry import league_access


def job_progress(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(Job.objects.select_related("league"), pk=pk)
    if job.import_batch_id and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())  # as the import pages do
    job.league = league_access(request.user, job)
    if not request.htmx:
        return redirect(job_page_url(job))
    if not job.active:
        return HttpResponseClientRefresh()  # the page itself shows the outcome
    return render(request, "jobs/_progress.html", {"job": job, "page_url": job_page_url(job)})
