"""CSV import (upload, preview, confirm) and export.

An upload is stored as a pending ImportBatch with its preview, computed once: in the request
for a small file, else by a background job while the page shows its progress. Opening the
preview again reads the stored preview. Nothing reaches the league's games until the organizer
confirms, and the confirmation goes through `services.games_import`, which checks everything
again under the league lock (in the request for a small file, else in a job, with progress).
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.errors_http import error_response
from jobs.models import Job
from jobs.services import job_start

from .. import selectors, services
from ..domain.csvformat import write_games_csv
from ..forms_import import ImportUploadForm
from ..jobs import IMPORT_APPLY, IMPORT_PREVIEW
from ..models import ImportBatch
from . import league_context, managed_league_get

RECENT_UPLOADS = 5


def _in_request(batch: ImportBatch) -> bool:
    """Small files are read and imported in the request; larger ones by a job."""
    return batch.line_count <= settings.GUILDHALL_INLINE_IMPORT_ROWS


def _preview_job(batch: ImportBatch, by) -> Job:
    return job_start(
        kind=IMPORT_PREVIEW,
        league=batch.league,
        key=f"import_preview:{batch.pk}",
        batch=batch,
        by=by,
    )


def league_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's games as a Guildmaster CSV, for anyone who may see the league."""
    league = selectors.league_get(slug=slug, user=request.user)
    games = selectors.league_games_in_rating_order(league=league)
    text = write_games_csv(services.games_as_csv_games(games))
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-games.csv"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_upload(request: HttpRequest, slug: str) -> HttpResponse:
    league = managed_league_get(request, slug)
    status = 200
    if request.method == "POST":
        form = ImportUploadForm(request.POST, request.FILES)
        if form.is_valid():
            batch = services.import_batch_create(
                league=league,
                text=form.text,
                filename=form.cleaned_data["file"].name,
                by=request.user,
                repeated_names=form.cleaned_data["repeated_names"],
            )
            if batch.preview is None:
                _preview_job(batch, request.user)
            if form.decode_warning:
                messages.warning(request, form.decode_warning)
            return redirect("import_preview", pk=batch.pk)
        status = 400
    else:
        form = ImportUploadForm()
    recent = league.imports.order_by("-created_at")[:RECENT_UPLOADS]
    context = league_context(request, league, "import", form=form, recent=recent)
    return render(request, "leagues/import_upload.html", context, status=status)


def _preview_context(request: HttpRequest, batch: ImportBatch, **extra) -> dict:
    league = batch.league
    context = league_context(request, league, "import", batch=batch, **extra)
    apply_job = Job.objects.filter(import_batch=batch, kind=IMPORT_APPLY).order_by("-id").first()
    if apply_job is not None and (apply_job.active or batch.status == ImportBatch.Status.PENDING):
        context["job"] = apply_job  # importing now, or the last try failed (its error shows)
    if batch.status != ImportBatch.Status.PENDING:
        return context
    preview = batch.preview
    if preview is None:
        job = Job.objects.filter(import_batch=batch, kind=IMPORT_PREVIEW).order_by("-id").first()
        if job is None and _in_request(batch):  # an upload from before previews were stored
            preview = services.import_preview_build(
                league=league, text=batch.content, repeated_names=batch.repeated_names
            )
        else:
            context.setdefault("job", job or _preview_job(batch, request.user))
            return context
    elif preview.get("language", get_language()) != get_language() and _in_request(batch):
        # Kept in the language of whoever uploaded it: a small file reads again in this one.
        preview = services.import_preview_build(
            league=league, text=batch.content, repeated_names=batch.repeated_names
        )
    context["preview"] = preview
    return context


@login_required
@require_http_methods(["GET", "POST"])
def import_preview(request: HttpRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(ImportBatch.objects.select_related("league"), pk=pk)
    league = managed_league_get(request, batch.league.slug)
    batch.league = league
    error = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "cancel":
            if services.import_batch_cancel(batch=batch, by=request.user):
                messages.info(
                    request,
                    _("Cancelled the upload %(filename)s; nothing was imported.")
                    % {"filename": batch.filename},
                )
                return redirect("import_upload", slug=league.slug)
            error, status = _("This upload was already imported or cancelled."), 409
        elif action in ("import", "import_valid") and not _in_request(batch):
            if batch.status != ImportBatch.Status.PENDING:
                done = batch.get_status_display().lower()
                error, status = _("This upload was already %(status)s.") % {"status": done}, 409
            else:
                job_start(
                    kind=IMPORT_APPLY,
                    league=league,
                    key=f"import_apply:{batch.pk}",
                    params={"skip_invalid": action == "import_valid"},
                    batch=batch,
                    by=request.user,
                )
                return redirect("import_preview", pk=batch.pk)
        elif action in ("import", "import_valid"):
            try:
                report = services.games_import(
                    league=league,
                    text=batch.content,
                    filename=batch.filename,
                    by=request.user,
                    skip_invalid=action == "import_valid",
                    batch=batch,
                )
            except services.ImportRefused as refused:
                plan = refused.plan
                conflict = plan.already_imported or (plan.duplicates and not plan.parsed.problems)
                return _refused(request, batch, refused, status=409 if conflict else 400)
            except services.LeagueError as refused:  # the upload was used meanwhile
                return _refused(request, batch, refused, status=409)
            else:
                messages.success(request, _success_message(report))
                return redirect(league)
        else:
            error, status = _("Choose one of the buttons below."), 400
        batch.refresh_from_db()
        batch.league = league
    context = _preview_context(request, batch, error=error)
    return render(request, "leagues/import_preview.html", context, status=status)


def _refused(request, batch: ImportBatch, error: services.LeagueError, *, status: int):
    """The preview again, as the league is now, saying why nothing was imported."""
    league = batch.league
    batch.refresh_from_db()
    batch.league = league
    return error_response(
        request,
        error,
        template="leagues/import_preview.html",
        context=_preview_context(request, batch, error=error),
        status=status,
        prefix=_("Nothing was imported.") + " ",
    )


def _success_message(report: services.ImportReport) -> str:
    count = report.games
    parts = [
        ngettext("Imported %(count)s game.", "Imported %(count)s games.", count) % {"count": count}
    ]
    created = sorted(report.players_created, key=str.lower)
    if created:
        parts.append(
            ngettext("New player: %(names)s.", "New players: %(names)s.", len(created))
            % {"names": ", ".join(created)}
        )
    else:
        parts.append(_("No new players."))
    lines = sorted({p.line for p in report.skipped})
    if lines:
        parts.append(
            ngettext("Skipped line %(lines)s.", "Skipped lines %(lines)s.", len(lines))
            % {"lines": ", ".join(map(str, lines))}
        )
    return " ".join(parts)
