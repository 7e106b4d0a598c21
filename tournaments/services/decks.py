"""A player's deck for an event: its name (the commander or partner pair for Commander/cEDH),
and optionally the list, as a link or pasted text; the event's deck deadline and when decks
become public (TopDeck.gg and Melee publish them once the top cut starts or the event ends).

A player names their own deck until the deadline; whoever runs the event may set any entry's
deck at any time. Bad input is refused with the field and the reason, and nothing changes; a
second tap with the same deck changes nothing and says so. Each change is audited.
"""

from datetime import datetime
from urllib.parse import urlsplit

from django.db import transaction
from django.utils import timezone

from audit.services import log_action

from ..actions import Action
from ..errors import AlreadyDone, TournamentError
from ..models import Entry, Tournament
from .common import tournament_lock

NAME_MAX = 120
URL_MAX = 500
TEXT_MAX = 10_000  # characters: a 100-card list with set codes is ~3,000
LINES_MAX = 300


def _clean(name: str, url: str, text: str) -> tuple[str, str, str]:
    name = " ".join((name or "").split())
    url = (url or "").strip()
    text = (text or "").replace("\r\n", "\n").strip()
    if len(name) > NAME_MAX:
        raise TournamentError(
            f"The deck's name is {len(name)} characters long; at most {NAME_MAX}.", field="name"
        )
    if url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise TournamentError(
                "The decklist link must be a web address starting with https:// or http://.",
                field="url",
            )
        if len(url) > URL_MAX:
            raise TournamentError(
                f"The decklist link is {len(url)} characters long; at most {URL_MAX}.",
                field="url",
            )
    if len(text) > TEXT_MAX:
        raise TournamentError(
            f"The decklist is {len(text):,} characters long; at most {TEXT_MAX:,}.", field="text"
        )
    lines = text.count("\n") + 1 if text else 0
    if lines > LINES_MAX:
        raise TournamentError(f"The decklist has {lines} lines; at most {LINES_MAX}.", field="text")
    if (url or text) and not name:
        raise TournamentError("Name the deck too (for Commander: the commander).", field="name")
    return name, url, text


@transaction.atomic
def entry_deck_set(
    *, entry: Entry, name: str, url: str = "", text: str = "", by=None, as_organizer: bool = False
) -> Entry:
    """Set `entry`'s deck. A player (as_organizer False) only until the event's deck deadline
    and before the event ends."""
    name, url, text = _clean(name, url, text)
    tournament = tournament_lock(entry.tournament_id)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if not as_organizer:
        deadline = tournament.deck_deadline
        if deadline is not None and timezone.now() >= deadline:
            when = timezone.localtime(deadline)
            raise TournamentError(
                f"Decks were due by {when:%Y-%m-%d %H:%M}: ask the organizer.", code="deck_closed"
            )
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError("The event is over: ask the organizer.", code="deck_closed")
    before = {"deck": entry.deck_name, "url": entry.decklist_url, "text": entry.decklist_text}
    after = {"deck": name, "url": url, "text": text}
    if before == after:
        raise AlreadyDone(f"{entry.player}'s deck is already that.", code="twice")
    entry.deck_name, entry.decklist_url, entry.decklist_text = name, url, text
    entry.deck_updated_at = timezone.now()
    entry.save(update_fields=["deck_name", "decklist_url", "decklist_text", "deck_updated_at"])
    summary = f"{entry.player}'s deck: {name or '(none)'}"
    log_action(tournament, Action.ENTRY_DECK, entry, summary, before, after, by)
    return entry


@transaction.atomic
def deck_settings_set(
    *, tournament: Tournament, deadline: datetime | None, visibility: str, by=None
) -> Tournament:
    """The event's deck deadline and when its decks become public."""
    if visibility not in Tournament.DeckVisibility.values:
        raise TournamentError(
            f"Unknown visibility {visibility!r}: one of "
            f"{', '.join(Tournament.DeckVisibility.values)}.",
            field="visibility",
        )
    tournament = tournament_lock(tournament)
    before = {"deadline": _iso(tournament.deck_deadline), "visibility": tournament.deck_visibility}
    tournament.deck_deadline, tournament.deck_visibility = deadline, visibility
    tournament.save(update_fields=["deck_deadline", "deck_visibility"])
    after = {"deadline": _iso(deadline), "visibility": visibility}
    if before != after:
        summary = f"decks: {tournament.get_deck_visibility_display().lower()}"
        log_action(tournament, Action.DECK_SETTINGS, tournament, summary, before, after, by)
    return tournament


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
