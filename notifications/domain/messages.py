"""What each notification says: the e-mails to a player and the store's chat messages.

Plain values in, text out, in the language active while it is written (the worker writes
each recipient's message inside `translation.override(recipient_language(...))`:
notifications.sending). A chat message is Discord's webhook JSON `{"content": ...}`, which
Discord refuses above 2,000 characters: the final standings list as many players as fit
(the top `STANDINGS_TOP` at most) and end with the link, which always fits.
"""

from dataclasses import dataclass

from core.translate import gettext as _
from tournaments.domain.labels import place_label

DISCORD_LIMIT = 2000
STANDINGS_TOP = 8


@dataclass(frozen=True)
class Email:
    subject: str
    body: str
    # The closing "You get this mail because..." paragraph (also the body's last), which the
    # HTML part sets in small type at the foot; '' when the mail has none.
    footer: str = ""


@dataclass(frozen=True)
class StandingRow:
    rank: int
    tied: bool
    name: str
    points: float
    record: str


def _points(value: float) -> str:
    return f"{value:g}"


def _mail(subject: str, paragraphs: list[str], footer: str = "") -> Email:
    body = "\n\n".join([*paragraphs, *([footer] if footer else [])]) + "\n"
    return Email(subject, body, footer)


def paired_email(
    *,
    event: str,
    round_label: str,
    table: int,
    seat: int,
    opponents: list[str],
    bye: bool,
    link: str,
    player: str,
    noun: str = "table",
) -> Email:
    """A player's seat in a round that was just paired; `noun` is what the event's pages
    call a table ("table", or "pod" at a pod event)."""
    pod = noun == "pod"
    values = {"event": event, "round": round_label, "table": table, "place": place_label(seat, _)}
    if bye:
        subject = _("%(event)s: %(round)s, you have a bye") % values
        if pod:
            where = _("You have a bye in %(round)s (pod %(table)s): no game to play this round.")
        else:
            where = _("You have a bye in %(round)s (table %(table)s): no game to play this round.")
    else:
        subject = (
            _("%(event)s: %(round)s, pod %(table)s")
            if pod
            else _("%(event)s: %(round)s, table %(table)s")
        ) % values
        # Translators: the names of the player's opponents, separated by commas.
        values["against"] = _(", ").join(opponents) if opponents else _("nobody yet")
        if pod:
            where = _(
                "%(round)s is paired: you play at pod %(table)s, %(place)s seat, "
                "against %(against)s."
            )
        else:
            where = _(
                "%(round)s is paired: you play at table %(table)s, %(place)s seat, "
                "against %(against)s."
            )
    return _mail(
        subject,
        [
            _("Hello %(player)s,") % {"player": player},
            where % values,
            _("The pairings of %(event)s: %(link)s") % {"event": event, "link": link},
        ],
        _(
            "You get this mail because you asked for one when a round is paired; turn it off "
            "under Notifications on My Guildhall."
        ),
    )


def promoted_email(*, event: str, when: str, link: str, player: str) -> Email:
    """A waitlisted player got a seat."""
    return _mail(
        _("%(event)s: you have a seat") % {"event": event},
        [
            _("Hello %(player)s,") % {"player": player},
            _(
                "A seat came free in %(event)s (%(when)s) and it is yours: you moved up from "
                "the waitlist and are registered now."
            )
            % {"event": event, "when": when},
            link,
            _(
                "Cannot come after all? Unregister on the event's page so the next player gets "
                "the seat."
            ),
        ],
        _(
            "You get this mail because you asked for one when you move up from a waitlist; "
            "turn it off under Notifications on My Guildhall."
        ),
    )


def qualified_email(
    *, event: str, when: str, link: str, player: str, season: str, rank: int, top: int
) -> Email:
    """A player in the top of a season, invited to its final and registered for it."""
    values = {"event": event, "when": when, "season": season, "rank": rank, "top": top}
    return _mail(
        _("%(event)s: you are invited") % values,
        [
            _("Hello %(player)s,") % {"player": player},
            _(
                "You finished %(season)s in place %(rank)s, in its top %(top)s: you are "
                "invited to %(event)s (%(when)s) and already registered for it."
            )
            % values,
            link,
            _("Cannot come? Unregister on the event's page so the organizers know."),
        ],
    )


def pairings_text(*, event: str, round_label: str, link: str) -> str:
    """The store channel's message when a round is paired."""
    text = _("**%(event)s**: %(round)s pairings are up: %(link)s")
    return _fit(text % {"event": event, "round": round_label, "link": link}, "")


def standings_text(
    *, event: str, rows: list[StandingRow], link: str, champion: str | None = None
) -> str:
    """The store channel's message when an event ends: the winner and the top of the final
    standings, as many lines as fit in Discord's limit, then the link."""
    if champion:
        head = _("**%(event)s** is over. Champion: **%(champion)s**.") % {
            "event": event,
            "champion": champion,
        }
    else:
        head = _("**%(event)s** is over.") % {"event": event}
    tail = _("Full standings: %(link)s") % {"link": link}
    lines = [head + "\n" + _("Final standings:")]
    used = len(lines[0]) + 1 + len(tail)
    for row in rows[:STANDINGS_TOP]:
        rank = f"{row.rank}{'=' if row.tied else '.'}"
        points = _("%(points)s pts") % {"points": _points(row.points)}
        line = f"{rank} {row.name} · {points} ({row.record})"
        if used + len(line) + 1 > DISCORD_LIMIT:
            break
        lines.append(line)
        used += len(line) + 1
    return _fit("\n".join(lines), "\n" + tail)


def test_text(*, store: str) -> str:
    text = _("Test message from Guildhall: %(store)s's notifications reach this channel.")
    return _fit(text % {"store": store}, "")


def _fit(text: str, tail: str) -> str:
    """`text` + `tail` within the limit, `text` cut (with an ellipsis) if it must be."""
    room = DISCORD_LIMIT - len(tail)
    if len(text) > room:
        text = text[: room - 1] + "…"
    return text + tail
