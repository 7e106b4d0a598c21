"""CSV import (upload, preview, confirm) and export.

An upload is stored as a pending ImportBatch; the preview recomputes the import plan from it
on every visit, so it always reflects the league as it is now. Nothing reaches the league's
games until the organizer confirms, and the confirmation goes through `services.games_import`,
which checks everything again under the league lock.
"""

import re
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from core.errors_http import error_response

from .. import selectors, services
from ..domain.csvformat import CsvGame, write_games_csv
from ..forms_import import ImportUploadForm
from ..models import ImportBatch
from . import league_context, managed_league_get

# The rows table stops here; the problem list above it is never cut short.
PREVIEW_ROWS = 300
RECENT_UPLOADS = 5


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
            )
            if form.decode_warning:
                messages.warning(request, form.decode_warning)
            return redirect("import_preview", pk=batch.pk)
        status = 400
    else:
        form = ImportUploadForm()
    recent = league.imports.order_by("-created_at")[:RECENT_UPLOADS]
    context = league_context(request, league, "import", form=form, recent=recent)
    return render(request, "leagues/import_upload.html", context, status=status)


@dataclass
class PreviewRow:
    line: int
    game: CsvGame | None = None
    raw: str = ""  # the line as written, for rows that could not be read as a game
    css: str = ""
    problems: list[str] = field(default_factory=list)


def _preview_rows(plan: services.ImportPlan, text: str) -> list[PreviewRow]:
    """Every row of the file in line order: the games read, and the raw text of bad rows."""
    rows = {g.line: PreviewRow(line=g.line, game=g) for g in plan.parsed.games}
    physical = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
    for problem in plan.problems:
        row = rows.get(problem.line)
        if row is None:
            raw = physical[problem.line - 1] if problem.line <= len(physical) else ""
            row = rows[problem.line] = PreviewRow(line=problem.line, raw=raw)
        row.problems.append(f"{problem.field}: {problem.message}")
    duplicate_lines = {p.line for p in plan.duplicates}
    for row in rows.values():
        if row.problems:
            row.css = "dup" if row.line in duplicate_lines else "bad"
    return sorted(rows.values(), key=lambda row: row.line)


def _preview_context(request: HttpRequest, batch: ImportBatch, **extra) -> dict:
    league = batch.league
    context = league_context(request, league, "import", batch=batch, **extra)
    if batch.status != ImportBatch.Status.PENDING:
        return context
    plan = services.import_plan(league=league, text=batch.content)
    rows = _preview_rows(plan, batch.content)
    bad_lines = {p.line for p in plan.parsed.problems}
    refusal = services.import_refusal_message(plan, skip_invalid=False)
    context.update(
        plan=plan,
        rows=rows[:PREVIEW_ROWS],
        rows_hidden=max(0, len(rows) - PREVIEW_ROWS),
        counts={
            "rows": len(rows),
            "games": len(plan.games),
            "problems": len(bad_lines),
            "duplicates": len(plan.duplicates),
            "new_players": len(plan.new_players),
        },
        skipped_count=len(plan.skipped_lines),
        refusal=refusal,
        can_import_all=refusal is None,
        can_import_valid=bool(plan.problems)
        and services.import_refusal_message(plan, skip_invalid=True) is None,
    )
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
                    request, f"Cancelled the upload {batch.filename}; nothing was imported."
                )
                return redirect("import_upload", slug=league.slug)
            error, status = "This upload was already imported or cancelled.", 409
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
            error, status = "Choose one of the buttons below.", 400
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
        prefix="Nothing was imported. ",
    )


def _success_message(report: services.ImportReport) -> str:
    count = report.games
    parts = [f"Imported {count} game{'s' if count != 1 else ''}."]
    created = sorted(report.players_created, key=str.lower)
    if created:
        parts.append(f"New player{'s' if len(created) != 1 else ''}: {', '.join(created)}.")
    else:
        parts.append("No new players.")
    lines = sorted({p.line for p in report.skipped})
    if lines:
        parts.append(f"Skipped line{'s' if len(lines) != 1 else ''} {', '.join(map(str, lines))}.")
    return " ".join(parts)
