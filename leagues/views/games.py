"""Organizer game entry: add a game in a few taps, correct it, delete it.

Only owners and organizers of the league's organization get here (403 for others who can
see the league, 404 for those who cannot). Every write goes through leagues.services.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from audit.models import AuditEntry
from core.errors_http import error_response

from .. import selectors, services
from ..actions import Action
from ..deletion import delete_preview
from ..forms import MAX_ROWS, GameEntryForm, ordinal
from ..models import Game, League
from . import league_context, managed_league_get


def _managed_game(request: HttpRequest, pk: int) -> Game:
    game = get_object_or_404(Game.objects.select_related("league__organization"), pk=pk)
    managed_league_get(request, game.league.slug)
    return game


def _summary(game: Game) -> str:
    return ", ".join(
        f"{ordinal(r.placement)} {r.player.name}"
        for r in game.results.select_related("player").order_by("placement", "seat", "id")
    )


def _save(request: HttpRequest, form: GameEntryForm, league: League, game: Game | None):
    """Store the form's game; a refusal (LeagueError, GameConflict) is the caller's to show."""
    return services.game_enter(
        league=league,
        finish=form.finish,
        played_on=form.cleaned_data["played_on"],
        notes=form.cleaned_data.get("notes", ""),
        by=request.user,
        create_players=form.cleaned_data.get("add_new_players", False),
        look_alikes_confirmed=form.cleaned_data.get("look_alikes_ok", False),
        game=game,
        expected_version=form.cleaned_data.get("version"),
        entry_key=form.cleaned_data.get("entry_key") or None,
    )


def _form_context(request, league, form, *, game=None) -> dict:
    return league_context(
        request,
        league,
        "add" if game is None else "games",
        form=form,
        game=game,
        player_names=selectors.league_player_names(league=league),
        next_row=form.row_count,
        max_rows=MAX_ROWS,
    )


def _render_form(request, league, form, *, game=None, status=200):
    context = _form_context(request, league, form, game=game)
    return render(request, "leagues/game_form.html", context, status=status)


def _refused(request, league, form, error: services.LeagueError, *, game=None) -> HttpResponse:
    """The form again with the services' refusal on its field (400): nothing was stored."""
    return error_response(
        request,
        error,
        form=form,
        template="leagues/game_form.html",
        context=_form_context(request, league, form, game=game),
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = managed_league_get(request, slug)
    if request.method == "GET":
        return _render_form(request, league, GameEntryForm.blank(league))
    form = GameEntryForm(request.POST, league=league)
    if not form.is_valid():
        return _render_form(request, league, form, status=400)
    try:
        game = _save(request, form, league, None)
    except services.LeagueError as error:
        return _refused(request, league, form, error)
    if game.is_replay:  # the same form sent twice: the first one stored it
        messages.info(
            request, _("This game was already saved: %(summary)s.") % {"summary": _summary(game)}
        )
        return redirect("league_games", slug=league.slug)
    messages.success(request, _("Game saved: %(summary)s.") % {"summary": _summary(game)})
    if "add_another" in request.POST:
        return redirect("game_create", slug=league.slug)
    return redirect("league_games", slug=league.slug)


@login_required
@require_GET
def game_form_row(request: HttpRequest, slug: str) -> HttpResponse:
    """htmx: one more finishing row for the entry form (and the next "add" button)."""
    league = managed_league_get(request, slug)
    try:
        index = int(request.GET.get("index", ""))
    except ValueError:
        index = -1
    if not 0 <= index < MAX_ROWS:
        return HttpResponse(_("No more rows."), status=400)
    form = GameEntryForm(league=league, rows=index + 1)
    context = {
        "league": league,
        "row": form.rows()[index],
        "next_row": index + 1,
        "max_rows": MAX_ROWS,
    }
    return render(request, "leagues/game_form.html#finish-row-added", context)


@login_required
@require_http_methods(["GET", "POST"])
def game_edit(request: HttpRequest, pk: int) -> HttpResponse:
    game = _managed_game(request, pk)
    league = game.league
    if request.method == "GET":
        return _render_form(request, league, GameEntryForm.for_game(game), game=game)
    form = GameEntryForm(request.POST, league=league)
    if not form.is_valid():
        return _render_form(request, league, form, game=game, status=400)
    try:
        saved = _save(request, form, league, game)
    except services.GameConflict as conflict:
        return _conflict(request, league, conflict)
    except services.LeagueError as error:
        return _refused(request, league, form, error, game=game)
    if not saved.changed:
        messages.info(
            request,
            _("Nothing to change: the game is already %(summary)s.") % {"summary": _summary(saved)},
        )
    else:
        messages.success(request, _("Game corrected: %(summary)s.") % {"summary": _summary(saved)})
    return redirect("league_games", slug=league.slug)


def _conflict(request: HttpRequest, league: League, conflict) -> HttpResponse:
    """HTTP 409: the game changed since the form was loaded; show it as it is now."""
    if conflict.game is None:  # deleted meanwhile: nothing left to show
        messages.error(request, conflict.message)
        context = league_context(request, league, "games")
        return error_response(request, conflict, template="leagues/game_gone.html", context=context)
    current = GameEntryForm.for_game(conflict.game)
    current.stale_message = conflict.message
    context = _form_context(request, league, current, game=conflict.game)
    return error_response(request, conflict, template="leagues/game_form.html", context=context)


@login_required
@require_http_methods(["GET", "POST"])
def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what goes with the game (leagues.deletion); POST: delete it, if nothing refuses.

    A second tap of "Delete" finds the game gone: the organizer is told it is already deleted
    and sent to the game log (anyone else still gets 404).
    """
    if request.method == "POST" and not Game.objects.filter(pk=pk).exists():
        return _already_deleted(request, pk)
    game = _managed_game(request, pk)
    league = game.league
    preview = delete_preview(game)
    if request.method == "POST" and preview.allowed:
        summary, played_on = _summary(game), game.played_on
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            version = None
        try:
            services.game_delete(game=game, by=request.user, expected_version=version)
        except services.GameConflict as conflict:
            return _conflict(request, league, conflict)
        messages.success(
            request,
            _("Deleted the game of %(played_on)s (%(summary)s).")
            % {"played_on": f"{played_on:%Y-%m-%d}", "summary": summary},
        )
        return redirect("league_games", slug=league.slug)
    (shown,) = selectors.game_cards([game.pk])
    player_url = reverse("player_detail", args=[league.slug, 0]).removesuffix("0/")
    return render(
        request,
        "leagues/game_confirm_delete.html",
        league_context(
            request, league, "games", game=shown, preview=preview, player_url=player_url
        ),
        status=200 if preview.allowed else 409,
    )


def _already_deleted(request: HttpRequest, pk: int) -> HttpResponse:
    """A repeated delete: the log says which league the game was in; only its organizers
    learn that it was deleted, to everyone else it does not exist."""
    deletion = (
        AuditEntry.objects.filter(action=Action.GAME_DELETE, object_type="game", object_id=pk)
        .select_related("league")
        .first()
    )
    if deletion is None or deletion.league is None:
        raise Http404(_("No such game."))
    try:
        league = managed_league_get(request, deletion.league.slug)
    except PermissionDenied:
        raise Http404(_("No such game.")) from None
    messages.info(request, _("That game is already deleted (it can be restored from History)."))
    return redirect("league_games", slug=league.slug)
