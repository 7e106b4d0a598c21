"""Rating pages: the rating lab (public) and the league's rating settings (organizers)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from leagues import selectors as league_selectors
from leagues.views import league_context, managed_league_get

from . import ledger
from .domain.lab import evaluate
from .domain.registry import SYSTEMS, make_system
from .forms import RatingSettingsForm
from .services import rating_settings_read, rating_system_set

LAB_MAX_GAMES = 20_000  # the lab replays in the request; bigger leagues use their latest games


def rating_lab(request: HttpRequest, slug: str) -> HttpResponse:
    """Replay the league's games with every system and compare their predictions."""
    league = league_selectors.league_get(slug=slug, user=request.user)
    settings = rating_settings_read(league=league)
    games = ledger.games_from(league.pk, ledger.START, with_stats=True)
    truncated = max(0, len(games) - LAB_MAX_GAMES)
    games = games[truncated:]
    systems = [make_system(name) for name in SYSTEMS]
    current = make_system(settings.system, settings.params)
    if current.params() != make_system(settings.system).params():
        systems.insert(0, current)  # the league's own tuning, beside the defaults
    results = evaluate([game.finish for game in games], systems)
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
        games=len(games),
        truncated=truncated,
        current=settings.system,
        current_params=settings.params,
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
        report = rating_system_set(
            league=league, system=form.system.name, params=form.system.params()
        )
        messages.success(
            request,
            f"{league.name} is now rated with {form.system.label}; "
            f"{report.games} games were re-rated.",
        )
        return redirect(league)
    status = 400 if request.method == "POST" else 200
    context = league_context(request, league, "settings", form=form, settings=settings)
    return render(request, "ratings/settings.html", context, status=status)
