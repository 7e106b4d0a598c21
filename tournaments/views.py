"""Tournament pages: public pairings, standings and projector; the TO's console on a phone.

The public pages (pairings, standings, projector, bracket) are kept in the shared cache per
version of the event (`core.pagecache.public_page`, `page_versions`), with ETags for a 304.

Every change goes through tournaments.services. A refusal is a `core.errors.DomainError`, and
the views hand it to `core.errors_http.error_response`: a tap on a table card (htmx) gets that
card back with the result stored now and the message, at the error's status (409 stale, 400
bad input), retargeted onto the card; a normal POST gets a page message (and the console at 400,
or, for a repeated tap, a redirect to it).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import DomainError
from core.errors_http import error_message, error_response
from core.pagecache import memo, versions
from leagues import selectors as league_selectors
from leagues import services as league_services
from leagues.permissions import can_run_events_of
from leagues.views import league_context

from . import selectors, services
from .formats import RESULTS, small_int
from .forms import EventForm, ExtensionForm, RegisterForm
from .live import not_modified, page_tag
from .models import Entry, Round, Seat, Table, Tournament
from .page_versions import PLAYERS_SCOPE
from .pages import event_context, run_get
from .selectors import console as console_selectors
from .selectors import registration as registration_selectors
from .selectors import reports as report_selectors
from .selectors.console import seats_of
from .services.reports import REPORTS_SCOPE


@login_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = league_selectors.league_get(slug=slug, user=request.user)
    if not can_run_events_of(request.user, league.organization_id):
        raise PermissionDenied("Only the store's organizers and judges create events.")
    form = EventForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid():
        fields = dict(form.cleaned_data)
        chosen = fields.pop("league") or league  # the store's leagues only (the queryset)
        try:
            event = services.tournament_create(league=chosen, by=request.user, **fields)
        except DomainError as error:
            return error_response(
                request,
                error,
                template="tournaments/event_form.html",
                context=league_context(request, league, "events"),
                form=form,
            )
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


def _url_prefix(name: str, slug: str, key: str, tail: str) -> str:
    """The part of route `name`'s URL before its `<key>` id, to which a page appends
    `<id>/<tail>`: the console's hundreds of cards and players each post to their own
    address, and reversing each of them was a tenth of the page's time."""
    url = reverse(name, kwargs={"slug": slug, key: 0})
    prefix = url.removesuffix(f"0/{tail}")
    assert prefix != url, f"{name} no longer ends in <{key}>/{tail}"
    return prefix


def _console_urls(event: Tournament) -> dict[str, str]:
    """`tables_url` (a card posts to `<tables_url><table id>/report/`) and `entries_url`
    (`<entries_url><entry id>/drop/`, `undrop/`, `remove/`)."""
    return {
        "tables_url": _url_prefix("table_report", event.slug, "table_id", "report/"),
        "entries_url": _url_prefix("entry_drop", event.slug, "entry_id", "drop/"),
    }


def _cards(event: Tournament, round_: Round | None) -> dict:
    """A round's tables split once for the template: the `cards` (two or more seats), the
    `byes` (the player's name, and whether they asked for it), the `missing` table numbers
    (no result yet) and the `extensions` judges gave; each card with where its players'
    reports stand, and their counts (selectors.reports.round_states)."""
    tables = list(round_.tables.all()) if round_ is not None else []
    cards = [t for t in tables if len(seats_of(t)) > 1]
    return {
        "cards": cards,
        **report_selectors.round_states(event, round_, cards),
        "byes": [
            {"name": seats_of(t)[0].entry.player.name, "requested": t.requested_bye}
            for t in tables
            if len(seats_of(t)) == 1
        ],
        "missing": [t.number for t in tables if not t.reported],
        # Judges' time extensions of the tables still playing (table number, minutes, when
        # its time is up), beside the round's clock.
        "extensions": [
            (t.number, t.extra_minutes, round_.ends_at and t.time_up(round_.ends_at))
            for t in tables
            if t.extra_minutes and not t.reported
        ],
    }


def _cut_picks(event: Tournament, round_: Round | None) -> None:
    """On a cut round whose seeds choose their seats (`seed_picks`), give each pod without a
    result its seats best seed first (`table.picks`: seed, seat) for the console's form."""
    if round_ is None or round_.kind != Round.Kind.TOP_CUT or event.cut_seats != "seed_picks":
        return
    open_tables = [t for t in round_.tables.all() if not t.reported and len(seats_of(t)) > 1]
    if not open_tables:
        return
    bracket = selectors.top_cut_bracket(event)
    for table in open_tables:
        seats = sorted(seats_of(table), key=lambda s: bracket.seed(s.entry.player_id))
        table.picks = [(bracket.seed(s.entry.player_id), s) for s in seats]


def _board(request, cards: list[Table]) -> dict:
    """`?tables=open`: the console shows the tables still waiting for a result (or disputed)
    first and folds the others away, so the TO does not scroll past the finished ones."""
    tables_filter = "open" if request.GET.get("tables") == "open" else ""
    return {
        "tables_filter": tables_filter,
        "open_cards": [t for t in cards if not t.reported],
        "done_cards": [t for t in cards if t.reported],
    }


def _console(request, event: Tournament, **extra) -> dict:
    etag = _console_etag(request, event)  # before the reads: never newer than what is shown
    round_ = console_selectors.console_round(event)
    _cut_picks(event, round_)
    seating = _seating(round_)
    cards = _cards(event, round_)
    return event_context(
        request,
        event,
        "run",
        round=round_,
        **cards,
        **_board(request, cards["cards"]),
        live=_console_live(request, event, _console_shows(round_, seating), etag),
        **_console_players(request, event, round_),
        next_round=(round_.number + 1) if round_ else 1,
        **_console_urls(event),
        register_form=extra.pop("register_form", RegisterForm()),
        extension_form=extra.pop("extension_form", None) or ExtensionForm(noun=event.play.noun),
        results=RESULTS,
        earlier_rounds=range(1, round_.number) if round_ else [],
        # From the prefetched seats: the seating the TO sees, which the edit form (fetched
        # when opened) sends back, so an edit of a round changed meanwhile is refused.
        seating=seating,
        **extra,
    )


def _console_again(request, event: Tournament, **forms) -> HttpResponse:
    """The console at 400 with a form the TO filled in (`register_form`, `extension_form`),
    shown as typed with the reasons on its fields."""
    return render(
        request, "tournaments/event_run.html", _console(request, event, **forms), status=400
    )


def _console_players(request, event: Tournament, round_: Round | None) -> dict:
    """The console's player list, the rounds and cut suggested for the field and, before
    round 1 while check-in is open, who has not checked in yet (the live part sends them
    again when the players changed). The list is read once per change of the players or
    their names, not at every load of every judge's console."""
    after = round_.number if round_ else 0
    return {
        "structure": selectors.structure_get(event)
        if event.play.suggests_cut and event.status == Tournament.Status.REGISTRATION
        else None,
        "entries": memo(
            f"console-entries:{event.pk}:{after}",
            _players_scopes(event),
            lambda: console_selectors.entry_lines(event, after_round=after),
            request=request,
        ),
        "not_checked_in": registration_selectors.not_checked_in(event)
        if round_ is None and event.check_in == Tournament.CheckIn.OPEN
        else None,
    }


@login_required
def event_run(request: HttpRequest, slug: str) -> HttpResponse:
    """The console; to htmx (the tables filter, `?tables=open`), the round's tables alone."""
    event = run_get(request, slug)
    template = "tournaments/event_run.html"
    if request.htmx:
        template += "#round-board"
    return render(request, template, _console(request, event))


# The TO waits on the last tables to pair the next round: their console asks every 5 s (a
# 304 of six small queries while nothing changed; a few consoles against hundreds of phones
# polling every 15 s).
CONSOLE_POLL_SECONDS = 5


def _seating(round_: Round | None) -> str:
    """From the prefetched seats: the seating the TO sees (`services.seating_key`)."""
    if round_ is None:
        return ""
    tables = round_.tables.all()
    return services.seating_key(
        (t.number, s.position, s.entry_id) for t in tables for s in seats_of(t)
    )


def _players_scopes(event: Tournament) -> list:
    """What the console's player list hangs on: the event's players (registrations,
    check-ins, drops: every change to the event but a table's result or reports,
    `page_versions.PLAYERS_SCOPE`) and the store's (the players' names)."""
    return [(PLAYERS_SCOPE, event.pk), ("org", event.league.organization_id)]


def _console_scopes(event: Tournament) -> list:
    """What the console's live part shows: the event (results, pairings, drops), its players'
    reports, and its players with their names (on the cards and the list)."""
    return [("event", event.pk), (REPORTS_SCOPE, event.pk), *_players_scopes(event)]


def _console_etag(request, event: Tournament) -> str:
    """The tag of the console's live part: its scopes' versions and the CSRF secret its
    cards' forms are masked from. One query."""
    return page_tag(request, _console_scopes(event), request.user.pk, forms=True)


def _players_version(request, event: Tournament) -> str:
    """The version of the event's players, from the tag's query (read no second time)."""
    (players,) = versions([(PLAYERS_SCOPE, event.pk)], request)
    return str(players[2])


def _console_shows(round_: Round | None, seating: str) -> str:
    """Which round the console shows, as it stands: its id, status and seating. While a page
    is open on it, the live part swaps cards into it; once it differs (the next round paired,
    the round ended, its pairings changed) the page says so and links to itself instead."""
    if round_ is None:
        return "none"
    return f"{round_.pk}.{round_.status}.{seating}"


def _console_live(request, event: Tournament, shows: str, etag: str) -> dict:
    return {
        "etag": etag,
        "shows": shows,
        "players": _players_version(request, event),
        "url": reverse("event_run_live", kwargs={"slug": event.slug}),
        "poll_seconds": CONSOLE_POLL_SECONDS,
    }


@login_required
@require_GET
def event_run_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The console's live part, polled every 5 s while a TO has it open (`?shows=` the round
    the page shows, `_console_shows`): a 304 while nothing changed (If-None-Match, six
    queries with the session's and the judge's rights); else the round's status line, the
    players' reports line and every card, each swapped out of band where the page has it (the
    page's script keeps a card that has not changed, or that the TO is working in), and the
    player list with the check-in line when the players changed (`?players=` their version
    on the page); or, when the page's round is no longer the one to run, a line saying so.
    Opened as a page (not by htmx), it sends the visitor to the console itself."""
    event = run_get(request, slug)
    if not request.htmx:
        return redirect("event_run", slug=event.slug)
    etag = _console_etag(request, event)
    unchanged = not_modified(request, etag)
    if unchanged is not None:
        return unchanged
    round_ = console_selectors.console_round(event)
    shown = request.GET.get("shows", "")  # the page keeps polling for what it shows
    changed = shown != _console_shows(round_, _seating(round_))
    context = event_context(
        request,
        event,
        "run",
        round=round_,
        live=_console_live(request, event, shown, etag),
        changed=changed,
        oob=True,
        results=RESULTS,
        **_console_urls(event),
    )
    if request.GET.get("players") != context["live"]["players"]:
        # Someone registered, checked in, dropped or was seated: the list and the check-in
        # line come again (the page's script keeps a list the TO is working in).
        context.update(_console_players(request, event, round_), players_oob=True)
    if not changed:
        _cut_picks(event, round_)
        context.update(_cards(event, round_))
    response = render(request, "tournaments/event_run.html#console-live", context)
    response["ETag"] = f'"{etag}"'
    response["Cache-Control"] = "no-cache"
    return response


def _refused(
    request, event: Tournament, error: DomainError, *, form=None, form_name: str = "register_form"
) -> HttpResponse:
    """Answer a console action the services refused; nothing was written.

    A repeated tap (`AlreadyDone`) says so and goes back to the console as it is now. Any other
    refusal shows the console again at the error's status: on the register form's field when
    it names one (a new player's name is then asked about), else as a page message.
    """
    console = reverse("event_run", kwargs={"slug": event.slug})
    if isinstance(error, services.AlreadyDone):
        messages.info(request, error_message(error))
        return redirect(console)
    on_form = form is not None and getattr(error, "field", None) in form.fields
    if isinstance(error, services.UnknownPlayer) and on_form:
        form.ask_new_player = True
    if isinstance(error, league_services.LookAlikeNames) and on_form:
        form.ask_new_player = form.ask_look_alike = True
    if not on_form:
        messages.error(request, error_message(error))
    extra = {form_name: form} if form is not None else {}
    return error_response(
        request,
        error,
        template="tournaments/event_run.html",
        context=_console(request, event, **extra),
        form=form if on_form else None,
        redirect_to=console,
    )


def _act(request, event: Tournament, action, done: str) -> HttpResponse:
    """Run one TO action: on success say `done` and go back to the console; a refused
    action is shown there with its reason (400) and nothing changes."""
    try:
        action()
    except DomainError as error:
        return _refused(request, event, error)
    messages.success(request, done)
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def event_register(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        return _console_again(request, event, register_form=form)
    try:
        entry = services.entry_register(
            tournament=event,
            name=form.cleaned_data["name"],
            by=request.user,
            create_player=form.cleaned_data["new_player"],
            look_alike_confirmed=form.cleaned_data["look_alike_ok"],
        )
    except DomainError as error:
        return _refused(request, event, error, form=form)
    late = f" (from round {entry.joined_round})" if entry.joined_round > 1 else ""
    messages.success(request, f"Registered {entry.player}{late}.")
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def event_pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    try:
        round_ = services.round_pair(
            tournament=event, by=request.user, number=small_int(request.POST.get("number", ""))
        )
    except DomainError as error:
        return _refused(request, event, error)
    tables = round_.tables.count()
    kind = event.play.noun
    # What the pairing had to allow (round_.notes) is not flashed: the console shows it
    # beside the round for as long as the round is played.
    messages.success(
        request, f"Round {round_.number} is paired: {tables} {kind}{pluralize(tables)}."
    )
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def round_end(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    return _act(
        request,
        event,
        lambda: services.round_end(round_=round_, by=request.user),
        f"Round {number} is complete.",
    )


@login_required
@require_POST
def round_advance(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The console's one tap once every table has a result: round `number` ends and what
    follows is paired (`services.round_advance`). A second tap is told so and sees the new
    round; a refusal leaves the round open with the reason."""
    event = run_get(request, slug)
    round_ = get_object_or_404(Round, tournament=event, number=number)
    try:
        shown = services.round_advance(round_=round_, by=request.user)
    except DomainError as error:
        return _refused(request, event, error)
    ended = round_.notes if round_.kind == Round.Kind.TOP_CUT else f"Round {number}"
    if shown.pk == round_.pk:
        done = f"{ended} is complete: the event is finished and the final standings are in."
    elif shown.kind == Round.Kind.TOP_CUT:
        tables = shown.tables.count()
        done = f"{ended} is complete. {shown.notes} is paired: {_tables(event, tables)}."
    else:
        done = f"{ended} is complete. Round {shown.number} is paired: "
        done += f"{_tables(event, shown.tables.count())}."
    messages.success(request, done)
    return redirect("event_run", slug=event.slug)


def _tables(event: Tournament, count: int) -> str:
    return f"{count} {event.play.noun}{pluralize(count)}"


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
        error = services.TournamentError(
            "Give or take a whole number of minutes.", code="clock_minutes"
        )
        return _refused(request, event, error)
    try:
        round_ = services.round_clock_set(
            round_=round_, start=start, minutes=minutes, expected=expected, by=request.user
        )
    except DomainError as error:
        return _refused(request, event, error)
    ends = timezone.localtime(round_.ends_at)
    messages.success(request, f"Time is up at {ends:%H:%M}.")
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
        return _console_again(request, event, extension_form=form)
    table, minutes = form.cleaned_data["table"], form.cleaned_data["minutes"]
    try:
        services.table_extension_set(round_=round_, number=table, minutes=minutes, by=request.user)
    except DomainError as error:
        return _refused(request, event, error, form=form, form_name="extension_form")
    what = f"{minutes} extra minute{pluralize(minutes)}" if minutes else "no time extension"
    messages.success(request, f"{event.play.noun_title} {table} now has {what}.")
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
        raise Http404("No such player in this event.")
    context = {
        "entry": lines[0],
        "status": event.status,
        "next_round": latest + 1,
        **_console_urls(event),
    }
    template = "tournaments/console_entry.html"
    if request.htmx:
        return render(request, f"{template}#entry-actions", {"event": event, **context})
    return render(request, template, event_context(request, event, "run", **context))


@login_required
@require_POST
def entry_drop(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = run_get(request, slug)
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
    event = run_get(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=event, pk=entry_id)
    return _act(
        request,
        event,
        lambda: services.entry_undrop(entry=entry, by=request.user),
        f"{entry.player} is back in: they are paired from the next round.",
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
        return _refused(
            request,
            event,
            services.TournamentError(
                "Give the round the player sits out, as a number.", code="round", field="round"
            ),
        )
    if request.POST.get("action") == "remove":
        return _act(
            request,
            event,
            lambda: services.requested_bye_remove(
                entry=entry, round_number=number, by=request.user
            ),
            f"{entry.player} plays round {number} after all.",
        )
    return _act(
        request,
        event,
        lambda: services.requested_bye_add(entry=entry, round_number=number, by=request.user),
        f"{entry.player} sits out round {number} with a half-point bye.",
    )


@login_required
@require_POST
def entry_remove(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Take back a registration made by mistake (never seated); a repeat finds it gone."""
    event = run_get(request, slug)
    entry = _entry_get(event, entry_id)
    if entry is None:
        return _refused(
            request, event, services.AlreadyDone("That entry is no longer registered.", code="gone")
        )
    try:
        promoted = services.entry_remove(entry=entry, by=request.user)
    except DomainError as error:
        return _refused(request, event, error)
    moved = f" {promoted.player} moved up from the waitlist." if promoted else ""
    messages.success(request, f"{entry.player} is no longer registered for {event.name}.{moved}")
    return redirect("event_run", slug=event.slug)


@login_required
@require_POST
def table_report(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """One tap: a result button posts here; htmx gets the table card back.

    A 1v1 card posts `result` (one of RESULTS). A pod card posts `winner` (the entry id of the
    name tapped), `result=draw`, or `result=order` with `place-<entry id>` for every seat. The
    event's format reads the form once into a `Result`, which the service stores. A refusal (a
    bad form or order: 400, naming the field; a result changed since the card was loaded: 409)
    comes back as that card, showing the result stored now and the message, through
    `error_response`.
    """
    event = run_get(request, slug)
    # The table (with its round) comes with its seats, in one query; every table has seats.
    seats = list(
        Seat.objects.filter(table_id=table_id, table__round__tournament=event)
        .select_related("table__round", "entry__player")
        .order_by("position")
    )
    if not seats:
        raise Http404("No such table.")
    table = seats[0].table
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    try:
        players = [(s.entry_id, s.entry.player.name) for s in seats]
        result = event.play.read_result(request.POST, players)
        stored = services.table_report(
            table=table, result=result, expected_version=version, by=request.user
        )
    except DomainError as error:
        return _card_answer(request, event, table, error)
    return _card_answer(request, event, stored)


def _card_answer(
    request, event: Tournament, table: Table, error: DomainError | None = None
) -> HttpResponse:
    """The table's card as stored now (with `error`'s message) and, out of band, the round's
    "waiting for" line; a normal POST goes back to the console (with the message)."""
    if not request.htmx:
        if error is None:
            return redirect("event_run", slug=event.slug)
        console = reverse("event_run", kwargs={"slug": event.slug})
        return error_response(request, error, redirect_to=console)
    # Only this table and the round's unreported numbers: the card and the status line are
    # all the answer shows, whatever the size of the round. After a stored result the table
    # is the one the service wrote, with its round, and its seats are read as written (one
    # query); after a refusal it is read afresh.
    if error is None:
        console_selectors.table_seats_read(table)
    else:
        table = console_selectors.table_card(table.pk)
    context = {
        "event": event,
        "table": table,
        "results": RESULTS,
        "message": error_message(error) if error else "",
        "can_run": True,
        "round": table.round,
        "missing": console_selectors.unreported_numbers(table.round_id),
        "oob": True,
        **_console_urls(event),
    }
    fragment = "tournaments/event_run.html#table-answer"
    if error is None:
        return render(request, fragment, context)
    return error_response(
        request,
        error,
        fragment=fragment,
        context=context,
        target=f"#table-{table.pk}",
        swap="outerHTML",
    )


@login_required
@require_GET
def table_order(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A pod's full finishing order form, fetched when the TO opens it on the console (htmx:
    the form alone; without JavaScript the link opens it as a page, which posts like the
    card's). A 1v1 table has no such form: its card's buttons are the whole result."""
    event = run_get(request, slug)
    if event.format != Tournament.Format.PODS:
        return redirect("event_run", slug=event.slug)
    try:
        table = console_selectors.table_card(table_id)
    except Table.DoesNotExist:
        raise Http404("No such table.") from None
    if table.round.tournament_id != event.pk:
        raise Http404("No such table.")
    context = {"table": table, **_console_urls(event)}
    if request.htmx:
        return render(request, "tournaments/formats/pod.html#order-form", context)
    return render(
        request, "tournaments/console_order.html", event_context(request, event, "run", **context)
    )


@login_required
@require_POST
def table_seats(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """Record the seats a cut pod's seeds chose (events seating their cut `seed_picks`):
    `seat-<entry id>` = the seat (1 first) for every player at the pod."""
    event = run_get(request, slug)
    table = get_object_or_404(
        Table.objects.select_related("round"), pk=table_id, round__tournament=event
    )
    picks: dict[int, int] = {}
    for entry_id, name in table.seats.values_list("entry_id", "entry__player__name"):
        seat = small_int(request.POST.get(f"seat-{entry_id}", ""))
        if seat is None:
            error = services.TournamentError(f"Choose {name}'s seat.", code="picks_count")
            return _refused(request, event, error)
        picks[entry_id] = seat
    changed = []

    def choose():
        changed.append(services.cut_seats_choose(table=table, picks=picks, by=request.user))

    response = _act(request, event, choose, f"Pod {table.number}: the seeds' seats are recorded.")
    if changed == [False]:  # the same seats again (a double tap): said once, changed nothing
        messages.info(request, f"Pod {table.number} already sits that way.")
    return response


@login_required
@require_POST
def top_cut_start(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    return _act(
        request,
        event,
        lambda: services.top_cut_start(tournament=event, by=request.user),
        f"The top {event.top_cut} is paired.",
    )


@login_required
def round_run(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A TO's view of any round, to correct a result; standings and ratings follow."""
    event = run_get(request, slug)
    round_ = console_selectors.console_round(event, number)
    if round_ is None:
        raise Http404("No such round.")
    context = event_context(
        request,
        event,
        "run",
        round=round_,
        results=RESULTS,
        **_cards(event, round_),
        **_console_urls(event),
    )
    return render(request, "tournaments/round_run.html", context)


@login_required
def event_player_names(request: HttpRequest, slug: str) -> HttpResponse:
    """The register field's suggestions as the TO types (`?name=`): a `<datalist>` of up to
    20 of the store's players not registered yet, fetched by htmx instead of every name of the
    store riding along with each console load."""
    event = run_get(request, slug)
    names = console_selectors.name_suggestions(event, request.GET.get("name", "")[:100])
    return render(request, "tournaments/console_edit.html#player-names", {"player_names": names})


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
    template = "tournaments/console_edit.html"
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
        return _refused(
            request, event, services.TournamentError("Choose the players.", code="pick")
        )
    try:
        warnings = services.round_edit(
            round_=round_,
            edit=edit,
            a=a,
            b=b,
            by=request.user,
            expected=request.POST.get("seating") or None,
        )
    except DomainError as error:
        return _refused(request, event, error)
    done = services.EDITS[edit].format(a=a.player, b=b.player if b else "")
    messages.success(request, done[0].upper() + done[1:] + ".")
    for warning in warnings:
        messages.warning(request, warning)
    return redirect("event_run", slug=event.slug)
