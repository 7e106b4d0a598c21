"""The spectators' pages: the events of a league and of a store, an event's pairings with
"find my seat", its standings, the projector, the top cut's bracket, one player's night, the
calendar file, and a league's decks. Anyone who may see the league reads them; none writes.

The pages of an event (pairings, standings, projector, bracket) are kept in the shared cache
per version of the event (`core.pagecache.public_page`, `page_versions`), with ETags for a
304.
"""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.pagecache import memo, public_page
from core.search import fold, folded_order
from leagues import selectors as league_selectors
from leagues.models import League, Organization
from leagues.permissions import can_run_events_of, visible_leagues
from leagues.views import league_context

from .. import selectors
from ..domain.ical import calendar_text
from ..formats import small_int
from ..live import POLL_SECONDS, answers_poll, live_etag
from ..models import Entry, Round, Tournament
from ..page_versions import event_page_scopes, event_route, event_scopes
from ..pages import event_context
from ..selectors import decks as deck_selectors
from ..selectors import listing
from ..selectors import registration as registration_selectors


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
    return render(request, "tournaments/public/event_list.html", context)


@answers_poll
@public_page(event_page_scopes, route=event_route)
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Public: the current round's pairings by table and the alphabetical 'find my seat'."""
    event = selectors.event_get(slug=slug, user=request.user)
    # ?round=N: an earlier round's pairings (the tabs); else the current round.
    number = small_int(request.GET.get("round", ""))
    round_ = None
    if number is not None:
        round_ = event.rounds.filter(number=number).first()
    if round_ is None:
        round_ = selectors.latest_round(event)
        latest = round_.number if round_ else 0
    else:  # rounds are numbered 1, 2, ... in the order they were paired
        latest = event.rounds.order_by("-number").values_list("number", flat=True).first()
    # ?q=: "find my seat" narrowed to the names containing it (typed, or sent without script).
    query = request.GET.get("q", "").strip()[:80]
    decks = deck_selectors.shown_decks(event)
    tables = selectors.round_board(round_, decks) if round_ else []
    finder = selectors.seat_finder(tables)
    # Beside the pairings on a laptop: the standings, computed once per change of the event
    # for this page and the standings page alike.
    labels, lines = (
        memo(
            "event-standings",
            event_scopes(event),
            lambda: selectors.standing_lines(event),
            request=request,
        )
        if round_
        else ([], [])
    )
    if query:
        folded = fold(query)
        finder = [row for row in finder if folded in fold(row.name)]
    context = event_context(
        request,
        event,
        "pairings",
        round=round_,
        tables=tables,
        decks=decks,  # the deck symbols' styles are linked only where a deck shows
        rounds=list(range(1, latest + 1)),
        query=query,
        finder=finder,
        labels=labels,
        lines=lines,
        # A signed-in player of the event: the link to their deck (no query for visitors).
        my_entry=event.entries.filter(player__user=request.user).first()
        if request.user.is_authenticated and round_
        else None,
        entries=event.entries.select_related("player").order_by(*folded_order("player__name")),
        structure=selectors.structure_get(event) if event.play.suggests_cut else None,
        signup=None if round_ else registration_selectors.registration_block(request, event),
        # Who was paired without the legal list the event requires (round 1, the top cut).
        lists_not_legal=deck_selectors.lists_not_legal_at_start(event) if round_ else [],
        # What the page shows, sent back by its poll (live.answers_poll: 304 until it changes).
        live_etag=live_etag(request, event),
        poll_seconds=POLL_SECONDS,
    )
    return render(request, "tournaments/public/event_detail.html", context)


@public_page(event_page_scopes, route=event_route)
def event_standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = selectors.event_get(slug=slug, user=request.user)
    # Computed once per change of the event, whoever asks (a judge's page is not cached whole).
    labels, lines = memo(
        "event-standings",
        event_scopes(event),
        lambda: selectors.standing_lines(event),
        request=request,
    )
    context = event_context(
        request,
        event,
        "standings",
        labels=labels,
        lines=lines,
        decks=deck_selectors.shown_decks(event),
    )
    return render(request, "tournaments/public/event_standings.html", context)


@public_page(event_page_scopes, route=event_route)
def event_projector(request: HttpRequest, slug: str) -> HttpResponse:
    """Big type for the wall screen; htmx refreshes it every 30 seconds."""
    event = selectors.event_get(slug=slug, user=request.user)
    round_ = selectors.latest_round(event)
    remaining = changes_at = None
    if round_ and round_.ends_at and round_.status == Round.Status.PLAYING:
        now = timezone.now()
        left = (round_.ends_at - now).total_seconds()
        remaining = max(0, int(left // 60))
        if left > 0:  # the minutes left tick down at each whole minute before the end
            changes_at = now.timestamp() + (left % 60 or 60)
    template = "tournaments/public/projector.html"
    if request.htmx:
        template += "#board"
    context = {"event": event, "round": round_, "remaining": remaining}
    if round_ is None and event.check_in == Tournament.CheckIn.OPEN:
        context["check_in_link"] = registration_selectors.check_in_url(request, event)
        context["qr"] = registration_selectors.qr_svg(context["check_in_link"])
    board = selectors.round_board(round_) if round_ else []
    context["finder"] = selectors.seat_finder(board)
    if remaining is not None:  # the tables still playing on a judge's time extension
        context["extensions"] = [
            (t.number, t.extra_minutes) for t in board if t.extra_minutes and not t.reported
        ]
    response = render(request, template, context)
    response.cache_until = changes_at  # the shared cache renders it again from then on
    return response


@public_page(event_page_scopes, route=event_route)
def event_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The top cut as a bracket: each stage's matches or pods with seeds, who advanced marked,
    and the champion."""
    event = selectors.event_get(slug=slug, user=request.user)
    bracket = selectors.bracket_get(event)
    context = event_context(
        request, event, "bracket", columns=bracket.columns, champion=bracket.champion
    )
    return render(request, "tournaments/public/event_bracket.html", context)


def event_player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """One player's night: every round, against whom, the result and the points."""
    event = selectors.event_get(slug=slug, user=request.user)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), tournament=event, player_id=player_id
    )
    public = deck_selectors.decks_public(event)
    context = event_context(
        request,
        event,
        "standings",
        entry=entry,
        history=selectors.player_history(event, entry),
        decks={entry.player.name: deck_selectors.shown_deck(entry)}
        if public and entry.deck_name
        else {},
        commanders=deck_selectors.deck_commanders(entry) if public else [],
        decklist_shown=public,
    )
    return render(request, "tournaments/public/event_player.html", context)


@require_GET
def store_events(request: HttpRequest, org: str) -> HttpResponse:
    """A store's page: its upcoming public events. A store whose leagues are all private to
    the visitor is a 404, as it is missing from the home page; a new store with no league yet
    has its page (its address is how a series' host invites it)."""
    store = get_object_or_404(Organization, slug=org)
    has_leagues = League.objects.filter(organization=store).exists()
    if has_leagues and not visible_leagues(request.user).filter(organization=store).exists():
        raise Http404(_("No such store."))
    events = listing.upcoming_events(organization=store, limit=listing.STORE_LIMIT)
    return render(
        request, "tournaments/public/store_events.html", {"store": store, "events": events}
    )


@require_GET
def event_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """The event as an .ics file: "Add to calendar"."""
    event = selectors.event_get(slug=slug, user=request.user)
    url = request.build_absolute_uri(reverse("event_detail", kwargs={"slug": event.slug}))
    entry = listing.calendar_event(event, url=url, host=request.get_host().split(":")[0])
    response = HttpResponse(calendar_text(entry), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.ics"'
    return response


def league_decks(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's decks (games, wins, win rate by deck over its events' public decks) and
    its seats (the win rate of each seat in 4-player pods, with a 95% interval)."""
    league = league_selectors.league_get(slug=slug, user=request.user)
    context = league_context(
        request,
        league,
        "decks",
        decks=deck_selectors.league_deck_rates(league.pk),
        seats=deck_selectors.league_seat_rates(league.pk, 4),
    )
    return render(request, "tournaments/public/league_decks.html", context)
