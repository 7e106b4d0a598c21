"""Reads for the league pages: one function per page's data, a fixed number of queries each."""

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Exists, Max, OuterRef, Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.languages import store_activate
from core.search import folded_order, name_contains

from .domain.ordinals import ordinal
from .models import (
    MANAGER_ROLES,
    ClaimCode,
    GameResult,
    League,
    Organization,
    Player,
    PlayerClaim,
)
from .permissions import managed_organization_ids, scope, visible_leagues


def league_get(
    *, slug: str, user, related: tuple[str, ...] = (), annotate: dict | None = None
) -> League:
    """The league if `user` may see it; 404 otherwise, so private leagues do not leak.
    `related`: more one-to-one rows to read in the same query (the ratings pages' settings);
    `annotate`: more values read with it (the standings' re-rating job)."""
    try:
        leagues = visible_leagues(user).select_related(*related)
        league = (leagues.annotate(**annotate) if annotate else leagues).get(slug=slug)
    except League.DoesNotExist:
        raise Http404(_("No such league.")) from None
    # A league's pages are its store's: in the store's language unless the visitor chose one.
    store_activate(league.organization.language)
    return league


def organization_list_with_leagues(*, user) -> list[Organization]:
    """Organizations that have at least one league `user` may see, each with `.shown_leagues`."""
    leagues = list(
        visible_leagues(user)
        .annotate(game_count=Count("games"), last_played=Max("games__played_on"))
        .order_by("organization__name", "name")
    )
    organizations: dict[int, Organization] = {}
    for league in leagues:
        org = organizations.setdefault(league.organization_id, league.organization)
        if not hasattr(org, "shown_leagues"):
            org.shown_leagues = []
        org.shown_leagues.append(league)
    return list(organizations.values())


def stores_managed(*, user) -> QuerySet:
    """The stores whose setup page `user` opens (owner or organizer; a superuser every store,
    a new one with no owner yet included), for the home page."""
    if not (user.is_authenticated and user.is_active):
        return Organization.objects.none()
    if user.is_superuser:
        return Organization.objects.order_by("name")
    return Organization.objects.filter(
        memberships__user=user, memberships__role__in=MANAGER_ROLES
    ).order_by("name")


def _with_results(games: QuerySet) -> QuerySet:
    return games.select_related("entered_by").prefetch_related(
        Prefetch(
            "results",
            queryset=GameResult.objects.select_related("player").order_by(
                "placement", "seat", "id"
            ),
        )
    )


def league_game_ids(*, league: League) -> QuerySet:
    """The ids of the league's games, newest first (page them, then read `game_cards`)."""
    return league.games.order_by("-played_on", "-id").values_list("id", flat=True)


@dataclass(slots=True)
class ResultLine:
    """A player's line in a game card; ratings.selectors.attach_rating_changes fills the
    rating change (`delta` None: the game is not rated yet)."""

    placement: int
    place_label: str
    player_id: int
    name: str
    seat: int | None
    delta: float | None = None
    change_text: str = ""  # "+12", "3.5" after a minus sign, or "0"
    change_css: str = ""  # "up", "down" or ""
    change_title: str = ""  # "rating 1500 → 1512"


@dataclass(slots=True)
class GameCard:
    """A game as the game log and a player's page show it: plain values, one query."""

    pk: int
    played_on: datetime.date
    source: str
    notes: str
    results: list[ResultLine] = field(default_factory=list)


# "1st" per (language, place): a game log draws hundreds of them (keyed by the language, as
# every module-level value holding translated text is).
_PLACE_LABELS: dict[tuple[str, int], str] = {}


def _place_label(placement: int) -> str:
    key = (get_language(), placement)
    label = _PLACE_LABELS.get(key)
    if label is None:
        label = _PLACE_LABELS[key] = ordinal(placement)
    return label


def game_cards(game_ids) -> list[GameCard]:
    """The games of `game_ids`, in that order, each with its results by place (seat, entry),
    from one query of plain values: the game log's and a player's page's 25 games."""
    ids = list(game_ids)
    rows = (
        GameResult.objects.filter(game_id__in=ids)
        .order_by("game_id", "placement", "seat", "id")
        .values_list(
            "game_id",
            "game__played_on",
            "game__source",
            "game__notes",
            "placement",
            "player_id",
            "player__name",
            "seat",
        )
    )
    cards: dict[int, GameCard] = {}
    for game, played_on, source, notes, placement, player, name, seat in rows:
        card = cards.get(game)
        if card is None:
            card = cards[game] = GameCard(game, played_on, source, notes)
        card.results.append(ResultLine(placement, _place_label(placement), player, name, seat))
    return [cards[pk] for pk in ids if pk in cards]


def league_games_in_rating_order(*, league: League) -> QuerySet:
    """The league's games in the order they are rated (date, then entry), with results."""
    return _with_results(league.games.order_by("played_on", "id"))


def league_player_get(*, league: League, player_id: int) -> Player:
    """A player of the league's organization who has played in the league (else 404)."""
    # EXISTS stops at the player's first game here; a join with DISTINCT read all of them (a
    # regular's 300 rows, 1-2 ms of the player page).
    played = GameResult.objects.filter(player=OuterRef("pk"), game__league=league)
    player = (
        Player.objects.filter(pk=player_id, organization_id=league.organization_id)
        .filter(Exists(played))
        .first()
    )
    if player is None:
        raise Http404(_("No such player in this league."))
    return player


def player_game_ids(*, league: League, player: Player) -> QuerySet:
    """The ids of the player's games in the league, newest first (see `game_cards`)."""
    return (
        league.games.filter(results__player=player)
        .order_by("-played_on", "-id")
        .values_list("id", flat=True)
    )


def league_player_names(*, league: League) -> list[str]:
    """Names to suggest when entering a game: the organization's players, by name."""
    return list(
        Player.objects.filter(organization_id=league.organization_id)
        .order_by(*folded_order("name"))
        .values_list("name", flat=True)
    )


def managed_leagues(*, user) -> QuerySet:
    """Leagues whose games `user` may enter, correct and import."""
    return scope(League.objects.select_related("organization"), managed_organization_ids(user))


def claims_waiting(*, organization: Organization) -> QuerySet:
    """The store's claims waiting for an answer, oldest first."""
    return (
        PlayerClaim.objects.filter(
            player__organization=organization, status=PlayerClaim.Status.PENDING
        )
        .select_related("player", "user")
        .order_by("created_at", "pk")
    )


def players_accounts(*, organization: Organization, query: str = "") -> QuerySet:
    """The store's players (those whose name contains `query`, accents and case aside:
    core.search) with their account
    (`user`) and `open_code` (whether an unused claim code exists); the table sorts and pages
    it (leagues.tables.PlayerAccountTable)."""
    players = Player.objects.filter(organization=organization).select_related("user")
    if query:
        players = name_contains(players, "name", query)
    unused = ClaimCode.objects.filter(player=OuterRef("pk"), used_at__isnull=True)
    return players.annotate(open_code=Exists(unused))


@dataclass(frozen=True)
class ClaimState:
    """What a player's page offers `user` about linking accounts: shows "claimed" when the
    player has an account (never whose), "This is me" to an account that may claim them."""

    claimed: bool
    mine: bool = False
    can_claim: bool = False
    waiting: bool = False


def player_claim_state(*, player: Player, user) -> ClaimState:
    if player.user_id is not None:
        return ClaimState(claimed=True, mine=user.is_authenticated and player.user_id == user.pk)
    if not user.is_authenticated:
        return ClaimState(claimed=False)
    if Player.objects.filter(organization_id=player.organization_id, user=user).exists():
        return ClaimState(claimed=False)  # the account is another player of this store
    waiting = PlayerClaim.objects.filter(
        player=player, user=user, status=PlayerClaim.Status.PENDING
    ).exists()
    return ClaimState(claimed=False, can_claim=not waiting, waiting=waiting)
