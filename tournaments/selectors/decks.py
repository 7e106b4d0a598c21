"""Reads about decks: whether an event's decks are public yet, the names a store's entries
have used (offered when a player names theirs), and a league's decks and seats: games, wins,
draws and win rate by deck, and the win rate of each seat in 4-player pods with a 95% interval.
Wins and draws as `leagues.domain.outcome` defines them: a win is an unshared first place, a
draw a shared one; win % is wins / games.

Names are stored as typed; the suggestions and the decks tab group them by
`domain.decknames.deck_key` (one deck whatever the case or partner order) and show each
deck's most used spelling, partners in a stable order. With card data, the decks tab groups
decks whose commanders are cards by those cards (their Oracle ids)."""

import json
import math
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Q

from cards.domain.card import Card
from cards.domain.colors import NO_PIPS, Pips, pips
from cards.domain.legality import pair_allowed
from cards.selectors import CardLooks, card_looks_by_ids, cards_by_exact_names, cards_loaded
from core.search import folded_order
from leagues.domain.outcome import outcome_sql, win_percent
from leagues.permissions import visible_leagues

from ..domain import decknames
from ..models import Entry, Tournament


def is_commander_event(tournament: Tournament) -> bool:
    """Decks named by their commanders: a Commander decklist format, or pods without one."""
    if tournament.decklist_format:
        return tournament.decklist_format == Tournament.DecklistFormat.COMMANDER
    return tournament.play.commander_decks


def decks_public(tournament: Tournament) -> bool:
    """Whether visitors see the event's decks now (TopDeck.gg and Melee publish them when the
    top cut starts or the event ends)."""
    visibility = tournament.deck_visibility
    if visibility == Tournament.DeckVisibility.PUBLIC:
        return True
    if tournament.status == Tournament.Status.FINISHED:
        return True
    return (
        visibility == Tournament.DeckVisibility.AFTER_CUT
        and tournament.status == Tournament.Status.TOP_CUT
    )


@dataclass(frozen=True, slots=True)
class ShownDeck:
    """A public deck beside its player's name: printed, its name; `pips`, its commanders'
    color identity as mana symbols (none for a deck not matched to cards)."""

    name: str
    pips: Pips = NO_PIPS

    def __str__(self) -> str:
        return self.name

    def __bool__(self) -> bool:
        return bool(self.name)


def shown_decks(tournament: Tournament) -> dict[str, ShownDeck]:
    """Player name -> deck, when the event's decks are public; else empty. One query."""
    if not decks_public(tournament):
        return {}
    rows = tournament.entries.exclude(deck_name="").values_list(
        "player__name", "deck_name", "deck_identity"
    )
    return {player: ShownDeck(deck, pips(identity)) for player, deck, identity in rows}


def shown_deck(entry: Entry) -> ShownDeck:
    """One entry's deck as `shown_decks` shows it (no query)."""
    return ShownDeck(entry.deck_name, pips(entry.deck_identity) if entry.deck_name else NO_PIPS)


def deck_commanders(entry: Entry) -> list[CardLooks]:
    """The entry's commanders as they look (set code, stored art crop), for its deck and its
    player's page; none (and no query) for a deck not matched to cards."""
    return card_looks_by_ids(entry.deck_commander_ids or [])


def public_decks_q(prefix: str = "") -> Q:
    """`decks_public` as a query condition on a tournament (reached through `prefix`)."""
    status, visibility = f"{prefix}status", f"{prefix}deck_visibility"
    return (
        Q(**{visibility: Tournament.DeckVisibility.PUBLIC})
        | Q(**{status: Tournament.Status.FINISHED})
        | Q(**{visibility: Tournament.DeckVisibility.AFTER_CUT, status: Tournament.Status.TOP_CUT})
    )


def entries_without_legal_list(tournament: Tournament) -> list[Entry]:
    """The event's entries (not dropped) whose list is missing, not checked or not legal in
    its decklist format; none when the event checks no lists."""
    if not tournament.decklist_format:
        return []
    return list(
        tournament.entries.filter(dropped_after__isnull=True)
        .exclude(deck_legal=True)
        .select_related("player")
        .order_by(*folded_order("player__name"))
    )


def lists_not_legal(tournament: Tournament, entry_ids) -> list[dict]:
    """The entries of `entry_ids` without a legal list, as the TO's confirm step and the
    round's record show them: {"entry": id, "player": name, "why": the first problem, "no
    list", or "not checked"}, by player name."""
    ids = set(entry_ids)
    rows = []
    for entry in entries_without_legal_list(tournament):
        if entry.pk not in ids:
            continue
        if entry.deck_legal is None:
            why = "not checked (no card data)" if entry.decklist_text else "no list"
        else:
            problems = entry.deck_problems or []
            why = problems[0]["message"] if problems else "not legal"
            if len(problems) > 1:
                why += f" (and {len(problems) - 1} more)"
        rows.append({"entry": entry.pk, "player": entry.player.name, "why": why})
    return rows


def lists_not_legal_at_start(tournament: Tournament) -> list[tuple[str, list[dict]]]:
    """For the event's page: each round the TO paired past entries without the legal list
    the event requires (round 1, the top cut), with each player and, in a word, why ("no
    list", "list not legal", "list not checked"): the problems themselves would show the
    cards of a deck not public yet. An event that requires no list asks nothing (the
    pairings page's query budget)."""
    if not tournament.decklist_required:
        return []
    shown = []
    for round_ in tournament.rounds.exclude(decklist_problems=[]).order_by("number"):
        stage = round_.label
        rows = [
            {"player": row["player"], "why": row["why"] if row["why"] == "no list"
             else "list not checked" if row["why"].startswith("not checked")
             else "list not legal"}
            for row in round_.decklist_problems
        ]  # fmt: skip
        shown.append((stage, rows))
    return shown


@dataclass(frozen=True)
class Unmatched:
    entry: Entry
    reason: str


def decks_to_match(entries: list[Entry]) -> tuple[list[tuple[Entry, list[Card]]], list[Unmatched]]:
    """Split decks of Commander events named before card data: those whose name is one or two
    cards' exact names that may lead a deck together (with those cards, for
    `services.decks.decks_match_cards`), and the others with why, for the organizer. One
    query."""
    names = {part for entry in entries for part in decknames.partners(entry.deck_name)}
    found = cards_by_exact_names(names)
    matches, unmatched = [], []
    for entry in entries:
        parts = decknames.partners(entry.deck_name)
        missing = [part for part in parts if part not in found]
        if missing:
            unmatched.append(Unmatched(entry, "no card named exactly " + ", ".join(missing)))
            continue
        cards = [found[part] for part in parts]
        if len(cards) > 2 or (len(cards) == 2 and not pair_allowed(*cards)):
            unmatched.append(Unmatched(entry, "these cards cannot be commanders together"))
            continue
        matches.append((entry, cards))
    return matches, unmatched


@dataclass(frozen=True)
class DecksNotMatched:
    unmatched: list[Unmatched]  # the TO fixes these by hand (the entry's deck page)
    matchable: int  # named as cards exactly: `manage.py match_decks` matches them


def decks_not_matched(tournament: Tournament) -> DecksNotMatched | None:
    """The event's decks named before card data that have no commander cards yet, for the
    TO's Players & decks page; None without card data or in an event whose decks are not
    named by their commanders. At most three queries."""
    if not is_commander_event(tournament) or not cards_loaded():
        return None
    entries = list(
        tournament.entries.filter(deck_commander_ids=[])
        .exclude(deck_name="")
        .select_related("player")
        .order_by(*folded_order("player__name"))
    )
    if not entries:
        return DecksNotMatched([], 0)
    matches, unmatched = decks_to_match(entries)
    return DecksNotMatched(unmatched, len(matches))


def deck_suggestions(organization_id: int, user, limit: int = 300) -> list[str]:
    """The deck names the store's entries have used, most used first: only decks already
    public (a deck hidden until the cut must not show up in another player's suggestions),
    of leagues `user` may see."""
    rows = (
        Entry.objects.filter(
            public_decks_q("tournament__"),
            tournament__league__organization_id=organization_id,
            tournament__league__in=visible_leagues(user),
        )
        .exclude(deck_name="")
        .values("deck_name")
        .annotate(uses=Count("id"))
        .order_by("-uses", "deck_name")[:limit]
    )
    counted = [(row["deck_name"], row["uses"]) for row in rows]
    uses = _uses_by_key(counted)
    names = decknames.display_names(counted)
    return sorted(names.values(), key=lambda name: (-uses[decknames.deck_key(name)], name))


def _uses_by_key(counted) -> dict[str, int]:
    uses: dict[str, int] = {}
    for name, count in counted:
        key = decknames.deck_key(name)
        uses[key] = uses.get(key, 0) + count
    return uses


def same_decks_together(rows) -> list["Rate"]:
    """(deck name, commander ids, games, wins, draws) rows as typed -> one Rate per deck,
    named by its most used spelling; most games first. A deck whose commanders are cards
    (ids from the card data) is its commanders whatever its name; any other by
    `decknames.deck_key`: "kinnan, bonder prodigy" and "Kinnan, Bonder Prodigy", "Thrasios /
    Tymna" and "Tymna / Thrasios" are one deck."""
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    draws: dict[str, int] = {}
    spellings: dict[str, list[tuple[str, int]]] = {}
    for name, ids, played, won, drawn in rows:
        key = "cards:" + ",".join(sorted(ids)) if ids else decknames.deck_key(name)
        games[key] = games.get(key, 0) + played
        wins[key] = wins.get(key, 0) + won
        draws[key] = draws.get(key, 0) + drawn
        spellings.setdefault(key, []).append((name, played))
    rates = []
    for key, named in spellings.items():
        # The most used spelling (the first on a tie), partners in a stable order.
        label = next(iter(decknames.display_names(sorted(named, key=lambda n: -n[1])).values()))
        rates.append(Rate(label, games[key], wins[key], draws[key]))
    return sorted(rates, key=lambda rate: (-rate.games, rate.label))


@dataclass(frozen=True)
class Rate:
    label: str
    games: int
    wins: int
    draws: int

    @property
    def percent(self) -> float:
        """Wins / games: a draw is no win."""
        return win_percent(self.wins, self.games)

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson's 95% score interval for the win rate, in percent."""
        return wilson(self.wins, self.games)


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval (Wilson 1927) for `wins` out of `games`, in percent."""
    if games == 0:
        return (0.0, 100.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half))


# A result's outcome (leagues.domain.outcome) in SQL, for a result `r` of leagues_gameresult.
_OUTCOME_OF_R = outcome_sql(
    "r.placement",
    """(SELECT count(*) FROM leagues_gameresult f
         WHERE f.game_id = r.game_id AND f.placement = 1)""",
)


def league_deck_rates(league_id: int) -> list[Rate]:
    """Games, wins, draws and win rate by deck over the league's games that came from events
    whose decks are public."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT e.deck_name, e.deck_commander_ids, count(*),
                      count(*) FILTER (WHERE {_OUTCOME_OF_R} = 'win'),
                      count(*) FILTER (WHERE {_OUTCOME_OF_R} = 'draw')
                 FROM tournaments_table t
                 JOIN tournaments_round rd ON rd.id = t.round_id
                 JOIN tournaments_tournament ev ON ev.id = rd.tournament_id
                 JOIN tournaments_seat s ON s.table_id = t.id
                 JOIN tournaments_entry e ON e.id = s.entry_id
                 JOIN leagues_gameresult r ON r.game_id = t.game_id
                                          AND r.player_id = e.player_id
                WHERE ev.league_id = %s AND e.deck_name <> '' AND t.game_id IS NOT NULL
                  AND (ev.deck_visibility = 'public' OR ev.status = 'finished'
                       OR (ev.deck_visibility = 'after_cut' AND ev.status = 'top_cut'))
                GROUP BY e.deck_name, e.deck_commander_ids
                ORDER BY count(*) DESC, e.deck_name""",
            [league_id],
        )
        rows = cursor.fetchall()
    return same_decks_together(
        (name, json.loads(ids) if isinstance(ids, str) else ids, *counts)
        for name, ids, *counts in rows
    )


def league_seat_rates(league_id: int, pod_size: int = 4) -> list[Rate]:
    """The win rate of each seat (turn order) in the league's games of `pod_size` players
    with seats recorded (and its wins and draws)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""WITH pods AS (
                   SELECT game_id FROM leagues_gameresult r
                     JOIN leagues_game g ON g.id = r.game_id
                    WHERE g.league_id = %s
                    GROUP BY game_id
                   HAVING count(*) = %s AND count(seat) = count(*)
               )
               SELECT r.seat, count(*),
                      count(*) FILTER (WHERE {_OUTCOME_OF_R} = 'win'),
                      count(*) FILTER (WHERE {_OUTCOME_OF_R} = 'draw')
                 FROM leagues_gameresult r JOIN pods USING (game_id)
                GROUP BY r.seat ORDER BY r.seat""",
            [league_id, pod_size],
        )
        return [Rate(f"Seat {seat}", *counts) for seat, *counts in cursor.fetchall()]
