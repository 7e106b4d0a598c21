"""A player's deck for an event: its name (the commander or partner pair for Commander/cEDH),
and optionally the list, as a link or pasted text; the event's deck deadline and when decks
become public (TopDeck.gg and Melee publish them once the top cut starts or the event ends).

A player names their own deck until the deadline; whoever runs the event may set any entry's
deck at any time. With card data loaded (the cards app), a Commander event's deck is named by
its commanders, which must be cards that may lead a deck together, stored by their exact
names in a stable order; the deck keeps the commanders' Oracle ids and color identity, and a
pasted list is checked in the event's decklist format (its cards with counts and every
problem, with its line and rule, kept on the entry). Without card data, names stay as typed
(the Decks tab groups them by `domain.decknames.deck_key`).

Bad input is refused with the field and the reason, and nothing changes; a second tap with
the same deck changes nothing and says so. Each change is audited.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from audit.services import log_action
from audit.summary import N_, Summary
from cards.decks import commanders_resolve, decklist_check, identity_of_commanders
from cards.selectors import cards_loaded
from core.links import LinkError, link_clean

from ..actions import Action
from ..domain import decknames
from ..errors import AlreadyDone, DecklistsMissing, TournamentError
from ..models import Entry, Tournament
from ..selectors.decks import Unmatched, decks_to_match, is_commander_event, lists_not_legal
from ..summaries import round_phrase
from .common import tournament_lock

# When the decks are shown, in the History's sentence about the event's deck settings.
DECKS_SHOWN = {
    Tournament.DeckVisibility.AFTER_CUT: N_("decks: when the top cut starts (or the event ends)"),
    Tournament.DeckVisibility.AFTER_EVENT: N_("decks: when the event ends"),
    Tournament.DeckVisibility.PUBLIC: N_("decks: as soon as they are entered"),
}
# Why a player has no legal list, as `selectors.decks.lists_not_legal` says it; any other
# reason is the card check's own message, kept as it is.
NO_LEGAL_LIST = {
    "no list": N_("no list"),
    "not checked (no card data)": N_("not checked (no card data)"),
}

NAME_MAX = 120
URL_MAX = 500
TEXT_MAX = 10_000  # characters: a 100-card list with set codes is ~3,000
LINES_MAX = 300


def _clean(name: str, url: str, text: str) -> tuple[str, str, str]:
    name = " ".join((name or "").split())
    text = (text or "").replace("\r\n", "\n").strip()
    if len(name) > NAME_MAX:
        raise TournamentError(
            _("The deck's name is %(length)s characters long; at most %(most)s.")
            % {"length": len(name), "most": NAME_MAX},
            field="name",
        )
    try:
        url = link_clean(url, label=_("The decklist link"), max_length=URL_MAX)
    except LinkError as error:
        raise TournamentError(error.message, field="url") from None
    if len(text) > TEXT_MAX:
        raise TournamentError(
            _("The decklist is %(length)s characters long; at most %(most)s.")
            % {"length": f"{len(text):,}", "most": f"{TEXT_MAX:,}"},
            field="text",
        )
    lines = text.count("\n") + 1 if text else 0
    if lines > LINES_MAX:
        raise TournamentError(
            _("The decklist has %(lines)s lines; at most %(most)s.")
            % {"lines": lines, "most": LINES_MAX},
            field="text",
        )
    if (url or text) and not name:
        raise TournamentError(_("Name the deck too (for Commander: the commander)."), field="name")
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
                _("Decks were due by %(when)s: ask the organizer.")
                % {"when": f"{when:%Y-%m-%d %H:%M}"},
                code="deck_closed",
            )
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("The event is over: ask the organizer."), code="deck_closed")
    checked = deck_from_cards(tournament=tournament, name=name, text=text)
    name = checked.pop("deck_name", name)
    before = {"deck": entry.deck_name, "url": entry.decklist_url, "text": entry.decklist_text}
    after = {"deck": name, "url": url, "text": text}
    if before == after and all(getattr(entry, k) == v for k, v in checked.items()):
        raise AlreadyDone(
            _("%(player)s's deck is already that.") % {"player": entry.player}, code="twice"
        )
    entry.deck_name, entry.decklist_url, entry.decklist_text = name, url, text
    for field, value in checked.items():
        setattr(entry, field, value)
    entry.deck_updated_at = timezone.now()
    entry.save(
        update_fields=["deck_name", "decklist_url", "decklist_text", "deck_updated_at", *checked]
    )
    summary = Summary(
        N_("%(player)s's deck: %(deck)s"),
        player=entry.player.name,
        deck=name or Summary(N_("(none)")),
    )
    log_action(tournament, Action.ENTRY_DECK, entry, summary, before, after, by)
    return entry


UNCHECKED = {
    "deck_commander_ids": [],
    "deck_identity": "",
    "deck_cards": [],
    "deck_problems": [],
    "deck_legal": None,
}


def decklists_unmet(
    *, tournament: Tournament, entry_ids, accepted, top_cut: int = 0, must_ask: bool = True
) -> list[dict]:
    """The entries of `entry_ids` without the legal list `tournament` requires (none when it
    requires none): round 1 and the top cut go on with them only once the TO has seen them
    (IPG 3.4, Decklist Problem: the TO lets them fix it first, or goes on and the penalty is
    recorded); `top_cut`: the size of the cut about to start (0: round 1). `accepted` are the
    entry ids the TO's confirm step showed: raises
    DecklistsMissing (nothing written) unless every such entry is among them, so that a
    list broken since is asked about too. `must_ask` False (a round paired offline, already
    played): the entries are returned without asking. The caller holds the event's lock."""
    if not tournament.decklist_required:
        return []
    rows = lists_not_legal(tournament, entry_ids)
    if rows and must_ask and not {row["entry"] for row in rows} <= set(accepted or ()):
        raise DecklistsMissing(rows, top_cut=top_cut)
    return rows


def decklists_record(*, tournament: Tournament, round_, rows: list[dict], by=None) -> None:
    """Keep on `round_` the entries it was paired with though they lack a legal list, and
    log the TO's choice in the History."""
    if not rows:
        return
    round_.decklist_problems = rows
    round_.save(update_fields=["decklist_problems"])
    players = [
        Summary(
            N_("%(player)s (%(why)s)"),
            player=row["player"],
            why=Summary(NO_LEGAL_LIST[row["why"]])
            if row["why"] in NO_LEGAL_LIST
            else row["why"].rstrip("."),
        )
        for row in rows
    ]
    summary = Summary(
        N_("%(round)s paired without a legal list: %(players)s (Decklist Problem, IPG 3.4)"),
        round=round_phrase(round_, capital=True),
        players=Summary.clauses(players),
    )
    after = {"entries": rows}
    log_action(tournament, Action.ROUND_DECKLISTS, round_, summary, None, after, by)


def deck_from_cards(*, tournament: Tournament, name: str, text: str, strict: bool = True) -> dict:
    """The entry's card-data fields for this deck (and "deck_name", the commanders' exact
    names in a stable order, when they are cards); nothing from the card data when none is
    loaded. Raises TournamentError (field "name") for commanders that cannot lead a deck,
    unless not `strict` (a recheck of decks already saved: such commanders are left out)."""
    if not cards_loaded():
        return dict(UNCHECKED)
    fields = dict(UNCHECKED)
    commanders = []
    if is_commander_event(tournament) and name:
        commanders, problem = commanders_resolve(decknames.partners(name))
        if problem and strict:
            raise TournamentError(problem, field="name", code="commander")
        if problem:
            commanders = []
    if commanders:
        fields["deck_name"] = decknames.stable_order(" / ".join(c.name for c in commanders))
        fields["deck_commander_ids"] = sorted(card.oracle_id for card in commanders)
        fields["deck_identity"] = identity_of_commanders(commanders)
    fmt = tournament.decklist_format
    if fmt and text:
        report = decklist_check(text=text, fmt=fmt, commanders=[c.name for c in commanders])
        fields["deck_cards"] = [
            {"oracle_id": c.card.oracle_id, "count": c.count, "section": c.section}
            for c in report.cards
        ]
        fields["deck_problems"] = [problem.as_dict() for problem in report.problems]
        fields["deck_legal"] = report.legal
    return fields


@transaction.atomic
def deck_settings_set(
    *,
    tournament: Tournament,
    deadline: datetime | None,
    visibility: str,
    decklist_format: str | None = None,
    decklist_required: bool | None = None,
    by=None,
) -> Tournament:
    """The event's deck deadline, when its decks become public, and (None: unchanged) the
    format its lists are checked in and whether a legal list is required. A new format
    checks every entry's list again."""
    if visibility not in Tournament.DeckVisibility.values:
        raise TournamentError(
            _("Unknown visibility %(value)s: one of %(values)s.")
            % {"value": repr(visibility), "values": ", ".join(Tournament.DeckVisibility.values)},
            field="visibility",
        )
    if decklist_format and decklist_format not in Tournament.DecklistFormat.values:
        raise TournamentError(
            _("Unknown decklist format %(value)s: one of %(values)s.")
            % {
                "value": repr(decklist_format),
                "values": ", ".join(Tournament.DecklistFormat.values),
            },
            field="decklist_format",
        )
    tournament = tournament_lock(tournament)
    fmt = tournament.decklist_format if decklist_format is None else decklist_format
    required = tournament.decklist_required if decklist_required is None else decklist_required
    if required and not fmt:
        raise TournamentError(
            _("Choose the decklist format the lists are checked in, or do not require one."),
            field="decklist_format",
        )
    before = {
        "deadline": _iso(tournament.deck_deadline),
        "visibility": tournament.deck_visibility,
        "decklist_format": tournament.decklist_format,
        "decklist_required": tournament.decklist_required,
    }
    format_changed = fmt != tournament.decklist_format
    tournament.deck_deadline, tournament.deck_visibility = deadline, visibility
    tournament.decklist_format, tournament.decklist_required = fmt, required
    tournament.save(
        update_fields=["deck_deadline", "deck_visibility", "decklist_format", "decklist_required"]
    )
    after = {
        "deadline": _iso(deadline),
        "visibility": visibility,
        "decklist_format": fmt,
        "decklist_required": required,
    }
    if format_changed:
        decks_recheck(tournament=tournament)
    if before != after:
        summary = Summary(DECKS_SHOWN[visibility])
        if fmt:
            with translation.override("en"):  # the label's English: its msgid
                checked_in = Summary(str(tournament.get_decklist_format_display()))
            summary = Summary(
                N_("%(decks)s, lists checked in %(format)s"), decks=summary, format=checked_in
            )
        log_action(tournament, Action.DECK_SETTINGS, tournament, summary, before, after, by)
    return tournament


def decks_recheck(*, tournament: Tournament) -> int:
    """Check every entry's deck of `tournament` again against the card data (after a new
    decklist format, or new card data); returns how many entries changed. The caller holds
    the event's lock."""
    changed = 0
    for entry in tournament.entries.select_for_update().order_by("pk"):
        fields = deck_from_cards(
            tournament=tournament, name=entry.deck_name, text=entry.decklist_text, strict=False
        )
        fields.pop("deck_name", None)
        if all(getattr(entry, k) == v for k, v in fields.items()):
            continue
        for field, value in fields.items():
            setattr(entry, field, value)
        entry.save(update_fields=list(fields))
        changed += 1
    return changed


def decks_recheck_open_events(**_signal) -> str | None:
    """Check the lists of every event not over that checks lists in a format again, against
    the card data just changed (the receiver of `cards.signals.cards_changed`, in the load's
    transaction); events locked one by one in id order. Returns what it did, for `load_cards`
    to print, or None when no event checks lists. A finished event keeps its lists as checked
    on the night."""
    events = list(
        Tournament.objects.exclude(decklist_format="")
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if not events:
        return None
    changed = sum(decks_recheck(tournament=tournament_lock(pk)) for pk in events)
    return (
        f"Checked the lists of {len(events)} open event(s) again: "
        f"{changed} entr{'y' if changed == 1 else 'ies'} changed."
    )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


@transaction.atomic
def decks_match_cards(*, organization_id: int | None = None) -> tuple[int, list[Unmatched]]:
    """Match the decks saved before card data to cards: an entry of a Commander event whose
    deck name is one or two cards' exact names that may lead a deck together gets their
    Oracle ids and color identity (its name unchanged). Returns how many were matched and
    the others, with why, for the organizer. Entries already matched are left alone."""
    entries = (
        Entry.objects.select_for_update(of=("self",))
        .filter(deck_commander_ids=[])
        .exclude(deck_name="")
        .select_related("tournament__league__organization", "player")
        .order_by("tournament__league__organization__name", "tournament__date", "player__name")
    )
    if organization_id is not None:
        entries = entries.filter(tournament__league__organization_id=organization_id)
    entries = [entry for entry in entries if is_commander_event(entry.tournament)]
    matches, unmatched = decks_to_match(entries)
    for entry, cards in matches:
        entry.deck_commander_ids = sorted(card.oracle_id for card in cards)
        entry.deck_identity = identity_of_commanders(cards)
        entry.save(update_fields=["deck_commander_ids", "deck_identity"])
    return len(matches), unmatched
