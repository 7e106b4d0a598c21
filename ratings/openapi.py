"""The JSON API described as an OpenAPI 3.0 document, served at GET /api/openapi.json.

Written by hand rather than generated: the API is three endpoints, and a plain dict keeps the
promises in one readable place (what each endpoint takes, every answer it can give, the error
shape `{"error": {"field", "message", "code"}}` and the bearer token). The tests check that
every address in ratings/urls_api.py is described here, that the document is valid OpenAPI,
and fuzz the API against it (schemathesis): an endpoint added without a description here fails
the suite.
"""

from django.http import HttpRequest, JsonResponse

from .api import MAX_BODY_BYTES, MAX_PLAYERS, allow_methods
from .domain.registry import DEFAULT_SYSTEM, SYSTEMS

SLUG_PATTERN = "^[-a-zA-Z0-9_]+$"
_NAME = {
    "type": "string",
    "minLength": 1,
    # Control characters as leagues.domain.csvformat refuses them (tab and line breaks fold
    # to spaces, so they are allowed).
    "pattern": "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$",
    "description": (
        "A player's name: 1 to 100 characters after trimming, no control characters. "
        "Matched to the organization's players ignoring case; an unknown name is a new player."
    ),
    "example": "Ann",
}
# What the rating systems promise, read from their registry (ratings.domain.registry).
_WHOLE = ", ".join(name for name, system in SYSTEMS.items() if system.integer)
_RATING = {"type": "number", "description": f"Whole numbers for integer systems ({_WHOLE})."}
_SYSTEM = {
    "type": "string",
    "enum": list(SYSTEMS),
    "description": "The league's rating system: "
    + "; ".join(f"{name}, {system.label}" for name, system in SYSTEMS.items())
    + f". New leagues: {DEFAULT_SYSTEM}.",
}


def _error(description: str, *, challenge: bool = False) -> dict:
    answer: dict = {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    if challenge:
        answer["headers"] = {
            "WWW-Authenticate": {
                "description": 'Bearer realm="guildhall", with error="invalid_token" when the '
                "token sent is not valid",
                "schema": {"type": "string"},
            }
        }
    return answer


def _method_not_allowed() -> dict:
    answer = _error("Another method than the ones listed here.")
    answer["headers"] = {
        "Allow": {"description": "The methods this address takes.", "schema": {"type": "string"}}
    }
    return answer


_SLUG_PARAMETER = {
    "name": "slug",
    "in": "path",
    "required": True,
    "description": "The league's slug, as in its page's address.",
    "schema": {"type": "string", "pattern": SLUG_PATTERN},
    "example": "friday",
}

_READ_SECURITY = [{}, {"bearerAuth": []}]  # anonymous, or a token for a private league


def _read_errors() -> dict:
    return {
        "401": _error("A token was sent but is not valid (or was revoked).", challenge=True),
        "404": _error("No such league, or a private league the caller may not see."),
        "405": _method_not_allowed(),
    }


SCHEMA: dict = {
    "openapi": "3.0.3",
    "info": {
        "title": "Guildhall API",
        "version": "1",
        "description": (
            "A league's scores and leaderboard, and posting a game with an organization's API "
            "token. Every answer is JSON; every error is "
            '`{"error": {"field": ..., "message": ..., "code": ...}}`, and a refused request '
            "writes nothing."
        ),
    },
    "paths": {
        "/api/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This document.",
                "security": [{}],
                "responses": {
                    "200": {
                        "description": "The OpenAPI document.",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    },
                    "405": _method_not_allowed(),
                },
            }
        },
        "/api/leagues/{slug}/scores": {
            "parameters": [_SLUG_PARAMETER],
            "get": {
                "operationId": "league_scores",
                "summary": "Every rated player's current rating, by name (Guildmaster's shape).",
                "security": _READ_SECURITY,
                "responses": {
                    "200": {
                        "description": "Ratings by player name, keys sorted.",
                        "content": {
                            "application/json": {
                                "schema": {"type": "object", "additionalProperties": _RATING},
                                "example": {"Ann": 1520, "Bob": 1480},
                            }
                        },
                    },
                    **_read_errors(),
                },
            },
        },
        "/api/leagues/{slug}/ratings": {
            "parameters": [_SLUG_PARAMETER],
            "get": {
                "operationId": "league_ratings",
                "summary": "The leaderboard, best first, ranks shared on equal ratings.",
                "security": _READ_SECURITY,
                "responses": {
                    "200": {
                        "description": "The league's leaderboard.",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/Leaderboard"}
                            }
                        },
                    },
                    **_read_errors(),
                },
            },
        },
        "/api/leagues/{slug}/games": {
            "parameters": [_SLUG_PARAMETER],
            "post": {
                "operationId": "league_game_post",
                "summary": "Record one game; the league is re-rated from it.",
                "security": [{"bearerAuth": []}],
                "parameters": [
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "required": False,
                        "description": (
                            "Any text of up to 64 characters naming this game: a retry with "
                            "the same key answers 200 with the game first stored, and stores "
                            "nothing; the same key with a different game answers 409."
                        ),
                        "schema": {"type": "string", "maxLength": 64},
                    }
                ],
                "requestBody": {
                    "required": True,
                    "description": f"At most {MAX_BODY_BYTES} bytes.",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/GameIn"}}
                    },
                },
                "responses": {
                    "201": {
                        "description": "The stored game with every player's rating change.",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/GameOut"}}
                        },
                    },
                    "200": {
                        "description": (
                            "A retry with an Idempotency-Key already used for this game: the "
                            "game as first stored; nothing new is stored."
                        ),
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/GameOut"}}
                        },
                    },
                    "400": _error(
                        "The body is not a valid game; `field` names the part at fault, "
                        'e.g. "players[1][0]", "date" or "body".'
                    ),
                    "401": _error("No token, or a token that is not valid.", challenge=True),
                    "403": _error("The token belongs to another organization."),
                    "404": _error("No such league, or another organization's private league."),
                    "405": _method_not_allowed(),
                    "409": _error("The Idempotency-Key was already used for another game."),
                    "413": _error(f"The body is larger than {MAX_BODY_BYTES} bytes."),
                },
            },
        },
    },
    "components": {
        "securitySchemes": {
            "bearerAuth": {
                "type": "http",
                "scheme": "bearer",
                "description": (
                    "An organization's API token: `python manage.py api_token create "
                    "--organization SLUG --name NAME` prints it once."
                ),
            }
        },
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error"],
                "additionalProperties": False,
                "properties": {
                    "error": {
                        "type": "object",
                        "required": ["field", "message", "code"],
                        "additionalProperties": False,
                        "properties": {
                            "field": {
                                "type": "string",
                                "nullable": True,
                                "description": "The part of the request at fault, if one is.",
                            },
                            "message": {"type": "string", "description": "For a person."},
                            "code": {"type": "string", "description": "For a program."},
                        },
                    }
                },
            },
            "GameIn": {
                "type": "object",
                "required": ["players"],
                "additionalProperties": False,
                "properties": {
                    "players": {
                        "type": "array",
                        "description": (
                            "Finishing order, winner first; a nested list is a shared place: "
                            '["Ann", ["Bob", "Cy"], "Dee"]. At least 2 and at most '
                            f"{MAX_PLAYERS} players, each once."
                        ),
                        "minItems": 1,
                        "items": {
                            "oneOf": [
                                _NAME,
                                {"type": "array", "minItems": 1, "items": _NAME},
                            ]
                        },
                        "example": ["Ann", ["Bob", "Cy"], "Dee"],
                    },
                    "date": {
                        "type": "string",
                        "format": "date",
                        "description": (
                            "YYYY-MM-DD, at most a day after today (the site's time zone; "
                            "later is a 400 with code future_date); today if left out."
                        ),
                        "example": "2026-11-20",
                    },
                    "notes": {
                        "type": "string",
                        "description": "At most 2000 characters after trimming.",
                        "example": "Went to time",
                    },
                },
            },
            "GameOut": {
                "type": "object",
                "required": ["game", "results", "new_players"],
                "properties": {
                    "game": {
                        "type": "object",
                        "required": ["id", "date", "league"],
                        "properties": {
                            "id": {"type": "integer"},
                            "date": {"type": "string", "format": "date"},
                            "league": {"type": "string"},
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["player", "place", "delta", "rating"],
                            "properties": {
                                "player": {"type": "string"},
                                "place": {"type": "integer", "minimum": 1},
                                "delta": {**_RATING, "nullable": True},
                                "rating": {**_RATING, "nullable": True},
                            },
                        },
                    },
                    "new_players": {"type": "array", "items": {"type": "string"}},
                },
            },
            "Leaderboard": {
                "type": "object",
                "required": ["league", "system", "ratings"],
                "properties": {
                    "league": {"type": "string"},
                    "system": _SYSTEM,
                    "ratings": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": [
                                "rank",
                                "tied",
                                "player",
                                "rating",
                                "games",
                                "wins",
                                "draws",
                                "losses",
                                "win_percent",
                                "change_30d",
                                "provisional",
                                "last_game",
                            ],
                            "properties": {
                                "rank": {"type": "integer", "minimum": 1},
                                "tied": {"type": "boolean"},
                                "player": {"type": "string"},
                                "rating": _RATING,
                                "games": {"type": "integer", "minimum": 0},
                                "wins": {
                                    "type": "integer",
                                    "minimum": 0,
                                    "description": "Games won: an unshared first place.",
                                },
                                "draws": {
                                    "type": "integer",
                                    "minimum": 0,
                                    "description": "Games drawn: a shared first place (a drawn "
                                    "pod, a 1-1, an intentional draw).",
                                },
                                "losses": {
                                    "type": "integer",
                                    "minimum": 0,
                                    "description": "Every other game: games - wins - draws.",
                                },
                                "win_percent": {
                                    "type": "number",
                                    "minimum": 0,
                                    "maximum": 100,
                                    "description": "Wins / games in percent, one decimal; a "
                                    "draw is no win.",
                                },
                                "change_30d": _RATING,
                                "provisional": {"type": "boolean"},
                                "last_game": {
                                    "type": "object",
                                    "nullable": True,
                                    "required": ["id", "date", "delta"],
                                    "properties": {
                                        "id": {"type": "integer"},
                                        "date": {"type": "string", "format": "date"},
                                        "delta": {**_RATING, "nullable": True},
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


@allow_methods("GET")
def openapi_document(request: HttpRequest) -> JsonResponse:
    return JsonResponse(SCHEMA)
