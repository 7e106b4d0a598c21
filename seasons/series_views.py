"""Series pages, by audience.

- Anyone: a series (its stores, its seasons), a season's table with its events (names, dates,
  stores) and point tables, and its CSV. Nothing else of any store is shown or linked.
- A store's staff (leagues.store_access: owners and organizers; judges are told why; anyone
  else finds nothing): the store's series and invitations, a new series, the store's own
  events in a series' season. Only the store's owner answers an invitation or leaves
  (`seasons.series.invitation_decide` refuses anyone else, superusers included).
- The host store's managers: inviting stores, a new season, linking players with no
  account, and inviting a season's top to a final (a store's own season's top is invited
  from the league's season pages, `views.season_qualify`).

The bodies these pages share with a league's season pages are in `pages`.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from leagues.domain.csvformat import escape_text
from leagues.models import Organization, Player
from leagues.permissions import can_manage_organization_id
from leagues.store_access import store_for_manager, store_for_owner

from . import pages, selectors
from .forms import (
    SeasonEventsForm,
    SeriesForm,
    SeriesInviteForm,
    SeriesLinkForm,
)
from .models import Season, Series, SeriesLink, SeriesMember
from .series import (
    invitation_decide,
    is_owner,
    series_create,
    series_events_set,
    series_invite,
    series_leave,
    series_link,
    series_unlink,
)
from .services import SeasonError

# -- Anyone -----------------------------------------------------------------------------------


def _series_context(request: HttpRequest, series: Series, **extra) -> dict:
    return {
        "series": series,
        "can_host": request.user.is_authenticated
        and can_manage_organization_id(request.user, series.organization_id),
        **extra,
    }


def series_detail(request: HttpRequest, series: str) -> HttpResponse:
    series = selectors.series_get(slug=series)
    context = _series_context(
        request,
        series,
        members=[
            m
            for m in selectors.series_members(series)
            if m.status in (SeriesMember.Status.ACCEPTED, SeriesMember.Status.LEFT)
        ],
        seasons=list(series.seasons.all()),
    )
    return render(request, "seasons/series_detail.html", context)


def series_season(request: HttpRequest, series: str, pk: int) -> HttpResponse:
    series = selectors.series_get(slug=series)
    season = selectors.series_season_get(series=series, pk=pk)
    stores = selectors.series_people_stores(season)
    context = _series_context(
        request,
        series,
        season=season,
        rows=[(row, stores.get(row.player_id, [])) for row in selectors.season_rows(season)],
        limits=selectors.has_limits(season),
        events=selectors.series_events_overview(season),
        cards=selectors.type_cards(season),
    )
    return render(request, "seasons/series_season.html", context)


def series_season_export(request: HttpRequest, series: str, pk: int) -> HttpResponse:
    series = selectors.series_get(slug=series)
    season = selectors.series_season_get(series=series, pk=pk)
    stores = selectors.series_people_stores(season)
    return pages.season_csv(
        season,
        filename=f"{series.slug}-season-{season.pk}.csv",
        columns=[
            *pages.rank_columns(),
            ("stores", lambda row: escape_text("; ".join(stores.get(row.player_id, [])))),
            ("points", lambda row: row.points),
            ("events_counted", lambda row: row.events_counted),
        ],
    )


# -- A store's staff --------------------------------------------------------------------------


@login_required
def store_series(request: HttpRequest, org: str) -> HttpResponse:
    organization = store_for_manager(request, org)
    members = selectors.store_series(organization)
    context = {
        "organization": organization,
        "waiting": [m for m in members if m.status == SeriesMember.Status.INVITED],
        "taking_part": [m for m in members if m.status == SeriesMember.Status.ACCEPTED],
        "past": [
            m
            for m in members
            if m.status in (SeriesMember.Status.DECLINED, SeriesMember.Status.LEFT)
        ],
        "is_owner": is_owner(request.user, organization.pk),
    }
    return render(request, "seasons/store_series.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def series_new(request: HttpRequest, org: str) -> HttpResponse:
    organization = store_for_manager(request, org)
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["name"]
        try:
            series = series_create(organization=organization, name=name, by=request.user)
        except SeasonError as error:
            twin = Series.objects.filter(organization=organization, name__iexact=name.strip())
            twin = twin.first() if error.code == "name_taken" else None
            if twin is not None:  # "Create" pressed twice: the series the first press made
                messages.info(request, _("%(name)s is already created.") % {"name": twin.name})
                return redirect("series_manage", series=twin.slug)
            form.add_domain_error(error)
        else:
            messages.success(
                request,
                _("%(name)s created. Now invite the other stores.") % {"name": series.name},
            )
            return redirect("series_manage", series=series.slug)
    status = 400 if request.method == "POST" else 200
    context = {"organization": organization, "form": form}
    return render(request, "seasons/series_form.html", context, status=status)


def _store_member(organization: Organization, pk: int) -> SeriesMember:
    member = (
        SeriesMember.objects.filter(pk=pk, organization=organization)
        .select_related("series", "organization")
        .first()
    )
    if member is None:
        raise Http404("No such series invitation.")
    return member


def _decide(request: HttpRequest, org: str, pk: int, accept: bool) -> HttpResponse:
    organization = store_for_owner(request, org)
    member = _store_member(organization, pk)
    try:
        invitation_decide(member=member, accept=accept, by=request.user)
    except SeasonError as error:
        if error.code == "not_owner":
            raise PermissionDenied(error.message) from None
        (messages.info if error.code == "twice" else messages.error)(request, error.message)
    else:
        if accept:
            messages.success(
                request,
                _(
                    "%(store)s takes part in %(series)s: choose which of your events count in "
                    "its seasons."
                )
                % {"store": organization.name, "series": member.series.name},
            )
        else:
            messages.success(
                request,
                _("Invitation to %(series)s declined.") % {"series": member.series.name},
            )
    return redirect("store_series", org=organization.slug)


@login_required
@require_POST
def invitation_accept(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    return _decide(request, org, pk, accept=True)


@login_required
@require_POST
def invitation_decline(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    return _decide(request, org, pk, accept=False)


@login_required
@require_POST
def series_leave_view(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    organization = store_for_owner(request, org)
    member = _store_member(organization, pk)
    try:
        removed = series_leave(member=member, by=request.user)
    except SeasonError as error:
        (messages.info if error.code == "twice" else messages.error)(request, error.message)
    else:
        names = {"store": organization.name, "series": member.series.name}
        if removed:
            text = _(
                "%(store)s left %(series)s; its past events stay counted. No longer counted: "
                "%(events)s."
            ) % {**names, "events": ", ".join(removed)}
        else:
            text = _("%(store)s left %(series)s; its past events stay counted.") % names
        messages.success(request, text)
    return redirect("store_series", org=organization.slug)


@login_required
@require_http_methods(["GET", "POST"])
def store_series_events(request: HttpRequest, org: str, pk: int, season_id: int) -> HttpResponse:
    organization = store_for_manager(request, org)
    member = _store_member(organization, pk)
    season = selectors.series_season_get(series=member.series, pk=season_id)
    if member.status != SeriesMember.Status.ACCEPTED:
        messages.error(
            request,
            _("%(store)s is not taking part in %(series)s.")
            % {"store": organization.name, "series": member.series.name},
        )
        return redirect("store_series", org=organization.slug)
    choices = selectors.series_store_event_choices(season, organization)
    form = SeasonEventsForm(request.POST or None, season=season, choices=choices)
    for event, name in form.events:
        if not event.league.is_public:  # counted before its league was made private
            form.fields[name].help_text = _(
                "%(league)s is private now: this event is not shown or counted on "
                "%(series)s's public pages."
            ) % {"league": event.league.name, "series": member.series.name}
    if request.method == "POST" and form.is_valid():
        try:
            changed = series_events_set(
                season=season, organization=organization, choices=form.chosen(), by=request.user
            )
        except SeasonError as error:
            form.add_domain_error(error)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s event changed; the series' table is re-scored.",
                    "%(count)s events changed; the series' table is re-scored.",
                    changed,
                )
                % {"count": changed}
                if changed
                else _("Nothing to change."),
            )
            return redirect("series_season", series=member.series.slug, pk=season.pk)
    status = 400 if request.method == "POST" else 200
    private = selectors.series_store_private_events(season, organization)
    context = {
        "organization": organization,
        "series": member.series,
        "season": season,
        "form": form,
        "private_events": private,
        # "Name (date, league); ...": the events a private league holds, in one sentence.
        "private_events_text": "; ".join(
            f"{event.name} ({date_format(event.date, 'GH_DATE')}, {event.league.name})"
            for event in private
        ),
    }
    return render(request, "seasons/store_series_events.html", context, status=status)


# -- The host ---------------------------------------------------------------------------------


def _hosted(request: HttpRequest, slug: str) -> Series:
    """The series if the user manages its host store; 403 otherwise (a series is public)."""
    series = selectors.series_get(slug=slug)
    if not can_manage_organization_id(request.user, series.organization_id):
        raise PermissionDenied(
            _("Only the owners and organizers of %(store)s run %(series)s.")
            % {"store": series.organization.name, "series": series.name}
        )
    return series


@login_required
def series_manage(request: HttpRequest, series: str) -> HttpResponse:
    series = _hosted(request, series)
    context = _series_context(
        request,
        series,
        members=selectors.series_members(series),
        seasons=list(series.seasons.all()),
        invite_form=SeriesInviteForm(),
        managing=True,
    )
    return render(request, "seasons/series_manage.html", context)


@login_required
@require_POST
def series_invite_view(request: HttpRequest, series: str) -> HttpResponse:
    series = _hosted(request, series)
    form = SeriesInviteForm(request.POST)
    if form.is_valid():
        store = Organization.objects.filter(slug__iexact=form.cleaned_data["store"]).first()
        if store is None:
            form.add_error(
                "store",
                _("No store at /stores/%(slug)s/.") % {"slug": form.cleaned_data["store"]},
            )
        else:
            try:
                series_invite(series=series, organization=store, by=request.user)
            except SeasonError as error:
                if error.code != "twice":
                    form.add_domain_error(error)
                else:
                    messages.info(request, error.message)
                    return redirect("series_manage", series=series.slug)
            else:
                messages.success(
                    request,
                    _("%(store)s invited: its owner accepts or declines.") % {"store": store.name},
                )
                return redirect("series_manage", series=series.slug)
    context = _series_context(
        request,
        series,
        members=selectors.series_members(series),
        seasons=list(series.seasons.all()),
        invite_form=form,
        managing=True,
    )
    return render(request, "seasons/series_manage.html", context, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def series_season_new(request: HttpRequest, series: str) -> HttpResponse:
    series = _hosted(request, series)
    return pages.season_new_page(
        request,
        owner={"series": series},
        context=_series_context(request, series),
        template="seasons/series_season_form.html",
        twice=_("%(name)s is already created."),
        created=_("%(name)s created: each store taking part chooses which of its events count."),
        then=lambda season: redirect("series_season", series=series.slug, pk=season.pk),
    )


@login_required
@require_http_methods(["GET", "POST"])
def series_links(request: HttpRequest, series: str) -> HttpResponse:
    series = _hosted(request, series)
    players = selectors.series_players(series)
    form = SeriesLinkForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        chosen = Player.objects.in_bulk([form.cleaned_data["player"], form.cleaned_data["same_as"]])
        try:
            series_link(
                series=series,
                player=chosen[form.cleaned_data["player"]],
                same_as=chosen[form.cleaned_data["same_as"]],
                by=request.user,
            )
        except SeasonError as error:
            if error.code == "twice":
                messages.info(request, error.message)
                return redirect("series_links", series=series.slug)
            form.add_domain_error(error)
        else:
            messages.success(request, _("Linked; the series' tables count them once."))
            return redirect("series_links", series=series.slug)
    status = 400 if request.method == "POST" else 200
    context = _series_context(request, series, form=form, links=selectors.series_links(series))
    return render(request, "seasons/series_links.html", context, status=status)


@login_required
@require_POST
def series_link_remove(request: HttpRequest, series: str, pk: int) -> HttpResponse:
    series = _hosted(request, series)
    link = SeriesLink.objects.filter(series=series, pk=pk).select_related("player", "same_as")
    link = link.first()
    if link is None:
        messages.info(request, _("That link is already removed."))
    else:
        series_unlink(link=link, by=request.user)
        messages.success(
            request,
            _("%(player)s and %(same_as)s are apart again.")
            % {"player": link.player.name, "same_as": link.same_as.name},
        )
    return redirect("series_links", series=series.slug)


@login_required
@require_http_methods(["GET", "POST"])
def series_qualify(request: HttpRequest, series: str, pk: int) -> HttpResponse:
    series = _hosted(request, series)
    season = selectors.series_season_get(series=series, pk=pk)
    return pages.qualify_page(
        request, season, context=_series_context(request, series), back=season.get_absolute_url()
    )


def _series_type_form(request: HttpRequest, series: Series, season: Season, event_type):
    return pages.event_type_page(
        request,
        season,
        event_type,
        context=_series_context(request, series),
        template="seasons/series_type_form.html",
        saved=_("Saved; the series' table is re-scored."),
        then=lambda season: redirect("series_season", series=series.slug, pk=season.pk),
    )


@login_required
@require_http_methods(["GET", "POST"])
def series_type_new(request: HttpRequest, series: str, pk: int) -> HttpResponse:
    series = _hosted(request, series)
    season = selectors.series_season_get(series=series, pk=pk)
    return _series_type_form(request, series, season, None)


@login_required
@require_http_methods(["GET", "POST"])
def series_type_edit(request: HttpRequest, series: str, pk: int, type_id: int) -> HttpResponse:
    series = _hosted(request, series)
    season = selectors.series_season_get(series=series, pk=pk)
    return _series_type_form(request, series, season, pages.event_type_of(season, type_id))
