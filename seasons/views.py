"""Season pages: the table, a player's finishes, the event types' tables and the CSV, for
whoever may see the league; the organizers' forms (a season, its point tables, the events
that count, inviting its top to a final), for whoever manages it. There is no "update"
button: the table follows the events by itself (seasons.services). The bodies these pages
share with a series' season pages are in `pages`."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from leagues import selectors as league_selectors
from leagues.views import league_context, managed_league_get

from . import pages, selectors
from .forms import SeasonEventsForm, SeasonForm
from .models import EventType
from .services import (
    SeasonError,
    event_type_delete,
    season_events_set,
    season_update,
)


def _seen(request: HttpRequest, slug: str, pk: int):
    league = league_selectors.league_get(slug=slug, user=request.user)
    return league, selectors.season_get(league=league, pk=pk)


def _managed(request: HttpRequest, slug: str, pk: int):
    league = managed_league_get(request, slug)
    return league, selectors.season_get(league=league, pk=pk)


def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    league = league_selectors.league_get(slug=slug, user=request.user)
    context = league_context(
        request,
        league,
        "seasons",
        seasons=selectors.season_list(league=league),
        series=selectors.series_of_store(league.organization),
    )
    return render(request, "seasons/season_list.html", context)


def season_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league, season = _seen(request, slug, pk)
    context = league_context(
        request,
        league,
        "seasons",
        season=season,
        rows=selectors.season_rows(season),
        limits=selectors.has_limits(season),
        events=selectors.season_events_overview(season),
        cards=selectors.type_cards(season),
    )
    return render(request, "seasons/season_detail.html", context)


def season_player(request: HttpRequest, slug: str, pk: int, player_id: int) -> HttpResponse:
    league, season = _seen(request, slug, pk)
    detail = selectors.player_season(season, player_id)
    context = league_context(request, league, "seasons", season=season, detail=detail)
    return render(request, "seasons/season_player.html", context)


def season_types(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league, season = _seen(request, slug, pk)
    context = league_context(
        request, league, "seasons", season=season, cards=selectors.type_cards(season)
    )
    return render(request, "seasons/season_types.html", context)


def season_export(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The table as a CSV: rank, player, points, events counted and played."""
    league, season = _seen(request, slug, pk)
    return pages.season_csv(
        season,
        filename=f"{league.slug}-season-{season.pk}.csv",
        columns=[
            *pages.rank_columns(),
            ("points", lambda row: row.points),
            ("events_counted", lambda row: row.events_counted),
            ("events_played", lambda row: row.events_played),
        ],
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    league = managed_league_get(request, slug)
    return pages.season_new_page(
        request,
        owner={"league": league},
        context=league_context(request, league, "seasons"),
        template="seasons/season_form.html",
        twice=_("Season %(name)s is already created."),
        created=_("Season %(name)s created. Now choose its events."),
        then=lambda season: redirect("season_events", slug=league.slug, pk=season.pk),
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league, season = _managed(request, slug, pk)
    form = SeasonForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season_update(
                season=season,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                tiebreaks=data["tiebreaks"],
                by=request.user,
            )
        except SeasonError as error:
            form.add_domain_error(error)
        else:
            messages.success(request, _("Saved; the season table is re-scored."))
            return redirect("season_detail", slug=league.slug, pk=season.pk)
    status = 400 if request.method == "POST" else 200
    context = league_context(request, league, "seasons", form=form, season=season)
    return render(request, "seasons/season_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def season_events(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league, season = _managed(request, slug, pk)
    choices = selectors.season_event_choices(season)
    form = SeasonEventsForm(request.POST or None, season=season, choices=choices)
    if request.method == "POST" and form.is_valid():
        try:
            changed = season_events_set(season=season, choices=form.chosen(), by=request.user)
        except SeasonError as error:
            form.add_domain_error(error)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s event changed; the season table is re-scored.",
                    "%(count)s events changed; the season table is re-scored.",
                    changed,
                )
                % {"count": changed}
                if changed
                else _("Nothing to change."),
            )
            return redirect("season_detail", slug=league.slug, pk=season.pk)
    status = 400 if request.method == "POST" else 200
    context = league_context(request, league, "seasons", form=form, season=season)
    return render(request, "seasons/season_events.html", context, status=status)


def _type_form(request, league, season, event_type: EventType | None) -> HttpResponse:
    return pages.event_type_page(
        request,
        season,
        event_type,
        context=league_context(request, league, "seasons"),
        template="seasons/event_type_form.html",
        saved=_("Saved; the season table is re-scored."),
        then=lambda season: redirect("season_types", slug=league.slug, pk=season.pk),
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_type_new(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league, season = _managed(request, slug, pk)
    return _type_form(request, league, season, None)


@login_required
@require_http_methods(["GET", "POST"])
def event_type_edit(request: HttpRequest, slug: str, pk: int, type_id: int) -> HttpResponse:
    league, season = _managed(request, slug, pk)
    return _type_form(request, league, season, pages.event_type_of(season, type_id))


@login_required
@require_POST
def event_type_remove(request: HttpRequest, slug: str, pk: int, type_id: int) -> HttpResponse:
    league, season = _managed(request, slug, pk)
    event_type = season.event_types.filter(pk=type_id).first()
    if event_type is None:
        messages.info(request, _("That event type is already removed."))
        return redirect("season_types", slug=league.slug, pk=season.pk)
    try:
        event_type_delete(season=season, event_type=event_type, by=request.user)
    except SeasonError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s removed.") % {"name": event_type.name})
    return redirect("season_types", slug=league.slug, pk=season.pk)


@login_required
@require_http_methods(["GET", "POST"])
def season_qualify(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league, season = _managed(request, slug, pk)
    return pages.qualify_page(
        request,
        season,
        context=league_context(request, league, "seasons"),
        back=season.get_absolute_url(),
    )
