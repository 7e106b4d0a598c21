"""The next Swiss round from plain JSON: what the server's `round_pair` computes, as one value
the TO's phone can hold and pair without the server (issue 34, under Pyodide in the browser).

A *snapshot* (`selectors.pairing_snapshot.pairing_snapshot`) is the event as the server's
pairing reads it: the completed Swiss rounds' tables, the entrants and drops, the points scheme and
tiebreakers, the seed and the pairing options, plus the round being played (`open`) with the
results the server knew. The phone adds the results it holds (`close_round`), which gives the
*input* of the next round; `pair_next` ranks the standings and pairs it exactly as the server
would (the same `compute_standings`, `pair_round` and `pair_pods` calls with the same values),
and `digest` names an input so the server can tell whether its own still is the one the phone
paired from. `check_round` holds an uploaded round to the rules the server's pairing keeps.

Plain JSON in and out (lists, no tuples, player ids as ints) so that the server and the browser
read the same bytes; no Django here, nothing but the standard library.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from tournaments.domain.pairing import PairingError, pair_round
from tournaments.domain.pods import PodPairingError, pair_pods, pod_sizes, seating_warnings
from tournaments.domain.records import PointsScheme, Table
from tournaments.domain.standings import compute_standings
from tournaments.domain.texts import N_, Nn_, Refusal, note_data

VERSION = 1


class NextRoundError(Refusal):
    """The round cannot be paired or adopted from this input; `code` says which rule."""


@dataclass(frozen=True)
class NextRound:
    """The round as the pairing gives it: its tables in order, each a list of players in seat
    order (byes as tables of one, the requested byes last), and what the TO is warned of."""

    number: int
    tables: list[list[int]]
    warnings: list[str]

    def as_json(self) -> dict:
        # The warnings as notes before translation (`Note.data`): the phone's page writes them
        # in its reader's language (offline_pair.js).
        return {
            "round": self.number,
            "tables": self.tables,
            "warnings": [note_data(w) for w in self.warnings],
        }


def table_json(table: Table) -> dict:
    """One history table as JSON (the shape `table_value` reads back)."""
    return {
        "players": list(table.players),
        "winner": table.winner,
        "game_wins": None if table.game_wins is None else list(table.game_wins),
        "game_draws": table.game_draws,
        "finish": None if table.finish is None else list(table.finish),
        "requested": table.requested,
    }


def table_value(data: dict) -> Table:
    return Table(
        players=tuple(data["players"]),
        winner=data["winner"],
        game_wins=None if data.get("game_wins") is None else tuple(data["game_wins"]),
        game_draws=data.get("game_draws") or 0,
        finish=None if data.get("finish") is None else tuple(data["finish"]),
        requested=bool(data.get("requested")),
    )


def phone_result(players: list[int], given: dict) -> dict:
    """A result tapped on the phone as the server stores it: {"winner": player} (a winner
    alone, the others second) or {"draw": true} (everyone first), with no game wins; or a
    match's games as its card's button gives them, {"games": [first seat's game wins, second
    seat's, drawn games]} (a result waiting in the console's queue: "0-2" is [0, 2, 0]), with
    the game wins the server stores for it."""
    games = given.get("games")
    if games is not None:
        return _match_result(players, games)
    draw = bool(given.get("draw"))
    winner = None if draw else given.get("winner")
    if not draw and winner not in players:
        raise NextRoundError("bad_result", N_("Tap the winner, or Draw."))
    return {
        "winner": winner,
        "game_wins": None,
        "game_draws": 0,
        "finish": [1 if draw or p == winner else 2 for p in players],
    }


def _match_result(players: list[int], games) -> dict:
    # As a match's card reads its code (formats.onevone.read_code, MTR 2.1 and 2.4): up to 2
    # game wins a side and 3 drawn games, and at least one game.
    whole = (
        isinstance(games, list)
        and len(games) == 3
        and all(isinstance(g, int) and not isinstance(g, bool) and g >= 0 for g in games)
    )
    if len(players) != 2 or not whole or max(games[:2]) > 2 or games[2] > 3 or not any(games):
        raise NextRoundError("bad_result", N_("A match's result is its game wins, as 2-1."))
    first, second, drawn = games
    winner = players[0] if first > second else players[1] if second > first else None
    return {
        "winner": winner,
        "game_wins": [first, second],
        "game_draws": drawn,
        "finish": [1 if winner is None or p == winner else 2 for p in players],
    }


def close_round(snapshot: dict, results: dict | None = None) -> dict:
    """The input of the next round: the snapshot's history with its open round closed by the
    results known (the server's, else the phone's `results`: table number -> a result tapped
    on the phone, `phone_result`). Every table needs one (NextRoundError names the tables
    without)."""
    closed = {k: v for k, v in snapshot.items() if k not in ("open", "pairable", "why")}
    opened = snapshot.get("open")
    if not opened:
        return closed
    results = {int(k): v for k, v in (results or {}).items()}
    tables, missing = [], []
    for table in opened["tables"]:
        result = table.get("result")
        if result is None and table["number"] in results:
            result = phone_result(table["players"], results[table["number"]])
        if result is None:
            missing.append(table["number"])
            continue
        full = {**result, "players": table["players"], "requested": table["requested"]}
        tables.append(table_json(table_value(full)))
    if missing:
        raise NextRoundError(
            "missing",
            Nn_("No result yet at table %(tables)s.", "No result yet at tables %(tables)s."),
            {"tables": ", ".join(str(n) for n in missing)},
            count=len(missing),
        )
    closed["history"] = [*snapshot["history"], tables]
    return closed


def pair_offline(snapshot_text: str, results_text: str = "{}") -> str:
    """The phone's call (under Pyodide): the snapshot and the results tapped on the phone, as
    JSON text, in; the round paired, with the input it was paired from and its digest (what
    the phone sends back), or the reason it cannot be paired, as JSON text out."""
    try:
        data = close_round(json.loads(snapshot_text), json.loads(results_text))
        round_ = pair_next(data)
    except NextRoundError as error:
        # `message` in English; `template` and `params` for a page that translates it
        # (`interpolate(gettext(template), params, true)`; with a `plural`,
        # `ngettext(template, plural, count)`).
        answer = {
            "ok": False,
            "code": error.code,
            "message": error.message,
            "template": error.template,
            "params": error.params,
        }
        if error.plural is not None:
            answer |= {"plural": error.plural, "count": error.count}
        return json.dumps(answer)
    return json.dumps({"ok": True, **round_.as_json(), "input": data, "digest": digest(data)})


def plain(value):
    """An input as JSON holds it after a trip through JavaScript, where 5.0 comes back as 5:
    whole floats as ints, everywhere."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def digest(data: dict) -> str:
    """A name for an input: the same input, the same digest, on the server and on the phone
    (whichever way its numbers were written)."""
    named = {k: plain(v) for k, v in data.items() if k != "names"}  # names are for showing
    text = json.dumps(named, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _pairs(values) -> dict[int, float] | None:
    return None if values is None else {int(p): float(v) for p, v in values}


def standings_order(data: dict) -> tuple[list[int], dict[int, float]]:
    """The standings' ranking and points from an input, as `selectors.standings.standings`."""
    params: dict = {
        "omw_floor": Fraction(data["omw_floor"]),
        "gw_floor": Fraction(data["gw_floor"]),
        "bye_rule": data["bye_rule"],
    }
    if data.get("standing_ratings") is not None:
        params["ratings"] = _pairs(data["standing_ratings"])
    scheme = PointsScheme(**data["scheme"])
    entrants = data["entrants"]
    rows = compute_standings(
        players=[p for p, _ in entrants],
        rounds=_history(data),
        scheme=scheme,
        precedence=data["precedence"],
        dropped={p: d for p, d in entrants if d is not None},
        params=params,
    )
    return [row.player for row in rows], {row.player: row.points for row in rows}


def _history(data: dict):
    return [tuple(table_value(t) for t in round_) for round_ in data["history"]]


def _active(data: dict) -> list[int]:
    out = set(data["sitting_out"])
    return [p for p in data["players"] if p not in out]


def pair_next(data: dict) -> NextRound:
    """Pair the input's round as `services.rounds.round_pair` does: the players who sit it out
    (requested byes) get a table of one each after the others."""
    if data.get("version") != VERSION:
        raise NextRoundError("version", N_("This snapshot is from another version: load it again."))
    number = data["round"]
    active = _active(data)
    fewest = 3 if data["format"] == "pods" else 2
    if len(active) < fewest:
        raise NextRoundError(
            "few",
            N_("At least three players are needed to pair a round.")
            if fewest == 3
            else N_("At least two players are needed to pair a round."),
        )
    if number > data["planned"]:
        raise NextRoundError(
            "swiss_over",
            N_("All %(planned)s Swiss rounds have been played."),
            {"planned": data["planned"]},
        )
    history = _history(data)
    ranking, points = standings_order(data)
    ratings = _pairs(data.get("ratings"))
    common = {
        "players": active,
        "history": history,
        "ranking": ranking,
        "points": points,
        "seed": data["seed"],
        "round_number": number,
        "first_round": data["first_round"],
        "ratings": ratings,
    }
    warnings: list[str] = []
    namer = _namer(data.get("names") or {})
    try:
        if data["format"] == "pods":
            pairing = pair_pods(
                **common,
                rounds=data["planned"],
                layout=data["pod_layout"],
                win_points=float(data["points_win"]),
                draw_points=float(data["points_draw"]),
            )
            tables = [*map(list, pairing.pods), *([b] for b in pairing.byes)]
        else:
            pairing = pair_round(**common, bye_pairing=data["bye_pairing"], name=namer)
            tables = [*map(list, pairing.tables), *([b] for b in pairing.byes)]
    except (PairingError, PodPairingError) as error:
        message = error.template if error.plural is None else (error.template, error.plural)
        raise NextRoundError(error.code, message, error.params, count=error.count) from None
    warnings = list(pairing.warnings)
    if data["format"] == "pods":
        warnings += seating_warnings(history, enumerate(tables, 1), namer)
    tables += [[p] for p in data["players"] if p in set(data["sitting_out"])]
    return NextRound(number=number, tables=tables, warnings=warnings)


def _namer(names: dict):
    """A player's name as the snapshot gives it (`names`: player id, as text, -> name), for the
    warnings the phone shows as the server's pairing writes them (its id if it has none)."""
    return lambda p: names.get(str(p), str(p))


def check_round(data: dict, tables: list[list[int]]) -> None:
    """Refuse (NextRoundError) a round that the server's own pairing could not have made from
    `data`: every active player seated exactly once and nobody else, the players sitting the
    round out each at a table of one after the others, the tables the format allows (1v1:
    matches of two and at most one bye; pods: the pod sizes and byes of the event's layout)."""
    if not isinstance(tables, list) or not all(
        isinstance(t, list) and t and all(isinstance(p, int) and not isinstance(p, bool) for p in t)
        for t in tables
    ):
        raise NextRoundError("shape", N_("The round must be a list of tables of player ids."))
    active = _active(data)
    out = list(data["sitting_out"])
    requested = [p for p in data["players"] if p in set(out)]
    paired = tables[: len(tables) - len(requested)] if requested else tables
    tail = [t[0] for t in tables[len(paired) :] if len(t) == 1]
    if tail != requested:
        raise NextRoundError(
            "requested",
            N_("The players who asked to sit the round out must each get a bye last."),
        )
    seated = Counter(p for t in paired for p in t)
    twice = sorted(p for p, c in seated.items() if c > 1)
    if twice:
        raise NextRoundError(
            "twice", N_("Seated more than once: player %(player)s."), {"player": twice[0]}
        )
    stray = sorted(set(seated) - set(active))
    if stray:
        raise NextRoundError(
            "not_active",
            N_("Player %(player)s is not playing this round (dropped or not entered)."),
            {"player": stray[0]},
        )
    unseated = sorted(set(active) - set(seated))
    if unseated:
        raise NextRoundError(
            "unseated", N_("Player %(player)s has no seat."), {"player": unseated[0]}
        )
    sizes = sorted(len(t) for t in paired if len(t) > 1)
    byes = sum(1 for t in paired if len(t) == 1)
    if data["format"] == "pods":
        allowed, allowed_byes = pod_sizes(len(active), data["pod_layout"])
        if sizes != sorted(allowed) or byes != allowed_byes:
            raise NextRoundError(
                "sizes",
                N_("In this event %(players)s players make pods of %(sizes)s; byes: %(byes)s."),
                {
                    "players": len(active),
                    "sizes": ", ".join(map(str, sorted(allowed))),
                    "byes": allowed_byes,
                },
            )
    elif set(sizes) - {2} or byes != len(active) % 2:
        raise NextRoundError(
            "sizes",
            N_("A 1v1 round is matches of two and one bye for an odd number of players."),
        )
    singles = [i for i, t in enumerate(paired) if len(t) == 1]
    if singles and singles[0] < len(paired) - len(singles):
        raise NextRoundError("order", N_("The byes come after the other tables."))
