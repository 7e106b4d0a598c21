"""The audit log's snapshots as lines a person reads: "1st Ann (seat 2)", "Table 3: Ann v Bob".

Pure functions of the plain dicts the services store in `AuditEntry.before` / `.after`, so
an entry reads the same long after its game, table or event is gone. `changes` pairs the
before and after lines and marks the ones that differ, for a before → after view.
"""

from dataclasses import dataclass

from core.translate import gettext as _
from core.translate import ngettext

from .ordinals import ordinal as _ordinal


def ordinal(n: int) -> str:
    return _ordinal(n)


def _game_lines(snap: dict) -> list[str]:
    lines = [_("Played %(date)s") % {"date": snap["played_on"]}]
    for r in snap.get("results", []):
        values = {"place": ordinal(r["place"]), "player": r["player"], "seat": r.get("seat")}
        if r.get("seat"):
            lines.append(_("%(place)s %(player)s (seat %(seat)s)") % values)
        else:
            lines.append(_("%(place)s %(player)s") % values)
    if snap.get("notes"):
        lines.append(_("Note: %(note)s") % {"note": snap["notes"]})
    return lines


def _table_lines(snap: dict) -> list[str]:
    seats = snap.get("seats", [])
    if not snap.get("reported"):
        return [_("No result")]
    pods = len(seats) > 2
    if pods:
        if snap.get("draw"):
            return [_("Draw: %(players)s") % {"players": ", ".join(s["player"] for s in seats)}]
        ordered = sorted(seats, key=lambda s: (s["place"] or 99, s["position"]))
        return [
            _("%(place)s %(player)s") % {"place": ordinal(s["place"]), "player": s["player"]}
            for s in ordered
            if s["place"]
        ]
    wins = [s.get("game_wins") for s in seats]
    games = len(seats) == 2 and None not in wins
    if snap.get("draw"):
        # A draw in seat order, the score between the names: "Ann 1-1 Bob: draw".
        if games:
            return [
                _("%(first)s %(wins)s-%(losses)s %(second)s: draw")
                % {
                    "first": seats[0]["player"],
                    "second": seats[1]["player"],
                    "wins": wins[0],
                    "losses": wins[1],
                }
            ]
        if len(seats) == 2:
            return [
                _("%(first)s v %(second)s: draw")
                % {"first": seats[0]["player"], "second": seats[1]["player"]}
            ]
        return [_("%(players)s: draw") % {"players": " v ".join(s["player"] for s in seats)}]
    # From the winner's side, whichever seat they had: "Bob won 2-1 against Ann".
    winner = snap.get("winner")
    ordered = sorted(seats, key=lambda s: s["player"] != winner)
    others = " and ".join(s["player"] for s in ordered[1:])  # one player: a table of two
    if games:
        return [
            _("%(winner)s won %(wins)s-%(losses)s against %(others)s")
            % {
                "winner": winner,
                "wins": ordered[0]["game_wins"],
                "losses": ordered[1]["game_wins"],
                "others": others,
            }
        ]
    return [_("%(winner)s won against %(others)s") % {"winner": winner, "others": others}]


def _round_lines(snap: dict) -> list[str]:
    lines = []
    for table in snap.get("tables", []):
        players = table["players"]
        if len(players) == 1:
            lines.append(_("Bye: %(player)s") % {"player": players[0]})
        elif len(players) == 2:
            lines.append(
                _("Table %(table)s: %(first)s v %(second)s")
                % {"table": table["number"], "first": players[0], "second": players[1]}
            )
        else:
            lines.append(
                _("Pod %(table)s: %(players)s")
                % {"table": table["number"], "players": ", ".join(players)}
            )
    lines += snap.get("warnings", [])
    return lines


def _entry_lines(snap: dict) -> list[str]:
    dropped = snap.get("dropped_after")
    player = snap.get("player")
    if dropped is None:
        return [_("%(player)s playing") % {"player": player}]
    if dropped == 0:
        return [_("%(player)s left before round 1") % {"player": player}]
    return [_("%(player)s dropped after round %(round)s") % {"player": player, "round": dropped}]


def _import_lines(snap: dict) -> list[str]:
    games = snap.get("games", 0)
    source = snap.get("filename") or _("an upload")
    lines = [
        ngettext("%(count)s game from %(source)s", "%(count)s games from %(source)s", games)
        % {"count": games, "source": source}
    ]
    if snap.get("players_created"):
        lines.append(_("New players: %(names)s") % {"names": ", ".join(snap["players_created"])})
    if snap.get("skipped_lines"):
        lines.append(
            _("Skipped lines: %(lines)s") % {"lines": ", ".join(map(str, snap["skipped_lines"]))}
        )
    return lines


def _player_lines(snap: dict) -> list[str]:
    lines = []
    if snap.get("name"):
        lines.append(_("Player %(name)s") % {"name": snap["name"]})
    if snap.get("account"):
        lines.append(_("Account %(account)s") % {"account": snap["account"]})
    if snap.get("status"):
        lines.append(_("Claim %(status)s") % {"status": snap["status"]})
    elif snap.get("code_id") and not snap.get("account"):
        lines.append(_("A new one-time claim code"))
    return lines


def _store_lines(snap: dict) -> list[str]:
    lines = [_("Name %(name)s") % {"name": snap.get("name")}]
    if snap.get("address"):
        address = " / ".join(snap["address"].splitlines())
        lines.append(_("Address %(address)s") % {"address": address})
    if snap.get("time_zone"):
        lines.append(_("Time zone %(zone)s") % {"zone": snap["time_zone"]})
    else:
        lines.append(_("Time zone the site's"))
    if snap.get("logo"):
        lines.append(_("Logo version %(version)s") % {"version": snap["logo"]})
    else:
        lines.append(_("Logo none"))
    if snap.get("language"):  # '' is English, the site's (and older entries have none)
        lines.append(_("Language %(code)s") % {"code": snap["language"]})
    return lines


def _staff_lines(snap: dict) -> list[str]:
    who = snap.get("account") or snap.get("email")
    role = snap.get("role")
    label = _(ROLE_LABELS[role]) if role in ROLE_LABELS else role
    return [_("%(who)s: %(role)s") % {"who": who, "role": label}]


def _league_lines(snap: dict) -> list[str]:
    lines = [_("League %(name)s (%(slug)s)") % {"name": snap.get("name"), "slug": snap.get("slug")}]
    if snap.get("game_label"):
        lines.append(_("Game %(game)s") % {"game": snap["game_label"]})
    lines.append(_("Public") if snap.get("public") else _("Private"))
    return lines


# The membership roles as leagues.models.Role labels them (no Django here): English, the
# catalogue's msgids (Role's own), translated where a line is written.
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
        return [f"{key}: {value}" for key, value in sorted(snapshot.items())]  # raw fields
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
