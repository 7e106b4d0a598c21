"""The judges' desk and the calls that reach it.

The desk (`judge/`) lists the open calls, the longest waiting first, and polls itself every
`DESK_POLL_SECONDS` with htmx, sending the ETag of what it shows: while no call, penalty or deck
check of the event changed (the desk's page version, judging.page_versions) the answer is a
304 from the permission check and one query of the versions; a new call swaps the queue in and
says so. Every tap is a plain POST answered by a redirect (it works without JavaScript); a
refusal is said on the page it lands on. Only those who run the event (the store's owners,
organizers and judges, and the event's own judges) see the desk, the notes and the penalties
of others; a player calls and cancels from their own page and sees only their own penalties.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import DomainError
from core.errors_http import error_message
from tournaments import selectors as event_selectors
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.formats import small_int
from tournaments.live import not_modified, page_tag
from tournaments.models import Entry, Table, Tournament
from tournaments.pages import event_context, run_get
from tournaments.selectors import reports as report_selectors
from tournaments.services.clock import MAX_EXTENSION

from . import labels, selectors
from .domain import deckcheck
from .models import DeckCheck, JudgeCall
from .page_versions import desk_scopes
from .services.calls import call_cancel, call_create, call_done, call_take
from .services.deck_checks import deck_check_done, deck_check_start
from .services.penalties import penalty_give

DESK_POLL_SECONDS = 2
# A 1v1 match's games so far, the penalized player's first (the form's choice).
GAMES_SO_FAR = {"0-0": (0, 0), "1-0": (1, 0), "0-1": (0, 1), "1-1": (1, 1)}


def _said(request, error: DomainError) -> None:
    if isinstance(error, AlreadyDone):
        messages.info(request, error_message(error))
    else:
        messages.error(request, error_message(error))


# --- The desk -------------------------------------------------------------------------------


@login_required
@require_GET
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    waiting = len(messages.get_messages(request)) > 0
    # The event's own version too: the desk shows the round's clock, which the TO moves.
    scopes = [*desk_scopes(event.pk), ("event", event.pk)]
    etag = page_tag(request, scopes, request.user.pk, forms=True)
    if not waiting:
        response = not_modified(request, etag)
        if response is not None:
            patch_vary_headers(response, ("HX-Request",))
            return response
    queue = selectors.call_queue(event)
    shown = small_int(request.GET.get("shown", "")) or 0
    context = event_context(
        request,
        event,
        "judge",
        queue=queue,
        closed=selectors.calls_closed(event),
        etag=etag,
        poll_seconds=DESK_POLL_SECONDS,
        newest=max((line.call.pk for line in queue), default=0),
        shown=shown,
        arrived=request.htmx and any(line.call.pk > shown for line in queue),
        max_extension=MAX_EXTENSION,
        round=event_selectors.latest_round(event),
        extension_label=event.play.table_sentence(
            pgettext("a 1v1 table", "Time extension for the table (minutes, added)"),
            pgettext("a pod", "Time extension for the pod (minutes, added)"),
        ),
    )
    template = "judging/desk.html" + ("#queue" if request.htmx else "")
    response = render(request, template, context)
    if not waiting:
        response["ETag"] = f'"{etag}"'
        response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("HX-Request",))
    return response


@login_required
@require_POST
def desk_calls(request: HttpRequest, slug: str) -> HttpResponse:
    """A judge's tap on a call: "on my way", "done" (note, extension) or "cancel"."""
    event = run_get(request, slug)
    action = request.POST.get("action", "")
    call_id = small_int(request.POST.get("call", ""))
    call = JudgeCall.objects.filter(pk=call_id, tournament=event).first() if call_id else None
    # Each sentence whole for a table and for a pod (`Format.table_sentence`).
    say = event.play.table_sentence
    try:
        if call is None:
            raise TournamentError(_("That call is not one of this event's."), code="no_call")
        where = {"number": call.table.number}
        if action == "take":
            call_take(call=call, by=request.user)
            text = say(
                pgettext("a 1v1 table", "On your way to table %(number)s."),
                pgettext("a pod", "On your way to pod %(number)s."),
            )
            messages.success(request, text % where)
        elif action == "done":
            minutes = request.POST.get("minutes", "").strip()
            extension = small_int(minutes) if minutes else 0
            if extension is None:
                raise TournamentError(
                    _("The time extension is a whole number of minutes."), code="minutes"
                )
            call_done(
                call=call,
                by=request.user,
                note=request.POST.get("note", ""),
                extension_minutes=extension,
            )
            if extension:
                text = say(
                    pgettext(
                        "a 1v1 table",
                        "Call from table %(number)s done, +%(minutes)s min for the table.",
                    ),
                    pgettext(
                        "a pod", "Call from pod %(number)s done, +%(minutes)s min for the pod."
                    ),
                )
                text %= {**where, "minutes": extension}
            else:
                text = say(
                    pgettext("a 1v1 table", "Call from table %(number)s done."),
                    pgettext("a pod", "Call from pod %(number)s done."),
                )
                text %= where
            messages.success(request, text)
        elif action == "cancel":
            call_cancel(call=call, entry=None, by=request.user)
            text = say(
                pgettext("a 1v1 table", "Call from table %(number)s cancelled."),
                pgettext("a pod", "Call from pod %(number)s cancelled."),
            )
            messages.success(request, text % where)
        else:
            raise TournamentError(_("Take a call, close it or cancel it."), code="action")
    except DomainError as error:
        _said(request, error)
    return redirect("judge_desk", slug=event.slug)


@login_required
@require_POST
def table_call(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The TO calls a judge to a table from its card on the console."""
    event = run_get(request, slug)
    table = Table.objects.filter(pk=table_id, round__tournament=event).select_related("round")
    table = table.first()
    if table is None:
        raise Http404("No such table in this event.")
    try:
        call_create(table=table, entry=None, reason=request.POST.get("reason", ""), by=request.user)
    except DomainError as error:
        _said(request, error)
    else:
        text = event.play.table_sentence(
            pgettext("a 1v1 table", "A judge is called to table %(number)s: the desk shows it."),
            pgettext("a pod", "A judge is called to pod %(number)s: the desk shows it."),
        )
        messages.success(request, text % {"number": table.number})
    return redirect("event_run", slug=event.slug)


# --- Penalties ------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def penalties(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    error = None
    posted = {}
    if request.method == "POST":
        posted = request.POST
        entry_id = small_int(request.POST.get("entry", ""))
        entry = Entry.objects.filter(pk=entry_id, tournament=event).select_related("player")
        entry = entry.first() if entry_id else None
        try:
            if entry is None:
                raise TournamentError(_("Choose the player."), code="entry", field="entry")
            row = penalty_give(
                entry=entry,
                infraction=request.POST.get("infraction", ""),
                penalty=request.POST.get("penalty", "") or None,
                note=request.POST.get("note", ""),
                deviation_reason=request.POST.get("deviation_reason", ""),
                games=GAMES_SO_FAR.get(request.POST.get("games", "")),
                by=request.user,
            )
        except DomainError as exc:
            error = exc
        else:
            said = [
                _("%(player)s: %(penalty)s for %(infraction)s.")
                % {
                    "player": entry.player.name,
                    "penalty": row.get_penalty_display(),
                    "infraction": row.get_infraction_display(),
                }
            ]
            if row.upgrade_reason and not row.deviates:
                said.append(_("Upgraded: %(reason)s.") % {"reason": row.upgrade_text})
            if row.result_entered:
                said.append(_("Result entered (%(result)s).") % {"result": row.result_text})
            messages.success(request, " ".join(said))
            return redirect("judge_penalties", slug=event.slug)
    entries = list(event.entries.select_related("player").order_by("player__name"))
    context = event_context(
        request,
        event,
        "judge",
        log=selectors.penalty_log(event),
        entries=entries,
        infractions=selectors.infraction_choices(),
        penalties=list(labels.PENALTIES.items()),
        games_so_far=list(GAMES_SO_FAR) if event.play.penalty_asks_games else [],
        ipg_version=labels.IPG_VERSION,
        error=error,
        posted=posted,
    )
    status = getattr(error, "status", 400) if error else 200
    return render(request, "judging/penalties.html", context, status=status)


# --- Deck checks ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def deck_checks(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "start":
                table_id = small_int(request.POST.get("table", ""))
                table = Table.objects.filter(pk=table_id, round__tournament=event).first()
                if table is None:
                    raise TournamentError(
                        _("That table is not one of this event's."), code="no_table"
                    )
                deck_check_start(table=table, by=request.user)
                text = event.play.table_sentence(
                    pgettext("a 1v1 table", "Deck check of table %(number)s started."),
                    pgettext("a pod", "Deck check of pod %(number)s started."),
                )
                messages.success(request, text % {"number": table.number})
            elif action == "done":
                check_id = small_int(request.POST.get("check", ""))
                check = DeckCheck.objects.filter(pk=check_id, tournament=event).first()
                if check is None:
                    raise TournamentError(
                        _("That check is not one of this event's."), code="no_check"
                    )
                minutes = small_int(request.POST.get("minutes", "").strip() or "0")
                if minutes is None:
                    raise TournamentError(
                        _("The check's time is a whole number of minutes."), code="minutes"
                    )
                deck_check_done(
                    check=check, minutes=minutes, note=request.POST.get("note", ""), by=request.user
                )
                text = event.play.table_sentence(
                    pgettext(
                        "a 1v1 table",
                        "Deck check of table %(number)s done: +%(minutes)s min for the table.",
                    ),
                    pgettext(
                        "a pod", "Deck check of pod %(number)s done: +%(minutes)s min for the pod."
                    ),
                )
                messages.success(request, text % {"number": check.table.number, "minutes": minutes})
            else:
                raise TournamentError(_("Start a check or finish one."), code="action")
        except DomainError as error:
            _said(request, error)
        back = request.POST.get("next", "")
        if back.startswith("?") and "//" not in back:
            return redirect(reverse("judge_deck_checks", kwargs={"slug": event.slug}) + back)
        return redirect("judge_deck_checks", slug=event.slug)
    count = small_int(request.GET.get("count", "")) or 2
    count = max(1, min(count, 20))
    mode = request.GET.get("mode", "random")
    mode = mode if mode in deckcheck.MODES else "random"
    top = small_int(request.GET.get("top", "")) or 25
    top = max(1, min(top, 100))
    round_ = event_selectors.latest_round(event)
    # The seed: the event's and the round's, so the same round proposes the same tables
    # on every phone until someone asks for another pick (?pick=).
    pick = small_int(request.GET.get("pick", "")) or 0
    seed = event.seed * 1000 + (round_.number if round_ else 0) * 10 + pick
    playing, proposals, checks = selectors.deck_check_round(
        event, count=count, mode=mode, top_percent=top, seed=seed
    )
    context = event_context(
        request,
        event,
        "judge",
        round=playing,
        proposals=proposals,
        checks=checks,
        count=count,
        mode=mode,
        top=top,
        pick=pick,
        modes=list(labels.DECK_CHECK_MODES.items()),
        query=request.GET.urlencode(),
        minutes_label=event.play.table_sentence(
            pgettext("a 1v1 table", "Minutes it took (the table's time extension)"),
            pgettext("a pod", "Minutes it took (the pod's time extension)"),
        ),
    )
    return render(request, "judging/deck_checks.html", context)


# --- A player's call ------------------------------------------------------------------------


def _player_act(request, event: Tournament, entry: Entry, page: str, *, via_link: bool):
    action = request.POST.get("action", "call")
    by = request.user if request.user.is_authenticated else None
    try:
        if action == "cancel":
            call_id = small_int(request.POST.get("call", ""))
            call = JudgeCall.objects.filter(pk=call_id, tournament=event).first()
            if call is None:
                raise TournamentError(_("There is no such call to cancel."), code="no_call")
            call_cancel(call=call, entry=entry, by=by, via_link=via_link)
            messages.success(request, _("Your judge call is cancelled."))
        else:
            table = selectors.my_table(entry)
            if table is None:
                raise TournamentError(
                    event.play.table_sentence(
                        pgettext(
                            "a 1v1 table",
                            "You have no table being played: find a judge at the desk.",
                        ),
                        pgettext(
                            "a pod", "You have no pod being played: find a judge at the desk."
                        ),
                    ),
                    code="no_table",
                )
            call_create(
                table=table,
                entry=entry,
                reason=request.POST.get("reason", ""),
                by=by,
                via_link=via_link,
            )
            messages.success(request, _("A judge is called: stay at your table."))
    except DomainError as error:
        _said(request, error)
    return redirect(page)


@login_required
@require_POST
def player_call(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in player calls a judge to their table (or cancels their own call)."""
    event = event_selectors.event_get(slug=slug, user=request.user)
    entry = report_selectors.own_entry(event, request.user)
    if entry is None:
        raise PermissionDenied(report_selectors.NOT_PLAYING)
    page = reverse("my_event", kwargs={"slug": event.slug})
    return _player_act(request, event, entry, page, via_link=False)


@require_POST
def player_call_link(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The same through the player's link (their registration's, or a walk-in's signed one)."""
    event = event_selectors.event_get(slug=slug, user=request.user)
    try:
        entry = report_selectors.link_entry(event, token)
    except report_selectors.BadLink:
        raise Http404("This link is not valid for this event.") from None
    page = reverse("my_event_link", kwargs={"slug": event.slug, "token": token})
    if entry is None:
        messages.error(request, _("You hold no seat in this event: there is no table to call to."))
        return redirect(page)
    return _player_act(request, event, entry, page, via_link=True)
