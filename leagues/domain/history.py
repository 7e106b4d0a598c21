"""The audit log's snapshots as lines a person reads: "1st Ann (seat 2)", "Table 3: Ann v Bob".

Pure functions of the plain dicts the services store in `AuditEntry.before` / `.after`, so
an entry reads the same long after its game, table or event is gone. `changes` pairs the
before and after lines and marks the ones that differ, for a before → after view.

A kind without a describer of its own here (an upper app's: a registration, a judge call, a
season) is shown a line per field, "Status: On the waitlist", by the `fields` its app
registered (audit.registry.fields_register: each key's label, a coded value's label) and the
page's `value` for what this module cannot write (a stored sentence, a time on the store's
clock).
"""

from dataclasses import dataclass

from core.translate import gettext as _
from core.translate import ngettext, pgettext

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
        status = snap["status"]  # the claim's code; a text of before as it is
        label = _(CLAIM_STATUS[status]) if status in CLAIM_STATUS else status
        lines.append(_("Claim %(status)s") % {"status": label})
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


# A claim's states as leagues.models.PlayerClaim.Status labels them (no Django here): the
# catalogue's msgids, translated where a line is written.
CLAIM_STATUS = {"pending": "Waiting for the store", "approved": "Approved", "refused": "Refused"}

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


def describe(object_type: str, snapshot: dict | None, fields=None, value=None) -> list[str]:
    """The snapshot as lines; none when there is no snapshot (before a creation). `fields`
    (key -> an object with `label` and `choices`) and `value` (a value -> its text) are for
    the kinds this module has no describer of (`_field_lines`)."""
    if not snapshot:
        return []
    describer = DESCRIBERS.get(object_type)
    if describer is None:
        return _field_lines(snapshot, fields or {}, value or str)
    return describer(snapshot)


def _field_lines(snap: dict, fields, value) -> list[str]:
    """ "Status: On the waitlist", a line per field in key order: the field's label (its key
    when it has none), its value as read."""
    lines = []
    for key in sorted(snap):
        field = fields.get(key)
        values = {
            "field": str(field.label) if field else key,
            "value": _shown(snap[key], field, value),
        }
        # Translators: one field of a History entry ("Status: On the waitlist").
        lines.append(_("%(field)s: %(value)s") % values)
    return lines


def _shown(item, field, value) -> str:
    show = getattr(field, "show", None)
    if show is not None and item not in (None, ""):
        return show(item)
    choices = getattr(field, "choices", None)
    if choices and isinstance(item, str) and item in choices:
        return str(choices[item])
    if isinstance(item, bool):
        return _("yes") if item else _("no")
    if item is None or item == "" or item == []:
        return "—"
    if isinstance(item, list):
        between = pgettext("between the items of a list", "; ")
        return between.join(_shown(each, field, value) for each in item)
    return value(item)


@dataclass(frozen=True)
class Line:
    text: str
    changed: bool


def changes(
    object_type: str, before: dict | None, after: dict | None, fields=None, value=None
) -> tuple[list[Line], list[Line]]:
    """Before and after lines, each marked `changed` when the other side lacks it (`fields`
    and `value`: `describe`'s)."""
    old = describe(object_type, before, fields, value)
    new = describe(object_type, after, fields, value)
    return (
        [Line(text, text not in new) for text in old],
        [Line(text, text not in old) for text in new],
    )
