"""The TO's Registration page: its settings, seats and waitlist, check-in (open, close), the
paid marks, the deck settings and the decks named before card data that match no cards. The
players' own side (join, leave, check in, their deck) is the registration room's.

Every write goes through tournaments.services.registration, which locks the event: a double
tap is told it was done, and nothing is written on a refusal.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from core.errors import DomainError
from core.errors_http import error_message
from core.search import folded_order

from ...errors import AlreadyDone
from ...forms import DeckSettingsForm, RegistrationSettingsForm
from ...models import Registration, Tournament
from ...pages import event_context, run_get
from ...selectors import decks as deck_selectors
from ...selectors import registration as reg_selectors
from ...services import registration as registration_services
from ...services.decks import deck_settings_set
from ...services.registration import CheckInClosed, registration_paid_set, registration_settings_set
from ..tables import PER_PAGE, RegistrationTable
from .board import refused


def _to_page(request, event: Tournament, form=None, status: int = 200) -> HttpResponse:
    if form is None:
        form = RegistrationSettingsForm(
            initial={
                "open": event.registration_open,
                "cap": event.registration_cap,
                "deadline": event.registration_deadline,
                "note": event.registration_note,
            }
        )
    seated_table = RegistrationTable(reg_selectors.seated_list(event))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(seated_table)
    started = event.rounds.exists()
    # The check-in code until round 1 (the TO may print it ahead); then check-in is over.
    check_in_code = not started and event.check_in != Tournament.CheckIn.CLOSED
    context = event_context(
        request,
        event,
        "registration",
        form=form,
        seats=reg_selectors.seats_get(event),
        qr=reg_selectors.qr_svg(reg_selectors.check_in_url(request, event))
        if check_in_code
        else None,
        check_in_link=reg_selectors.check_in_url(request, event),
        started=started,
        deck_form=DeckSettingsForm(
            initial={
                "deadline": event.deck_deadline,
                "visibility": event.deck_visibility,
                "decklist_format": event.decklist_format,
                "decklist_required": event.decklist_required,
            }
        ),
        entries=event.entries.select_related("player").order_by(*folded_order("player__name")),
        without_legal_list=deck_selectors.entries_without_legal_list(event),
        not_matched=deck_selectors.decks_not_matched(event),
        seated_table=seated_table,
        **reg_selectors.registrations_for_to(event),
    )
    return render(request, "tournaments/console/event_registration.html", context, status=status)


@login_required
def event_registration(request: HttpRequest, slug: str) -> HttpResponse:
    """The TO's page: settings, seats and waitlist, check-in, the paid marks."""
    return _to_page(request, run_get(request, slug))


def _back_to_to_page(event: Tournament):
    return redirect("event_registration", slug=event.slug)


def _do(request, event: Tournament, action, done) -> HttpResponse:
    """Run a TO action; a refusal (or a repeated tap) is a message, nothing written."""
    try:
        result = action()
    except AlreadyDone as error:
        messages.info(request, error_message(error))
        return _back_to_to_page(event)
    except DomainError as error:
        messages.error(request, error_message(error))
        return _to_page(request, event, status=getattr(error, "status", 400))
    messages.success(request, done(result) if callable(done) else done)
    return _back_to_to_page(event)


@login_required
@require_POST
def registration_settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    form = RegistrationSettingsForm(request.POST)
    if not form.is_valid():
        return _to_page(request, event, form=form, status=400)
    data = form.cleaned_data
    return _do(
        request,
        event,
        lambda: registration_settings_set(
            tournament=event,
            open=data["open"],
            cap=data["cap"],
            deadline=data["deadline"],
            note=data["note"],
            by=request.user,
        ),
        _("Registration settings saved."),
    )


@login_required
@require_POST
def check_in_open(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    return _do(
        request,
        event,
        lambda: registration_services.check_in_open(tournament=event, by=request.user),
        _("Check-in is open: players scan the code or use their link."),
    )


def _closed_message(closed: CheckInClosed) -> str:
    nobody = _("nobody")
    gone = ", ".join(r.player.name for r in closed.no_shows) or nobody
    seated = ", ".join(r.player.name for r in closed.promoted) or nobody
    return _(
        "Check-in closed. Removed (did not check in): %(gone)s. Seated from the waitlist: "
        "%(seated)s."
    ) % {"gone": gone, "seated": seated}


@login_required
@require_POST
def check_in_close(request: HttpRequest, slug: str) -> HttpResponse:
    """Close check-in, from the Registration page or (`back=run`) the console, which it
    goes back to."""
    event = run_get(request, slug)
    if request.POST.get("back") == "run":
        try:
            closed = registration_services.check_in_close(tournament=event, by=request.user)
        except DomainError as error:
            return refused(request, event, error)
        messages.success(request, _closed_message(closed))
        return redirect("event_run", slug=event.slug)
    return _do(
        request,
        event,
        lambda: registration_services.check_in_close(tournament=event, by=request.user),
        _closed_message,
    )


@login_required
@require_POST
def registration_paid(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    event = run_get(request, slug)
    registration = Registration.objects.filter(pk=registration_id, tournament=event).first()
    if registration is None:
        raise Http404(_("No such registration in this event."))
    paid = request.POST.get("paid") == "1"
    return _do(
        request,
        event,
        lambda: registration_paid_set(registration=registration, paid=paid, by=request.user),
        (_("%(player)s marked paid.") if paid else _("%(player)s marked not paid."))
        % {"player": registration.player},
    )


@login_required
@require_POST
def deck_settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    form = DeckSettingsForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            messages.error(
                request,
                _("%(field)s: %(errors)s")
                % {
                    "field": form.fields[field].label if field in form.fields else "",
                    "errors": " ".join(errors),
                },
            )
        return redirect("event_registration", slug=event.slug)
    try:
        deck_settings_set(tournament=event, by=request.user, **form.cleaned_data)
    except DomainError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, _("Deck settings saved."))
    return redirect("event_registration", slug=event.slug)
