"""The TO's players from the console: register (with the name suggestions), and each entry's
actions: a requested bye, drop, undrop, remove."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError

from ...errors import AlreadyDone, TournamentError
from ...formats import small_int
from ...forms import RegisterForm
from ...models import Entry, Tournament
from ...pages import event_context, run_get
from ...selectors import console as console_selectors
from ...services import entries as entries_services
from ...services.entries import entry_register, requested_bye_add, requested_bye_remove
from .board import act, console_again, console_urls, refused


@login_required
@require_POST
def event_register(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        return console_again(request, event, register_form=form)
    try:
        entry = entry_register(
            tournament=event,
            name=form.cleaned_data["name"],
            by=request.user,
            create_player=form.cleaned_data["new_player"],
            look_alike_confirmed=form.cleaned_data["look_alike_ok"],
        )
    except DomainError as error:
        return refused(request, event, error, form=form)
    if entry.joined_round > 1:
        said = _("Registered %(player)s (from round %(round)s).") % {
            "player": entry.player,
            "round": entry.joined_round,
        }
    else:
        said = _("Registered %(player)s.") % {"player": entry.player}
    messages.success(request, said)
    return redirect("event_run", slug=event.slug)


@login_required
@require_http_methods(["GET"])
def entry_actions(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """A player's console actions (half-point bye, drop, remove), fetched when the TO opens
    them (htmx: the forms alone; without JavaScript the link opens them as a page): drawn
    for every player on every console load they were half of a 512-player console."""
    event = run_get(request, slug)
    latest = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    lines = console_selectors.entry_lines(event, after_round=latest, entry_id=entry_id)
    if not lines:
        raise Http404(_("No such player in this event."))
    context = {
        "entry": lines[0],
        "status": event.status,
        "next_round": latest + 1,
        # A half-point bye is for a Swiss round still to pair: none once the last is paired.
        "last_swiss": event.swiss_rounds,
        "bye_open": not event.swiss_rounds or latest < event.swiss_rounds,
        **console_urls(event),
    }
    template = "tournaments/console/console_entry.html"
    if request.htmx:
        return render(request, f"{template}#entry-actions", {"event": event, **context})
    return render(request, template, event_context(request, event, "run", **context))


@login_required
@require_POST
def entry_drop(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = run_get(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=event, pk=entry_id)
    return act(
        request,
        event,
        lambda: entries_services.entry_drop(entry=entry, by=request.user),
        _("%(player)s has dropped; they keep their results.") % {"player": entry.player},
    )


def _entry_get(event: Tournament, entry_id: int) -> Entry | None:
    return Entry.objects.select_related("player").filter(tournament=event, pk=entry_id).first()


@login_required
@require_POST
def entry_undrop(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Undo a drop from the console: the player is paired again from the next round."""
    event = run_get(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=event, pk=entry_id)
    return act(
        request,
        event,
        lambda: entries_services.entry_undrop(entry=entry, by=request.user),
        _("%(player)s is back in: they are paired from the next round.") % {"player": entry.player},
    )


@login_required
@require_POST
def entry_bye(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """A requested ("half-point") bye for a round still to pair: `round` and `action` (add,
    or remove to take it back). A repeat finds it done (AlreadyDone) and changes nothing."""
    event = run_get(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=event, pk=entry_id)
    number = small_int(request.POST.get("round", ""))
    if number is None or number < 1:
        return refused(
            request,
            event,
            TournamentError(
                _("Give the round the player sits out, as a number."), code="round", field="round"
            ),
        )
    if request.POST.get("action") == "remove":
        return act(
            request,
            event,
            lambda: requested_bye_remove(entry=entry, round_number=number, by=request.user),
            _("%(player)s plays round %(round)s after all.")
            % {"player": entry.player, "round": number},
        )
    return act(
        request,
        event,
        lambda: requested_bye_add(entry=entry, round_number=number, by=request.user),
        _("%(player)s sits out round %(round)s with a half-point bye.")
        % {"player": entry.player, "round": number},
    )


@login_required
@require_POST
def entry_remove(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Take back a registration made by mistake (never seated); a repeat finds it gone."""
    event = run_get(request, slug)
    entry = _entry_get(event, entry_id)
    if entry is None:
        return refused(
            request, event, AlreadyDone(_("That entry is no longer registered."), code="gone")
        )
    try:
        promoted = entries_services.entry_remove(entry=entry, by=request.user)
    except DomainError as error:
        return refused(request, event, error)
    said = _("%(player)s is no longer registered for %(event)s.") % {
        "player": entry.player,
        "event": event.name,
    }
    if promoted:
        said += " " + _("%(player)s moved up from the waitlist.") % {"player": promoted.player}
    messages.success(request, said)
    return redirect("event_run", slug=event.slug)


@login_required
def event_player_names(request: HttpRequest, slug: str) -> HttpResponse:
    """The register field's suggestions as the TO types (`?name=`): a `<datalist>` of up to
    20 of the store's players not registered yet, fetched by htmx instead of every name of the
    store riding along with each console load."""
    event = run_get(request, slug)
    names = console_selectors.name_suggestions(event, request.GET.get("name", "")[:100])
    return render(
        request, "tournaments/console/console_edit.html#player-names", {"player_names": names}
    )
