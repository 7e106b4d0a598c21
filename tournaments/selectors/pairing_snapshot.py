"""The next round's pairing input as JSON (`domain.nextround`), for the TO's phone to pair the
round without the server and for the server to check the round the phone sends back.

`pairing_snapshot` reads exactly what `services.rounds.round_pair` hands the pairing: the
entrants of the next round and who sits it out, the completed Swiss rounds (`history`), the
standings' points scheme, tiebreakers, floors and bye rule, the seed, the first round's mode
and ratings, the planned rounds and the format's options; the round being played goes in
`open`, each table with the result the server has (None: not yet). `pairing_input` is the same
once every table of that round has a result: what `round_pair` would pair now.
"""

from ..domain import nextround
from ..domain.nextround import table_json
from ..models import Entry, Round, Tournament
from .standings import (
    bye_rule,
    entry_ratings,
    gw_floor,
    history,
    next_round_entrants,
    omw_floor,
    points_scheme,
    suggested_structure,
    tiebreakers,
)


def _open_round(tournament: Tournament) -> Round | None:
    return (
        tournament.rounds.filter(kind=Round.Kind.SWISS)
        .exclude(status=Round.Status.COMPLETE)
        .order_by("number")
        .first()
    )


def pairing_snapshot(tournament: Tournament) -> dict:
    """The event as the next round's pairing reads it, with the round being played open.

    `pairable` is False (and `why` says so) when the next round is not a Swiss round the phone
    may pair: a top-cut round, check-in still open, no round left."""
    opened = _open_round(tournament)
    last = tournament.rounds.order_by("-number").first()
    number = (last.number if last else 0) + 1
    why = ""
    if tournament.rounds.filter(kind=Round.Kind.TOP_CUT).exists():
        why = "The top cut has started: the server pairs it."
    elif opened is not None and opened.number != number - 1:
        why = "A round is open before the last one."
    elif tournament.check_in == Tournament.CheckIn.OPEN:
        why = "Check-in is still open."
    entered, sitting_out = next_round_entrants(tournament, number)
    active = [e for e in entered if e.pk not in sitting_out]
    planned = tournament.swiss_rounds or suggested_structure(tournament, len(entered))[0]
    precedence = tiebreakers(tournament)
    everyone = list(tournament.entries.select_related("player").order_by("player_id"))
    data = {
        "version": nextround.VERSION,
        "event": tournament.slug,
        "format": tournament.format,
        "round": number,
        "seed": tournament.seed,
        "players": [e.player_id for e in entered],
        "sitting_out": sorted(e.player_id for e in entered if e.pk in sitting_out),
        "entrants": [[e.player_id, e.dropped_after] for e in everyone],
        "history": [
            [table_json(t) for t in round_]
            for round_ in history(tournament, before=opened.number if opened else None)
        ],
        "scheme": {
            k: getattr(points_scheme(tournament), k) for k in ("win", "draw", "loss", "bye")
        },
        "precedence": precedence,
        "omw_floor": str(omw_floor(tournament)),
        "gw_floor": str(gw_floor(tournament)),
        "bye_rule": bye_rule(tournament, precedence),
        "standing_ratings": _ratings(tournament, everyone)
        if "avg_opp_rating" in precedence
        else None,
        "first_round": tournament.first_round,
        "ratings": _ratings(tournament, active) if tournament.first_round == "rating" else None,
        "planned": planned,
        "bye_pairing": tournament.bye_pairing,
        "pod_layout": tournament.pod_layout,
        "points_win": float(tournament.points_win),
        "points_draw": float(tournament.points_draw),
        "names": {str(e.player_id): e.player.name for e in everyone},
        "open": _open_tables(opened) if opened is not None else None,
        "pairable": not why,
        "why": why,
    }
    return data


def _ratings(tournament: Tournament, entries: list[Entry]) -> list[list]:
    return sorted([p, v] for p, v in entry_ratings(tournament, entries).items())


def _open_tables(round_: Round) -> dict:
    """The round being played, table by table in seat order, with the result the server has
    (the shape `history` reads it in) or None."""
    tables = []
    for table in round_.tables.order_by("number").prefetch_related("seats__entry", "winner"):
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        result = None
        if table.reported:
            wins = [s.game_wins for s in seats]
            places = [s.place for s in seats]
            result = {
                "winner": None if table.is_draw or not table.winner else table.winner.player_id,
                "game_wins": wins if all(w is not None for w in wins) else None,
                "game_draws": table.game_draws,
                "finish": places if all(p is not None for p in places) else None,
            }
        tables.append(
            {
                "number": table.number,
                "version": table.version,
                "players": [s.entry.player_id for s in seats],
                "requested": table.requested_bye and len(seats) == 1,
                "result": result,
            }
        )
    return {"round": round_.number, "tables": tables}


def pairing_input(tournament: Tournament) -> dict:
    """The input `round_pair` would pair now (NextRoundError when a table of the round being
    played has no result yet)."""
    return nextround.close_round(pairing_snapshot(tournament))
