"""The cEDH matching protocol (github.com/RememberOfLife/cedh_matching): one request, one round.

`parse_request` promises that a request it accepts is exactly what the protocol describes, and
refuses anything else with a `ProtocolError` whose message is one line naming the place
(`rounds[2][1].winner: 17 is not at this pod`): the request is one JSON object with `players`
(the active ids; whole numbers from 1, each once) and `rounds` (every earlier round, a list of
tables `{"players": [ids in seat order], "winner": id, or 0 for a draw}`; nobody twice in one
round; a bye is a table of one player who is its winner). Players missing from `players` have
dropped; players in `players` but in no round joined late. Optional keys: `weights` (our
`PodWeights` names; cedh_matching's own `rematch`, `non_equal_scores` and `3_player_table`
are checked and ignored, their cost model is not ours), `layout` (one of `pods.LAYOUTS`),
`seed` (a whole number, default 0) and `planned_rounds` (ours: the event's planned number of
rounds, a whole number from 1, so that `pair_pods` knows its last round; `rounds` is taken by
the earlier rounds); a null optional key counts as absent. Other keys, at the
top and in tables, are ignored: other tools send more. `respond` pairs the next round with
`pods.pair_pods` from the standings (3 points a win or a bye, 1 a draw, 0 a loss; then by id)
and returns `{"placements": [{"players": [ids in seat order]}, ...]}` in table order, a bye
being a placement of one player; every active player is in it exactly once, or it raises
`PodPairingError` rather than answer wrongly. Hostile sizes are refused up front.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from tournaments.domain.pods import LAYOUTS, PodPairingError, PodWeights, pair_pods
from tournaments.domain.records import MAGIC, PlayerId, Round, Table

MAX_PLAYERS = 100_000  # in `players`, and seated in any one earlier round
MAX_ROUNDS = 1_000
MAX_TABLE = 8  # players at one earlier table: pods seat 3-5; read_history is quadratic in it
# cedh_matching's weight names (its README and web interface always send them).
FOREIGN_WEIGHTS = ("rematch", "non_equal_scores", "3_player_table")
_OUR_WEIGHTS = tuple(sorted(f.name for f in fields(PodWeights)))
_SHOWN = 40  # characters of a bad value quoted in a message


class ProtocolError(ValueError):
    """A request the protocol does not allow; the message is one line, `<place>: <problem>`."""

    def __init__(self, place: str, problem: str):
        super().__init__(f"{place}: {problem}")
        self.place = place


@dataclass(frozen=True, slots=True)
class PodRequest:
    """A checked request: the active players, every earlier round, and how to pair."""

    players: tuple[PlayerId, ...]
    history: tuple[Round, ...]
    weights: PodWeights = field(default_factory=PodWeights)
    layout: str = "threes"
    seed: int = 0
    planned_rounds: int | None = None


# ---------------------------------------------------------------------------------------------
# Reading a request


def request_text(data: bytes) -> str:
    """The request's text from raw bytes (UTF-8, a byte order mark allowed)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ProtocolError(
            "request", f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None


def parse_request(text: str) -> PodRequest:
    """Check one JSON request and read it; see the module docstring for what is accepted."""
    if not text.strip():
        raise ProtocolError("request", "empty input; expected one JSON object")
    value = _load_json(text)
    if not isinstance(value, dict):
        raise ProtocolError("request", f"must be a JSON object, not {_kind(value)}")
    for key in ("players", "rounds"):
        if key not in value:
            raise ProtocolError("request", f"missing key {key!r}")
    players = _players(value["players"])
    history = _rounds(value["rounds"])
    weights = _weights(value.get("weights"))
    layout = _layout(value.get("layout"))
    seed = _seed(value.get("seed"))
    planned = _planned_rounds(value.get("planned_rounds"))
    if len(players) < 3:
        raise ProtocolError(
            "players", f"at least 3 active players are needed for a pod, got {len(players)}"
        )
    return PodRequest(players, history, weights, layout, seed, planned)


class _NotJson(ValueError):
    pass


def _refuse_constant(name: str):
    raise _NotJson(f"{name} is not a JSON value")


def _unique_keys(pairs):
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise _NotJson(f"key {_show(twice)} appears twice in one object")
    return dict(pairs)


def _load_json(text: str):
    try:
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        problem = f"{error.msg} at line {error.lineno} column {error.colno}"
    except _NotJson as error:
        problem = str(error)
    except RecursionError:
        problem = "nested too deeply"
    except ValueError as error:  # e.g. an integer of more than 4300 digits
        problem = str(error).splitlines()[0] if str(error) else type(error).__name__
    raise ProtocolError("request", f"not valid JSON: {problem}")


def _players(value) -> tuple[PlayerId, ...]:
    if not isinstance(value, list):
        raise ProtocolError("players", f"must be a list of player ids, not {_kind(value)}")
    if len(value) > MAX_PLAYERS:
        raise ProtocolError("players", f"{len(value)} players is more than {MAX_PLAYERS}")
    where: dict[PlayerId, int] = {}
    for index, player in enumerate(value):
        place = f"players[{index}]"
        _check_id(place, player)
        if player in where:
            raise ProtocolError(place, f"{player} is already listed at players[{where[player]}]")
        where[player] = index
    return tuple(value)


def _rounds(value) -> tuple[Round, ...]:
    if not isinstance(value, list):
        raise ProtocolError("rounds", f"must be a list of rounds, not {_kind(value)}")
    if len(value) > MAX_ROUNDS:
        raise ProtocolError("rounds", f"{len(value)} rounds is more than {MAX_ROUNDS}")
    return tuple(_round(f"rounds[{index}]", round_) for index, round_ in enumerate(value))


def _round(place: str, value) -> Round:
    if not isinstance(value, list):
        raise ProtocolError(place, f"must be a list of tables, not {_kind(value)}")
    seated: dict[PlayerId, int] = {}  # player -> table index, for this round
    tables = []
    for index, table in enumerate(value):
        tables.append(_table(f"{place}[{index}]", index, table, seated))
        if len(seated) > MAX_PLAYERS:
            raise ProtocolError(place, f"seats more than {MAX_PLAYERS} players")
    return tuple(tables)


def _table(place: str, index: int, value, seated: dict[PlayerId, int]) -> Table:
    if not isinstance(value, dict):
        raise ProtocolError(place, f"must be an object with players and winner, not {_kind(value)}")
    for key in ("players", "winner"):
        if key not in value:
            raise ProtocolError(place, f"missing key {key!r}")
    players = value["players"]
    if not isinstance(players, list):
        raise ProtocolError(
            f"{place}.players", f"must be a list of player ids, not {_kind(players)}"
        )
    if not players:
        raise ProtocolError(f"{place}.players", "a table needs at least one player")
    if len(players) > MAX_TABLE:
        raise ProtocolError(
            f"{place}.players", f"a table of {len(players)} players is more than {MAX_TABLE}"
        )
    round_place = place.rsplit("[", 1)[0]
    for seat, player in enumerate(players):
        seat_place = f"{place}.players[{seat}]"
        _check_id(seat_place, player)
        if player in seated:
            if seated[player] == index:
                raise ProtocolError(seat_place, f"{player} is listed twice at this table")
            raise ProtocolError(
                seat_place, f"{player} already sits at {round_place}[{seated[player]}] this round"
            )
        seated[player] = index
    winner = value["winner"]
    if isinstance(winner, bool) or not isinstance(winner, int) or winner < 0:
        raise ProtocolError(
            f"{place}.winner",
            f"must be the id of a player at this pod, or 0 for a draw, not {_show(winner)}",
        )
    if winner == 0:
        if len(players) == 1:
            raise ProtocolError(
                f"{place}.winner",
                f"a table of one player is a bye, won by {players[0]}; a draw (0) is not allowed",
            )
        return Table(tuple(players), None)
    if winner not in players:
        raise ProtocolError(f"{place}.winner", f"{winner} is not at this pod")
    return Table(tuple(players), winner)


def _weights(value) -> PodWeights:
    if value is None:
        return PodWeights()
    if not isinstance(value, dict):
        raise ProtocolError("weights", f"must be an object, not {_kind(value)}")
    ours = {}
    for name, weight in value.items():
        place = f"weights.{name}"  # used for known names only
        if name in FOREIGN_WEIGHTS:
            # Same rule as PodWeights: a number from 0 to 1e9.
            if (
                isinstance(weight, bool)
                or not isinstance(weight, int | float)
                or not 0 <= weight <= 1e9
            ):
                raise ProtocolError(place, f"must be a number from 0 to 1e9, not {_show(weight)}")
        elif name in _OUR_WEIGHTS:
            try:
                PodWeights.from_mapping({name: weight})
            except PodPairingError as error:
                raise ProtocolError(place, str(error)) from None
            ours[name] = weight
        else:
            known = ", ".join((*_OUR_WEIGHTS, *FOREIGN_WEIGHTS))
            raise ProtocolError("weights", f"unknown weight {_show(name)} (known: {known})")
    try:
        return PodWeights.from_mapping(ours)
    except PodPairingError as error:  # pods.py's rules changed under us: still one line
        raise ProtocolError("weights", str(error)) from None


def _layout(value) -> str:
    if value is None:
        return "threes"
    if not isinstance(value, str) or value not in LAYOUTS:
        raise ProtocolError("layout", f"must be one of {', '.join(LAYOUTS)}, not {_show(value)}")
    return value


def _seed(value) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("seed", f"must be a whole number, not {_show(value)}")
    return value


def _planned_rounds(value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
        raise ProtocolError(
            "planned_rounds", f"must be a whole number from 1 to {MAX_ROUNDS}, not {_show(value)}"
        )
    return value


def _check_id(place: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ProtocolError(place, f"{_show(value)} is not a player id (whole numbers from 1)")


def _kind(value) -> str:
    """The JSON name of a value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _show(value) -> str:
    """A bad value as JSON, cut short: a message stays one readable line."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except ValueError:  # a number too long to print
        text = f"<{_kind(value)}>"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


# ---------------------------------------------------------------------------------------------
# The response


def event_points(history) -> dict[PlayerId, float]:
    """Points from every earlier round: 3 a win or a bye, 1 a draw, 0 a loss (pairings_edh)."""
    points: dict[PlayerId, float] = {}
    for round_ in history:
        for table in round_:
            for player in table.players:
                points[player] = points.get(player, 0.0) + MAGIC.points(table, player)
    return points


def standings_order(players, points: Mapping[PlayerId, float]) -> list[PlayerId]:
    """The active players best first: by points, then by id."""
    return sorted(players, key=lambda p: (-points.get(p, 0.0), p))


def respond(request: PodRequest) -> dict:
    """The next round's placements for a checked request, in table order (byes last)."""
    points = event_points(request.history)
    pairing = pair_pods(
        players=request.players,
        history=request.history,
        points=points,
        ranking=standings_order(request.players, points),
        seed=request.seed,
        round_number=len(request.history) + 1,
        rounds=request.planned_rounds,
        layout=request.layout,
        weights=request.weights,
    )
    tables = [*pairing.pods, *((player,) for player in pairing.byes)]
    seated = [player for table in tables for player in table]
    if len(seated) != len(request.players) or set(seated) != set(request.players):
        # Never hand out a wrong pairing, whatever the engine did.
        raise PodPairingError("internal", "the pairing does not seat every player exactly once")
    if any(not table for table in tables):
        raise PodPairingError("internal", "the pairing has an empty table")
    return {"placements": [{"players": list(table)} for table in tables]}
