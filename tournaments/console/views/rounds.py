"""The TO's rounds from the console: pair, end, advance, the clock and judges' extensions, a
past round's corrections, the pairing edits, and the start of the top cut."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError

from ... import selectors
from ...errors import DecklistsMissing, TournamentError, note_text
from ...formats import EDIT_DONE, RESULTS, small_int
from ...forms import ExtensionForm
from ...models import Round, Tournament
from ...pages import event_context, run_get
from ...selectors import console as console_selectors
from ...services import rounds as rounds_services
from ...services import topcut as topcut_services
from ...services.clock import round_clock_set, table_extension_set
from ...services.rounds import round_pair
from .board import act, console_again, console_urls, refused, round_cards


def _decklists_choice(request: HttpRequest, event: Tournament):
    """What the TO chose on the decklists confirm step: (None, None) before it; ("wait",
    response) to let the players fix their lists first (nothing is paired: back to Players &
    decks); ("go_on", the entry ids the page showed) to pair past them."""
    choice = request.POST.get("decklists", "")
    if choice == "wait":
        messages.info(
            request,
            _("Pairing waits: fix the lists below (or the players do), then pair again."),
        )
        url = reverse("event_registration", kwargs={"slug": event.slug}) + "#without-legal-list"
        return choice, redirect(url)
    if choice == "go_on":
        ids = [int(v) for v in request.POST.getlist("accepted") if v.isdigit() and len(v) < 12]
        return choice, ids
    return None, None


def _decklists_confirm(
    request: HttpRequest, event: Tournament, error: DecklistsMissing, *, action: str, **hidden
) -> HttpResponse:
    """The confirm step before round 1 or the top cut of an event that requires a legal list:
    who has none and why, and the TO's two choices (IPG 3.4, Decklist Problem)."""
    context = event_context(
        request,
        event,
        "run",
        rows=error.rows,
        top_cut=error.top_cut,
        action=action,
        hidden=sorted(hidden.items()),
        registration_url=reverse("event_registration", kwargs={"slug": event.slug}),
    )
    return render(request, "tournaments/console/decklists_confirm.html", context)


@login_required
@require_POST
def event_pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    choice, given = _decklists_choice(request, event)
    if choice == "wait":
        return given
    number = small_int(request.POST.get("number", ""))
    try:
        round_ = round_pair(
            tournament=event, by=request.user, number=number, decklists_accepted=given
        )
    except DecklistsMissing as error:
        return _decklists_confirm(
            request,
            event,
            error,
            action=reverse("event_pair", kwargs={"slug": event.slug}),
            number="" if number is None else number,
        )
    except DomainError as error:
        return refused(request, event, error)
    tables = _tables(event, round_.tables.count())
    # What the pairing had to allow (round_.notes) is not flashed: the console shows it
    # beside the round for as long as the round is played.
    messages.success(
        request,
        _("Round %(round)s is paired: %(tables)s.") % {"round": round_.number, "tables": tables},
    )
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def event_swiss_finish(request: HttpRequest, slug: str) -> HttpResponse:
    """The console's "Finish after round N" (`services.swiss_finish`)."""
    event = run_get(request, slug)
    after = small_int(request.POST.get("after", ""))
    try:
        event = rounds_services.swiss_finish(tournament=event, after=after, by=request.user)
    except DomainError as error:
        return refused(request, event, error)
    if event.status == Tournament.Status.FINISHED:
        # The console says the event is finished (`round-status`): the flash says how.
        said = _("The Swiss rounds ended after round %(after)s.") % {"after": after}
    else:
        said = _("The Swiss rounds end after round %(after)s: start the top %(cut)s.") % {
            "after": after,
            "cut": event.top_cut,
        }
    messages.success(request, said)
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def round_end(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    return act(
        request,
        event,
        lambda: rounds_services.round_end(round_=round_, by=request.user),
        _("%(round)s is complete.") % {"round": round_.label},
    )


@login_required
@require_POST
def round_advance(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The console's one tap once every table has a result: round `number` ends and what
    follows is paired (`services.round_advance`). A second tap is told so and sees the new
    round; a refusal leaves the round open with the reason."""
    event = run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    choice, given = _decklists_choice(request, event)
    if choice == "wait":
        return given
    try:
        shown = rounds_services.round_advance(
            round_=round_, by=request.user, decklists_accepted=given
        )
    except DecklistsMissing as error:
        return _decklists_confirm(
            request,
            event,
            error,
            action=reverse("round_advance", kwargs={"slug": event.slug, "number": number}),
        )
    except DomainError as error:
        return refused(request, event, error)
    ended = round_.label
    if shown.pk == round_.pk:
        # Nothing follows: the console itself now says the event is finished (`round-status`).
        done = _("%(round)s is complete.") % {"round": ended}
    else:
        done = _("%(round)s is complete. %(next)s is paired: %(tables)s.") % {
            "round": ended,
            "next": shown.label,
            "tables": _tables(event, shown.tables.count()),
        }
    messages.success(request, done)
    return redirect("event_run", slug=event.slug)


def _tables(event: Tournament, count: int) -> str:
    """ "12 tables", "1 pod": each format's own words with their plural forms (a noun put
    after "%(count)s" had one plural where Polish has three)."""
    if event.play.key == "pods":
        text = ngettext("%(count)s pod", "%(count)s pods", count)
    else:
        text = ngettext("%(count)s table", "%(count)s tables", count)
    return text % {"count": count}


@login_required
@require_POST
def round_clock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round's clock from the console: `action=start` starts it again now, else
    `minutes` (+5 or -5) moves it; `expected` is the clock the console showed (a double tap
    changes nothing twice)."""
    event = run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    start = request.POST.get("action") == "start"
    try:
        minutes = 0 if start else int(request.POST.get("minutes", ""))
        expected = int(request.POST.get("expected") or 0)
    except ValueError:
        error = TournamentError(_("Give or take a whole number of minutes."), code="clock_minutes")
        return refused(request, event, error)
    try:
        round_ = round_clock_set(
            round_=round_, start=start, minutes=minutes, expected=expected, by=request.user
        )
    except DomainError as error:
        return refused(request, event, error)
    ends = timezone.localtime(round_.ends_at)
    messages.success(request, _("Time is up at %(time)s.") % {"time": f"{ends:%H:%M}"})
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def round_extension(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A judge's time extension from the console: `table` (its number in the round) plays
    `minutes` (the total, 0 takes it away) past the round's clock. A refusal shows the
    console with the form open, as the judge filled it, and the reason on its field."""
    event = run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    form = ExtensionForm(request.POST, noun=event.play.noun)
    if not form.is_valid():
        return console_again(request, event, extension_form=form)
    table, minutes = form.cleaned_data["table"], form.cleaned_data["minutes"]
    try:
        table_extension_set(round_=round_, number=table, minutes=minutes, by=request.user)
    except DomainError as error:
        return refused(request, event, error, form=form, form_name="extension_form")
    values = {"table": table, "minutes": minutes}
    # A pod's sentence and a table's, whole (the noun's gender differs by language).
    pods = event.play.key == "pods"
    if minutes and pods:
        said = ngettext(
            "Pod %(table)s now has %(minutes)s extra minute.",
            "Pod %(table)s now has %(minutes)s extra minutes.",
            minutes,
        )
    elif minutes:
        said = ngettext(
            "Table %(table)s now has %(minutes)s extra minute.",
            "Table %(table)s now has %(minutes)s extra minutes.",
            minutes,
        )
    elif pods:
        said = _("Pod %(table)s now has no time extension.")
    else:
        said = _("Table %(table)s now has no time extension.")
    messages.success(request, said % values)
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def top_cut_start(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    choice, given = _decklists_choice(request, event)
    if choice == "wait":
        return given
    try:
        topcut_services.top_cut_start(tournament=event, by=request.user, decklists_accepted=given)
    except DecklistsMissing as error:
        action = reverse("top_cut_start", kwargs={"slug": event.slug})
        return _decklists_confirm(request, event, error, action=action)
    except DomainError as error:
        return refused(request, event, error)
    messages.success(request, _("The top %(cut)s is paired.") % {"cut": event.top_cut})
    return redirect("event_run", slug=event.slug)


@login_required
def round_run(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A TO's view of any round, to correct a result; standings and ratings follow."""
    event = run_get(request, slug)
    round_ = console_selectors.console_round(event, number)
    if round_ is None:
        raise Http404(_("No such round."))
    context = event_context(
        request,
        event,
        "run",
        round=round_,
        results=RESULTS,
        **round_cards(event, round_),
        **console_urls(event),
    )
    return render(request, "tournaments/console/round_run.html", context)


def _edit_form(request, event: Tournament, round_: Round) -> HttpResponse:
    """The pairing edit form, fetched when the TO opens "Change the pairings" (htmx: the form
    alone; without JavaScript the link opens it as a page). It sends back the seating the
    console showed (`?seating=`), or, opened on its own, the seating stored now."""
    context = {
        "round": round_,
        "editable": round_.status == Round.Status.PLAYING and round_.kind == Round.Kind.SWISS,
        "choices": console_selectors.edit_choices(event),
        "pairing_edits": event.play.edits,
        "seating": request.GET.get("seating", "")[:128] or selectors.round_seating_key(round_),
    }
    template = "tournaments/console/console_edit.html"
    if request.htmx:
        return render(request, f"{template}#edit-form", {"event": event, **context})
    return render(request, template, event_context(request, event, "run", **context))


@login_required
@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Swap two players, pair two players by hand, or give a player the bye (POST); GET gives
    the form."""
    event = run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    if request.method == "GET":
        return _edit_form(request, event, round_)
    edit = request.POST.get("edit", "")
    picked = [request.POST.get("a", ""), request.POST.get("b", "")]
    entries = {
        str(e.pk): e
        for e in event.entries.select_related("player").filter(
            pk__in=[p for p in picked if small_int(p) is not None]
        )
    }
    # One form offers every edit: the bye's player is `a`, and the other select is not read.
    a, b = entries.get(picked[0]), None if edit == "bye" else entries.get(picked[1])
    if a is None or (edit != "bye" and b is None):
        return refused(request, event, TournamentError(_("Choose the players."), code="pick"))
    try:
        warnings = rounds_services.round_edit(
            round_=round_,
            edit=edit,
            a=a,
            b=b,
            by=request.user,
            expected=request.POST.get("seating") or None,
        )
    except DomainError as error:
        return refused(request, event, error)
    messages.success(request, EDIT_DONE[edit] % {"a": a.player, "b": b.player if b else ""})
    for warning in warnings:
        messages.warning(request, note_text(warning))
    return redirect("event_run", slug=event.slug)
