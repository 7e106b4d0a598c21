"""Running a Swiss event: register, pair a round, report results, drop, end rounds.

One function per thing a TO does, each one transaction that first locks the tournament row,
so two TOs at two phones are serialised. A reported table becomes (or corrects) a league
`Game`, so ratings and the league standings follow. Pairing and standings are computed by
the pure modules in tournaments/domain from the stored history. Errors are
`TournamentError`s with a code and a message a TO can act on; nothing is written then.
Each result, correction, pairing edit and drop writes an audit entry (before and after) in
the same transaction, through `leagues.services.audit_record`.

Pod events (format "pods", Commander / cEDH) use the same rows and the same functions: a
round is paired by `domain.pods.pair_pods` into pods of 3-5 in seat order, a pod's result is
a winner, a draw or a full finishing order (`Seat.place`), and the top cut plays pods
(`domain.podcut`) instead of 1v1 matches.
"""

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction
from django.utils import timezone

from leagues import services as league_services
from leagues.models import AuditEntry, Game
from leagues.permissions import acting_user
from ratings.models import Rating

from .domain import records
from .domain.pods import LAYOUTS
from .domain.standings import PRESETS, compute_standings
from .errors import AlreadyDone, ResultConflict, TournamentError, UnknownPlayer
from .formats import EDITS, FORMATS, format_for
from .models import Entry, Round, Seat, Table, Tournament


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _audit(tournament: Tournament, action: str, *, summary: str, **fields) -> AuditEntry:
    return league_services.audit_record(
        organization_id=tournament.league.organization_id,
        league_id=tournament.league_id,
        tournament_id=tournament.pk,
        action=action,
        summary=f"{tournament.name}: {summary}",
        **fields,
    )


def table_snapshot(table: Table, seats: list[Seat]) -> dict:
    """A table's result as plain data for the log: who sat where and how they finished."""
    winner = next((s for s in seats if s.entry_id == table.winner_id), None)
    return {
        "table": table.pk,
        "round": table.round.number,
        "number": table.number,
        "reported": table.reported,
        "draw": table.is_draw,
        "winner_entry": table.winner_id,
        "winner": winner.entry.player.name if winner else None,
        "version": table.version,
        "game": table.game_id,
        "seats": [
            {
                "entry_id": s.entry_id,
                "player": s.entry.player.name,
                "position": s.position,
                "place": s.place,
                "game_wins": s.game_wins,
            }
            for s in seats
        ],
    }


def round_snapshot(round_: Round) -> dict:
    """Who sits at which table of a round, by name, for the log."""
    seats = Seat.objects.filter(round=round_).select_related("table", "entry__player")
    tables: dict[int, list[str]] = {}
    for seat in seats.order_by("table__number", "position"):
        tables.setdefault(seat.table.number, []).append(seat.entry.player.name)
    return {
        "round": round_.number,
        "tables": [{"number": n, "players": players} for n, players in tables.items()],
    }


def points_scheme(tournament: Tournament) -> records.PointsScheme:
    return records.PointsScheme(
        win=float(tournament.points_win),
        draw=float(tournament.points_draw),
        loss=float(tournament.points_loss),
        bye=float(tournament.points_bye),
    )


# --- history as the pure code sees it -------------------------------------------------------


def history(
    tournament: Tournament, *, kind: str = Round.Kind.SWISS, before: int | None = None
) -> list[records.Round]:
    """Every reported table of the event's rounds (of one kind, numbered below `before` if
    given), as domain values, in order."""
    seats = Seat.objects.filter(
        round__tournament=tournament, round__kind=kind, table__reported=True
    )
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    seats = (
        seats.select_related("table")
        .order_by("round__number", "table__number", "position")
        .values_list(
            "round__number",
            "table_id",
            "entry__player_id",
            "game_wins",
            "place",
            "table__is_draw",
            "table__winner__player_id",
        )
    )
    rounds: dict[int, dict[int, list]] = {}
    for number, table_id, player, game_wins, place, is_draw, winner in seats:
        tables = rounds.setdefault(number, {})
        tables.setdefault(table_id, [None if is_draw else winner, []])[1].append(
            (player, game_wins, place)
        )
    result = []
    for number in sorted(rounds):
        tables = []
        for winner, seated in rounds[number].values():
            game_wins = tuple(g for _, g, _ in seated)
            places = tuple(p for _, _, p in seated)
            tables.append(
                records.Table(
                    players=tuple(p for p, _, _ in seated),
                    winner=winner,
                    game_wins=game_wins if all(g is not None for g in game_wins) else None,
                    finish=places if all(p is not None for p in places) else None,
                )
            )
        result.append(tuple(tables))
    return result


# --- creating an event ----------------------------------------------------------------------

POINT_PRESETS = {
    "magic": records.MAGIC,
    "chess": records.CHESS,
    "cedh": records.CEDH_PODS,  # why 5/1/0: formats.Pods.default_points
}


def _tiebreaker_preset(name: str | None, *, play, points: str) -> list[str]:
    if name:
        if name not in PRESETS:
            raise TournamentError(
                f"Unknown tiebreakers {name!r}.", code="tiebreakers", field="tiebreakers"
            )
        return list(PRESETS[name])
    # By default the tiebreakers follow the format, then the points.
    return list(PRESETS[play.tiebreaker_preset(points)])


EVENT_DAYS_AHEAD_UNCONFIRMED = 365


def far_date_problem(day) -> str | None:
    """Why an event's date needs a confirmation (more than a year ahead: a typo, usually)."""
    today = timezone.localdate()
    if (day - today).days <= EVENT_DAYS_AHEAD_UNCONFIRMED:
        return None
    return (
        f"{day:%-d %B %Y} is more than a year ahead. Check the year; if the date is right, "
        "tick the box below and create the event again."
    )


@transaction.atomic
def tournament_create(
    *,
    league,
    name: str,
    date=None,
    confirm_date: bool = False,
    format: str = Tournament.Format.ONE_V_ONE,
    points: str | None = None,
    tiebreakers: str | None = None,
    pod_layout: str = "threes",
    swiss_rounds: int | None = None,
    top_cut: int = 0,
    first_round: str = Tournament.FirstRound.RANDOM,
    round_minutes: int = 50,
    by=None,
) -> Tournament:
    """A new Swiss event in `league` (1v1 matches or pods), with a random seed and a slug from
    the store's slug and the name (league_services.slug_new: never telling of other stores).

    Points default to Magic 3/1/0 for 1v1 and cEDH 5/1/0 for pods; the tiebreakers to the
    preset of the format ("pods") or of the points. A date more than a year ahead needs
    `confirm_date` (TournamentError code far_date otherwise).
    """
    if date is not None and not confirm_date and (far := far_date_problem(date)):
        raise TournamentError(far, code="far_date", field="date")
    if format not in Tournament.Format.values:
        raise TournamentError("Choose 1v1 or pods.", code="format", field="format")
    play = FORMATS[format]
    points = points or play.default_points
    if points not in POINT_PRESETS:
        raise TournamentError(f"Unknown points {points!r}.", code="points", field="points")
    if pod_layout not in LAYOUTS:
        raise TournamentError(
            f"Choose a pod layout: {', '.join(LAYOUTS)}.", code="pod_layout", field="pod_layout"
        )
    play.check_top_cut(top_cut)
    scheme = POINT_PRESETS[points]
    slug = league_services.slug_new(
        model=Tournament,
        organization=league.organization,
        name=name,
        scope="league__organization",
        fallback="event",
    )
    return Tournament.objects.create(
        league=league,
        name=name.strip(),
        slug=slug,
        date=date or timezone.localdate(),
        format=format,
        pod_layout=pod_layout,
        points_win=scheme.win,
        points_draw=scheme.draw,
        points_loss=scheme.loss,
        points_bye=scheme.bye,
        swiss_rounds=swiss_rounds,
        tiebreakers=_tiebreaker_preset(tiebreakers, play=play, points=points),
        top_cut=top_cut,
        first_round=first_round,
        round_minutes=round_minutes,
        seed=secrets.randbelow(2**31),
        created_by=acting_user(by),
    )


def suggested_structure(tournament: Tournament, players: int) -> tuple[int, int | None]:
    """Swiss rounds and top cut that suit a field of `players`, as the format suggests:
    ⌈log₂ N⌉ rounds and no cut for 1v1; for pods, `podcut.suggested_structure` (0, 4 or 16)."""
    return format_for(tournament).suggested_structure(players)


# --- registration ---------------------------------------------------------------------------


def _next_round_number(tournament: Tournament) -> int:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@transaction.atomic
def entry_register(
    *, tournament: Tournament, name: str, by=None, create_player: bool = False
) -> Entry:
    """Register a player by name: an existing player of the store (matched ignoring case), or,
    with `create_player`, a new one; an unknown name otherwise raises UnknownPlayer and nothing
    is written. Registering a player who is already in says so (AlreadyDone).

    Once rounds have been paired the player enters late: from the next round on.
    """
    tournament = _lock(tournament)
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise TournamentError("The Swiss rounds are over: no more entries.", code="closed")
    organization = tournament.league.organization
    name = league_services.player_name_clean(name)
    if create_player:
        players, _ = league_services.players_get_or_create(organization=organization, names=[name])
    else:
        players = league_services.players_find(organization=organization, names=[name])
        if not players:
            raise UnknownPlayer(name, organization)
    player = next(iter(players.values()))
    if tournament.entries.filter(player=player).exists():
        raise AlreadyDone(f"{player} is already registered.", code="twice")
    # The next round to be paired: round 1 before the start, else the round after the last.
    joined = _next_round_number(tournament)
    return Entry.objects.create(tournament=tournament, player=player, joined_round=joined)


def _entry_snapshot(entry: Entry) -> dict:
    return {"player": entry.player.name, "dropped_after": entry.dropped_after}


def _entry_locked(tournament: Tournament, entry: Entry) -> tuple[Tournament, Entry]:
    """The event and the entry, locked in that order (every service locks the event first)."""
    tournament = _lock(tournament)
    entry = Entry.objects.select_for_update().select_related("player").filter(pk=entry.pk).first()
    if entry is None:
        raise AlreadyDone("This player is no longer registered.", code="gone")
    return tournament, entry


@transaction.atomic
def entry_drop(*, entry: Entry, by=None) -> Entry:
    """Drop a player: they play no more rounds but keep their results and standing. The drop
    can be undone (`entry_undrop`, from the console or History)."""
    tournament, entry = _entry_locked(entry.tournament, entry)
    if entry.dropped_after is not None:
        raise AlreadyDone(f"{entry.player} has already dropped.", code="dropped")
    before = _entry_snapshot(entry)
    last = tournament.rounds.order_by("-number").first()
    # Dropping during a round: they finish that round (its result stands) and are not paired
    # again; before the first round they simply leave.
    entry.dropped_after = last.number if last else 0
    entry.save(update_fields=["dropped_after"])
    _audit(
        tournament,
        AuditEntry.Action.ENTRY_DROP,
        object_type="entry",
        object_id=entry.pk,
        before=before,
        after=_entry_snapshot(entry),
        summary=f"{entry.player} dropped",
        by=by,
    )
    return entry


@transaction.atomic
def entry_undrop(*, entry: Entry, by=None, reverts: AuditEntry | None = None) -> Entry:
    """Undo a drop: the player is paired again from the next round (rounds paired while they
    were out count as not played). Refused once the Swiss rounds are over, because the top
    cut was seeded without them. A player who is not dropped is AlreadyDone.
    """
    tournament, entry = _entry_locked(entry.tournament, entry)
    if entry.dropped_after is None:
        raise AlreadyDone(f"{entry.player} is playing: there is no drop to undo.", code="playing")
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise TournamentError(
            "The Swiss rounds are over: a drop cannot be undone now.", code="closed"
        )
    if reverts is None:  # from the console: the drop's entry in History reads "undone" too
        reverts = (
            AuditEntry.objects.filter(
                action=AuditEntry.Action.ENTRY_DROP,
                object_type="entry",
                object_id=entry.pk,
                reverted_by__isnull=True,
            )
            .order_by("-created_at", "-pk")
            .first()
        )
    before = _entry_snapshot(entry)
    entry.dropped_after = None
    entry.save(update_fields=["dropped_after"])
    _audit(
        tournament,
        AuditEntry.Action.ENTRY_UNDROP,
        object_type="entry",
        object_id=entry.pk,
        before=before,
        after=_entry_snapshot(entry),
        summary=f"{entry.player}'s drop undone",
        by=by,
        reverts=reverts,
    )
    return entry


def entry_drop_undo(*, entry: AuditEntry, by=None) -> Entry:
    """Undo a drop from History (`leagues.services.audit_undo`): refused (UndoRefused) when
    the entry is gone, or was registered again, or its drop already changed since."""
    found = Entry.objects.select_related("tournament").filter(pk=entry.object_id).first()
    if found is None:
        raise league_services.UndoRefused(
            "This player is no longer registered for the event.", code="gone"
        )
    if found.dropped_after != (entry.after or {}).get("dropped_after"):
        raise league_services.UndoRefused(
            "This player's drop changed since: nothing to undo.", code="stale"
        )
    try:
        return entry_undrop(entry=found, by=by, reverts=entry)
    except TournamentError as error:
        raise league_services.UndoRefused(str(error), code=error.code) from None


@transaction.atomic
def entry_remove(*, entry: Entry, by=None) -> None:
    """Take back a registration made by mistake: only for a player who has never sat at a
    table (a seated player keeps their results; drop them instead). The store's player stays.
    """
    tournament, entry = _entry_locked(entry.tournament, entry)
    if entry.seats.exists():
        raise TournamentError(
            f"{entry.player} has already sat at a table: drop them instead (they keep their "
            "results).",
            code="seated",
        )
    snapshot = _entry_snapshot(entry)
    entry_id = entry.pk
    entry.delete()
    _audit(
        tournament,
        AuditEntry.Action.ENTRY_REMOVE,
        object_type="entry",
        object_id=entry_id,
        before=snapshot,
        after=None,
        summary=f"{snapshot['player']} removed from the event",
        by=by,
    )


# --- rounds ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    rows: list
    ranking: list[int]  # player ids, best first
    points: dict[int, float]


def omw_floor(tournament: Tournament) -> Fraction:
    """The lowest match-win % an opponent counts with: the event's own, else 1/3 (MTR) for
    1v1 and 1/4 (par at a pod of four) for pods."""
    if tournament.omw_floor is not None:
        return Fraction(tournament.omw_floor)
    return format_for(tournament).default_omw_floor


def tiebreakers(tournament: Tournament) -> list[str]:
    """The event's precedence of metrics; none chosen: the preset of its format."""
    return list(tournament.tiebreakers or PRESETS[format_for(tournament).standing_preset()])


def standings(tournament: Tournament, rounds: list[records.Round] | None = None) -> Standing:
    rounds = history(tournament) if rounds is None else rounds
    entries = list(tournament.entries.values_list("player_id", "dropped_after"))
    precedence = tiebreakers(tournament)
    params: dict = {"omw_floor": omw_floor(tournament)}
    if "avg_opp_rating" in precedence:
        params["ratings"] = _ratings(tournament, list(tournament.entries.all()))
    rows = compute_standings(
        players=[player for player, _ in entries],
        rounds=rounds,
        scheme=points_scheme(tournament),
        precedence=precedence,
        dropped={p: d for p, d in entries if d is not None},
        params=params,
    )
    return Standing(
        rows=rows,
        ranking=[row.player for row in rows],
        points={row.player: row.points for row in rows},
    )


@transaction.atomic
def round_pair(*, tournament: Tournament, by=None, number: int | None = None) -> Round:
    """Pair the next Swiss round from the standings and start it (byes are reported at once).

    `number` is the round the TO's button says it pairs: if that round exists already (a
    double tap, or another TO was quicker) nothing is paired and AlreadyDone says so.

    1v1 events pair matches (`pairing.pair_round`), pod events pods in seat order
    (`pods.pair_pods`, with the event's layout); what the pairing had to allow (rematches,
    players who met before) is written on the round.
    """
    tournament = _lock(tournament)
    if number is not None and tournament.rounds.filter(number=number).exists():
        raise AlreadyDone(f"Round {number} is already paired.", code="paired")
    unfinished = tournament.rounds.exclude(status=Round.Status.COMPLETE).first()
    if unfinished is not None:
        missing = list(unfinished.tables.filter(reported=False).values_list("number", flat=True))
        raise TournamentError(
            f"Round {unfinished.number} is not finished"
            + (f": tables {', '.join(map(str, missing))} have no result." if missing else "."),
            code="round_open",
        )
    number = _next_round_number(tournament)
    active = list(
        tournament.entries.filter(joined_round__lte=number, dropped_after__isnull=True)
        .select_related("player")
        .order_by("player_id")
    )
    play = format_for(tournament)
    fewest = play.fewest_players
    if len(active) < fewest:
        raise TournamentError(
            f"At least {'three' if fewest == 3 else 'two'} players are needed to pair a round.",
            code="few",
        )
    planned = tournament.swiss_rounds or suggested_structure(tournament, len(active))[0]
    if number > planned:
        raise TournamentError(f"All {planned} Swiss rounds have been played.", code="swiss_over")
    past = history(tournament)
    table = standings(tournament, past)
    ratings = _ratings(tournament, active) if tournament.first_round == "rating" else None
    tables, warnings = play.pair(
        tournament,
        players=[e.player_id for e in active],
        history=past,
        ranking=table.ranking,
        points=table.points,
        seed=tournament.seed,
        round_number=number,
        first_round=tournament.first_round,
        ratings=ratings,
    )
    by_player = {e.player_id: e for e in active}
    seatings = list(enumerate(tables, 1))
    warnings += play.seating_warnings(past, seatings, by_player)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.Status.PLAYING,
        ends_at=timezone.now() + timezone.timedelta(minutes=tournament.round_minutes),
        notes="\n".join(warnings),
    )
    _create_tables(round_, seatings, by_player, by)
    tournament.status = Tournament.Status.SWISS
    if tournament.swiss_rounds is None:
        tournament.swiss_rounds = planned
    tournament.save(update_fields=["status", "swiss_rounds"])
    return round_


def _ratings(tournament: Tournament, entries: list[Entry]) -> dict[int, float]:
    values = dict(
        Rating.objects.filter(
            league=tournament.league, player_id__in=[e.player_id for e in entries]
        ).values_list("player_id", "value")
    )
    return {e.player_id: values.get(e.player_id, 0.0) for e in entries}


@transaction.atomic
def table_report(
    *,
    table: Table,
    winner: Entry | None = None,
    draw: bool = False,
    game_wins: Mapping[int, int] | None = None,
    places: Mapping[int, int] | None = None,
    expected_version: int | None = None,
    by=None,
    reverts: AuditEntry | None = None,
) -> Table:
    """Record (or correct) a table's result; the league game follows.

    A 1v1 match: a winner or a draw, optionally with each player's game wins. A pod: a winner
    (the others share second), a draw (everyone shares first), or the full finishing order as
    `places` (entry id -> place, a competition ranking; a shared first place is a draw).
    `expected_version` is the version the TO's form showed: if the result changed since, an
    identical submission is a no-op and a different one raises ResultConflict. At a pod a
    winner or a draw that agrees with the stored result is identical, keeping its full order.
    """
    tournament = _lock(table.round.tournament)
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "reported_by")
        .get(pk=table.pk)
    )
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    if len(seats) == 1:
        raise TournamentError("A bye has no result to enter.", code="bye")
    if table.round.status == Round.Status.PAIRING:
        raise TournamentError("This round has not started.", code="not_started")
    entries = {s.entry_id: s for s in seats}
    if winner is not None and winner.pk not in entries:
        raise TournamentError(
            f"{winner.player} is not at this table.", code="not_seated", field="winner"
        )
    wins = dict(game_wins or {})
    play = format_for(tournament)
    winner_id, finish = play.check_result(
        entries,
        winner=winner,
        draw=draw,
        wins=wins,
        places=places,
        top_cut=table.round.kind == Round.Kind.TOP_CUT,
    )
    same = play.same_result(
        table, entries, winner_id=winner_id, draw=draw, wins=wins, places=places, finish=finish
    )
    if expected_version is not None and expected_version != table.version:
        if same:
            return table  # a double tap, or two judges entering the same result
        raise ResultConflict(table, noun=play.noun_title)
    if same:
        return table
    before = table_snapshot(table, seats) if table.reported else None
    table.reported, table.is_draw = True, winner_id is None
    table.winner = entries[winner_id].entry if winner_id else None
    table.version += 1
    table.reported_by = acting_user(by)
    table.reported_at = timezone.now()
    for seat in seats:
        seat.game_wins = wins.get(seat.entry_id)
        seat.place = finish[seat.entry_id]
    Seat.objects.bulk_update(seats, ["game_wins", "place"])
    results = [
        league_services.ResultIn(player=s.entry.player, place=s.place, seat=s.position)
        for s in seats
    ]
    kind = play.noun
    notes = f"{tournament.name}, round {table.round.number}, {kind} {table.number}"
    # A result reported now was played by today, even in an event dated ahead (played early,
    # or a wrong year): no table puts a game in the league's future.
    played_on = min(tournament.date, timezone.localdate())
    if table.game_id is None:
        table.game = league_services.game_record(
            league=tournament.league,
            results=results,
            played_on=played_on,
            by=table.reported_by,
            source=Game.Source.TOURNAMENT,
            notes=notes,
            audit=False,  # the table's entry below says it
        )
    else:
        league_services.game_update(
            game=table.game, results=results, played_on=played_on, notes=notes, audit=False
        )
    table.save()
    action = play.report_actions[before is not None, reverts is not None]
    _audit(
        tournament,
        action,
        object_type="table",
        object_id=table.pk,
        before=before,
        after=table_snapshot(table, seats),
        summary=f"round {table.round.number}, {kind} {table.number}",
        by=by,
        reverts=reverts,
    )
    return table


def table_undo(*, entry: AuditEntry, by=None) -> Table:
    """Put a corrected table back to its result before the correction (`entry.before`).

    Called by `leagues.services.audit_undo`; refused (UndoRefused) when the table was paired
    anew or its result changed again since.
    """
    table = Table.objects.select_related("round__tournament").filter(pk=entry.object_id).first()
    if table is None:
        raise league_services.UndoRefused(
            "This table is no longer in its round (the pairings were changed).", code="gone"
        )
    _lock(table.round.tournament)
    table.refresh_from_db()
    if table.version != entry.after["version"]:
        raise league_services.UndoRefused(
            "This result was changed again after this correction: undoing it would lose the "
            "later change. Enter the result by hand instead.",
            code="stale",
        )
    before = entry.before
    seats = {s.entry_id: s for s in table.seats.select_related("entry__player")}
    if set(seats) != {line["entry_id"] for line in before["seats"]}:
        raise league_services.UndoRefused(
            "Other players sit at this table now.", code="seats_changed"
        )
    result = format_for(table.round.tournament).undo_result(before, seats)
    return table_report(table=table, expected_version=table.version, by=by, reverts=entry, **result)


@transaction.atomic
def round_end(*, round_: Round, by=None) -> Round:
    """Close a round once every table has a result (a round already closed: AlreadyDone)."""
    tournament = _lock(round_.tournament)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.COMPLETE:
        # A second tap (or a second TO): ending it again would pair the next top-cut round
        # twice.
        raise AlreadyDone(f"Round {round_.number} is already complete.", code="complete")
    missing = list(round_.tables.filter(reported=False).values_list("number", flat=True))
    if missing:
        raise TournamentError(
            f"Tables {', '.join(map(str, missing))} still have no result.", code="missing"
        )
    round_.status = Round.Status.COMPLETE
    round_.save(update_fields=["status"])
    if round_.kind == Round.Kind.TOP_CUT:
        bracket = top_cut_bracket(tournament)
        if bracket.champion is not None:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
        else:
            _top_cut_round(tournament, bracket, round_.number + 1)
        return round_
    last_swiss = round_.kind == Round.Kind.SWISS and round_.number >= (tournament.swiss_rounds or 0)
    if last_swiss and not tournament.top_cut:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
    return round_


# --- top cut --------------------------------------------------------------------------------


def top_cut_seeds(tournament: Tournament) -> list[int]:
    """Entries by final Swiss standing, dropped players left out (they cannot play on)."""
    dropped = set(
        tournament.entries.filter(dropped_after__isnull=False).values_list("player_id", flat=True)
    )
    return [p for p in standings(tournament).ranking if p not in dropped]


def _bracket_create(tournament: Tournament, seeds: list[int]):
    """The first stage of the cut: 1v1 matches (`topcut`) or pods (`podcut`)."""
    return format_for(tournament).bracket_create(seeds, tournament.top_cut)


def top_cut_bracket(tournament: Tournament):
    """The bracket as played so far: seeds from the final Swiss standings, then each completed
    top-cut round's results (1v1: the winners; pods: each pod's winner, None for a draw,
    which advances the pod's best seed)."""
    bracket = _bracket_create(tournament, top_cut_seeds(tournament))
    rounds = (
        tournament.rounds.filter(kind=Round.Kind.TOP_CUT, status=Round.Status.COMPLETE)
        .order_by("number")
        .prefetch_related("tables__winner")
    )
    play = format_for(tournament)
    for round_ in rounds:
        bracket = play.bracket_advance(bracket, [_winner_player(t) for t in round_.tables.all()])
    return bracket


def _winner_player(table: Table) -> int | None:
    return table.winner.player_id if table.winner_id else None


def top_cut_label(tournament: Tournament, bracket, index: int) -> str:
    """What stage `index` of the cut is called: "Quarterfinals", "Semifinals", "Final" for
    1v1; "Semi-finals" and "Final" for pods."""
    return format_for(tournament).bracket_label(bracket, index)


def _top_cut_round(tournament: Tournament, bracket, number: int) -> Round:
    entries = {e.player_id: e for e in tournament.entries.all()}
    stage = tournament.rounds.filter(kind=Round.Kind.TOP_CUT).count()
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        kind=Round.Kind.TOP_CUT,
        status=Round.Status.PLAYING,
        ends_at=timezone.now() + timezone.timedelta(minutes=tournament.round_minutes),
        notes=top_cut_label(tournament, bracket, stage),
    )
    # In the order the bracket gives: the better seed sits first.
    _create_tables(round_, list(enumerate(bracket.current, 1)), entries, None)
    return round_


@transaction.atomic
def top_cut_start(*, tournament: Tournament, by=None) -> Round:
    """Seed the top cut from the final Swiss standings and pair its first round."""
    tournament = _lock(tournament)
    if not tournament.top_cut:
        raise TournamentError("This event has no top cut.", code="no_top_cut")
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise AlreadyDone(f"The top {tournament.top_cut} is already paired.", code="started")
    if tournament.status != Tournament.Status.SWISS:
        raise TournamentError("The top cut starts after the Swiss rounds.", code="not_swiss")
    last = tournament.rounds.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    if last is None or last.number < (tournament.swiss_rounds or 0):
        raise TournamentError("Play every Swiss round first.", code="swiss_not_over")
    if last.status != Round.Status.COMPLETE:
        raise TournamentError(f"End round {last.number} first.", code="round_open")
    try:
        bracket = _bracket_create(tournament, top_cut_seeds(tournament))
    except format_for(tournament).bracket_errors as error:
        raise TournamentError(str(error), code=error.code) from None
    round_ = _top_cut_round(tournament, bracket, last.number + 1)
    tournament.status = Tournament.Status.TOP_CUT
    tournament.save(update_fields=["status"])
    return round_


# --- manual edits of a round being played ----------------------------------------------------


def seating_key(seats) -> str:
    """A short fingerprint of who sits where in a round, from its (table number, position,
    entry id) triples in any order: the console's edit forms carry it, so a second tap of
    "Swap" (which would swap the players back) is recognised as a repeat."""
    text = ";".join(f"{t}.{p}:{e}" for t, p, e in sorted(seats))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def round_seating_key(round_: Round) -> str:
    """`seating_key` of a round as stored now."""
    seats = Seat.objects.filter(round=round_)
    return seating_key(seats.values_list("table__number", "position", "entry_id"))


@transaction.atomic
def round_edit(
    *,
    round_: Round,
    edit: str,
    a: Entry,
    b: Entry | None = None,
    by=None,
    expected: str | None = None,
) -> list[str]:
    """Change a Swiss round being played by hand: swap two players' seats, pair two players
    against each other, or give a player the bye.

    The pairing module computes the new round (`swap_players`, `pair_by_hand`, `give_bye`)
    and checks it (everyone once, tables of two); tables that already have a result may not
    change. Only the changed tables are rewritten, keeping their numbers. The edit is written
    on the round with who made it and any rematch it creates; those warnings are returned.

    In a pod event a swap exchanges two players' seats (between pods, within a pod, or with a
    bye) and the bye takes a player out of a pod of four or five; pairing two players by hand
    is for 1v1 matches only.

    `expected` is the round's `round_seating_key` when the TO's form was loaded: if the seats
    changed since (a double tap, or another TO's edit), nothing is changed (AlreadyDone).
    """
    tournament = _lock(round_.tournament)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if expected is not None and expected != round_seating_key(round_):
        raise AlreadyDone(
            f"The pairings of round {round_.number} changed since this page was loaded (was it "
            "tapped twice?): nothing was changed again. Check them below.",
            code="stale_pairings",
        )
    if round_.status != Round.Status.PLAYING or round_.kind != Round.Kind.SWISS:
        raise TournamentError("Only a Swiss round being played can be edited.", code="not_playing")
    if edit not in EDITS or (edit != "bye" and b is None):
        raise TournamentError("Choose what to change.", code="edit")
    if b is not None and a.pk == b.pk:
        raise TournamentError("Choose two different players.", code="same_player")
    play = format_for(tournament)
    play.check_edit(edit)
    tables = list(round_.tables.prefetch_related("seats__entry__player").order_by("number"))
    before = round_snapshot(round_)
    seated = {s.entry_id for t in tables for s in t.seats.all()}
    for entry in (a, b):
        if entry is not None and entry.pk not in seated:
            raise TournamentError(f"{entry.player} is not in round {round_.number}.", code="absent")
    warnings = _edit_apply(play, tournament, round_, tables, edit, a, b, by)
    names = {e.player_id: e.player for e in (a, b) if e is not None}
    who = getattr(by, "username", None) or "a TO"
    line = f"{timezone.localtime():%H:%M} {who} " + EDITS[edit].format(
        a=names[a.player_id], b=names.get(b.player_id) if b else ""
    )
    round_.notes = "\n".join(filter(None, [round_.notes, line + ".", *warnings]))
    round_.save(update_fields=["notes"])
    after = round_snapshot(round_)
    after["warnings"] = list(warnings)
    _audit(
        tournament,
        _EDIT_ACTIONS[edit],
        object_type="round",
        object_id=round_.pk,
        before=before,
        after=after,
        summary=f"round {round_.number}: "
        + EDITS[edit].format(a=names[a.player_id], b=names.get(b.player_id) if b else ""),
        by=by,
    )
    return warnings


_EDIT_ACTIONS = {
    "swap": AuditEntry.Action.PAIRING_SWAP,
    "pair": AuditEntry.Action.PAIRING_MANUAL,
    "bye": AuditEntry.Action.PAIRING_BYE,
}


def _edit_apply(play, tournament, round_, tables, edit, a, b, by) -> list[str]:
    """The format plans the edit from the seats as they are (`Format.plan_edit`); the changed
    tables are replaced by its numbered seatings. Returns the warnings to write on the round."""
    before = {t.pk: tuple(s.entry.player_id for s in t.seats.all()) for t in tables}
    entries = {e.player_id: e for e in tournament.entries.select_related("player")}
    plan = play.plan_edit(
        tables=tables,
        before=before,
        edit=edit,
        a=a,
        b=b,
        number=round_.number,
        entries=entries,
        read_past=lambda number: history(tournament, before=number),
        read_points=lambda past: standings(tournament, past).points,
    )
    Seat.objects.filter(table_id__in=plan.changed).delete()
    Table.objects.filter(pk__in=plan.changed).delete()
    _create_tables(round_, plan.seatings, entries, by)
    return list(plan.warnings)


def _create_tables(round_: Round, seatings, entries, by) -> None:
    """Write numbered tables with their seats in the order given: [(number, (player, ...))].

    A table of one seat is a bye, reported at once as that player's win.
    """
    user = acting_user(by)
    now = timezone.now()
    tables = []
    for number, players in seatings:
        bye = len(players) == 1
        tables.append(
            Table(
                round=round_,
                number=number,
                reported=bye,
                winner=entries[players[0]] if bye else None,
                reported_by=user if bye else None,
                reported_at=now if bye else None,
            )
        )
    Table.objects.bulk_create(tables)
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, entry=entries[player], position=position)
        for table, (_, players) in zip(tables, seatings, strict=True)
        for position, player in enumerate(players, 1)
    )


def round_swap(*, round_: Round, a: Entry, b: Entry, by=None) -> list[str]:
    return round_edit(round_=round_, edit="swap", a=a, b=b, by=by)


def round_give_bye(*, round_: Round, entry: Entry, by=None) -> list[str]:
    return round_edit(round_=round_, edit="bye", a=entry, by=by)
