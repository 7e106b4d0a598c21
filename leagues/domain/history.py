"""The audit log's snapshots as lines a person reads: "1st Ann (seat 2)", "Table 3: Ann v Bob".

Pure functions of the plain dicts the services store in `AuditEntry.before` / `.after`, so
an entry reads the same long after its game, table or event is gone. `changes` pairs the
before and after lines and marks the ones that differ, for a before → after view.
"""

from dataclasses import dataclass


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _game_lines(snap: dict) -> list[str]:
    lines = [f"Played {snap['played_on']}"]
    for r in snap.get("results", []):
        seat = f" (seat {r['seat']})" if r.get("seat") else ""
        lines.append(f"{ordinal(r['place'])} {r['player']}{seat}")
    if snap.get("notes"):
        lines.append(f"Note: {snap['notes']}")
    return lines


def _table_lines(snap: dict) -> list[str]:
    seats = snap.get("seats", [])
    if not snap.get("reported"):
        return ["No result"]
    pods = len(seats) > 2
    if pods:
        if snap.get("draw"):
            return ["Draw: " + ", ".join(s["player"] for s in seats)]
        ordered = sorted(seats, key=lambda s: (s["place"] or 99, s["position"]))
        return [f"{ordinal(s['place'])} {s['player']}" for s in ordered if s["place"]]
    wins = [s.get("game_wins") for s in seats]
    games = len(seats) == 2 and None not in wins
    if snap.get("draw"):
        # A draw in seat order, the score between the names: "Ann 1-1 Bob: draw".
        middle = f" {wins[0]}-{wins[1]} " if games else " v "
        return [f"{middle.join(s['player'] for s in seats)}: draw"]
    # From the winner's side, whichever seat they had: "Bob won 2-1 against Ann".
    winner = snap.get("winner")
    ordered = sorted(seats, key=lambda s: s["player"] != winner)
    others = " and ".join(s["player"] for s in ordered[1:])
    score = f" {ordered[0]['game_wins']}-{ordered[1]['game_wins']}" if games else ""
    return [f"{winner} won{score} against {others}"]


def _round_lines(snap: dict) -> list[str]:
    lines = []
    for table in snap.get("tables", []):
        players = table["players"]
        if len(players) == 1:
            lines.append(f"Bye: {players[0]}")
        elif len(players) == 2:
            lines.append(f"Table {table['number']}: {players[0]} v {players[1]}")
        else:
            lines.append(f"Pod {table['number']}: {', '.join(players)}")
    lines += snap.get("warnings", [])
    return lines


def _entry_lines(snap: dict) -> list[str]:
    dropped = snap.get("dropped_after")
    if dropped is None:
        return [f"{snap.get('player')} playing"]
    if dropped == 0:
        return [f"{snap.get('player')} left before round 1"]
    return [f"{snap.get('player')} dropped after round {dropped}"]


def _import_lines(snap: dict) -> list[str]:
    games = snap.get("games", 0)
    lines = [f"{games} game{'s' if games != 1 else ''} from {snap.get('filename') or 'an upload'}"]
    if snap.get("players_created"):
        lines.append("New players: " + ", ".join(snap["players_created"]))
    if snap.get("skipped_lines"):
        lines.append("Skipped lines: " + ", ".join(map(str, snap["skipped_lines"])))
    return lines


def _player_lines(snap: dict) -> list[str]:
    lines = []
    if snap.get("name"):
        lines.append(f"Player {snap['name']}")
    if snap.get("account"):
        lines.append(f"Account {snap['account']}")
    if snap.get("status"):
        lines.append(f"Claim {snap['status']}")
    elif snap.get("code_id") and not snap.get("account"):
        lines.append("A new one-time claim code")
    return lines


def _store_lines(snap: dict) -> list[str]:
    lines = [f"Name {snap.get('name')}"]
    if snap.get("address"):
        lines.append("Address " + " / ".join(snap["address"].splitlines()))
    lines.append(f"Time zone {snap.get('time_zone') or 'the site' + chr(39) + 's'}")
    lines.append(f"Logo {'version ' + str(snap['logo']) if snap.get('logo') else 'none'}")
    if snap.get("language"):  # '' is English, the site's (and older entries have none)
        lines.append(f"Language {snap['language']}")
    return lines


def _staff_lines(snap: dict) -> list[str]:
    who = snap.get("account") or snap.get("email")
    return [f"{who}: {ROLE_LABELS.get(snap.get('role'), snap.get('role'))}"]


def _league_lines(snap: dict) -> list[str]:
    lines = [f"League {snap.get('name')} ({snap.get('slug')})"]
    if snap.get("game_label"):
        lines.append(f"Game {snap['game_label']}")
    lines.append("Public" if snap.get("public") else "Private")
    return lines


# The membership roles as leagues.models.Role labels them (no Django here).
ROLE_LABELS = {"owner": "Owner", "organizer": "Organizer", "judge": "Judge / TO"}

DESCRIBERS = {
    "organization": _store_lines,
    "membership": _staff_lines,
    "invitation": _staff_lines,
    "league": _league_lines,
    "player": _player_lines,
    "game": _game_lines,
    "table": _table_lines,
    "round": _round_lines,
    "entry": _entry_lines,
    "import": _import_lines,
}


def describe(object_type: str, snapshot: dict | None) -> list[str]:
    """The snapshot as lines; none when there is no snapshot (before a creation)."""
    if not snapshot:
        return []
    describer = DESCRIBERS.get(object_type)
    if describer is None:
        return [f"{key}: {value}" for key, value in sorted(snapshot.items())]
    return describer(snapshot)


@dataclass(frozen=True)
class Line:
    text: str
    changed: bool


def changes(
    object_type: str, before: dict | None, after: dict | None
) -> tuple[list[Line], list[Line]]:
    """Before and after lines, each marked `changed` when the other side lacks it."""
    old, new = describe(object_type, before), describe(object_type, after)
    return (
        [Line(text, text not in new) for text in old],
        [Line(text, text not in old) for text in new],
    )
