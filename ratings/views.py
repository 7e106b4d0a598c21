"""Rating pages: the rating lab (public) and the league's rating settings (organizers)."""

import hashlib
import json

from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from jobs.models import Job
from jobs.services import job_start
from leagues import selectors as league_selectors
from leagues.views import league_context, managed_league_get

from . import ledger
from .forms import RatingSettingsForm
from .job_kinds import LAB, RERATE
from .lab import lab_compute, lab_fingerprint, lab_results
from .services import rating_settings_read, rating_system_set

LAB_IN_REQUEST_GAMES = 3000  # the lab of a league this small is computed in the request (< 1 s)


def _lab_data(request: HttpRequest, league) -> tuple[dict | None, Job | None]:
    """The lab's figures for the league as it is now, or the job computing them."""
    fingerprint = lab_fingerprint(league=league)
    key = f"lab:{league.pk}:{fingerprint}"
    done = (
        Job.objects.filter(league=league, kind=LAB, key=key, status=Job.Status.DONE)
        .order_by("-id")
        .first()
    )
    if done is not None:
        return done.result, None
    if ledger.games_count(league.pk) <= LAB_IN_REQUEST_GAMES:
        return lab_compute(league=league), None
    # Computing the lab is a read with a cached result: any visitor may start it, once per
    # state of the league (the key), so repeated visits share one job.
    return None, job_start(kind=LAB, league=league, key=key, by=request.user)


def rating_lab(request: HttpRequest, slug: str) -> HttpResponse:
    """Replay the league's games with every system and compare their predictions."""
    league = league_selectors.league_get(slug=slug, user=request.user)
    data, job = _lab_data(request, league)
    if data is None:
        context = league_context(request, league, "lab", job=job, games=None)
        return render(request, "ratings/lab.html", context)
    results = lab_results(data)
    baseline = results[-1]
    scored = [r for r in results if not r.is_baseline and r.log_loss is not None]
    # A figure is marked best only where it also beats the random guess.
    best_top1 = max((r.top1 for r in scored), default=None)
    if best_top1 is not None and best_top1 <= baseline.top1:
        best_top1 = None
    best_loss = min((r.log_loss for r in scored), default=None)
    if best_loss is not None and best_loss >= baseline.log_loss:
        best_loss = None
    winner = next((r for r in scored if r.log_loss == best_loss), None)
    context = league_context(
        request,
        league,
        "lab",
        results=results,
        games=data["games"],
        truncated=data["truncated"],
        current=data["current"],
        current_params=data["current_params"],
        best_top1=best_top1,
        best_loss=best_loss,
        winner=winner,
    )
    return render(request, "ratings/lab.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def rating_settings(request: HttpRequest, slug: str) -> HttpResponse:
    league = managed_league_get(request, slug)
    settings = rating_settings_read(league=league)
    form = RatingSettingsForm(
        request.POST or None, current_system=settings.system, current_params=settings.params
    )
    if request.method == "POST" and form.is_valid():
        system, params = form.system.name, form.system.params()
        if ledger.games_count(league.pk) > django_settings.GUILDHALL_INLINE_RERATE_GAMES:
            # A big league re-rates in the background; its pages keep the last ratings.
            digest = hashlib.sha256(json.dumps([system, params], sort_keys=True).encode())
            job_start(
                kind=RERATE,
                league=league,
                key=f"rerate:{league.pk}:{digest.hexdigest()[:32]}",
                params={"system": system, "params": params, "label": form.system.label},
                by=request.user,
            )
            return redirect("rating_settings", slug=league.slug)
        report = rating_system_set(league=league, system=system, params=params)
        text = ngettext(
            "%(league)s is now rated with %(system)s; %(count)s game was re-rated.",
            "%(league)s is now rated with %(system)s; %(count)s games were re-rated.",
            report.games,
        )
        values = {"league": league.name, "system": form.system.label, "count": report.games}
        messages.success(request, text % values)
        return redirect(league)
    status = 400 if request.method == "POST" else 200
    job = Job.objects.filter(league=league, kind=RERATE).order_by("-id").first()
    if job is not None and not job.active and job.status != Job.Status.FAILED:
        job = None  # only a running re-rating, or the last one's failure, is shown
    context = league_context(request, league, "settings", form=form, settings=settings, job=job)
    return render(request, "ratings/settings.html", context, status=status)
