"""An organization's data as one JSON document, and back: a move to another Guildhall site.

`organization_export` writes everything people entered: the organization, its players (by
name), its leagues with their rating settings, every game with its results, and every
tournament with its entries, rounds, tables (matches, pods, byes, the top cut), seats,
results, drops, the players' own reports of their results with the others'
confirmations, the judges' penalties, each league's points seasons (their point tables
and the events they count) and its achievements (their definitions, the points per game and
placing, and the players' claims and the organizers' awards). It leaves out what is derived
(the rating ledger and the season tables: the import replays them; the achievement
leaderboard, computed on read) and what is secret or personal to the site (API tokens,
user accounts, passwords; members' usernames are written as plain text, for the record, and
not imported): `NOT_EXPORTED` names each column left out and why, and a test holds every
other column to the document.

`organization_import` reads such a document into a site that does not have the organization
yet, all or nothing, in one transaction; then it replays every league's ratings, so standings
and ratings equal the originals. Any problem raises `ExchangeError` naming the JSON path of
the offending value (`$.leagues[0].games[3].results[1].player`), and nothing is written.

The format is explicit field lists (not `dumpdata`): rows refer to each other by what people
see (player names; a table's game by the game's `key` in its league), never by database ids,
so ids are fresh on import and the format only changes with `VERSION`. A key added since
version 1 was first written is optional on import (`OPTIONAL_FIELDS`, and the lists
`registrations`, `penalties`, `reports`, `seasons`, `achievements` and the keys `series`,
`logo` and `achievement_scoring`): an older document still reads. A series shared with other
stores is not the store's alone to carry (`NOT_EXPORTED_MODELS`). Games are listed in rating
order (date, then entry) and imported in that order, which keeps their rating order.

    {"format": "guildhall-organization", "version": 1, "exported_at": "...",
     "organization": {"name", "slug", "created_at", "address", "time_zone",
                      "accent", "short_name", "logo"},                # logo: base64, or null
     "members": [{"username", "role"}],                      # not imported
     "players": [{"name", "account", "created_at",          # account: not imported
                  "sees_private_leagues"}],
     "leagues": [{"name", "slug", "game_label", "is_public", "starts_on", "ends_on",
                  "created_at", "rating": {"system", "params"},
                  "games": [{"key", "played_on", "source", "notes", "created_at",
                             "results": [{"player", "placement", "seat", "stats"}]}],
                  "tournaments": [{"name", "slug", "date", "format", "status", "points_win",
                                   ..., "bye_rule", "registration_open", ..., "check_in",
                                   ..., "start_time", "place", "entry_fee", "fee_currency",
                                   "series",                # its series' first event's slug
                                   "entries": [{"player", "joined_round",
                                   "dropped_after", "extra_seat", ..., "deck_updated_at",
                                   "deck_cards",  # [{"oracle_id", "count", "section"}]
                                   ..., "created_at",
                                   "requested_byes"}],
                                   "registrations": [{"player", "status", "queued_at",
                                   "paid", "checked_in_at"}],
                                   "penalties": [{"player", "round_number", "table_number",
                                   "infraction", "penalty", ..., "created_at"}],
                                   "rounds": [{"number", "kind", "status", "ends_at", "notes",
                                   "created_at", "tables": [{"number", "reported", "is_draw",
                                   "game_draws", "requested_bye", "winner", "game", "version",
                                   "reported_at", "extra_minutes",
                                   "seats": [{"player", "position", "game_wins", "place"}],
                                   "reports": [{"player", "number", "via_link", "summary",
                                   "table_version", "status", "created_at", "decided_at",
                                   "result",     # the result value, entries by player name
                                   "confirmations": [{"player", "via_link", "created_at",
                                   "withdrawn_at"}]}]}]}]}]}],
                  "seasons": [{"name", "starts_on", "ends_on", "tiebreaks", "created_at",
                               "event_types": [{"name", "placings", "best_finishes",
                                                "entering", "per_round", "per_win",
                                                "per_draw", "per_bye"}],
                               "events": [{"event", "event_type"}]}],   # event: its slug
                  "achievement_scoring": {"per_game", "placings"},        # or null: none
                  "achievements": [{"name", "description", "points", "per", "active",
                                    "created_at",
                                    "claims": [{"player", "game",         # game: its key
                                                "night", "source", "status", "created_at",
                                                "answered_by", "answered_at",  # a player
                                                "decided_at"}]}]}]}
"""

import base64
import binascii
import datetime
import zoneinfo
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Prefetch
from django.utils import timezone

from achievements.domain.scoring import (
    AchievementError,
    Held,
    SeasonDates,
    achievement_check,
    frequency_conflict,
)
from achievements.domain.scoring import Scoring as ScoringRules
from achievements.models import Achievement, Claim, Scoring
from core.errors import DomainError
from core.links import LinkError, link_clean
from judging.models import Penalty
from leagues.domain.colour import AccentProblem, accent_clean
from leagues.domain.csvformat import unstorable_in
from leagues.domain.images import LogoProblem, logo_check
from leagues.domain.ranking import RankingError, validate_places
from leagues.models import Game, GameResult, League, Organization, Player
from ratings.domain.base import ParamError
from ratings.domain.registry import DEFAULT_SYSTEM, make_system
from ratings.models import LeagueRating
from ratings.services import ratings_recalculate
from seasons.domain.rules import Season as SeasonRules
from seasons.domain.rules import SeasonError
from seasons.models import EventType, Season, SeasonEvent
from seasons.services import season_catch_up
from tournaments.models import (
    Entry,
    Registration,
    ReportConfirmation,
    RequestedBye,
    ResultReport,
    Round,
    Seat,
    Table,
    Tournament,
)

FORMAT = "guildhall-organization"
VERSION = 1

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
)
PLAYER_FIELDS = ("name", "created_at", "sees_private_leagues")
LEAGUE_FIELDS = ("name", "slug", "game_label", "is_public", "starts_on", "ends_on", "created_at")
GAME_FIELDS = ("played_on", "source", "notes", "created_at")
RESULT_FIELDS = ("placement", "seat", "stats")
TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "date",
    "format",
    "status",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "swiss_rounds",
    "tiebreakers",
    "top_cut",
    "first_round",
    "pod_layout",
    "omw_floor",
    "gw_floor",
    "bye_pairing",
    "bye_rule",
    "cut_seats",
    "seed",
    "round_minutes",
    "registration_open",
    "registration_cap",
    "registration_deadline",
    "registration_note",
    "check_in",
    "deck_deadline",
    "deck_visibility",
    "decklist_format",
    "decklist_required",
    "self_report",
    "start_time",
    "place",
    "entry_fee",
    "fee_currency",
    "created_at",
)
# A player's own registration; its check-in link (token) is the site's secret: a new one on
# import. A registration holding a seat ("seated") is tied to the entry of the same player.
REGISTRATION_FIELDS = ("status", "queued_at", "paid", "checked_in_at")
ENTRY_FIELDS = (
    "joined_round",
    "dropped_after",
    "extra_seat",
    "deck_name",
    "decklist_url",
    "decklist_text",
    "deck_updated_at",
    "deck_commander_ids",
    "deck_identity",
    "deck_cards",
    "deck_problems",
    "deck_legal",
    "created_at",
)
ROUND_FIELDS = ("number", "kind", "status", "ends_at", "notes", "created_at")
TABLE_FIELDS = (
    "number",
    "reported",
    "is_draw",
    "game_draws",
    "requested_bye",
    "version",
    "reported_at",
    "extra_minutes",
)
SEAT_FIELDS = ("position", "game_wins", "place")
# A player's report of their table's result and the others' confirmations (after the table's
# seats). A report's `result` (the result value) names entries by their player's name, as
# everything here.
# A judge's penalty (judging.models.Penalty): its round and table by number, its player by name.
PENALTY_FIELDS = (
    "round_number",
    "table_number",
    "infraction",
    "rel",
    "penalty",
    "expected",
    "upgrade_reason",
    "deviation_reason",
    "note",
    "result_entered",
    "loses_game",
    "created_at",
)
REPORT_FIELDS = (
    "number",
    "via_link",
    "summary",
    "table_version",
    "status",
    "created_at",
    "decided_at",
)
CONFIRMATION_FIELDS = ("via_link", "created_at", "withdrawn_at")
SEASON_FIELDS = ("name", "starts_on", "ends_on", "tiebreaks", "created_at")
EVENT_TYPE_FIELDS = (
    "name",
    "placings",
    "best_finishes",
    "entering",
    "per_round",
    "per_win",
    "per_draw",
    "per_bye",
)
ACHIEVEMENT_FIELDS = ("name", "description", "points", "per", "active", "created_at")
SCORING_FIELDS = ("per_game", "placings")
CLAIM_FIELDS = ("night", "source", "status", "created_at", "answered_at", "decided_at")
# Fields added after version 1 was first written. A document written before drawn games, the
# game-win floor and the 1v1 bye setting lacks them: no drawn games, and the event as it was
# computed and paired then (`_before_rules`); without the bye rule or requested byes, their
# defaults.
OPTIONAL_FIELDS = {
    "created_at",
    "registration_open",
    "registration_cap",
    "registration_deadline",
    "registration_note",
    "check_in",
    "deck_deadline",
    "deck_visibility",
    "deck_name",
    "decklist_url",
    "decklist_text",
    "game_draws",
    "gw_floor",
    "bye_pairing",
    "bye_rule",
    "cut_seats",
    "requested_bye",
    "extra_seat",
    "self_report",
    "address",
    "time_zone",
    "accent",
    "short_name",
    "sees_private_leagues",
    "start_time",
    "place",
    "entry_fee",
    "fee_currency",
    "deck_updated_at",
    "extra_minutes",
    "decklist_format",
    "decklist_required",
    "deck_commander_ids",
    "deck_identity",
    "deck_cards",
    "deck_problems",
    "deck_legal",
}

# What the document leaves out, and why: every other column of an exported model is written
# (tests/exchange/test_export_fields.py fails on a column in neither). A relation is written
# by where its row sits in the document or by the name of what it points to.
ACCOUNT = "a user account of this site: accounts do not move with the organization"
NOT_EXPORTED = {
    "Organization.logo_type": "read again from the image (`logo`, base64) on import",
    "Organization.logo_version": "this site's cache-busting count of logo uploads",
    "Membership.user": "written as the username, for the record, and not imported ("
    + ACCOUNT
    + ")",
    "Player.user": "written as `account`, for the record, and not imported (" + ACCOUNT + ")",
    "League.entry_key": "the new-league form's one-time token, for this site's double posts",
    "LeagueRating.dirty_from_date": "this site's replay bookkeeping: the import replays all",
    "LeagueRating.dirty_from_game": "this site's replay bookkeeping: the import replays all",
    "LeagueRating.rated_at": "this site's replay bookkeeping: the import replays all",
    "Game.entered_by": ACCOUNT,
    "Game.import_batch": "the CSV upload the game came from: uploads stay on this site",
    "Game.version": "counts this site's corrections, for its stale forms",
    "Game.entry_key": "the game form's one-time token, for this site's double posts",
    "Tournament.created_by": ACCOUNT,
    "Registration.token": "the player's check-in link, a secret of this site: a new one on import",
    "Registration.created_by": ACCOUNT,
    "RequestedBye.created_by": ACCOUNT,
    "RequestedBye.created_at": "a requested bye is written as its round number alone",
    "Round.decklist_problems": "who the TO paired without a legal list, by this site's entry "
    "ids; round 1's `notes` carry the names",
    "Table.reported_by": ACCOUNT,
    "ResultReport.user": ACCOUNT + " (the report's player is written)",
    "ResultReport.decided_by": ACCOUNT,
    "ReportConfirmation.user": ACCOUNT + " (the confirming player is written)",
    "Penalty.round": "written as `round_number`",
    "Penalty.table": "written as `table_number`",
    "Penalty.judge": ACCOUNT,
    "Season.series": "always empty for a league's season (a series' season is the series', "
    "left out below)",
    "Season.stale": "this site's replay bookkeeping: the import replays each season",
    "Season.replayed_at": "this site's replay bookkeeping: the import replays each season",
    "Season.created_by": ACCOUNT,
    "SeasonEvent.players": "read again from the event on import",
    "SeasonEvent.finishes": "read again from the event on import",
    "SeasonEvent.final": "read again from the event on import",
    "SeasonEvent.seen_version": "this site's page version of the event: read again on import",
    "Claim.user": ACCOUNT + " (the claim's player is written)",
    "Claim.decided_by": ACCOUNT,
}
# The organization's other rows, left out whole.
NOT_EXPORTED_MODELS = {
    "ApiToken": "secret keys of this site",
    "StaffInvitation": "secret links to e-mail addresses, for accounts of this site",
    "PlayerClaim": "requests by accounts of this site",
    "ClaimCode": "one-time codes for accounts of this site",
    "ImportBatch": "CSV uploads: their games are exported",
    "Rating": "derived: the import replays the ratings",
    "RatingChange": "derived: the import replays the ratings",
    "TournamentJudge": ACCOUNT + "s",
    "AuditEntry": "the History of this site, naming its accounts; the rows it tells of move",
    "StoreWebhook": "the chat channel's webhook address, a secret that posts to it",
    "Delivery": "messages this site sent or is sending",
    "Job": "this site's background work",
    "JudgeCall": "a night's calls to the judges' desk: their times are in the History, their "
    "time extensions in the tables' `extra_minutes`",
    "DeckCheck": "a night's deck checks: their minutes are in the tables' `extra_minutes`",
    "SeasonStanding": "derived: a season's table is the replay of its events (the import "
    "replays it)",
    # A series is shared with other stores: its membership is their owners' answers, its links
    # name their players, its seasons count their events. One store's document cannot carry
    # the others' consent; the stores set it up again together after a move.
    "Series": "shared with other stores, whose owners' answers one store's document cannot carry",
    "SeriesMember": "another store's answer to a series' invitation, or this store's to another's",
    "SeriesLink": "a series host's word about two stores' players",
}
THIRD_AS_STORED = Decimal("0.333")  # as migration tournaments 0005 keeps 1/3
# Numbers the database's check constraints count from 1 (checked here to name the path).
FROM_ONE = {
    GameResult: ("placement", "seat"),
    Entry: ("joined_round",),
    Round: ("number",),
    Seat: ("position", "place"),
}
# Links a person gave the site, read with the deck form's own rule (core.links): whatever the
# site stored, an older row's space in it included, imports (written as %20, as the form now
# writes it), rather than being held to the model field's stricter check.
LINKS = {Entry: {"decklist_url": "The decklist link"}}


class ExchangeError(DomainError):
    """Input that cannot be imported; `field` (also `path`) is where in the JSON document
    (JSONPath), and `str()` names it before the message: "$.players[2].name: too long"."""

    default_code = "bad_document"
    message_follows_field = True

    def __init__(self, *, field: str, message: str, code: str | None = None):
        super().__init__(message=message, field=field, code=code)
        self.path = field


# --- export --------------------------------------------------------------------------------


def _plain(value):
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _fields(obj: models.Model, names: Iterable[str]) -> dict:
    return {name: _plain(getattr(obj, name)) for name in names}


def organization_export(*, organization: Organization) -> dict:
    """The organization's whole record as plain JSON-ready data (see the module docstring)."""
    members = organization.memberships.select_related("user").order_by("user__username")
    players = organization.players.select_related("user").order_by("name", "id")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "organization": {
            **_fields(organization, ORGANIZATION_FIELDS),
            "logo": _logo_export(organization),
        },
        "members": [{"username": m.user.get_username(), "role": m.role} for m in members],
        "players": [
            {
                **_fields(p, PLAYER_FIELDS),
                "account": p.user.get_username() if p.user else None,
            }
            for p in players
        ],
        "leagues": [_league_export(league) for league in organization.leagues.order_by("slug")],
    }


def _logo_export(organization: Organization) -> str | None:
    """The store's logo as base64 text (a few dozen kilobytes), or None."""
    if not organization.logo_type or organization.logo is None:
        return None
    return base64.b64encode(bytes(organization.logo)).decode("ascii")


def _league_export(league: League) -> dict:
    settings = LeagueRating.objects.filter(league=league).first()
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
                **_fields(game, GAME_FIELDS),
                "results": [
                    {"player": r.player.name, **_fields(r, RESULT_FIELDS)}
                    for r in game.results.all()
                ],
            }
        )
    return {
        **_fields(league, LEAGUE_FIELDS),
        "rating": {
            "system": settings.system if settings else DEFAULT_SYSTEM,
            "params": settings.params if settings else {},
        },
        "games": exported_games,
        "tournaments": [
            _tournament_export(t, keys) for t in league.tournaments.order_by("date", "slug")
        ],
        "seasons": [_season_export(season) for season in league.seasons.order_by("pk")],
        **_achievements_export(league, keys),
    }


def _achievements_export(league: League, game_keys: dict[int, int]) -> dict:
    scoring = Scoring.objects.filter(league=league).first()
    claims: dict[int, list[dict]] = {}
    for claim in (
        Claim.objects.filter(achievement__league=league)
        .select_related("player", "answered_by")
        .order_by("night", "created_at", "id")
    ):
        claims.setdefault(claim.achievement_id, []).append(
            {
                "player": claim.player.name,
                "game": game_keys[claim.game_id] if claim.game_id else None,
                **_fields(claim, CLAIM_FIELDS),
                "answered_by": claim.answered_by.name if claim.answered_by else None,
            }
        )
    return {
        "achievement_scoring": _fields(scoring, SCORING_FIELDS) if scoring else None,
        "achievements": [
            {**_fields(a, ACHIEVEMENT_FIELDS), "claims": claims.get(a.pk, [])}
            for a in Achievement.objects.filter(league=league).order_by("created_at", "id")
        ],
    }


def _season_export(season: Season) -> dict:
    return {
        **_fields(season, SEASON_FIELDS),
        "event_types": [
            _fields(kind, EVENT_TYPE_FIELDS) for kind in season.event_types.order_by("name")
        ],
        "events": [
            {"event": se.tournament.slug, "event_type": se.event_type.name}
            for se in season.events.select_related("tournament", "event_type").order_by(
                "tournament__date", "tournament__slug"
            )
        ],
    }


def _tournament_export(tournament: Tournament, game_keys: dict[int, int]) -> dict:
    entries = (
        tournament.entries.select_related("player")
        .prefetch_related("requested_byes")
        .order_by("player__name", "id")
    )
    seats = Seat.objects.select_related("entry__player").order_by("position")
    tables = Table.objects.select_related("winner__player").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    confirmations = ReportConfirmation.objects.select_related("entry__player")
    reports = ResultReport.objects.select_related("entry__player").prefetch_related(
        Prefetch("confirmations", queryset=confirmations.order_by("created_at", "id"))
    )
    rounds = tournament.rounds.order_by("number").prefetch_related(
        Prefetch("tables", queryset=tables.order_by("number")),
        Prefetch("tables__reports", queryset=reports.order_by("number")),
    )
    names = {e.pk: e.player.name for e in entries}
    return {
        **_fields(tournament, TOURNAMENT_FIELDS),
        "series": tournament.series.slug if tournament.series_id else None,
        "entries": [
            {
                "player": e.player.name,
                **_fields(e, ENTRY_FIELDS),
                "requested_byes": [b.round_number for b in e.requested_byes.all()],
            }
            for e in entries
        ],
        "registrations": [
            {"player": r.player.name, **_fields(r, REGISTRATION_FIELDS)}
            for r in tournament.registrations.select_related("player").order_by("queued_at", "id")
        ],
        "rounds": [
            {
                **_fields(round_, ROUND_FIELDS),
                "tables": [
                    {
                        **_fields(table, TABLE_FIELDS),
                        "winner": table.winner.player.name if table.winner else None,
                        "game": game_keys.get(table.game_id) if table.game_id else None,
                        "seats": [
                            {"player": s.entry.player.name, **_fields(s, SEAT_FIELDS)}
                            for s in table.seats.all()
                        ],
                        "reports": [_report_export(r, names) for r in table.reports.all()],
                    }
                    for table in round_.tables.all()
                ],
            }
            for round_ in rounds
        ],
        "penalties": [
            {"player": p.entry.player.name, **_fields(p, PENALTY_FIELDS)}
            for p in Penalty.objects.filter(tournament=tournament)
            .select_related("entry__player")
            .order_by("created_at", "id")
        ],
    }


def _report_export(report: ResultReport, names: dict[int, str]) -> dict:
    return {
        "player": report.entry.player.name,
        **_fields(report, REPORT_FIELDS),
        "result": _entries_swapped(report.result, lambda id_: names[int(id_)]),
        "confirmations": [
            {"player": c.entry.player.name, **_fields(c, CONFIRMATION_FIELDS)}
            for c in report.confirmations.all()
        ],
    }


def _entries_swapped(data: dict, swap: Callable[[str | int], object]) -> dict:
    """A report's `result` (the value's JSON, `tournaments.domain.result.Result.as_json`) with
    each entry it names swapped by `swap`: the `winner`'s value and the keys of its maps (the
    places and game wins). On export `swap` gives the player's name; on import the entry."""
    swapped = {}
    for key, value in data.items():
        if key == "winner" and value not in (None, ""):
            value = swap(value)
        elif isinstance(value, dict):
            value = {str(swap(k)): v for k, v in value.items()}
        swapped[key] = value
    return swapped


# --- reading the document ------------------------------------------------------------------


def _round_numbers(node: "_Node", key: str) -> list[int]:
    """An optional list of distinct round numbers from 1 (an entry's requested byes)."""
    values = node.get(key, [])
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 32767 for v in values
    ):
        raise node.error("must be a list of round numbers from 1", key)
    if len(set(values)) != len(values):
        raise node.error("names a round twice", key)
    return values


_MISSING = object()


class _Node:
    """A JSON object or value with its path, for messages that say where the problem is."""

    def __init__(self, value, path: str):
        self.value = value
        self.path = path

    def error(self, message: str, key: str | None = None) -> ExchangeError:
        return ExchangeError(
            field=self._sub(key) if key is not None else self.path,
            message=message,
        )

    def _sub(self, key) -> str:
        return f"{self.path}[{key}]" if isinstance(key, int) else f"{self.path}.{key}"

    def get(self, key: str, default=_MISSING):
        if not isinstance(self.value, dict):
            raise self.error("must be an object")
        if key not in self.value:
            if default is _MISSING:
                raise self.error(f'the key "{key}" is missing')
            return default
        return self.value[key]

    def obj(self, key: str) -> "_Node":
        node = _Node(self.get(key), self._sub(key))
        if not isinstance(node.value, dict):
            raise node.error("must be an object")
        return node

    def items(self, key: str) -> list["_Node"]:
        value = self.get(key)
        path = self._sub(key)
        if not isinstance(value, list):
            raise ExchangeError(field=path, message="must be a list")
        nodes = [_Node(item, f"{path}[{i}]") for i, item in enumerate(value)]
        for node in nodes:
            if not isinstance(node.value, dict):
                raise node.error("must be an object")
        return nodes

    def text(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error("must be a non-empty string", key)
        return value

    def integer(self, key: str, *, null: bool = False) -> int | None:
        value = self.get(key)
        if value is None and null:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error("must be a whole number" + (" or null" if null else ""), key)
        return value


def _read_value(node: _Node, name: str, field: models.Field):
    """One model field's value from the document, converted, or ExchangeError."""
    if name in OPTIONAL_FIELDS and isinstance(node.value, dict) and name not in node.value:
        return field.get_default()  # the model's own (a database default: the database's)
    value = node.get(name)
    if value is None:
        if field.null:
            return None
        raise node.error("must not be null", name)

    def bad(kind: str) -> ExchangeError:
        return node.error(f"must be {kind}, not {value!r}", name)

    if isinstance(field, models.DateTimeField):
        try:
            parsed = datetime.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            raise bad("a date and time (ISO 8601)") from None
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)
    if isinstance(field, models.TimeField):
        try:
            return datetime.time.fromisoformat(value)
        except (TypeError, ValueError):
            raise bad("a time of day (HH:MM)") from None
    if isinstance(field, models.DateField):
        try:
            return datetime.date.fromisoformat(value)
        except (TypeError, ValueError):
            raise bad("a date (YYYY-MM-DD)") from None
    if isinstance(field, models.DecimalField):
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise bad("a number")
        try:
            return Decimal(str(value))
        except InvalidOperation:
            raise bad("a number") from None
    if isinstance(field, models.BooleanField):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if isinstance(field, models.IntegerField):
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad("a whole number")
        return value
    if isinstance(field, models.JSONField):
        return value
    if not isinstance(value, str):
        raise bad("a string")
    return value


def _build(model: type[models.Model], node: _Node, names: Iterable[str], **relations):
    """An unsaved row of `model` from `names` in `node`, each field checked as the model
    would check it (length, choices, range); constraints spanning rows are checked apart."""
    values = {name: _read_value(node, name, model._meta.get_field(name)) for name in names}
    for name in FROM_ONE.get(model, ()):
        if values[name] is not None and values[name] < 1:
            raise node.error(f"must be 1 or more, not {values[name]}", name)
    links = LINKS.get(model, {})
    for name, label in links.items():
        if name in values:
            try:
                values[name] = link_clean(values[name], label=label, stored=True)
            except LinkError as error:
                raise node.error(error.message, name) from None
    obj = model(**values, **relations)
    exclude = [f.name for f in model._meta.fields if f.is_relation or f.name in links]
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        key = field if field in values else None
        raise node.error(" ".join(messages), key) from None
    return obj


def _check_deck_cards(entry: Entry, node: _Node) -> None:
    """A deck's cards: a list of {"oracle_id": text, "count": 1 or more, "section": text}."""
    cards = entry.deck_cards
    if not isinstance(cards, list):
        raise node.error(f"must be a list, not {cards!r}", "deck_cards")
    for card in cards:
        count = card.get("count") if isinstance(card, dict) else None
        if (
            not isinstance(card, dict)
            or not isinstance(card.get("oracle_id"), str)
            or not isinstance(card.get("section"), str)
            or not isinstance(count, int)
            or isinstance(count, bool)
            or count < 1
        ):
            raise node.error(
                'each card must be {"oracle_id": text, "count": 1 or more, "section": text}, '
                f"not {card!r}",
                "deck_cards",
            )
    for name in ("deck_commander_ids", "deck_problems"):
        if not isinstance(getattr(entry, name), list):
            raise node.error("must be a list", name)


def _before_rules(tournament: Tournament) -> None:
    """An event from a document older than its floors and bye rule, as the site ran it then
    (migration tournaments 0005 does the same to the events already stored): both floors 1/3
    (0.333: the same ranks below 333 rounds) where none was set, the bye moved up to avoid a
    rematch."""
    if tournament.omw_floor is None and tournament.format == Tournament.Format.ONE_V_ONE:
        tournament.omw_floor = THIRD_AS_STORED
    tournament.gw_floor = THIRD_AS_STORED
    tournament.bye_pairing = Tournament.ByePairing.AVOID_REMATCH


def _check_row_rules(obj: models.Model, node: _Node) -> None:
    """The model's own constraints (few rows: organizations, leagues, tournaments)."""
    exclude = [f.name for f in obj._meta.fields if f.is_relation]
    try:
        obj.validate_constraints(exclude=exclude)
    except ValidationError as error:
        raise node.error(" ".join(error.messages)) from None


# --- import --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportReport:
    organization: Organization
    players: int
    leagues: int
    games: int
    tournaments: int


@transaction.atomic
def organization_import(*, data, progress: Callable[[str, int, int], None] | None = None):
    """Create the organization of an exported document, with everything in it; then replay
    its leagues' ratings. All or nothing: ExchangeError (nothing written) on any problem.

    `progress(step, done, total)` hears of the leagues read ("leagues") and of each league's
    replay (its slug), for the command's progress bar.
    """
    root = _Node(data, "$")
    unstorable = unstorable_in(data)
    if unstorable is not None:
        path, message = unstorable
        raise ExchangeError(field=path, message=message)
    try:
        return _import(root, progress or (lambda step, done, total: None))
    except IntegrityError as error:
        # A rule the checks missed, or another import of the same slugs at the same moment;
        # raising out of the atomic block rolls everything back.
        raise root.error(f"the database refused the data: {error}") from None


def _import(root: _Node, progress: Callable[[str, int, int], None]) -> ImportReport:
    data = root.value
    if not isinstance(data, dict):
        raise root.error("must be an object")
    if root.get("format") != FORMAT:
        raise root.error(f'must be "{FORMAT}"', "format")
    version = root.get("version")
    if version != VERSION or isinstance(version, bool):
        raise root.error(f"this site reads version {VERSION}, not {version!r}", "version")

    org_node = root.obj("organization")
    organization = _build(Organization, org_node, ORGANIZATION_FIELDS)
    zone = org_node.get("time_zone", "")
    if zone and zone not in zoneinfo.available_timezones():
        raise org_node.error(f"no time zone {zone!r}", "time_zone")
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
    _check_row_rules(organization, org_node)
    organization.save()

    players = _players_import(root, organization)
    importer = _Importer(players)
    nodes = root.items("leagues")
    leagues = []
    for node in nodes:
        progress("leagues", len(leagues), len(nodes))
        leagues.append(importer.league(node, organization))
    progress("leagues", len(leagues), len(nodes))
    for league in leagues:
        ratings_recalculate(
            league=league,
            progress=lambda done, total, slug=league.slug: progress(slug, done, total),
        )
    for season in importer.season_list:  # each table replayed from its events, as written
        season_catch_up(season_id=season.pk)
    return ImportReport(
        organization=organization,
        players=len(players),
        leagues=len(leagues),
        games=importer.games,
        tournaments=importer.tournaments,
    )


def _logo_import(organization: Organization, node: _Node) -> None:
    """The logo, checked as an upload is (documents written before logos have none)."""
    text = node.get("logo", None)
    if text is None:
        return
    try:
        data = base64.b64decode(text, validate=True) if isinstance(text, str) else None
    except binascii.Error:
        data = None
    if data is None:
        raise node.error("must be an image as base64 text, or null", "logo")
    try:
        organization.logo_type = logo_check(data)
    except LogoProblem as problem:
        raise node.error(str(problem), "logo") from None
    organization.logo = data


def _players_import(root: _Node, organization: Organization) -> dict[str, Player]:
    """Every player, by name as written; names are unique ignoring case, as in the database."""
    players: dict[str, Player] = {}
    seen: dict[str, str] = {}
    for node in root.items("players"):
        player = _build(Player, node, PLAYER_FIELDS, organization=organization)
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


class _Importer:
    def __init__(self, players: dict[str, Player]):
        self.players = players
        self.games = 0
        self.tournaments = 0
        self.season_list: list[Season] = []
        self.slugs: dict[type, dict[str, str]] = {League: {}, Tournament: {}}

    def player(self, node: _Node, key: str = "player") -> Player:
        """The player `node[key]` names (ignoring case: names are unique that way)."""
        name = node.text(key)
        try:
            return self.players[name.lower()]
        except KeyError:
            raise node.error(f'no player "{name}" in $.players', key) from None

    def unique_slug(self, obj, node: _Node) -> None:
        model = type(obj)
        seen = self.slugs[model]
        if obj.slug in seen:
            raise node.error(f'"{obj.slug}" is already {seen[obj.slug]}', "slug")
        if model.objects.filter(slug=obj.slug).exists():
            noun = model._meta.verbose_name
            raise node.error(f'this site already has a {noun} "{obj.slug}"', "slug")
        seen[obj.slug] = node.path

    # -- leagues and games --

    def league(self, node: _Node, organization: Organization) -> League:
        league = _build(League, node, LEAGUE_FIELDS, organization=organization)
        self.unique_slug(league, node)
        _check_row_rules(league, node)
        league.save()
        rating = node.obj("rating")
        params = rating.get("params")
        if not isinstance(params, dict):
            raise rating.error("must be an object", "params")
        try:
            system = make_system(rating.text("system"), params)
        except ParamError as error:
            raise rating.error(str(error)) from None
        LeagueRating.objects.create(league=league, system=system.name, params=system.params())
        games = self.league_games(node, league)
        events = {}
        for tournament in node.items("tournaments"):
            events[tournament.path] = self.tournament(tournament, league, games)
        self.series(node, events)
        self.seasons(node, league, {event.slug: event for event in events.values()})
        self.achievements(node, league, games)
        return league

    def achievements(self, league_node: _Node, league: League, games) -> None:
        """The league's achievement scoring, its achievements and their claims (documents
        written before achievements have none), checked as the organizers' forms and the
        players' taps are: a claim's player and its answerer played its game, on its day, and
        no one holds an achievement more often than its rule lets them."""
        scoring = league_node.get("achievement_scoring", None)
        if scoring is not None:
            node = league_node.obj("achievement_scoring")
            row = _build(Scoring, node, SCORING_FIELDS, league=league)
            placings = row.placings
            if not isinstance(placings, list) or not all(
                isinstance(p, int) and not isinstance(p, bool) for p in placings
            ):
                raise node.error("must be a list of whole numbers", "placings")
            try:
                ScoringRules(per_game=row.per_game, placings=tuple(placings))
            except AchievementError as error:
                raise node.error(error.message, error.field) from None
            row.save()
        if "achievements" not in league_node.value:
            return
        seasons = [
            SeasonDates(pk, start, end)
            for pk, start, end in league.seasons.values_list("pk", "starts_on", "ends_on")
        ]
        pods: dict[int, set[int]] = {}
        for game_id, player_id in GameResult.objects.filter(game__league=league).values_list(
            "game_id", "player_id"
        ):
            pods.setdefault(game_id, set()).add(player_id)
        names: dict[str, str] = {}
        for node in league_node.items("achievements"):
            achievement = _build(Achievement, node, ACHIEVEMENT_FIELDS, league=league)
            try:
                achievement_check(
                    name=achievement.name, points=achievement.points, per=achievement.per
                )
            except AchievementError as error:
                raise node.error(error.message, error.field) from None
            folded = achievement.name.strip().lower()
            if folded in names:
                raise node.error(f'"{achievement.name}" is already {names[folded]}', "name")
            names[folded] = node.path
            achievement.save()
            self.claims(node, achievement, games, pods, seasons)

    def claims(self, achievement_node: _Node, achievement: Achievement, games, pods, seasons):
        rows: list[Claim] = []
        held: list[Held] = []
        paths: dict[int, str] = {}  # a held claim's number here: its path
        for number, node in enumerate(achievement_node.items("claims"), start=1):
            player = self.player(node)
            claim = _build(Claim, node, CLAIM_FIELDS, achievement=achievement, player=player)
            key = node.get("game")
            if key is not None:
                if not isinstance(key, int) or isinstance(key, bool) or key not in games:
                    raise node.error(f"no game with the key {key!r} in this league", "game")
                claim.game = games[key][0]
                if player.pk not in pods.get(claim.game.pk, ()):
                    raise node.error(f'"{player.name}" did not play the game {key}', "player")
                if claim.night != claim.game.played_on:
                    raise node.error(
                        f"must be the day of the game {key} ({claim.game.played_on})", "night"
                    )
            if node.get("answered_by") is not None:
                podmate = self.player(node, "answered_by")
                if podmate.pk == player.pk:
                    raise node.error(
                        "a claim is confirmed or declined by a podmate, not by its own player",
                        "answered_by",
                    )
                if claim.game is not None and podmate.pk not in pods.get(claim.game.pk, ()):
                    raise node.error(f'"{podmate.name}" did not play the game {key}', "answered_by")
                claim.answered_by = podmate
            if claim.status in Claim.HELD:
                new = Held(achievement.pk, player.pk, claim.game_id, claim.night, number)
                found = frequency_conflict(achievement.per, new, held, seasons)
                if found is not None:
                    same_game = found.game is not None and found.game == claim.game_id
                    raise node.error(
                        f"{achievement.name} is earned {achievement.rule}: {player.name} "
                        f"already holds it at {paths[found.claim]}",
                        "game" if same_game else "night",
                    )
                held.append(new)
                paths[number] = node.path
            rows.append(claim)
        Claim.objects.bulk_create(rows)

    def seasons(self, league_node: _Node, league: League, events: dict[str, Tournament]) -> None:
        """The league's points seasons (documents written before seasons have none): their
        point tables checked as the organizers' forms check them, their events by slug.
        Their tables are replayed once everything is in (`_import`)."""
        if "seasons" not in league_node.value:
            return
        names: dict[str, str] = {}
        for node in league_node.items("seasons"):
            season = _build(Season, node, SEASON_FIELDS, league=league)
            folded = season.name.strip().lower()
            if folded in names:
                raise node.error(f'"{season.name}" is already {names[folded]}', "name")
            names[folded] = node.path
            if season.ends_on < season.starts_on:
                raise node.error(f"ends before it starts ({season.starts_on})", "ends_on")
            tiebreaks = season.tiebreaks
            if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
                raise node.error("must be a list of tie-break names", "tiebreaks")
            try:
                SeasonRules(tables=(), tiebreaks=tuple(tiebreaks))
            except SeasonError as error:
                raise node.error(error.message, "tiebreaks") from None
            season.save()
            self.season_list.append(season)
            types = self.season_types(node, season)
            counted: dict[str, str] = {}
            for event_node in node.items("events"):
                slug = event_node.text("event")
                event = events.get(slug)
                if event is None:
                    raise event_node.error(f"no event {slug!r} in this league", "event")
                if slug in counted:
                    raise event_node.error(f"{slug!r} is already {counted[slug]}", "event")
                counted[slug] = event_node.path
                kind = types.get(event_node.text("event_type").strip().lower())
                if kind is None:
                    raise event_node.error("not one of the season's event types", "event_type")
                if not season.starts_on <= event.date <= season.ends_on:
                    raise event_node.error(f"{event.date} is outside the season", "event")
                SeasonEvent.objects.create(season=season, tournament=event, event_type=kind)

    def season_types(self, season_node: _Node, season: Season) -> dict[str, EventType]:
        types: dict[str, EventType] = {}
        for node in season_node.items("event_types"):
            kind = _build(EventType, node, EVENT_TYPE_FIELDS, season=season)
            rows = kind.placings
            if not isinstance(rows, list) or not all(
                isinstance(row, list)
                and len(row) == 3
                and all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in row)
                for row in rows
            ):
                raise node.error(
                    "must be a list of [down_to, points, more_than or null]", "placings"
                )
            try:
                kind.point_table()  # the domain's checks: places increasing, points not
            except SeasonError as error:
                raise node.error(error.message, "placings") from None
            except TypeError:
                raise node.error("a row is missing a value", "placings") from None
            key = kind.name.strip().lower()
            if key in types:
                raise node.error(f'"{kind.name}" is already an event type here', "name")
            kind.save()
            types[key] = kind
        return types

    def series(self, league_node: _Node, events: dict[str, Tournament]) -> None:
        """Each copied event's tie to its weekly series' first event, named by its slug in
        the same league (documents written before series have none)."""
        by_slug = {event.slug: event for event in events.values()}
        for node in league_node.items("tournaments"):
            slug = node.get("series", None)
            if slug is None:
                continue
            first = by_slug.get(slug) if isinstance(slug, str) else None
            if first is None or first.series_id is not None or first is events[node.path]:
                raise node.error(f"no first event {slug!r} of a series in this league", "series")
            event = events[node.path]
            event.series = first
            event.save(update_fields=["series"])

    def league_games(self, league_node: _Node, league: League) -> dict[int, tuple[Game, _Node]]:
        games: dict[int, tuple[Game, _Node]] = {}
        results: list[tuple[Game, list[GameResult]]] = []
        for node in league_node.items("games"):
            key = node.integer("key")
            if key in games:
                raise node.error(f"the key {key} is already {games[key][1].path}", "key")
            game = _build(Game, node, GAME_FIELDS, league=league)
            games[key] = (game, node)
            results.append((game, self.results(node, game)))
        Game.objects.bulk_create([game for game, _ in games.values()])
        rows = []
        for game, game_results in results:
            for row in game_results:
                row.game = game
                rows.append(row)
        GameResult.objects.bulk_create(rows)
        self.games += len(games)
        return games

    def results(self, game_node: _Node, game: Game) -> list[GameResult]:
        rows, seen, seats = [], {}, {}
        nodes = game_node.items("results")
        for node in nodes:
            player = self.player(node)
            if player.name in seen:
                raise node.error(f'"{player.name}" is already {seen[player.name]}', "player")
            seen[player.name] = node.path
            row = _build(GameResult, node, RESULT_FIELDS, player=player)
            if not isinstance(row.stats, dict):
                raise node.error("must be an object (a stat's name to its value)", "stats")
            if row.seat is not None:
                if row.seat in seats:
                    raise node.error(f"seat {row.seat} is already {seats[row.seat]}", "seat")
                seats[row.seat] = node.path
            rows.append(row)
        try:
            validate_places([row.placement for row in rows])
        except RankingError as error:
            raise game_node.error(str(error), "results") from None
        return rows

    # -- tournaments --

    def tournament(self, node: _Node, league: League, games) -> Tournament:
        tournament = _build(Tournament, node, TOURNAMENT_FIELDS, league=league)
        if node.get("bye_pairing", None) is None:  # written before the bye rule was kept
            _before_rules(tournament)
        self.unique_slug(tournament, node)
        _check_row_rules(tournament, node)
        tournament.save()
        entries: dict[str, Entry] = {}
        for entry_node in node.items("entries"):
            player = self.player(entry_node)
            if player.name in entries:
                raise entry_node.error(f'"{player.name}" is already registered', "player")
            entries[player.name] = _build(
                Entry, entry_node, ENTRY_FIELDS, tournament=tournament, player=player
            )
            _check_deck_cards(entries[player.name], entry_node)
        Entry.objects.bulk_create(entries.values())
        RequestedBye.objects.bulk_create(
            RequestedBye(entry=entries[self.player(entry_node).name], round_number=number)
            for entry_node in node.items("entries")
            for number in _round_numbers(entry_node, "requested_byes")
        )
        self.registrations(node, tournament, entries)
        used_games: dict[int, str] = {}
        numbers: dict[int, str] = {}
        for round_node in node.items("rounds"):
            round_ = _build(Round, round_node, ROUND_FIELDS, tournament=tournament)
            if round_.number in numbers:
                raise round_node.error(
                    f"round {round_.number} is already {numbers[round_.number]}", "number"
                )
            numbers[round_.number] = round_node.path
            round_.save()
            self.tables(round_node, round_, entries, games, used_games)
        self.penalties(node, tournament, entries)
        self.tournaments += 1
        return tournament

    def penalties(self, node: _Node, tournament: Tournament, entries) -> None:
        """Judges' penalties (documents written before them have none), each on its round and
        table by number when the event has them."""
        if "penalties" not in node.value:
            return
        rounds = {r.number: r for r in tournament.rounds.all()}
        tables = {
            (t.round.number, t.number): t
            for t in Table.objects.filter(round__tournament=tournament).select_related("round")
        }
        rows = []
        for penalty_node in node.items("penalties"):
            row = _build(
                Penalty,
                penalty_node,
                PENALTY_FIELDS,
                tournament=tournament,
                entry=self.entry(penalty_node, entries),
            )
            if row.penalty != row.expected and not row.deviation_reason:
                raise penalty_node.error(
                    "a penalty other than the expected one needs a reason", "deviation_reason"
                )
            row.round = rounds.get(row.round_number)
            row.table = tables.get((row.round_number, row.table_number))
            rows.append(row)
        Penalty.objects.bulk_create(rows)

    def registrations(self, node: _Node, tournament: Tournament, entries) -> None:
        """Players' own registrations (documents written before them have none)."""
        if "registrations" not in node.value:
            return
        rows, seen = [], {}
        for reg_node in node.items("registrations"):
            player = self.player(reg_node)
            if player.name in seen:
                raise reg_node.error(f'"{player.name}" is already {seen[player.name]}', "player")
            seen[player.name] = reg_node.path
            row = _build(
                Registration, reg_node, REGISTRATION_FIELDS, tournament=tournament, player=player
            )
            if row.status == Registration.Status.SEATED:
                if player.name not in entries:
                    raise reg_node.error(
                        f'"{player.name}" holds a seat but is not in the tournament\'s entries',
                        "status",
                    )
                row.entry = entries[player.name]
            rows.append(row)
        Registration.objects.bulk_create(rows)

    def tables(self, round_node: _Node, round_: Round, entries, games, used_games) -> None:
        tables, seats, numbers, seated = [], [], {}, {}
        for node in round_node.items("tables"):
            table = _build(Table, node, TABLE_FIELDS, round=round_)
            if table.number in numbers:
                raise node.error(f"table {table.number} is already {numbers[table.number]}")
            numbers[table.number] = node.path
            here = {}
            for seat_node in node.items("seats"):
                entry = self.entry(seat_node, entries)
                if entry.player.name in seated:
                    raise seat_node.error(
                        f'"{entry.player.name}" already sits at {seated[entry.player.name]} '
                        "in this round",
                        "player",
                    )
                seated[entry.player.name] = seat_node.path
                seat = _build(Seat, seat_node, SEAT_FIELDS, round=round_, entry=entry)
                if seat.position in here:
                    raise seat_node.error(
                        f"position {seat.position} is already {here[seat.position]}", "position"
                    )
                here[seat.position] = seat_node.path
                seats.append((table, seat))
            if not here:
                raise node.error("a table has at least one seat", "seats")
            table.winner = self.winner(node, entries, seated, here)
            table.game = self.game(node, games, used_games)
            if table.is_draw and table.winner:
                raise node.error("a drawn table has no winner", "winner")
            if not table.reported and (table.is_draw or table.winner or table.game_draws):
                raise node.error("a table has a result only when it is reported", "reported")
            tables.append(table)
        Table.objects.bulk_create(tables)
        for table, seat in seats:
            seat.table = table
        Seat.objects.bulk_create([seat for _, seat in seats])
        self.reports(round_node, tables, entries)

    def reports(self, round_node: _Node, tables: list[Table], entries) -> None:
        """Players' reports of each table's result and their confirmations (documents
        written before reports have none)."""
        reports, confirmations = [], []
        for node, table in zip(round_node.items("tables"), tables, strict=True):
            if "reports" not in node.value:
                continue
            for report_node in node.items("reports"):
                report = _build(
                    ResultReport,
                    report_node,
                    REPORT_FIELDS,
                    table=table,
                    entry=self.entry(report_node, entries),
                    result=self.by_entries(report_node, "result", entries, int),
                )
                reports.append(report)
                confirmations += [
                    (
                        report,
                        _build(
                            ReportConfirmation, c, CONFIRMATION_FIELDS, entry=self.entry(c, entries)
                        ),
                    )
                    for c in report_node.items("confirmations")
                ]
        ResultReport.objects.bulk_create(reports)
        for report, confirmation in confirmations:
            confirmation.report = report
        ReportConfirmation.objects.bulk_create([c for _, c in confirmations])

    def by_entries(self, node: _Node, key: str, entries, kind: type) -> dict:
        """A report's `result` with the players it names as their entries' ids (`kind`: as the
        site stores them there)."""
        value = node.get(key)
        if not isinstance(value, dict):
            raise node.error("must be an object", key)

        def entry_id(name):
            if not isinstance(name, str) or name.lower() not in self.players:
                raise node.error(f"names no player of the tournament's entries: {name!r}", key)
            player = self.players[name.lower()]
            if player.name not in entries:
                raise node.error(f'"{player.name}" is not in the tournament\'s entries', key)
            return kind(entries[player.name].pk)

        return _entries_swapped(value, entry_id)

    def entry(self, node: _Node, entries: dict[str, Entry], key: str = "player") -> Entry:
        player = self.player(node, key)
        if player.name not in entries:
            raise node.error(f'"{player.name}" is not in the tournament\'s entries', key)
        return entries[player.name]

    def winner(self, node: _Node, entries, seated, here) -> Entry | None:
        if node.get("winner") is None:
            return None
        entry = self.entry(node, entries, "winner")
        if seated.get(entry.player.name) not in here.values():
            raise node.error(f'"{entry.player.name}" does not sit at this table', "winner")
        return entry

    def game(self, node: _Node, games, used_games: dict[int, str]) -> Game | None:
        key = node.integer("game", null=True)
        if key is None:
            return None
        if key not in games:
            raise node.error(f"no game with the key {key} in this league's games", "game")
        if key in used_games:
            raise node.error(f"game {key} is already the game of {used_games[key]}", "game")
        used_games[key] = node.path
        return games[key][0]
