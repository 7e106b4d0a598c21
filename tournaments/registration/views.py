"""The players' side of registration: register (a newcomer becomes the store's player in the
same step), unregister, check in (signed in, or through the per-registration link without
an account), and a player's deck, which they name themselves (`my_deck`) or whoever runs
the event sets for them (`entry_deck`, the same page and form, reached from the console).

A player acts as the store's player linked to their account (`Player.user`); the check-in
link (`Registration.token`) works without an account. Every write goes through
tournaments.services (registration, decks), which locks the event: a double tap is told it
was done, a refusal is shown on the form's field or as a message, and nothing is written.
The TO's Registration page is the console's (console/views/registration.py).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from cards.selectors import cards_loaded
from core.errors import DomainError
from core.errors_http import error_message
from leagues import services as league_services

from .. import selectors
from ..domain import decknames
from ..errors import AlreadyDone
from ..forms import CommanderDeckForm, DeckForm
from ..models import Entry, Registration, Tournament
from ..pages import event_context, run_get
from ..selectors import decks as deck_selectors
from ..selectors import registration as reg_selectors
from ..services.decks import entry_deck_set
from ..services.registration import check_in, registration_join, registration_leave

NOT_LINKED = gettext_lazy(
    "Your account is not linked to a player of this store: ask the store to link it."
)


def _own(request, slug: str) -> tuple[Tournament, object]:
    event = selectors.event_get(slug=slug, user=request.user)
    player = reg_selectors.own_player(request.user, event)
    if player is None:
        raise PermissionDenied(str(NOT_LINKED))
    return event, player


def _player_do(request, event: Tournament, action, done) -> HttpResponse:
    try:
        result = action()
    except AlreadyDone as error:
        messages.info(request, error_message(error))
    except DomainError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, done(result) if callable(done) else done)
    return redirect("event_detail", slug=event.slug)


def _joined(event: Tournament, registration: Registration) -> str:
    if registration.status == "seated":
        return _("You are registered for %(event)s.") % {"event": event.name}
    position = reg_selectors.waitlist_position(registration)
    return _("The event is full: you are number %(position)s on the waitlist.") % {
        "position": position
    }


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
        raise PermissionDenied(str(NOT_LINKED))
    return _player_do(
        request,
        event,
        lambda: registration_join(tournament=event, player=player, by=request.user),
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
            return registration_join(tournament=event, player=player, by=request.user)

    def said(registration: Registration) -> str:
        welcome = _("Welcome to %(store)s, %(name)s.") % {
            "store": organization,
            "name": registration.player.name,
        }
        return f"{welcome} {_joined(event, registration)}"

    return _player_do(request, event, join, said)


@login_required
@require_POST
def event_leave(request: HttpRequest, slug: str) -> HttpResponse:
    event, player = _own(request, slug)
    registration = reg_selectors.own_registration(player, event)
    if registration is None:
        messages.info(request, _("You were not registered."))
        return redirect("event_detail", slug=event.slug)
    waitlisted = registration.status == "waitlisted"

    def said(promoted: Registration | None) -> str:
        if waitlisted:
            return _("You left the waitlist of %(event)s.") % {"event": event.name}
        if promoted is not None:
            return _("You are unregistered; your seat went to the first player on the waitlist.")
        return _("You are unregistered; your seat is free for the next player to register.")

    return _player_do(
        request,
        event,
        lambda: registration_leave(registration=registration, by=request.user),
        said,
    )


def _check_in_page(request, event: Tournament, registration: Registration | None, *, link: bool):
    if request.method == "POST":
        if registration is None:
            messages.error(
                request, _("Log in, or open the check-in link you got when you registered.")
            )
        else:
            try:
                check_in(registration=registration, by=request.user)
            except AlreadyDone as error:
                messages.info(request, error_message(error))
            except DomainError as error:
                messages.error(request, error_message(error))
            else:
                messages.success(
                    request, _("%(name)s, you are checked in.") % {"name": registration.player}
                )
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
        started=event.status != Tournament.Status.REGISTRATION or event.rounds.exists(),
    )
    return render(request, "tournaments/registration/event_check_in.html", context)


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
        raise Http404(_("This check-in link is not valid for this event."))
    return _check_in_page(request, event, registration, link=True)


def _deck_page(request, event: Tournament, entry: Entry, *, as_organizer: bool, back: str):
    # With card data, a Commander event's deck is its commanders, picked from the legal ones.
    picker = cards_loaded() and deck_selectors.is_commander_event(event)
    initial = {"name": entry.deck_name, "url": entry.decklist_url, "text": entry.decklist_text}
    if picker:
        names = [*decknames.partners(entry.deck_name), "", ""]
        initial.update(commander=names[0], partner=names[1])
    form = (CommanderDeckForm if picker else DeckForm)(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = {key: form.cleaned_data[key] for key in ("name", "url", "text")}
            try:
                entry_deck_set(entry=entry, by=request.user, as_organizer=as_organizer, **data)
            except AlreadyDone as error:
                messages.info(request, error_message(error))
                return redirect(back)
            except DomainError as error:
                field = getattr(error, "field", None)
                if picker and field == "name":
                    field = "commander"
                form.add_error(field if field in form.fields else None, error_message(error))
                status = 400
            else:
                messages.success(request, _("Saved: %(name)s's deck.") % {"name": entry.player})
                return redirect(back)
        else:
            status = 400
    context = event_context(
        request,
        event,
        "registration" if as_organizer else "pairings",
        form=form,
        entry=entry,
        picker=picker,
        suggestions=(
            []
            if picker
            else deck_selectors.deck_suggestions(event.league.organization_id, request.user)
        ),
        public=deck_selectors.decks_public(event),
        as_organizer=as_organizer,
        deck=deck_selectors.shown_deck(entry),
        commanders=deck_selectors.deck_commanders(entry),
    )
    return render(request, "tournaments/registration/entry_deck.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def my_deck(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in player's own deck for the event."""
    event = selectors.event_get(slug=slug, user=request.user)
    player = reg_selectors.own_player(request.user, event)
    entry = event.entries.filter(player=player).select_related("player").first() if player else None
    if entry is None:
        raise PermissionDenied(_("You are not in this event: register first."))
    return _deck_page(request, event, entry, as_organizer=False, back=request.path)


@login_required
@require_http_methods(["GET", "POST"])
def entry_deck(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Whoever runs the event sets any entry's deck, at any time."""
    event = run_get(request, slug)
    entry = event.entries.filter(pk=entry_id).select_related("player").first()
    if entry is None:
        raise Http404(_("No such entry in this event."))
    return _deck_page(request, event, entry, as_organizer=True, back=request.path)
