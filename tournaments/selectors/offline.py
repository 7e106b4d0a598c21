"""The event as the TO's phone keeps it for an outage: plain JSON-able data, read in a fixed
number of queries whatever the size of the event.

What the phone needs to go on without the server: the event's scoring and pairing settings,
its players (with their drops), and every round's tables with their seats, results and
versions (the version a result tapped offline is made against). The pairing that may run on
the phone works from this (the event's seed included), like the server's from the database.
"""

from django.utils import timezone

from ..models import Entry, Round, Seat, Tournament

STATE_VERSION = 1


def _number(value) -> float | None:
    return None if value is None else float(value)


def event_state_get(event: Tournament) -> dict:
    """`event` as plain data: settings, players, rounds with tables and seats."""
    entries = [
        {
            "id": e.pk,
            "player_id": e.player_id,
            "name": e.player.name,
            "joined_round": e.joined_round,
            "dropped_after": e.dropped_after,
        }
        for e in Entry.objects.filter(tournament=event).select_related("player").order_by("pk")
    ]
    rounds: dict[int, dict] = {}
    for r in Round.objects.filter(tournament=event).order_by("number"):
        rounds[r.pk] = {
            "id": r.pk,
            "number": r.number,
            "kind": r.kind,
            "status": r.status,
            "ends_at": r.ends_at.isoformat() if r.ends_at else None,
            "tables": {},
        }
    seats = (
        Seat.objects.filter(table__round__tournament=event)
        .select_related("table")
        .order_by("table__round__number", "table__number", "position")
    )
    for seat in seats:
        t = seat.table
        tables = rounds[t.round_id]["tables"]
        if t.pk not in tables:
            tables[t.pk] = {
                "id": t.pk,
                "number": t.number,
                "version": t.version,
                "reported": t.reported,
                "draw": t.is_draw,
                "winner": t.winner_id,
                "game_draws": t.game_draws,
                "requested_bye": t.requested_bye,
                "extra_minutes": t.extra_minutes,
                "seats": [],
            }
        tables[t.pk]["seats"].append(
            {
                "entry": seat.entry_id,
                "position": seat.position,
                "place": seat.place,
                "game_wins": seat.game_wins,
            }
        )
    return {
        "state_version": STATE_VERSION,
        "as_of": timezone.now().isoformat(),
        "event": {
            "id": event.pk,
            "slug": event.slug,
            "name": event.name,
            "format": event.format,
            "status": event.status,
            "seed": event.seed,
            "swiss_rounds": event.swiss_rounds,
            "top_cut": event.top_cut,
            "first_round": event.first_round,
            "bye_pairing": event.bye_pairing,
            "bye_rule": event.bye_rule,
            "pod_layout": event.pod_layout,
            "cut_seats": event.cut_seats,
            "tiebreakers": event.tiebreakers,
            "points": {
                "win": _number(event.points_win),
                "draw": _number(event.points_draw),
                "loss": _number(event.points_loss),
                "bye": _number(event.points_bye),
            },
            "omw_floor": _number(event.omw_floor),
            "gw_floor": _number(event.gw_floor),
            "round_minutes": event.round_minutes,
        },
        "entries": entries,
        "rounds": [{**r, "tables": list(r["tables"].values())} for r in rounds.values()],
    }
