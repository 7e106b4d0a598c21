"""What "My Guildhall" shows an account: its players (one per store), their leagues with
rating and rank, their upcoming and past events (a finished one with the player's finish,
as the event's final standings give it), and their latest games.

One query each for the players, the ratings (rank counted in SQL), the entries, the
registrations (waitlist place counted in SQL), the events open for registration, the latest
games and their cards, plus one per league shown for its rating system's settings and, for
each finished event shown, its placings (kept once per version of the event, shared with the
event's own pages). Only leagues and events the account may see are shown.
"""

from dataclasses import dataclass, field

from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext as _

from leagues.models import GameResult, Player
from leagues.permissions import visible_leagues
from leagues.selectors import game_cards
from ratings.models import Rating
from ratings.selectors import league_system
from tournaments.domain.labels import place_label
from tournaments.models import Entry, Registration, Tournament
from tournaments.page_versions import event_placings_kept
from tournaments.permissions import visible_events

GAMES_SHOWN = 10
PAST_EVENTS_SHOWN = 10


@dataclass
class EventLine:
    event: Tournament
    player: Player
    status: str  # what the player is in it: "registered", "on the waitlist (3rd)", "6th of 18"...
    upcoming: bool
    entry: Entry | None = None  # the player's entry, once they have one


@dataclass
class MyGame:
    card: object  # leagues.selectors.GameCard
    league_name: str
    player: Player  # which of the account's players played it
    player_url: str  # the league's player pages' address before the id


@dataclass
class MyGuildhall:
    players: list[Player]
    ratings: list = field(default_factory=list)  # Rating rows with .rank, .tied, .system
    upcoming: list[EventLine] = field(default_factory=list)
    past: list[EventLine] = field(default_factory=list)
    open_events: list[Tournament] = field(default_factory=list)  # registration open, not in
    games: list[MyGame] = field(default_factory=list)


def _finish(line: EventLine) -> str | None:
    """A finished event's line as the event's final standings say it ("6th of 18", with a top
    cut the cut's finish; ", dropped after round 2" added), or None: no placing (left before
    round 1, or no final standings)."""
    entry = line.entry
    if line.event.status != Tournament.Status.FINISHED or entry is None:
        return None
    if entry.dropped_after == 0:
        return None
    placings = event_placings_kept(line.event)
    finish = placings.finish(entry.player_id) if placings is not None else None
    if finish is None:
        return None
    if entry.dropped_after is not None:
        return _("%(finish)s, dropped after round %(round)s") % {
            "finish": finish.text,
            "round": entry.dropped_after,
        }
    return finish.text


def my_guildhall(*, user) -> MyGuildhall:
    players = list(
        Player.objects.filter(user=user)
        .select_related("organization")
        .order_by("organization__name")
    )
    page = MyGuildhall(players=players)
    if not players:
        return page
    ids = [p.pk for p in players]
    by_id = {p.pk: p for p in players}
    leagues = visible_leagues(user)

    ahead = Rating.objects.filter(league_id=OuterRef("league_id"), value__gt=OuterRef("value"))
    same = Rating.objects.filter(league_id=OuterRef("league_id"), value=OuterRef("value"))
    page.ratings = list(
        Rating.objects.filter(player_id__in=ids, league__in=leagues)
        .select_related("league", "league__organization")
        .annotate(
            ahead=Coalesce(
                Subquery(ahead.values("league_id").annotate(n=Count("pk")).values("n")), 0
            ),
            same=Subquery(same.values("league_id").annotate(n=Count("pk")).values("n")),
        )
        .order_by("league__organization__name", "league__name")
    )
    for rating in page.ratings:
        rating.rank = rating.ahead + 1
        rating.tied = rating.same > 1
        rating.system = league_system(league=rating.league)
        rating.provisional = rating.system.is_provisional(rating.games)

    events = visible_events(user)
    lines: dict[tuple[int, int], EventLine] = {}
    entries = (
        Entry.objects.filter(player_id__in=ids, tournament__in=events)
        .select_related("tournament", "tournament__league")
        .order_by("-tournament__date", "-tournament_id")
    )
    for entry in entries:
        event = entry.tournament
        upcoming = event.status != Tournament.Status.FINISHED
        if entry.dropped_after is not None:
            status = (
                _("left before round 1")
                if entry.dropped_after == 0
                else _("dropped after round %(round)s") % {"round": entry.dropped_after}
            )
        else:
            status = _("playing") if upcoming and event.status != "registration" else _("entered")
        lines[(event.pk, entry.player_id)] = EventLine(
            event, by_id[entry.player_id], status, upcoming, entry
        )
    registrations = (
        Registration.objects.filter(player_id__in=ids, tournament__in=events)
        .exclude(status=Registration.Status.CANCELLED)
        .select_related("tournament", "tournament__league")
        .annotate(
            ahead=Count(
                "tournament__registrations",
                # Ahead in the queue as waitlist_position counts it: arrived earlier, or at
                # the same moment with a smaller id.
                filter=Q(tournament__registrations__status=Registration.Status.WAITLISTED)
                & (
                    Q(tournament__registrations__queued_at__lt=F("queued_at"))
                    | Q(
                        tournament__registrations__queued_at=F("queued_at"),
                        tournament__registrations__id__lt=F("id"),
                    )
                ),
            )
        )
    )
    for registration in registrations:
        key = (registration.tournament_id, registration.player_id)
        event = registration.tournament
        upcoming = event.status != Tournament.Status.FINISHED
        if registration.status == Registration.Status.WAITLISTED:
            if event.status == Tournament.Status.REGISTRATION:
                status = _("on the waitlist (%(place)s)") % {
                    "place": place_label(registration.ahead + 1)
                }
            else:  # round 1 is paired: nothing left to wait for
                status = _("no seat: round 1 is paired")
        elif registration.status == Registration.Status.NO_SHOW:
            status = _("did not check in")
        elif registration.checked_in_at is not None:
            status = _("checked in")
        else:
            status = _("registered")
        if key not in lines or (upcoming and event.status == Tournament.Status.REGISTRATION):
            lines[key] = EventLine(event, by_id[registration.player_id], status, upcoming)
    ordered = sorted(lines.values(), key=lambda line: (line.event.date, line.event.pk))
    page.upcoming = [line for line in ordered if line.upcoming]
    page.past = [line for line in reversed(ordered) if not line.upcoming][:PAST_EVENTS_SHOWN]
    for line in page.past:
        line.status = _finish(line) or line.status
    page.open_events = list(
        events.filter(
            league__organization_id__in={p.organization_id for p in players},
            registration_open=True,
            status=Tournament.Status.REGISTRATION,
        )
        .exclude(pk__in={event_id for event_id, _player in lines})
        .select_related("league")
        .order_by("date", "pk")[:PAST_EVENTS_SHOWN]
    )

    latest = list(
        GameResult.objects.filter(player_id__in=ids, game__league__in=leagues)
        .order_by("-game__played_on", "-game_id")
        .values_list("game_id", "game__league__slug", "game__league__name", "player_id")[
            :GAMES_SHOWN
        ]
    )
    cards = game_cards([game_id for game_id, *_rest in latest])
    meta = {game_id: (slug, name, pid) for game_id, slug, name, pid in latest}
    games = []
    for card in cards:
        slug, name, pid = meta[card.pk]
        url = reverse("player_detail", args=[slug, 0]).removesuffix("0/")
        games.append(MyGame(card=card, league_name=name, player=by_id[pid], player_url=url))
    page.games = games
    return page
