"""The TO's console on a phone (`event_run`) and its live part (`event_run_live`), with what
every console action shares: `refused` and `act` answer an action, `console_urls` and
`round_cards` feed the round's table cards.

Every change goes through tournaments.services. A refusal is a `core.errors.DomainError`, and
the views hand it to `core.errors_http.error_response`: a tap on a table card (htmx) gets that
card back with the result stored now and the message, at the error's status (409 stale, 400
bad input), retargeted onto the card; a normal POST gets a page message (and the console at 400,
or, for a repeated tap, a redirect to it).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from core.errors import DomainError
from core.errors_http import error_message, error_response
from core.pagecache import memo, versions
from leagues import services as league_services

from ... import selectors
from ...domain import labels
from ...errors import AlreadyDone, UnknownPlayer
from ...formats import RESULTS
from ...forms import ExtensionForm, RegisterForm
from ...live import not_modified, page_tag
from ...models import Round, Table, Tournament
from ...page_versions import PLAYERS_SCOPE
from ...pages import event_context, run_get
from ...selectors import console as console_selectors
from ...selectors import registration as registration_selectors
from ...selectors import reports as report_selectors
from ...selectors import seating_key
from ...selectors.console import seats_of
from ...services.reports import REPORTS_SCOPE


def _url_prefix(name: str, slug: str, key: str, tail: str) -> str:
    """The part of route `name`'s URL before its `<key>` id, to which a page appends
    `<id>/<tail>`: the console's hundreds of cards and players each post to their own
    address, and reversing each of them was a tenth of the page's time."""
    url = reverse(name, kwargs={"slug": slug, key: 0})
    prefix = url.removesuffix(f"0/{tail}")
    assert prefix != url, f"{name} no longer ends in <{key}>/{tail}"
    return prefix


def console_urls(event: Tournament) -> dict[str, str]:
    """`tables_url` (a card posts to `<tables_url><table id>/report/`) and `entries_url`
    (`<entries_url><entry id>/drop/`, `undrop/`, `remove/`)."""
    return {
        "tables_url": _url_prefix("table_report", event.slug, "table_id", "report/"),
        "entries_url": _url_prefix("entry_drop", event.slug, "entry_id", "drop/"),
    }


def round_cards(event: Tournament, round_: Round | None) -> dict:
    """A round's tables split once for the template: the `cards` (two or more seats), the
    `byes` (the player's name, and whether they asked for it), the `missing` table numbers
    (no result yet) and the `extensions` judges gave; each card with where its players'
    reports stand, and their counts (selectors.reports.round_states)."""
    tables = list(round_.tables.all()) if round_ is not None else []
    cards = [t for t in tables if len(seats_of(t)) > 1]
    console_selectors.card_notes([t for t in cards if not t.reported])
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
    cards = round_cards(event, round_)
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
        **console_urls(event),
        register_form=extra.pop("register_form", RegisterForm()),
        extension_form=extra.pop("extension_form", None) or ExtensionForm(noun=event.play.noun),
        results=RESULTS,
        earlier_rounds=_earlier_rounds(event, round_),
        # From the prefetched seats: the seating the TO sees, which the edit form (fetched
        # when opened) sends back, so an edit of a round changed meanwhile is refused.
        seating=seating,
        **extra,
    )


def _earlier_rounds(event: Tournament, round_: Round | None) -> list[tuple[int, str]]:
    """The rounds before `round_`, (number, "round 2" or "the semifinals"), for the console's
    "Correct an earlier round": only a top-cut round has cut rounds before it to look up."""
    if round_ is None:
        return []
    if round_.kind == Round.Kind.SWISS:
        return [(n, labels.round_label(n, in_sentence=True)) for n in range(1, round_.number)]
    earlier = event.rounds.filter(number__lt=round_.number).only("number", "kind", "stage")
    return [(r.number, r.label_in_sentence) for r in earlier.order_by("number")]


def console_again(request, event: Tournament, **forms) -> HttpResponse:
    """The console at 400 with a form the TO filled in (`register_form`, `extension_form`),
    shown as typed with the reasons on its fields."""
    return render(
        request, "tournaments/console/event_run.html", _console(request, event, **forms), status=400
    )


def _console_players(request, event: Tournament, round_: Round | None) -> dict:
    """The console's player list, the rounds and cut suggested for the field and, before
    round 1 while check-in is open, who has not checked in yet (the live part sends them
    again when the players changed). The list is read once per change of the players or
    their names, not at every load of every judge's console."""
    after = round_.number if round_ else 0
    not_checked_in = (
        registration_selectors.not_checked_in(event)
        if round_ is None and event.check_in == Tournament.CheckIn.OPEN
        else None
    )
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
        "not_checked_in": not_checked_in,
        # The names in one value: a sentence of the console names them (its translation).
        "not_checked_in_names": ", ".join(r.player.name for r in not_checked_in or ()),
    }


@login_required
def event_run(request: HttpRequest, slug: str) -> HttpResponse:
    """The console; to htmx (the tables filter, `?tables=open`), the round's tables alone."""
    event = run_get(request, slug)
    template = "tournaments/console/event_run.html"
    if request.htmx:
        template += "#round-board"
    return render(request, template, _console(request, event))


# The TO waits on the last tables to pair the next round, and a player's judge call must reach
# the TO's phone within 5 s (issue 36): the console asks every 2 s, as the judges' desk does.
# Cheap while nothing changed: a 304 of six small queries, about 18 ms in the test client on a
# 128-player event (2026-11-27, a busy 2-core machine), so three staff phones cost ~3 % of a
# core, against hundreds of players' phones polling every 15 s.
CONSOLE_POLL_SECONDS = 2


def _seating(round_: Round | None) -> str:
    """From the prefetched seats: the seating the TO sees (`services.seating_key`)."""
    if round_ is None:
        return ""
    tables = round_.tables.all()
    return seating_key((t.number, s.position, s.entry_id) for t in tables for s in seats_of(t))


def _players_scopes(event: Tournament) -> list:
    """What the console's player list hangs on: the event's players (registrations,
    check-ins, drops: every change to the event but a table's result or reports,
    `page_versions.PLAYERS_SCOPE`) and the store's (the players' names)."""
    return [(PLAYERS_SCOPE, event.pk), ("org", event.league.organization_id)]


def _console_scopes(event: Tournament) -> list:
    """What the console's live part shows: the event (results, pairings, drops), its players'
    reports, its players with their names (on the cards and the list), and what other rooms
    note on the cards (`tournaments.hooks.card_notes`)."""
    return [
        ("event", event.pk),
        (REPORTS_SCOPE, event.pk),
        *_players_scopes(event),
        *console_selectors.card_note_scopes(event.pk),  # the judges' calls
    ]


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
    """The console's live part, polled every 2 s while a TO has it open (`?shows=` the round
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
        **console_urls(event),
    )
    if request.GET.get("players") != context["live"]["players"]:
        # Someone registered, checked in, dropped or was seated: the list and the check-in
        # line come again (the page's script keeps a list the TO is working in).
        context.update(_console_players(request, event, round_), players_oob=True)
    if not changed:
        _cut_picks(event, round_)
        context.update(round_cards(event, round_))
    response = render(request, "tournaments/console/event_run.html#console-live", context)
    response["ETag"] = f'"{etag}"'
    response["Cache-Control"] = "no-cache"
    return response


def refused(
    request, event: Tournament, error: DomainError, *, form=None, form_name: str = "register_form"
) -> HttpResponse:
    """Answer a console action the services refused; nothing was written.

    A repeated tap (`AlreadyDone`) says so and goes back to the console as it is now. Any other
    refusal shows the console again at the error's status: on the register form's field when
    it names one (a new player's name is then asked about), else as a page message.
    """
    console = reverse("event_run", kwargs={"slug": event.slug})
    if isinstance(error, AlreadyDone):
        messages.info(request, error_message(error))
        return redirect(console)
    on_form = form is not None and getattr(error, "field", None) in form.fields
    if isinstance(error, UnknownPlayer) and on_form:
        form.ask_new_player = True
    if isinstance(error, league_services.LookAlikeNames) and on_form:
        form.ask_new_player = form.ask_look_alike = True
    if not on_form:
        messages.error(request, error_message(error))
    extra = {form_name: form} if form is not None else {}
    return error_response(
        request,
        error,
        template="tournaments/console/event_run.html",
        context=_console(request, event, **extra),
        form=form if on_form else None,
        redirect_to=console,
    )


def act(request, event: Tournament, action, done: str) -> HttpResponse:
    """Run one TO action: on success say `done` and go back to the console; a refused
    action is shown there with its reason (400) and nothing changes."""
    try:
        action()
    except DomainError as error:
        return refused(request, event, error)
    messages.success(request, done)
    return redirect("event_run", slug=event.slug)
