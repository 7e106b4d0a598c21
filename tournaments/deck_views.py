"""Deck pages: a player names their deck (and may add the list), whoever runs the event sets
any entry's deck and the event's deck settings, and a league's decks and seats page.

Every write goes through tournaments.services.decks; a refusal is shown on the form's field
and changes nothing; a second tap with the same deck says it was already that.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from core.errors_http import error_message

from . import selectors, services
from .forms import DeckForm, DeckSettingsForm
from .models import Entry, Tournament
from .pages import event_context, run_get
from .selectors import decks as deck_selectors
from .selectors import registration as reg_selectors


def _deck_page(request, event: Tournament, entry: Entry, *, as_organizer: bool, back: str):
    form = DeckForm(
        request.POST or None,
        initial={"name": entry.deck_name, "url": entry.decklist_url, "text": entry.decklist_text},
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.entry_deck_set(
                    entry=entry,
                    by=request.user,
                    as_organizer=as_organizer,
                    **form.cleaned_data,
                )
            except services.AlreadyDone as error:
                messages.info(request, error_message(error))
                return redirect(back)
            except DomainError as error:
                field = getattr(error, "field", None)
                form.add_error(field if field in form.fields else None, error_message(error))
                status = 400
            else:
                messages.success(request, f"Saved: {entry.player}'s deck.")
                return redirect(back)
        else:
            status = 400
    context = event_context(
        request,
        event,
        "registration" if as_organizer else "pairings",
        form=form,
        entry=entry,
        suggestions=deck_selectors.deck_suggestions(event.league.organization_id, request.user),
        public=deck_selectors.decks_public(event),
        as_organizer=as_organizer,
    )
    return render(request, "tournaments/entry_deck.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def my_deck(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in player's own deck for the event."""
    event = selectors.event_get(slug=slug, user=request.user)
    player = reg_selectors.own_player(request.user, event)
    entry = event.entries.filter(player=player).select_related("player").first() if player else None
    if entry is None:
        raise PermissionDenied("You are not in this event: register first.")
    return _deck_page(request, event, entry, as_organizer=False, back=request.path)


@login_required
@require_http_methods(["GET", "POST"])
def entry_deck(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Whoever runs the event sets any entry's deck, at any time."""
    event = run_get(request, slug)
    entry = event.entries.filter(pk=entry_id).select_related("player").first()
    if entry is None:
        raise Http404("No such entry in this event.")
    return _deck_page(request, event, entry, as_organizer=True, back=request.path)


@login_required
@require_POST
def deck_settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    form = DeckSettingsForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            messages.error(
                request,
                f"{form.fields[field].label if field in form.fields else ''}: {' '.join(errors)}",
            )
        return redirect("event_registration", slug=event.slug)
    try:
        services.deck_settings_set(tournament=event, by=request.user, **form.cleaned_data)
    except DomainError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, "Deck settings saved.")
    return redirect("event_registration", slug=event.slug)
