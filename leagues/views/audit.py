"""The organizers' history page: every recorded change of a store, newest first, and undo.

Only owners and organizers of the store (and superusers) get here; to everyone else,
logged in or not, the page does not exist (404), so it does not reveal a store's activity.
The undo button posts to `audit_undo`, which goes through audit.services.audit_undo. The
page can be narrowed to a league or to an event; events are found through the scope the
tournaments app registers (`audit.registry`), so this app does not import the one above it.
"""

import re
from datetime import date, datetime
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from audit.errors import UndoRefused
from audit.models import AuditEntry
from audit.registry import fields_get, scope_get
from audit.services import audit_undo as undo_entry
from audit.summary import Summary
from core.errors_http import error_response
from core.languages import store_activate
from core.zones import zone_activate

from .. import services
from ..domain.history import changes
from ..models import League, Organization
from ..permissions import can_manage_organization
from ..tables import HISTORY_PER_PAGE, HistoryTable
from . import league_context


def _managed_organization(request: HttpRequest, slug: str) -> Organization:
    organization = get_object_or_404(Organization, slug=slug)
    if not can_manage_organization(request.user, organization):
        raise Http404(_("No such page."))
    # The store's History is dated on its clock, as its events' pages are (core.zones).
    zone_activate(services.store_time_zone(organization))
    store_activate(organization.language)
    return organization


def _filters(organization: Organization, data) -> tuple[League | None, object | None]:
    """The league and event the page is narrowed to (?league=, ?tournament=), of this store."""
    league = tournament = None
    events = scope_get("tournament")
    if data.get("tournament") and events is not None:
        tournament = events.get(organization, data["tournament"])
        if tournament is None:
            raise Http404(_("No such event."))
        league = tournament.league
    elif data.get("league"):
        league = get_object_or_404(
            League.objects.select_related("organization"),
            slug=data["league"],
            organization=organization,
        )
    return league, tournament


def _query(league: League | None, tournament) -> str:
    if tournament is not None:
        return urlencode({"tournament": tournament.slug})
    if league is not None:
        return urlencode({"league": league.slug})
    return ""


# A day and a moment as an entry keeps them (`isoformat()`; a moment with its offset).
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)$")


def history_value(value) -> str:
    """A field's value as the History writes it in the reader's language: a sentence kept
    before translation (`Summary.to_json`), a moment on the store's clock and a day in the
    language's own format, anything else as it is (a name, a number, a text of before)."""
    if isinstance(value, dict) and "t" in value:
        try:
            return Summary.from_json(value).render()
        except (KeyError, TypeError, ValueError):
            return str(value)
    if isinstance(value, str) and _MOMENT.match(value):
        moment = datetime.fromisoformat(value)
        return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")
    if isinstance(value, str) and _DAY.match(value):
        return date_format(date.fromisoformat(value), "SHORT_DATE_FORMAT")
    if isinstance(value, dict):
        return ", ".join(f"{key}: {history_value(item)}" for key, item in sorted(value.items()))
    return str(value)


@require_GET
def audit_log(request: HttpRequest, org: str) -> HttpResponse:
    organization = _managed_organization(request, org)
    league, tournament = _filters(organization, request.GET)
    entries = AuditEntry.objects.filter(organization=organization).select_related(
        "league", "reverts", "reverted_by"
    )
    if tournament is not None:
        entries = entries.filter(tournament_id=tournament.pk)
    elif league is not None:
        entries = entries.filter(league=league)
    table = HistoryTable(entries)
    RequestConfig(request, paginate={"per_page": HISTORY_PER_PAGE}).configure(table)
    for row in table.page.object_list:  # the page's entries only
        entry = row.record
        entry.lines_before, entry.lines_after = changes(
            entry.object_type,
            entry.before,
            entry.after,
            fields_get(entry.object_type),
            history_value,
        )
        entry.undone = hasattr(entry, "reverted_by")
    context = {
        "organization": organization,
        "table": table,
        "filter_league": league,
        "filter_tournament": tournament,
        "leagues": organization.leagues.order_by("name"),
        "tournaments": events.choices(organization) if (events := scope_get("tournament")) else [],
    }
    if league is not None:  # the league's menu on top, with History marked
        context = league_context(request, league, "history", **context)
    return render(request, "leagues/audit_log.html", context)


@require_POST
def audit_undo(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    """Undo one correction or deletion; a refusal says why (409 to htmx) and changes nothing."""
    organization = _managed_organization(request, org)
    entry = get_object_or_404(AuditEntry, pk=pk, organization=organization)
    league, tournament = _filters(organization, request.POST)
    target = reverse("audit_log", args=[organization.slug])
    query = _query(league, tournament)
    if query:
        target += f"?{query}"
    try:
        undo = undo_entry(entry=entry, by=request.user)
    except (services.LeagueError, UndoRefused) as error:
        # Every refusal of an undo is a conflict with the log as it is now.
        return error_response(
            request, error, redirect_to=target, status=409, prefix=_("Not undone:") + " "
        )
    messages.success(
        request,
        _("Undone: %(summary)s. %(action)s.")
        % {"summary": entry.summary_text, "action": undo.get_action_display()},
    )
    return redirect(target)
