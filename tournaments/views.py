"""Tournament pages: public pairings, standings and projector; the TO's console on a phone.

Every change goes through tournaments.services; the views turn its errors into messages
(and HTTP 409 for a stale result from htmx), and answer htmx requests with fragments.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_POST

from leagues import selectors as league_selectors
from leagues.permissions import can_run_events_of
from leagues.views import league_context

from . import selectors, services
from .formats import RESULTS, small_int
from .forms import EventForm, RegisterForm
from .models import Entry, Round, Seat, Table, Tournament


def _context(request, event: Tournament, nav: str, **extra) -> dict:
    return league_context(
        request,
        event.league,
        "events",
        event=event,
        event_nav=nav,
        can_run=selectors.can_run(request.user, event),
        **extra,
    )


def _run_get(request, slug: str) -> Tournament:
    event = selectors.event_get(slug=slug, user=request.user)
    if not selectors.can_run(request.user, event):
        raise PermissionDenied("Only the store's organizers and judges run its events.")
    return event


def event_list(request: HttpRequest, slug: str) -> HttpResponse:
    league = league_selectors.league_get(slug=slug, user=request.user)
    events = league.tournaments.order_by("-date", "name")
    context = league_context(
        request,
        league,
        "events",
        events=events,
        can_create=can_run_events_of(request.user, league.organization_id),
    )
    return render(request, "tournaments/event_list.html", context)


@login_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = league_selectors.league_get(slug=slug, user=request.user)
    if not can_run_events_of(request.user, league.organization_id):
        raise PermissionDenied("Only the store's organizers and judges create events.")
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.tournament_create(league=league, by=request.user, **form.cleaned_data)
        except services.TournamentError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error))
        else:
            messages.success(request, f"{event.name} is ready: register the players.")
            return redirect("event_run", slug=event.slug)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "tournaments/event_form.html",
        league_context(request, league, "events", form=form),
        status=status,
    )


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Public: the current round's pairings by table and the alphabetical 'find my seat'."""
    event = selectors.event_get(slug=slug, user=request.user)
    round_ = selectors.current_round(event)
    context = _context(
        request,
        event,
        "pairings",
        round=round_,
        finder=selectors.seat_finder(round_) if round_ else [],
        entries=event.entries.select_related("player").order_by("player__name"),
        structure=selectors.structure_get(event) if event.play.suggests_cut else None,
    )
    return render(request, "tournaments/event_detail.html", context)


def event_standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = selectors.event_get(slug=slug, user=request.user)
    labels, lines = selectors.standing_lines(event)
    context = _context(request, event, "standings", labels=labels, lines=lines)
    return render(request, "tournaments/event_standings.html", context)


def event_projector(request: HttpRequest, slug: str) -> HttpResponse:
    """Big type for the wall screen; htmx refreshes it every 30 seconds."""
    event = selectors.event_get(slug=slug, user=request.user)
    round_ = selectors.current_round(event)
    remaining = None
    if round_ and round_.ends_at and round_.status == Round.Status.PLAYING:
        remaining = max(0, int((round_.ends_at - timezone.now()).total_seconds() // 60))
    template = "tournaments/projector.html"
    if request.htmx:
        template += "#board"
    context = {"event": event, "round": round_, "remaining": remaining}
    context["finder"] = selectors.seat_finder(round_) if round_ else []
    return render(request, template, context)


def _console(request, event: Tournament, **extra) -> dict:
    round_ = selectors.current_round(event)
    missing = []
    if round_ is not None:
        missing = [t.number for t in round_.tables.all() if not t.reported]
    return _context(
        request,
        event,
        "run",
        round=round_,
        missing=missing,
        # `seated`: has sat at a table, so "remove" is not offered (the same query).
        entries=event.entries.select_related("player")
        .annotate(seated=Exists(Seat.objects.filter(entry=OuterRef("pk"))))
        .order_by("player__name"),
        register_form=extra.pop("register_form", RegisterForm()),
        player_names=league_selectors.league_player_names(league=event.league),
        results=RESULTS,
        earlier_rounds=range(1, round_.number) if round_ else [],
        pairing_edits=event.play.edits,
        structure=selectors.structure_get(event) if event.play.suggests_cut else None,
        # From the prefetched seats: what the edit forms say they change (no extra query).
        seating=services.seating_key(
            (t.number, s.position, s.entry_id) for t in round_.tables.all() for s in t.seats.all()
        )
        if round_ is not None
        else "",
        **extra,
    )


@login_required
def event_run(request: HttpRequest, slug: str) -> HttpResponse:
    event = _run_get(request, slug)
    return render(request, "tournaments/event_run.html", _console(request, event))


def _fail(request, event, error: services.TournamentError, **extra) -> HttpResponse:
    messages.error(request, str(error))
    return render(
        request, "tournaments/event_run.html", _console(request, event, **extra), status=400
    )


def _act(request, event: Tournament, action, done: str) -> HttpResponse:
    """Run one TO action: on success say `done` and go back to the console; a refused
    action is shown there with its reason (400) and nothing changes."""
    try:
        action()
    except services.AlreadyDone as error:
        return _already(request, event, error)
    except services.TournamentError as error:
        return _fail(request, event, error)
    messages.success(request, done)
    return redirect("event_run", slug=event.slug)


def _already(request, event: Tournament, error: services.AlreadyDone) -> HttpResponse:
    """A repeated tap: nothing changed; back to the console as it is now."""
    messages.info(request, str(error))
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def event_register(request: HttpRequest, slug: str) -> HttpResponse:
    event = _run_get(request, slug)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        return render(
            request,
            "tournaments/event_run.html",
            _console(request, event, register_form=form),
            status=400,
        )
    try:
        entry = services.entry_register(
            tournament=event,
            name=form.cleaned_data["name"],
            by=request.user,
            create_player=form.cleaned_data["new_player"],
        )
    except services.UnknownPlayer as error:
        form.add_error("name", str(error))
        form.ask_new_player = True
        return render(
            request,
            "tournaments/event_run.html",
            _console(request, event, register_form=form),
            status=400,
        )
    except services.AlreadyDone as error:
        return _already(request, event, error)
    except services.TournamentError as error:
        return _fail(request, event, error, register_form=form)
    late = f" (from round {entry.joined_round})" if entry.joined_round > 1 else ""
    messages.success(request, f"Registered {entry.player}{late}.")
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def event_pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = _run_get(request, slug)
    try:
        round_ = services.round_pair(
            tournament=event, by=request.user, number=small_int(request.POST.get("number", ""))
        )
    except services.AlreadyDone as error:
        return _already(request, event, error)
    except services.TournamentError as error:
        return _fail(request, event, error)
    tables = round_.tables.count()
    kind = event.play.noun
    messages.success(
        request, f"Round {round_.number} is paired: {tables} {kind}{pluralize(tables)}."
    )
    if round_.notes:
        messages.warning(request, round_.notes)
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def round_end(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    return _act(
        request,
        event,
        lambda: services.round_end(round_=round_, by=request.user),
        f"Round {number} is complete.",
    )


@login_required
@require_POST
def entry_drop(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = _run_get(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=event, pk=entry_id)
    return _act(
        request,
        event,
        lambda: services.entry_drop(entry=entry, by=request.user),
        f"{entry.player} has dropped; they keep their results.",
    )


def _entry_get(event: Tournament, entry_id: int) -> Entry | None:
    return Entry.objects.select_related("player").filter(tournament=event, pk=entry_id).first()


@login_required
@require_POST
def entry_undrop(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Undo a drop from the console: the player is paired again from the next round."""
    event = _run_get(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=event, pk=entry_id)
    return _act(
        request,
        event,
        lambda: services.entry_undrop(entry=entry, by=request.user),
        f"{entry.player} is back in: they are paired from the next round.",
    )


@login_required
@require_POST
def entry_remove(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Take back a registration made by mistake (never seated); a repeat finds it gone."""
    event = _run_get(request, slug)
    entry = _entry_get(event, entry_id)
    if entry is None:
        return _already(request, event, services.AlreadyDone("That entry is no longer registered."))
    return _act(
        request,
        event,
        lambda: services.entry_remove(entry=entry, by=request.user),
        f"{entry.player} is no longer registered for {event.name}.",
    )


@login_required
@require_POST
def table_report(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """One tap: a result button posts here; htmx gets the table card back (409 if stale).

    A 1v1 card posts `result` (one of RESULTS). A pod card posts `winner` (the entry id of the
    name tapped), `result=draw`, or `result=order` with `place-<entry id>` for every seat.
    """
    event = _run_get(request, slug)
    table = get_object_or_404(
        Table.objects.select_related("round"), pk=table_id, round__tournament=event
    )
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    result, message = event.play.read_result(request.POST, seats)
    status = 400 if message else 200
    if result is not None:
        try:
            services.table_report(table=table, expected_version=version, by=request.user, **result)
        except services.ResultConflict as conflict:
            status, message = 409, str(conflict)
        except services.TournamentError as error:
            status, message = 400, str(error)
    if not request.htmx:
        if message:
            messages.error(request, message)
        return redirect("event_run", slug=event.slug)
    round_ = selectors.rounds_with_tables(event).get(pk=table.round_id)
    table = next(t for t in round_.tables.all() if t.pk == table.pk)
    context = {
        "event": event,
        "table": table,
        "results": RESULTS,
        "message": message,
        "can_run": True,
        "round": round_,
        "missing": [t.number for t in round_.tables.all() if not t.reported],
        "oob": True,
    }
    # The card, and the round's "waiting for" line swapped out of band.
    card = render_to_string("tournaments/event_run.html#table-card", context, request=request)
    line = render_to_string("tournaments/event_run.html#round-status", context, request=request)
    return HttpResponse(card + line, status=status)


@login_required
@require_POST
def top_cut_start(request: HttpRequest, slug: str) -> HttpResponse:
    event = _run_get(request, slug)
    return _act(
        request,
        event,
        lambda: services.top_cut_start(tournament=event, by=request.user),
        f"The top {event.top_cut} is paired.",
    )


def event_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The top cut as a bracket: each stage's matches or pods with seeds, who advanced marked,
    and the champion."""
    event = selectors.event_get(slug=slug, user=request.user)
    bracket = selectors.bracket_get(event)
    context = _context(
        request, event, "bracket", columns=bracket.columns, champion=bracket.champion
    )
    return render(request, "tournaments/event_bracket.html", context)


@login_required
def round_run(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A TO's view of any round, to correct a result; standings and ratings follow."""
    event = _run_get(request, slug)
    round_ = get_object_or_404(selectors.rounds_with_tables(event), number=number)
    context = _context(
        request,
        event,
        "run",
        round=round_,
        results=RESULTS,
        missing=[t.number for t in round_.tables.all() if not t.reported],
    )
    return render(request, "tournaments/round_run.html", context)


def event_player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """One player's night: every round, against whom, the result and the points."""
    event = selectors.event_get(slug=slug, user=request.user)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), tournament=event, player_id=player_id
    )
    context = _context(
        request, event, "standings", entry=entry, history=selectors.player_history(event, entry)
    )
    return render(request, "tournaments/event_player.html", context)


@login_required
@require_POST
def round_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Swap two players, pair two players by hand, or give a player the bye."""
    event = _run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    edit = request.POST.get("edit", "")
    picked = [request.POST.get("a", ""), request.POST.get("b", "")]
    entries = {
        str(e.pk): e
        for e in event.entries.select_related("player").filter(
            pk__in=[p for p in picked if small_int(p) is not None]
        )
    }
    a, b = entries.get(picked[0]), entries.get(picked[1])
    if a is None or (edit != "bye" and b is None):
        return _fail(request, event, services.TournamentError("Choose the players.", code="pick"))
    try:
        warnings = services.round_edit(
            round_=round_,
            edit=edit,
            a=a,
            b=b,
            by=request.user,
            expected=request.POST.get("seating") or None,
        )
    except services.AlreadyDone as error:
        return _already(request, event, error)
    except services.TournamentError as error:
        return _fail(request, event, error)
    done = services.EDITS[edit].format(a=a.player, b=b.player if b else "")
    messages.success(request, done[0].upper() + done[1:] + ".")
    for warning in warnings:
        messages.warning(request, warning)
    return redirect("event_run", slug=event.slug)
