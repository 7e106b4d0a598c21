"""What each notification says: the e-mails to a player and the store's chat messages.

Plain values in, text out. A chat message is Discord's webhook JSON `{"content": ...}`, which
Discord refuses above 2,000 characters: the final standings list as many players as fit
(the top `STANDINGS_TOP` at most) and end with the link, which always fits.
"""

from dataclasses import dataclass

from tournaments.domain.labels import place_label

DISCORD_LIMIT = 2000
STANDINGS_TOP = 8


@dataclass(frozen=True)
class Email:
    subject: str
    body: str


@dataclass(frozen=True)
class StandingRow:
    rank: int
    tied: bool
    name: str
    points: float
    record: str


def _points(value: float) -> str:
    return f"{value:g}"


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
    subject = f"{event}: {round_label}, {noun} {table}"
    if bye:
        subject = f"{event}: {round_label}, you have a bye"
        where = f"You have a bye in {round_label} ({noun} {table}): no game to play this round."
    else:
        against = ", ".join(opponents) if opponents else "nobody yet"
        where = (
            f"{round_label} is paired: you play at {noun} {table}, {place_label(seat)} seat, "
            f"against {against}."
        )
    body = (
        f"Hello {player},\n\n{where}\n\nThe pairings of {event}: {link}\n\n"
        "You get this mail because you asked for one when a round is paired; turn it off "
        "under Notifications on My Guildhall.\n"
    )
    return Email(subject, body)


def promoted_email(*, event: str, when: str, link: str, player: str) -> Email:
    """A waitlisted player got a seat."""
    return Email(
        f"{event}: you have a seat",
        f"Hello {player},\n\nA seat came free in {event} ({when}) and it is yours: you moved "
        f"up from the waitlist and are registered now.\n\n{link}\n\n"
        "Cannot come after all? Unregister on the event's page so the next player gets the "
        "seat.\n\nYou get this mail because you asked for one when you move up from a "
        "waitlist; turn it off under Notifications on My Guildhall.\n",
    )


def qualified_email(
    *, event: str, when: str, link: str, player: str, season: str, rank: int, top: int
) -> Email:
    """A player in the top of a season, invited to its final and registered for it."""
    return Email(
        f"{event}: you are invited",
        f"Hello {player},\n\nYou finished {season} in place {rank}, in its top {top}: you are "
        f"invited to {event} ({when}) and already registered for it.\n\n{link}\n\n"
        "Cannot come? Unregister on the event's page so the organizers know.\n",
    )


def pairings_text(*, event: str, round_label: str, link: str) -> str:
    """The store channel's message when a round is paired."""
    return _fit(f"**{event}**: {round_label} pairings are up: {link}", "")


def standings_text(
    *, event: str, rows: list[StandingRow], link: str, champion: str | None = None
) -> str:
    """The store channel's message when an event ends: the winner and the top of the final
    standings, as many lines as fit in Discord's limit, then the link."""
    head = f"**{event}** is over." + (f" Champion: **{champion}**." if champion else "")
    tail = f"Full standings: {link}"
    lines = [f"{head}\nFinal standings:"]
    used = len(lines[0]) + 1 + len(tail)
    for row in rows[:STANDINGS_TOP]:
        rank = f"{row.rank}{'=' if row.tied else '.'}"
        line = f"{rank} {row.name} · {_points(row.points)} pts ({row.record})"
        if used + len(line) + 1 > DISCORD_LIMIT:
            break
        lines.append(line)
        used += len(line) + 1
    return _fit("\n".join(lines), "\n" + tail)


def test_text(*, store: str) -> str:
    return _fit(f"Test message from Guildhall: {store}'s notifications reach this channel.", "")


def _fit(text: str, tail: str) -> str:
    """`text` + `tail` within the limit, `text` cut (with an ellipsis) if it must be."""
    room = DISCORD_LIMIT - len(tail)
    if len(text) > room:
        text = text[: room - 1] + "…"
    return text + tail
