"""The player's "my event" page, where they report their table's result and confirm the
others' (services.reports), and the TO's tap that accepts one report of a disputed table.

A player is the entry of the store's player linked to the signed-in account
(`events/<slug>/me/`), or the entry of a registration whose link they hold
(`events/<slug>/me/<token>/`, the same token as their check-in link: no account needed).
The page polls itself every 15 seconds with htmx, sending the ETag of what it shows as
If-None-Match: while nothing it shows changed (the page versions of the event's rounds and
of the player's own tables, `page_versions.player_scopes`; core.pagecache) the answer is a
304 read from three queries, without rendering anything; when the next round is paired or
someone at the table reports, the new fragment replaces the old one, and a result at
another table leaves it a 304. A tap is a plain POST (it works without JavaScript) answered
by a redirect to the page; a refusal shows the page again with the message, at the error's
status.
"""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from core.errors_http import error_message

from .. import selectors
from ..errors import AlreadyDone, TournamentError
from ..formats import small_int
from ..live import POLL_SECONDS, not_modified, page_tag
from ..models import Entry, ResultReport, Tournament
from ..page_versions import player_scopes
from ..pages import run_get
from ..selectors import reports as report_selectors
from ..services import reports as reports_services
from ..services.entries import entry_drop_self
from ..services.reports import ReportClosed, report_confirm, report_submit

# What a tap did, said once on the page it lands on (?said=), by the event's format (a
# table or a pod: whole sentences, each translated; lazy, translated when shown).
SAID = {
    "reported": {
        "1v1": gettext_lazy("Reported. The others at your table confirm it on their phone."),
        "pods": gettext_lazy("Reported. The others at your pod confirm it on their phone."),
    },
    "confirmed": {
        "1v1": gettext_lazy("Confirmed. Waiting for the others at your table."),
        "pods": gettext_lazy("Confirmed. Waiting for the others at your pod."),
    },
    "result": {
        "1v1": gettext_lazy("Confirmed: the result is in."),
        "pods": gettext_lazy("Confirmed: the result is in."),
    },
    "disputed": {
        "1v1": gettext_lazy(
            "Your report differs from another at your table: agree on one, or the TO decides."
        ),
        "pods": gettext_lazy(
            "Your report differs from another at your pod: agree on one, or the TO decides."
        ),
    },
    "sided": {
        "1v1": gettext_lazy(
            "Confirmed. Your table sent different results: agree on one, or the TO decides."
        ),
        "pods": gettext_lazy(
            "Confirmed. Your pod sent different results: agree on one, or the TO decides."
        ),
    },
}


def _etag(request, event: Tournament, entry: Entry | None) -> str:
    """What the page shows depends on the event and its rounds, the player's own tables and
    their reports, the store's names (`page_versions.player_scopes`: a result or a report at
    another table changes none of them) and who is looking (their entry, and the CSRF secret
    its forms' tokens come from, which a log-in changes): one query."""
    # The page and its live fragment share the tag (the fragment is the page's live part, and
    # the answers say Vary: HX-Request), so the first poll after a load is already a 304.
    # The language too: a browser's conditional GET after the footer's switch gets the page
    # again in the new language, not a 304 keeping the old one.
    entry_id = entry.pk if entry else None
    return page_tag(request, player_scopes(event, entry_id), entry_id, get_language(), forms=True)


def _page(request, event: Tournament, entry: Entry | None, *, token: str = "", status=200):
    """The page (or, to htmx, its live fragment), or a 304 when the ETag asked about is
    still what it would show."""
    # A page with a message, or a note of what a tap did (?said=), is not for the poll.
    waiting = len(messages.get_messages(request)) > 0 or "said" in request.GET
    etag = _etag(request, event, entry)
    if not waiting and status == 200 and request.method == "GET":
        response = not_modified(request, etag)
        if response is not None:
            patch_vary_headers(response, ("HX-Request",))
            return response
    url = (
        reverse("my_event_link", kwargs={"slug": event.slug, "token": token})
        if token
        else reverse("my_event", kwargs={"slug": event.slug})
    )
    mine = report_selectors.my_seat(event, entry) if entry is not None else None
    context = {
        "event": event,
        "league": event.league,
        "entry": entry,
        "mine": mine,
        "page_url": url,
        "etag": etag,
        "poll_seconds": POLL_SECONDS,
        "by_link": bool(token),
        "token": token,
    }
    if entry is not None:
        # Their rounds and place stay for the whole event and after, seated in the open
        # round or not (dropped, outside the top cut).
        context["history"] = selectors.player_history(event, entry)
        context["standing"] = selectors.my_standing(event, entry)
    said = request.GET.get("said", "") if request.method == "GET" else ""
    if said in SAID:
        texts = SAID[said]
        context.update(said=said, said_text=str(texts.get(event.play.key, texts["1v1"])))
    template = "tournaments/reports/my_event.html"
    if request.htmx:
        template += "#live"
    response = render(request, template, context, status=status)
    if not waiting and status == 200:
        response["ETag"] = f'"{etag}"'
        response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("HX-Request",))
    return response


_TAPPED_AT = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def _queued(data) -> tuple[int | None, str]:
    """A report or confirmation sent from the player's offline queue (static/tournaments/
    offline/offline.js) says when it was tapped (`offline`, "21:14") and carries the table's
    version the player saw (`version`): (version, tapped), or (None, "") for a live tap."""
    tapped = data.get("offline")
    if tapped is None:
        return None, ""
    version = small_int(data.get("version", ""))
    if not _TAPPED_AT.fullmatch(tapped):
        raise TournamentError(
            _("This queued report's time is not a time of day (hh:mm)."), code="offline_time"
        )
    if version is None:
        raise TournamentError(
            _(
                "This queued report carries no table version: it cannot be checked against "
                "the table as it is now. Report it again."
            ),
            code="offline_version",
        )
    return version, tapped


def _act(request, event: Tournament, entry: Entry, *, token: str = "") -> HttpResponse:
    """A report or a confirmation from the page; `action` says which."""
    action = request.POST.get("action", "")
    via_link = bool(token)
    by = request.user if request.user.is_authenticated else None
    try:
        version, queued = _queued(request.POST)
        if action == "confirm":
            report_id = small_int(request.POST.get("report", ""))
            report = (
                ResultReport.objects.filter(pk=report_id, table__round__tournament=event).first()
                if report_id is not None
                else None
            )
            if report is None:
                raise TournamentError(_("Choose a report to confirm."), code="no_report")
            outcome = report_confirm(
                report=report,
                entry=entry,
                by=by,
                via_link=via_link,
                expected_version=version,
                queued=queued,
            )
        elif action == "report":
            mine = report_selectors.my_seat(event, entry)
            if mine.table is None or mine.is_bye:
                raise ReportClosed(_("You have no table to report in this round."), code="no_table")
            posted = small_int(request.POST.get("table", ""))
            if posted is not None and posted != mine.table.pk:
                raise ReportClosed(
                    _("That table is from an earlier round: here is your table now."),
                    code="round_closed",
                )
            players = [(e, name) for e, name, _ in mine.seats]
            result = event.play.read_result(request.POST, players)
            outcome = report_submit(
                table=mine.table,
                entry=entry,
                result=result,
                by=by,
                via_link=via_link,
                expected_version=version,
                queued=queued,
            )
        else:
            raise TournamentError(_("Report a result or confirm one."), code="action")
    except AlreadyDone as error:  # a double tap: said once, nothing changed
        messages.info(request, error_message(error))
        return redirect(request.path)
    except DomainError as error:
        messages.error(request, error_message(error))
        return _page(request, event, entry, token=token, status=getattr(error, "status", 400))
    if outcome.completed:
        said = "result"
    elif outcome.disputed:
        said = "sided" if action == "confirm" else "disputed"
    else:
        said = "confirmed" if action == "confirm" else "reported"
    # The note rides on the address, not in the session: the page's next update (its poll
    # asks for the address without it) takes it away, where a message would stay stale.
    return redirect(f"{request.path}?said={said}")


def _own_entry(request: HttpRequest, slug: str) -> tuple[Tournament, Entry]:
    """The event and the signed-in player's own entry in it; 403 with the reason when their
    account is linked to none of its players."""
    event = selectors.event_get(slug=slug, user=request.user)
    entry = report_selectors.own_entry(event, request.user)
    if entry is None:
        raise PermissionDenied(report_selectors.NOT_PLAYING)
    return event, entry


@login_required
@require_http_methods(["GET", "POST"])
def my_event(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in player's seat, table and result in the open round."""
    event, entry = _own_entry(request, slug)
    if request.method == "POST":
        return _act(request, event, entry)
    return _page(request, event, entry)


@login_required
@require_http_methods(["GET", "POST"])
def my_event_drop(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in player drops themselves (`services.entry_drop_self`): the page asks
    first, saying what a drop means (their results stay, no more pairings, a table still
    waiting for its result still needs it); its button posts `confirm=yes`. Only their own
    entry: the address names none. A second tap is told so on their page."""
    event, entry = _own_entry(request, slug)
    page = reverse("my_event", kwargs={"slug": event.slug})
    mine = report_selectors.my_seat(event, entry)
    asked, then = _table_notes(event, entry, mine)
    status = 200
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            entry_drop_self(entry=entry, by=request.user)
        except AlreadyDone as error:
            messages.info(request, error_message(error))
            return redirect(page)
        except DomainError as error:
            messages.error(request, error_message(error))
            status = getattr(error, "status", 400)
        else:
            done = _(
                "You have dropped from %(event)s. You keep your results and are not paired again."
            ) % {"event": event.name}
            messages.success(request, f"{done} {then}" if then else done)
            return redirect(page)
    context = {
        "event": event,
        "league": event.league,
        "entry": entry,
        "mine": mine,
        "table_note": asked,
        "page_url": page,
    }
    return render(request, "tournaments/reports/my_event_drop.html", context, status=status)


def _table_notes(event: Tournament, entry: Entry, mine) -> tuple[str, str]:
    """What the player's table still needs as they leave, as the drop page asks it and as
    the message once dropped says it ("" for each when its result is in, or a bye): its
    result, their own confirmation, the others', or one version agreed."""
    table = mine.table
    if table is None or table.reported or mine.is_bye:
        return "", ""
    state = mine.state.state if mine.state is not None else "unreported"
    if event.self_report == "off":
        key = "off"
    elif state == "waiting" and entry.pk not in mine.state.open[0].agreeing:
        key = "mine"
    elif state == "waiting":
        key = "others"
    elif state == "disputed":
        key = "disputed"
    else:
        key = "none"
    asked, then = _NOTES["pods" if event.play.key == "pods" else "1v1"][key]
    values = {"number": table.number}
    return str(asked) % values, str(then) % values


# What the player's table still needs as they drop (_table_notes): (asked on the drop page,
# said once dropped), by format and by where the table's reports stand.
_NOTES = {
    "1v1": {
        "off": (
            gettext_lazy(
                "Your table %(number)s has no result yet: tell the TO yours before you leave."
            ),
            gettext_lazy("Your table %(number)s still needs its result: tell the TO."),
        ),
        "mine": (
            gettext_lazy(
                "Your table %(number)s's result is reported and waits for you: confirm it on "
                "your page before you leave, or tell the TO."
            ),
            gettext_lazy(
                "Your table %(number)s's result waits for your confirmation: confirm it here "
                "or tell the TO."
            ),
        ),
        "others": (
            gettext_lazy(
                "Your table %(number)s's result waits for the others to confirm it: nothing "
                "more is needed from you."
            ),
            gettext_lazy("Your table %(number)s's result waits for the others to confirm it."),
        ),
        "disputed": (
            gettext_lazy(
                "Your table %(number)s sent different results: agree on one on your page "
                "before you leave, or tell the TO."
            ),
            gettext_lazy(
                "Your table %(number)s sent different results: agree on one here or tell the TO."
            ),
        ),
        "none": (
            gettext_lazy(
                "Your table %(number)s has no result yet: it still needs one. Report it on "
                "your page before you leave, or tell the TO."
            ),
            gettext_lazy(
                "Your table %(number)s still needs its result: report it here or tell the TO."
            ),
        ),
    },
    "pods": {
        "off": (
            gettext_lazy(
                "Your pod %(number)s has no result yet: tell the TO yours before you leave."
            ),
            gettext_lazy("Your pod %(number)s still needs its result: tell the TO."),
        ),
        "mine": (
            gettext_lazy(
                "Your pod %(number)s's result is reported and waits for you: confirm it on "
                "your page before you leave, or tell the TO."
            ),
            gettext_lazy(
                "Your pod %(number)s's result waits for your confirmation: confirm it here "
                "or tell the TO."
            ),
        ),
        "others": (
            gettext_lazy(
                "Your pod %(number)s's result waits for the others to confirm it: nothing "
                "more is needed from you."
            ),
            gettext_lazy("Your pod %(number)s's result waits for the others to confirm it."),
        ),
        "disputed": (
            gettext_lazy(
                "Your pod %(number)s sent different results: agree on one on your page "
                "before you leave, or tell the TO."
            ),
            gettext_lazy(
                "Your pod %(number)s sent different results: agree on one here or tell the TO."
            ),
        ),
        "none": (
            gettext_lazy(
                "Your pod %(number)s has no result yet: it still needs one. Report it on "
                "your page before you leave, or tell the TO."
            ),
            gettext_lazy(
                "Your pod %(number)s still needs its result: report it here or tell the TO."
            ),
        ),
    },
}


@require_http_methods(["GET", "POST"])
def my_event_link(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The same page through the player's link (no account needed): their registration's
    (the check-in link's code), or, for a walk-in, the signed one the TO hands them."""
    event = selectors.event_get(slug=slug, user=request.user)
    try:
        entry = report_selectors.link_entry(event, token)
    except report_selectors.BadLink:
        raise Http404(_("This link is not valid for this event.")) from None
    if request.method == "POST":
        if entry is None:
            messages.error(request, _("You hold no seat in this event: nothing to report."))
            return redirect(request.path)
        return _act(request, event, entry, token=token)
    return _page(request, event, entry, token=token)


@login_required
@require_POST
def report_accept(request: HttpRequest, slug: str, report_id: int) -> HttpResponse:
    """The TO makes one report the table's result (a disputed table's versions each have
    this button); the console shows the table as it is now."""
    event = run_get(request, slug)
    report = ResultReport.objects.filter(pk=report_id, table__round__tournament=event).first()
    if report is None:
        raise Http404(_("No such report in this event."))
    try:
        table = reports_services.report_accept(report=report, by=request.user)
    except AlreadyDone as error:
        messages.info(request, error_message(error))
    except DomainError as error:
        messages.error(request, error_message(error))
    else:
        if event.play.key == "pods":
            done = _("Pod %(number)s: %(result)s, as reported.")
        else:
            done = _("Table %(number)s: %(result)s, as reported.")
        messages.success(request, done % {"number": table.number, "result": report.summary})
    back = request.POST.get("next", "")
    if back.startswith(f"/events/{event.slug}/") and "//" not in back:
        return redirect(back)
    return redirect("event_run", slug=event.slug)
