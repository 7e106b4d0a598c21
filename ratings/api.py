"""The JSON API: a league's scores and leaderboard, and posting a game with an API token.

    GET  /api/leagues/<slug>/scores    {"<player>": rating, ...}, keys sorted (Guildmaster's shape)
    GET  /api/leagues/<slug>/ratings   the leaderboard, best first
    POST /api/leagues/<slug>/games     {"players": ["Ann", ["Bob", "Cy"], "Dee"],
                                        "date": "YYYY-MM-DD", "notes": "..."} -> 201

Reads follow the site's visibility rules (a private league is a 404 for outsiders), plus the
organization of a valid API token if one is sent. Posting needs `Authorization: Bearer <token>`
(see leagues.models.ApiToken) and nothing else: a session cookie alone is refused with 401,
so the view is CSRF-exempt without being open to cross-site requests. Every answer is JSON,
errors as {"error": {"field": ..., "message": ..., "code": ...}}. A bad request writes nothing.
Reads never write: the league's rating settings are read, not created, here.
"""

import functools
import logging
import re
from datetime import date

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from core.errors import DomainError
from core.jsonbody import BadJson, json_body
from leagues.domain.csvformat import (
    NAME_MAX_LENGTH,
    NOTE_MAX_LENGTH,
    clean_note,
    clean_text,
    has_lone_surrogates,
)
from leagues.domain.ranking import RankingError, places_from_groups, validate_places
from leagues.models import ApiToken, Game, League
from leagues.permissions import visible_leagues
from leagues.services import (
    LeagueError,
    ResultIn,
    game_date_check,
    game_record,
    names_folded,
    players_get_or_create,
)

from .domain.base import RatingSystem
from .domain.registry import DEFAULT_SYSTEM, make_system
from .models import LeagueRating, Rating, RatingChange
from .selectors import league_ratings
from .services import ratings_catch_up

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
MAX_PLAYERS = 64  # a game is one table or pod; far more than any real one
GAME_KEYS = ("players", "date", "notes")
_DATE = re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
UNPAIRED_SURROGATE = (
    "The text is not valid Unicode: it holds a lone surrogate escape (\\ud800-\\udfff)."
)


# --- Answers ------------------------------------------------------------------------------------


def error_response(
    status: int, message: str, *, code: str, field: str | None = None, headers=None
) -> JsonResponse:
    body = {"error": {"field": field, "message": message, "code": code}}
    return JsonResponse(body, status=status, headers=headers)


@csrf_exempt  # a POST to a mistyped address is a JSON 404 too, not the CSRF failure page
def not_found(request: HttpRequest, *args, **kwargs) -> JsonResponse:
    """Any address under /api/ that is not an endpoint."""
    return error_response(404, "Not found.", code="not_found")


def _unauthorized(message: str, *, invalid: bool) -> JsonResponse:
    challenge = 'Bearer realm="guildhall"'
    if invalid:
        challenge += ', error="invalid_token"'
    return error_response(
        401, message, code="unauthorized", headers={"WWW-Authenticate": challenge}
    )


def _league_not_found() -> JsonResponse:
    return error_response(404, "No such league.", code="not_found")


def allow_methods(*methods: str):
    """Only `methods` (HEAD along with GET); anything else is a JSON 405 with an Allow header."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())
    allow = ", ".join(sorted(allowed))

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in allowed:
                return error_response(
                    405,
                    f"Method {request.method} is not allowed here; use {allow}.",
                    code="method_not_allowed",
                    headers={"Allow": allow},
                )
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


# --- Who is asking ------------------------------------------------------------------------------


class _NoToken:
    pass


NO_TOKEN = _NoToken()


def _bearer(request: HttpRequest) -> str | _NoToken | None:
    """The bearer token sent, NO_TOKEN when none was sent, None when it is malformed."""
    header = request.headers.get("Authorization")
    if header is None:
        return NO_TOKEN
    scheme, _, credentials = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return NO_TOKEN  # another scheme (say, Basic auth in front of a staging site)
    credentials = credentials.strip()
    if not credentials or " " in credentials:
        return None
    return credentials


def _token(request: HttpRequest) -> ApiToken | _NoToken | None:
    """The request's usable API token, NO_TOKEN when none was sent, None when it is no good."""
    sent = _bearer(request)
    if sent is NO_TOKEN or sent is None:
        return sent
    return ApiToken.authenticate(sent)


def _visible_league(request: HttpRequest, slug: str, token: ApiToken | None) -> League | None:
    """The league if the session's user, or the token's organization, may see it."""
    league = visible_leagues(request.user).filter(slug=slug).first()
    if league is None and token is not None:
        league = (
            League.objects.select_related("organization")
            .filter(slug=slug, organization_id=token.organization_id)
            .first()
        )
    return league


def _reader(request: HttpRequest, slug: str) -> League | JsonResponse:
    token = _token(request)
    if token is None:
        return _unauthorized("The API token is not valid (or was revoked).", invalid=True)
    league = _visible_league(request, slug, None if token is NO_TOKEN else token)
    return league if league is not None else _league_not_found()


# --- Rating values ------------------------------------------------------------------------------


def _system(league: League) -> RatingSystem:
    """The league's rating system, read without creating its settings row (GET writes nothing)."""
    settings = LeagueRating.objects.filter(league=league).only("system", "params").first()
    if settings is None:
        return make_system(DEFAULT_SYSTEM)
    return make_system(settings.system, settings.params)


def shown(value: float | None, system: RatingSystem) -> int | float | None:
    """A rating or a change as the system shows it: whole numbers for integer systems."""
    if value is None:
        return None
    return round(value) if system.integer else value


# --- GET ----------------------------------------------------------------------------------------


@allow_methods("GET")
def league_scores(request: HttpRequest, slug: str) -> JsonResponse:
    """Every rated player's current rating, by name: Guildmaster's /api/scores."""
    league = _reader(request, slug)
    if isinstance(league, JsonResponse):
        return league
    system = _system(league)
    rows = Rating.objects.filter(league=league).values_list("player__name", "value")
    scores = {name: shown(value, system) for name, value in sorted(rows)}
    return JsonResponse(scores)


@allow_methods("GET")
def league_ratings_view(request: HttpRequest, slug: str) -> JsonResponse:
    """The leaderboard in order, with each player's latest game and what it did to them."""
    league = _reader(request, slug)
    if isinstance(league, JsonResponse):
        return league
    system = _system(league)
    rows = league_ratings(league=league, system=system)
    # Each player's change in their latest game: one query for the whole board.
    last = {
        player_id: {"id": game_id, "date": played_on.isoformat(), "delta": shown(delta, system)}
        for player_id, game_id, played_on, delta in RatingChange.objects.filter(
            Exists(
                Rating.objects.filter(
                    league=league, player_id=OuterRef("player_id"), last_game_id=OuterRef("game_id")
                )
            ),
            league=league,
        ).values_list("player_id", "game_id", "played_on", "delta")
    }
    return JsonResponse(
        {
            "league": league.slug,
            "system": system.name,
            "ratings": [
                {
                    "rank": row.rank,
                    "tied": row.tied,
                    "player": row.name,
                    "rating": shown(row.rating, system),
                    "games": row.games,
                    "wins": row.wins,
                    "draws": row.draws,
                    "losses": row.losses,
                    "win_percent": round(row.win_percent, 1),
                    "change_30d": shown(row.change, system),
                    "provisional": row.provisional,
                    "last_game": last.get(row.player_id),
                }
                for row in rows
            ],
        }
    )


# --- POST ---------------------------------------------------------------------------------------


class BadInput(DomainError):
    """A request body the API refuses (400), with the JSON field at fault."""


class KeyReused(LeagueError):
    """An Idempotency-Key sent again with another game (409): nothing is stored."""

    status = 409
    default_code = "key_reused"


def error_json(error: DomainError, *, field: str | None = None) -> JsonResponse:
    """A refusal as the API's error body, at the error's status; `field` when it names none."""
    return error_response(error.status, error.message, code=error.code, field=error.field or field)


def _name(raw, field: str) -> str:
    if not isinstance(raw, str):
        raise BadInput(field=field, message="A player is a name (a string).", code="invalid_type")
    if has_lone_surrogates(raw):
        raise BadInput(field=field, message=UNPAIRED_SURROGATE, code="invalid_unicode")
    if _CONTROL.search(raw):
        raise BadInput(
            field=field,
            message="The name contains control characters.",
            code="control_characters",
        )
    name = clean_text(raw)
    if not name:
        raise BadInput(field=field, message="The name is empty.", code="empty_name")
    if len(name) > NAME_MAX_LENGTH:
        raise BadInput(
            field=field,
            message=f"A name can be at most {NAME_MAX_LENGTH} characters.",
            code="long_name",
        )
    return name


def _finishing_order(players) -> list[tuple[str, int, str]]:
    """(name, place, field) for each player of `players`: names, or lists of tied names."""
    if not isinstance(players, list):
        raise BadInput(
            field="players",
            message='List the players in finishing order: ["Ann", ["Bob", "Cy"], "Dee"] '
            "(a nested list is a tie).",
            code="invalid_type",
        )
    groups: list[list[tuple[str, str]]] = []
    for i, item in enumerate(players):
        if isinstance(item, list):
            if not item:
                raise BadInput(
                    field=f"players[{i}]",
                    message="A tied place needs at least one player.",
                    code="empty_tie_group",
                )
            groups.append(
                [
                    (_name(raw, f"players[{i}][{j}]"), f"players[{i}][{j}]")
                    for j, raw in enumerate(item)
                ]
            )
        else:
            groups.append([(_name(item, f"players[{i}]"), f"players[{i}]")])
    placed = places_from_groups(groups)
    if len(placed) > MAX_PLAYERS:
        raise BadInput(
            field="players",
            message=f"A game can have at most {MAX_PLAYERS} players.",
            code="too_many_players",
        )
    try:
        validate_places([place for _, place in placed])
    except RankingError as error:
        raise BadInput(field="players", message=str(error), code=error.code) from None
    # Twice in one game, ignoring case the way the database compares names.
    folded = names_folded(name for (name, _), _ in placed)
    seen: dict[str, str] = {}
    for (name, field), _ in placed:
        first = seen.setdefault(folded[name], field)
        if first != field:
            raise BadInput(
                field=field,
                message=f"{name} is already in this game (at {first}).",
                code="duplicate_player",
            )
    return [(name, place, field) for (name, field), place in placed]


def _played_on(data: dict) -> date:
    if "date" not in data:
        return timezone.localdate()
    raw = data["date"]
    if not isinstance(raw, str) or not _DATE.match(raw):
        raise BadInput(field="date", message="Give the date as YYYY-MM-DD.", code="invalid_date")
    try:
        played_on = date.fromisoformat(raw)
    except ValueError:
        raise BadInput(field="date", message=f"{raw} is not a date.", code="invalid_date") from None
    try:
        return game_date_check(played_on, field="date")
    except LeagueError as error:
        raise BadInput(field="date", message=str(error), code=error.code) from None


def _notes(data: dict) -> str:
    raw = data.get("notes", "")
    if not isinstance(raw, str):
        raise BadInput(field="notes", message="Notes are text (a string).", code="invalid_type")
    if has_lone_surrogates(raw):
        raise BadInput(field="notes", message=UNPAIRED_SURROGATE, code="invalid_unicode")
    notes = clean_note(raw)
    if len(notes) > NOTE_MAX_LENGTH:
        raise BadInput(
            field="notes",
            message=f"Notes can be at most {NOTE_MAX_LENGTH} characters.",
            code="too_long",
        )
    return notes


def _parse_game(body: bytes):
    """(finishing order, date, notes) from the request body, or BadInput."""
    try:
        data = json_body(body)
    except BadJson as error:
        raise BadInput(field="body", message=error.message, code=error.code) from None
    if not isinstance(data, dict):
        raise BadInput(field="body", message="The body must be a JSON object.", code="invalid_type")
    for key in data:
        if key not in GAME_KEYS:
            raise BadInput(
                field=key,
                message=f"Unknown field {key!r}; the fields are {', '.join(GAME_KEYS)}.",
                code="unknown",
            )
    if "players" not in data:
        raise BadInput(
            field="players",
            message="List the players in finishing order.",
            code="required",
        )
    return _finishing_order(data["players"]), _played_on(data), _notes(data)


@csrf_exempt
@allow_methods("POST")
def league_games(request: HttpRequest, slug: str) -> JsonResponse:
    """Record one game from a program holding the organization's API token."""
    token = _token(request)
    if token is NO_TOKEN:
        return _unauthorized(
            "Posting a game needs an API token: Authorization: Bearer <token>.", invalid=False
        )
    if token is None:
        return _unauthorized("The API token is not valid (or was revoked).", invalid=True)
    league = League.objects.select_related("organization").filter(slug=slug).first()
    if league is None or (not league.is_public and league.organization_id != token.organization_id):
        return _league_not_found()
    if league.organization_id != token.organization_id:
        return error_response(
            403, "This token is for another organization's leagues.", code="forbidden"
        )

    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    # The declared length first, so an oversized body is refused without being read.
    if length > MAX_BODY_BYTES or len(request.body) > MAX_BODY_BYTES:
        return error_response(
            413, f"The body can be at most {MAX_BODY_BYTES} bytes.", code="too_large", field="body"
        )
    try:
        order, played_on, notes = _parse_game(request.body)
    except BadInput as bad:
        return error_json(bad)

    # A client may send the same game twice (a retry after a timeout): with the same
    # Idempotency-Key the second request finds the first game and stores nothing.
    key = request.headers.get("Idempotency-Key", "").strip() or None
    if key is not None and len(key) > 64:
        return error_response(
            400, "Idempotency-Key can be at most 64 characters.", code="too_long", field="header"
        )
    by = token.created_by
    try:
        with transaction.atomic():
            players, created = players_get_or_create(
                organization=league.organization, names=[name for name, _, _ in order]
            )
            game = game_record(
                league=league,
                results=[
                    ResultIn(player=players[name.lower()], place=place) for name, place, _ in order
                ],
                played_on=played_on,
                by=by,
                source=Game.Source.MANUAL,
                notes=notes,
                entry_key=key,
                via=f"API token {token.name}",
            )
            if game.is_replay:  # the same key must mean the same game; else store nothing
                stored = sorted(game.results.values_list("player_id", "placement"))
                sent = sorted((players[name.lower()].pk, place) for name, place, _ in order)
                if stored != sent:
                    raise KeyReused(
                        f"This Idempotency-Key was already used for another game (#{game.pk}).",
                        field="header",
                    )
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    except LeagueError as error:  # a rule checked at write time; nothing was written
        return error_json(error, field="players")

    status = 200 if game.is_replay else 201
    return JsonResponse(_game_answer(league, game, order, players, created), status=status)


def _game_answer(league, game, order, players, created) -> dict:
    """The stored game with every player's change, after the ratings have caught up."""
    try:
        # Normally already done on commit; this also covers a caller's enclosing transaction.
        ratings_catch_up(league_id=league.pk)
    except Exception:
        log.exception("Rating catch-up after API game %s failed", game.pk)
    system = _system(league)
    changes = {
        c.player_id: c
        for c in RatingChange.objects.filter(game=game).only("player_id", "delta", "after")
    }
    results = []
    for name, place, _ in order:
        player = players[name.lower()]
        change = changes.get(player.pk)
        results.append(
            {
                "player": player.name,
                "place": place,
                "delta": shown(change.delta, system) if change else None,
                "rating": shown(change.after, system) if change else None,
            }
        )
    return {
        "game": {"id": game.pk, "date": game.played_on.isoformat(), "league": league.slug},
        "results": results,
        "new_players": [p.name for p in created],
    }
