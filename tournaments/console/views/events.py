"""Making and describing events: a new event, the TO's "Time, place and fee" form, and "Copy
this event" (weekly repeats).

The listing form is the console's (whoever runs the event); creating and copying make new
events, so they are for the store's staff (`can_run_events_of`), not an event's own judge.
Every write goes through tournaments.services: a refusal comes back on the form's field,
nothing written; a repeated copy finds the copies it made.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.errors import DomainError
from core.errors_http import error_response
from leagues import selectors as league_selectors
from leagues.permissions import can_run_events_of
from leagues.views import league_context

from ... import selectors
from ...forms import EventForm
from ...forms_listing import CopyForm, ListingForm
from ...models import Tournament
from ...pages import event_context, run_get
from ...selectors import listing
from ...services.events import tournament_create
from ...services.series import tournament_copy_weekly, tournament_listing_set


@login_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = league_selectors.league_get(slug=slug, user=request.user)
    if not can_run_events_of(request.user, league.organization_id):
        raise PermissionDenied(_("Only the store's organizers and judges create events."))
    form = EventForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid():
        fields = dict(form.cleaned_data)
        chosen = fields.pop("league") or league  # the store's leagues only (the queryset)
        try:
            event = tournament_create(league=chosen, by=request.user, **fields)
        except DomainError as error:
            return error_response(
                request,
                error,
                template="tournaments/console/event_form.html",
                context=league_context(request, league, "events"),
                form=form,
            )
        else:
            messages.success(
                request, _("%(event)s is ready: register the players.") % {"event": event.name}
            )
            return redirect("event_run", slug=event.slug)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "tournaments/console/event_form.html",
        league_context(request, league, "events", form=form),
        status=status,
    )


def _listing_initial(event: Tournament) -> dict:
    return {
        "date": event.date,
        "start_time": event.start_time,
        "place": event.place,
        "entry_fee": event.entry_fee,
        "fee_currency": event.fee_currency or listing.store_currency(event.league.organization),
    }


@login_required
@require_http_methods(["GET", "POST"])
def event_listing(request: HttpRequest, slug: str) -> HttpResponse:
    """The TO's form for the event's date, start time, place and fee."""
    event = run_get(request, slug)
    initial = _listing_initial(event)
    form = ListingForm(request.POST or None, initial=initial)
    template = "tournaments/console/event_listing.html"
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament_listing_set(
                tournament=event,
                date=data["date"],
                start_time=data["start_time"],
                place=data["place"],
                entry_fee=data["entry_fee"],
                fee_currency=data["fee_currency"],
                confirm_date=data["confirm_date"],
                by=request.user,
            )
        except DomainError as error:
            return error_response(
                request,
                error,
                template=template,
                context=event_context(request, event, "run"),
                form=form,
            )
        messages.success(request, _("Saved: the event's time, place and fee."))
        return redirect("event_detail", slug=event.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, template, event_context(request, event, "run", form=form), status=status)


def _copy_get(request, slug: str) -> Tournament:
    event = selectors.event_get(slug=slug, user=request.user)
    if not can_run_events_of(request.user, event.league.organization_id):
        raise PermissionDenied(_("Only the store's organizers and judges make its events."))
    return event


@login_required
@require_http_methods(["GET", "POST"])
def event_copy(request: HttpRequest, slug: str) -> HttpResponse:
    """ "Copy this event": the same night on each of the next weeks, with no players yet."""
    event = _copy_get(request, slug)
    form = CopyForm(request.POST or None)
    template = "tournaments/console/event_copy.html"
    if request.method == "POST" and form.is_valid():
        try:
            copies = tournament_copy_weekly(
                tournament=event, weeks=form.cleaned_data["weeks"], by=request.user
            )
        except DomainError as error:
            return error_response(
                request,
                error,
                template=template,
                context=event_context(request, event, "copy"),
                form=form,
            )
        if copies.created:
            # "Fri 12 Dec", the day's and month's names in the active language.
            days = ", ".join(date_format(t.date, "GH_DAY_SHORT") for t in copies.created)
            messages.success(
                request,
                _("%(event)s is on %(days)s too, with no players yet.")
                % {"event": event.name, "days": days},
            )
        if copies.existing:
            days = ", ".join(date_format(t.date, "GH_DAY_SHORT") for t in copies.existing)
            messages.info(
                request, _("Already there, left as they were: %(days)s.") % {"days": days}
            )
        return redirect("event_list", slug=event.league.slug)
    status = 400 if request.method == "POST" else 200
    return render(
        request, template, event_context(request, event, "copy", form=form), status=status
    )
