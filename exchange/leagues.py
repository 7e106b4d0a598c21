"""The document's store (leagues.models): the organization with its logo, its members (for
the record), its players by name, each league's own row and its games with their results,
keyed in rating order for the events and claims that name them.
"""

import base64
import binascii
import zoneinfo

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from exchange.document import Importer, Node, build, check_row_rules, fields
from leagues.domain.colour import AccentProblem, accent_clean
from leagues.domain.images import LogoProblem, logo_check
from leagues.domain.ranking import RankingError, validate_places
from leagues.models import Game, GameResult, League, Organization, Player

# The model fields written for each row, by the model's own names. Relations are written
# separately, by name or key. Every listed field is required on import except created_at.
ORGANIZATION_FIELDS = (
    "name",
    "slug",
    "created_at",
    "address",
    "time_zone",
    "accent",
    "short_name",
    "language",
)
PLAYER_FIELDS = ("name", "created_at", "sees_private_leagues")
LEAGUE_FIELDS = ("name", "slug", "game_label", "is_public", "starts_on", "ends_on", "created_at")
GAME_FIELDS = ("played_on", "source", "notes", "created_at")
RESULT_FIELDS = ("placement", "seat", "stats")


def organization_export(organization: Organization) -> dict:
    return {**fields(organization, ORGANIZATION_FIELDS), "logo": _logo_export(organization)}


def _logo_export(organization: Organization) -> str | None:
    """The store's logo as base64 text (a few dozen kilobytes), or None."""
    if not organization.logo_type or organization.logo is None:
        return None
    return base64.b64encode(bytes(organization.logo)).decode("ascii")


def members_export(organization: Organization) -> list[dict]:
    members = organization.memberships.select_related("user").order_by("user__username")
    return [{"username": m.user.get_username(), "role": m.role} for m in members]


def players_export(organization: Organization) -> list[dict]:
    players = organization.players.select_related("user").order_by("name", "id")
    return [
        {
            **fields(p, PLAYER_FIELDS),
            "account": p.user.get_username() if p.user else None,
        }
        for p in players
    ]


def league_export(league: League) -> dict:
    return fields(league, LEAGUE_FIELDS)


def games_export(league: League) -> tuple[list[dict], dict[int, int]]:
    """The league's games in rating order, each with its key (from 1), and the keys by id."""
    results = GameResult.objects.select_related("player").order_by("placement", "seat", "id")
    games = league.games.order_by("played_on", "id").prefetch_related(
        Prefetch("results", queryset=results)
    )
    keys = {}
    exported_games = []
    for key, game in enumerate(games, start=1):
        keys[game.pk] = key
        exported_games.append(
            {
                "key": key,
                **fields(game, GAME_FIELDS),
                "results": [
                    {"player": r.player.name, **fields(r, RESULT_FIELDS)}
                    for r in game.results.all()
                ],
            }
        )
    return exported_games, keys


# --- import ---------------------------------------------------------------------------------


def organization_import(root: Node) -> Organization:
    """The organization's row, saved, after its own checks and the site's: a new slug."""
    org_node = root.obj("organization")
    organization = build(Organization, org_node, ORGANIZATION_FIELDS)
    zone = org_node.get("time_zone", "")
    if zone and zone not in zoneinfo.available_timezones():
        raise org_node.error(_("no time zone %(zone)s") % {"zone": repr(zone)}, "time_zone")
    try:
        organization.accent = accent_clean(organization.accent)
    except AccentProblem as problem:
        raise org_node.error(str(problem), "accent") from None
    _logo_import(organization, org_node)
    if Organization.objects.filter(slug=organization.slug).exists():
        raise org_node.error(
            f'this site already has an organization "{organization.slug}"; an import only '
            "creates a new one",
            "slug",
        )
    check_row_rules(organization, org_node)
    organization.save()
    return organization


def _logo_import(organization: Organization, node: Node) -> None:
    """The logo, checked as an upload is (documents written before logos have none)."""
    text = node.get("logo", None)
    if text is None:
        return
    try:
        data = base64.b64decode(text, validate=True) if isinstance(text, str) else None
    except binascii.Error:
        data = None
    if data is None:
        raise node.error(_("must be an image as base64 text, or null"), "logo")
    try:
        organization.logo_type = logo_check(data)
    except LogoProblem as problem:
        raise node.error(str(problem), "logo") from None
    organization.logo = data


def players_import(root: Node, organization: Organization) -> dict[str, Player]:
    """Every player, by name as written; names are unique ignoring case, as in the database."""
    players: dict[str, Player] = {}
    seen: dict[str, str] = {}
    for node in root.items("players"):
        player = build(Player, node, PLAYER_FIELDS, organization=organization)
        folded = player.name.lower()
        if folded in seen:
            raise node.error(
                f'"{player.name}" is already {seen[folded]} (player names are unique, '
                "ignoring case)",
                "name",
            )
        seen[folded] = node.path
        players[folded] = player
    Player.objects.bulk_create(players.values())
    return players


def league_import(state: Importer, node: Node, organization: Organization) -> League:
    """The league's own row, saved (its ratings, games and events are read after it)."""
    league = build(League, node, LEAGUE_FIELDS, organization=organization)
    state.unique_slug(league, node)
    check_row_rules(league, node)
    league.save()
    return league


def games_import(
    state: Importer, league_node: Node, league: League
) -> dict[int, tuple[Game, Node]]:
    games: dict[int, tuple[Game, Node]] = {}
    results: list[tuple[Game, list[GameResult]]] = []
    for node in league_node.items("games"):
        key = node.integer("key")
        if key in games:
            raise node.error(
                _("the key %(key)s is already %(path)s") % {"key": key, "path": games[key][1].path},
                "key",
            )
        game = build(Game, node, GAME_FIELDS, league=league)
        games[key] = (game, node)
        results.append((game, _results(state, node, game)))
    Game.objects.bulk_create([game for game, _ in games.values()])
    rows = []
    for game, game_results in results:
        for row in game_results:
            row.game = game
            rows.append(row)
    GameResult.objects.bulk_create(rows)
    state.games += len(games)
    return games


def _results(state: Importer, game_node: Node, game: Game) -> list[GameResult]:
    rows, seen, seats = [], {}, {}
    nodes = game_node.items("results")
    for node in nodes:
        player = state.player(node)
        if player.name in seen:
            raise node.error(
                _('"%(name)s" is already %(name2)s')
                % {"name": player.name, "name2": seen[player.name]},
                "player",
            )
        seen[player.name] = node.path
        row = build(GameResult, node, RESULT_FIELDS, player=player)
        if not isinstance(row.stats, dict):
            raise node.error(_("must be an object (a stat's name to its value)"), "stats")
        if row.seat is not None:
            if row.seat in seats:
                raise node.error(
                    _("seat %(seat)s is already %(seat2)s")
                    % {"seat": row.seat, "seat2": seats[row.seat]},
                    "seat",
                )
            seats[row.seat] = node.path
        rows.append(row)
    try:
        validate_places([row.placement for row in rows])
    except RankingError as error:
        raise game_node.error(str(error), "results") from None
    return rows


# -- tournaments --
