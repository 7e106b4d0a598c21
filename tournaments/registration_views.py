"""Registration pages: the TO's registration and check-in page, the player's register,
unregister and check-in buttons, and the check-in page a per-registration link opens.

A player acts as the store's player linked to their account (`Player.user`); the check-in
link (`Registration.token`) works without an account. Every write goes through
tournaments.services.registration, which locks the event: a double tap is told it was done,
and nothing is written on a refusal.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from core.errors_http import error_message
from leagues import services as league_services

from . import selectors, services
from .forms import DeckSettingsForm, RegistrationSettingsForm
from .models import Registration, Tournament
from .pages import event_context, run_get
from .selectors import registration as reg_selectors
from .views import _refused


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
    context = event_context(
        request,
        event,
        "registration",
        form=form,
        seats=reg_selectors.seats_get(event),
        qr=reg_selectors.qr_svg(reg_selectors.check_in_url(request, event)),
        check_in_link=reg_selectors.check_in_url(request, event),
        started=event.rounds.exists(),
        deck_form=DeckSettingsForm(
            initial={"deadline": event.deck_deadline, "visibility": event.deck_visibility}
        ),
        entries=event.entries.select_related("player").order_by("player__name"),
        **reg_selectors.registrations_for_to(event),
    )
    return render(request, "tournaments/event_registration.html", context, status=status)


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
    except services.AlreadyDone as error:
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
        lambda: services.registration_settings_set(
            tournament=event,
            open=data["open"],
            cap=data["cap"],
            deadline=data["deadline"],
            note=data["note"],
            by=request.user,
        ),
        "Registration settings saved.",
    )


@login_required
@require_POST
def check_in_open(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    return _do(
        request,
        event,
        lambda: services.check_in_open(tournament=event, by=request.user),
        "Check-in is open: players scan the code or use their link.",
    )


def _closed_message(closed: services.CheckInClosed) -> str:
    gone = ", ".join(r.player.name for r in closed.no_shows) or "nobody"
    seated = ", ".join(r.player.name for r in closed.promoted) or "nobody"
    return (
        f"Check-in closed. Removed (did not check in): {gone}. Seated from the waitlist: {seated}."
    )


@login_required
@require_POST
def check_in_close(request: HttpRequest, slug: str) -> HttpResponse:
    """Close check-in, from the Registration page or (`back=run`) the console, which it
    goes back to."""
    event = run_get(request, slug)
    if request.POST.get("back") == "run":
        try:
            closed = services.check_in_close(tournament=event, by=request.user)
        except DomainError as error:
            return _refused(request, event, error)
        messages.success(request, _closed_message(closed))
        return redirect("event_run", slug=event.slug)
    return _do(
        request,
        event,
        lambda: services.check_in_close(tournament=event, by=request.user),
        _closed_message,
    )


@login_required
@require_POST
def registration_paid(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    event = run_get(request, slug)
    registration = Registration.objects.filter(pk=registration_id, tournament=event).first()
    if registration is None:
        raise Http404("No such registration in this event.")
    paid = request.POST.get("paid") == "1"
    return _do(
        request,
        event,
        lambda: services.registration_paid_set(
            registration=registration, paid=paid, by=request.user
        ),
        f"{registration.player} marked {'paid' if paid else 'not paid'}.",
    )


# -- the player's side --


NOT_LINKED = "Your account is not linked to a player of this store: ask the store to link it."


def _own(request, slug: str) -> tuple[Tournament, object]:
    event = selectors.event_get(slug=slug, user=request.user)
    player = reg_selectors.own_player(request.user, event)
    if player is None:
        raise PermissionDenied(NOT_LINKED)
    return event, player


def _player_do(request, event: Tournament, action, done) -> HttpResponse:
    try:
        result = action()
    except services.AlreadyDone as error:
        messages.info(request, error_message(error))
    except DomainError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, done(result) if callable(done) else done)
    return redirect("event_detail", slug=event.slug)


def _joined(event: Tournament, registration: Registration) -> str:
    if registration.status == "seated":
        return f"You are registered for {event.name}."
    position = reg_selectors.waitlist_position(registration)
    return f"The event is full: you are number {position} on the waitlist."


@login_required
@require_POST
def event_join(request: HttpRequest, slug: str) -> HttpResponse:
    """Register the account's player; someone new to the store types the name they play
    under, and becomes the store's player and registers in one step (or neither)."""
    event = selectors.event_get(slug=slug, user=request.user)
    player = reg_selectors.own_player(request.user, event)
    name = request.POST.get("name", "")
    if player is None and name.strip():
        look_alike_confirmed = request.POST.get("not_a_look_alike") == "1"
        return _join_as_new_player(request, event, name, look_alike_confirmed)
    if player is None:
        raise PermissionDenied(NOT_LINKED)
    return _player_do(
        request,
        event,
        lambda: services.registration_join(tournament=event, player=player, by=request.user),
        lambda registration: _joined(event, registration),
    )


def _join_as_new_player(
    request, event: Tournament, name: str, look_alike_confirmed: bool
) -> HttpResponse:
    organization = event.league.organization

    def join():
        with transaction.atomic():  # a refused registration makes no player either
            player = league_services.player_join(
                user=request.user,
                organization=organization,
                name=name,
                look_alike_confirmed=look_alike_confirmed,
            )
            return services.registration_join(tournament=event, player=player, by=request.user)

    def said(registration: Registration) -> str:
        welcome = f"Welcome to {organization}, {registration.player.name}. "
        return welcome + _joined(event, registration)

    return _player_do(request, event, join, said)


@login_required
@require_POST
def event_leave(request: HttpRequest, slug: str) -> HttpResponse:
    event, player = _own(request, slug)
    registration = reg_selectors.own_registration(player, event)
    if registration is None:
        messages.info(request, "You were not registered.")
        return redirect("event_detail", slug=event.slug)
    waitlisted = registration.status == "waitlisted"

    def said(promoted: Registration | None) -> str:
        if waitlisted:
            return f"You left the waitlist of {event.name}."
        if promoted is not None:
            return "You are unregistered; your seat went to the first player on the waitlist."
        return "You are unregistered; your seat is free for the next player to register."

    return _player_do(
        request,
        event,
        lambda: services.registration_leave(registration=registration, by=request.user),
        said,
    )


def _check_in_page(request, event: Tournament, registration: Registration | None, *, link: bool):
    if request.method == "POST":
        if registration is None:
            messages.error(
                request, "Log in, or open the check-in link you got when you registered."
            )
        else:
            try:
                services.check_in(registration=registration, by=request.user)
            except services.AlreadyDone as error:
                messages.info(request, error_message(error))
            except DomainError as error:
                messages.error(request, error_message(error))
            else:
                messages.success(request, f"{registration.player}, you are checked in.")
        return redirect(request.path)
    if registration is not None:
        registration.refresh_from_db()
    context = event_context(
        request,
        event,
        "pairings",
        registration=registration,
        by_link=link,
        position=reg_selectors.waitlist_position(registration) if registration else None,
    )
    return render(request, "tournaments/event_check_in.html", context)


@require_http_methods(["GET", "POST"])
def event_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """What the QR code opens: a signed-in player's check-in, or how to check in."""
    event = selectors.event_get(slug=slug, user=request.user)
    player = reg_selectors.own_player(request.user, event)
    registration = reg_selectors.own_registration(player, event)
    if registration is not None and registration.status not in ("seated", "waitlisted"):
        registration = None
    return _check_in_page(request, event, registration, link=False)


@require_http_methods(["GET", "POST"])
def registration_check_in(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The per-registration link: checks in without an account; only its holder knows it."""
    event = selectors.event_get(slug=slug, user=request.user)
    registration = (
        Registration.objects.filter(tournament=event, token=token).select_related("player").first()
    )
    if registration is None:
        raise Http404("This check-in link is not valid for this event.")
    return _check_in_page(request, event, registration, link=True)
