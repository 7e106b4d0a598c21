"""A table's result from the console: the one-tap report (answered with the table's card),
a pod's full finishing order form, and the seats a cut pod's seeds chose."""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import DomainError
from core.errors_http import error_message, error_response

from ...errors import TournamentError
from ...formats import RESULTS, small_int
from ...models import Seat, Table, Tournament
from ...pages import event_context, run_get
from ...selectors import console as console_selectors
from ...services import results as results_services
from ...services.topcut import cut_seats_choose
from .board import act, console_urls, refused


@login_required
@require_POST
def table_report(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """One tap: a result button posts here; htmx gets the table card back.

    A 1v1 card posts `result` (one of RESULTS). A pod card posts `winner` (the entry id of the
    name tapped), `result=draw`, or `result=order` with `place-<entry id>` for every seat. The
    event's format reads the form once into a `Result`, which the service stores. A refusal (a
    bad form or order: 400, naming the field; a result changed since the card was loaded: 409)
    comes back as that card, showing the result stored now and the message, through
    `error_response`. A result sent from the phone's offline queue also posts `offline` (the
    time it was tapped) and must carry its version (`_offline_via`).
    """
    event = run_get(request, slug)
    # The table (with its round) comes with its seats, in one query; every table has seats.
    seats = list(
        Seat.objects.filter(table_id=table_id, table__round__tournament=event)
        .select_related("table__round", "entry__player")
        .order_by("position")
    )
    if not seats:
        raise Http404(_("No such table."))
    table = seats[0].table
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    try:
        via = _offline_via(request.POST, version)
        players = [(s.entry_id, s.entry.player.name) for s in seats]
        result = event.play.read_result(request.POST, players)
        stored = results_services.table_report(
            table=table, result=result, expected_version=version, by=request.user, via=via
        )
    except DomainError as error:
        return _card_answer(request, event, table, error)
    return _card_answer(request, event, stored)


_TAPPED_AT = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def _offline_via(data, version: int | None) -> str:
    """A result from the phone's offline queue (`offline` = the time it was tapped, "21:14",
    static/tournaments/offline/offline.js) must carry the table version it was made against:
    without one it would overwrite whatever the table holds now. The log says how it came."""
    tapped = data.get("offline")
    if tapped is None:
        return ""
    if not _TAPPED_AT.fullmatch(tapped):
        raise TournamentError(
            _("This queued result's time is not a time of day (hh:mm)."), code="offline_time"
        )
    if version is None or version < 0:
        raise TournamentError(
            _(
                "This queued result carries no table version: it cannot be checked against the "
                "table as it is now. Enter it again."
            ),
            code="offline_version",
            field="version",
        )
    return f"the phone's queue, tapped at {tapped} offline"


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
    # is the one the service wrote, with its round and its seats as written (`seat_rows`, read
    # no second time); after a refusal it is read afresh.
    if error is None:
        if "seat_rows" not in table.__dict__:
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
        **console_urls(event),
    }
    fragment = "tournaments/console/event_run.html#table-answer"
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
    if not event.play.has_order_form:
        return redirect("event_run", slug=event.slug)
    try:
        table = console_selectors.table_card(table_id)
    except Table.DoesNotExist:
        raise Http404(_("No such table.")) from None
    if table.round.tournament_id != event.pk:
        raise Http404(_("No such table."))
    context = {"table": table, **console_urls(event)}
    if request.htmx:
        return render(request, "tournaments/formats/pod.html#order-form", context)
    return render(
        request,
        "tournaments/console/console_order.html",
        event_context(request, event, "run", **context),
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
            error = TournamentError(
                _("Choose %(player)s's seat.") % {"player": name}, code="picks_count"
            )
            return refused(request, event, error)
        picks[entry_id] = seat
    changed = []

    def choose():
        changed.append(cut_seats_choose(table=table, picks=picks, by=request.user))

    done = _("Pod %(number)s: the seeds' seats are recorded.") % {"number": table.number}
    response = act(request, event, choose, done)
    if changed == [False]:  # the same seats again (a double tap): said once, changed nothing
        messages.info(
            request, _("Pod %(number)s already sits that way.") % {"number": table.number}
        )
    return response
