"""Writes to league data: one function per use case, each one transaction.

Every game write locks its league row first (SELECT ... FOR UPDATE), so concurrent entries,
corrections and imports for one league are serialised; that is what keeps duplicate detection
honest now and the rating ledger in order later. Validation raises `LeagueError` with a field
and a message a person can act on; nothing is written when it does.
"""

import hashlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone

from .domain.csvformat import (
    NAME_MAX_LENGTH,
    CsvGame,
    Finisher,
    ParsedCsv,
    RowProblem,
    clean_text,
    parse_games_csv,
)
from .domain.ranking import RankingError, validate_places
from .models import Game, GameResult, ImportBatch, League, Organization, Player


class LeagueError(ValueError):
    """Bad input for a league write; `field` says where, the message says why."""

    def __init__(self, message: str, *, field: str | None = None, code: str = "invalid"):
        super().__init__(message)
        self.field = field
        self.code = code


@dataclass(frozen=True)
class ResultIn:
    """One player's line in a game to be stored."""

    player: Player
    place: int
    seat: int | None = None
    stats: dict = field(default_factory=dict)


def _lock_league(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


def player_name_clean(raw: str) -> str:
    name = clean_text(raw or "")
    if not name:
        raise LeagueError("A player needs a name.", field="name", code="empty_name")
    if len(name) > NAME_MAX_LENGTH:
        raise LeagueError(
            f"A name can be at most {NAME_MAX_LENGTH} characters.", field="name", code="long_name"
        )
    return name


def players_find(*, organization: Organization, names: Sequence[str]) -> dict[str, Player]:
    """Existing players of `organization` keyed by lower-cased name (as the unique constraint)."""
    folded = {name.lower() for name in names}
    if not folded:
        return {}
    found = Player.objects.annotate(lname=Lower("name")).filter(
        organization=organization, lname__in=folded
    )
    return {p.name.lower(): p for p in found}


def players_get_or_create(
    *, organization: Organization, names: Sequence[str]
) -> tuple[dict[str, Player], list[Player]]:
    """Players for `names` (matched ignoring case), creating the missing ones in one insert."""
    cleaned = [player_name_clean(n) for n in names]
    existing = players_find(organization=organization, names=cleaned)
    to_create: dict[str, Player] = {}
    for name in cleaned:
        key = name.lower()
        if key not in existing and key not in to_create:
            to_create[key] = Player(organization=organization, name=name)
    created = Player.objects.bulk_create(to_create.values())
    existing.update({p.name.lower(): p for p in created})
    return existing, created


def _check_results(league: League, results: Sequence[ResultIn]) -> None:
    players = [r.player for r in results]
    for r in results:
        if r.player.organization_id != league.organization_id:
            raise LeagueError(
                f"{r.player} is not a player of {league.organization}.", field="players"
            )
    seen: set[int] = set()
    for p in players:
        if p.pk in seen:
            raise LeagueError(f"{p} is listed twice in this game.", field="players", code="twice")
        seen.add(p.pk)
    try:
        validate_places([r.place for r in results])
    except RankingError as error:
        raise LeagueError(str(error), field="players", code=error.code) from error
    seats = [r.seat for r in results if r.seat is not None]
    if any(s < 1 for s in seats):
        raise LeagueError("Seats are numbered from 1.", field="seats", code="seat_below_one")
    if len(seats) != len(set(seats)):
        raise LeagueError(
            "Two players cannot have the same seat.", field="seats", code="seat_twice"
        )


def _result_rows(game: Game, results: Sequence[ResultIn]) -> list[GameResult]:
    return [
        GameResult(game=game, player=r.player, placement=r.place, seat=r.seat, stats=r.stats or {})
        for r in results
    ]


@transaction.atomic
def game_record(
    *,
    league: League,
    results: Sequence[ResultIn],
    played_on: date,
    by=None,
    source: str = Game.Source.MANUAL,
    notes: str = "",
) -> Game:
    """Store one game with its results."""
    _check_results(league, results)
    _lock_league(league)
    game = Game.objects.create(
        league=league,
        played_on=played_on,
        entered_by=by if by is not None and by.is_authenticated else None,
        source=source,
        notes=notes.strip(),
    )
    GameResult.objects.bulk_create(_result_rows(game, results))
    return game


@transaction.atomic
def game_update(
    *, game: Game, results: Sequence[ResultIn], played_on: date, notes: str = "", by=None
) -> Game:
    """Correct a stored game: its date, note and every player's result."""
    _check_results(game.league, results)
    _lock_league(game.league)
    game.played_on = played_on
    game.notes = notes.strip()
    game.save(update_fields=["played_on", "notes"])
    game.results.all().delete()
    GameResult.objects.bulk_create(_result_rows(game, results))
    return game


@transaction.atomic
def game_delete(*, game: Game, by=None) -> None:
    _lock_league(game.league)
    game.delete()


# --- CSV import ---------------------------------------------------------------------------


@dataclass
class ImportPlan:
    """What importing a file would do, computed without writing anything."""

    parsed: ParsedCsv
    duplicates: list[RowProblem]
    new_players: list[str]
    already_imported: ImportBatch | None = None

    @property
    def problems(self) -> list[RowProblem]:
        return sorted(self.parsed.problems + self.duplicates, key=lambda p: p.line)

    @property
    def skipped_lines(self) -> list[int]:
        return sorted({p.line for p in self.problems})

    @property
    def games(self) -> list[CsvGame]:
        skipped = set(self.skipped_lines)
        return [g for g in self.parsed.games if g.line not in skipped]


class ImportRefused(LeagueError):
    def __init__(self, message: str, plan: ImportPlan):
        super().__init__(message, field="file", code="import_refused")
        self.plan = plan


@dataclass
class ImportReport:
    batch: ImportBatch
    games: int
    players_created: list[str]
    skipped: list[RowProblem]


def content_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _existing_game_keys(league: League, dates: set[date]) -> dict[tuple, list[int]]:
    """Keys (as CsvGame.key) of the league's stored games on `dates`, to their game ids."""
    rows = (
        GameResult.objects.filter(game__league=league, game__played_on__in=dates)
        .values_list("game_id", "game__played_on", "placement", "player__name")
        .order_by("game_id")
    )
    finishes: dict[int, list] = defaultdict(list)
    played: dict[int, date] = {}
    for game_id, played_on, placement, name in rows:
        finishes[game_id].append((placement, name.lower()))
        played[game_id] = played_on
    keys: dict[tuple, list[int]] = defaultdict(list)
    for game_id, finish in finishes.items():
        keys[(played[game_id], tuple(sorted(finish)))].append(game_id)
    return keys


def import_plan(*, league: League, text: str) -> ImportPlan:
    """Parse `text` and find rows that are already games of the league.

    A file may hold the same game twice on purpose (two identical results on one night), so
    duplicates are counted: a row is a duplicate while the league has more stored games with
    that date and finishing order than earlier rows of the file have claimed.
    """
    parsed = parse_games_csv(text)
    stored = _existing_game_keys(league, {g.played_on for g in parsed.games})
    claimed: Counter = Counter()
    duplicates = []
    for game in parsed.games:
        key = game.key()
        ids = stored.get(key, [])
        if claimed[key] < len(ids):
            duplicates.append(
                RowProblem(
                    game.line,
                    "row",
                    f"this game is already in the league (game #{ids[claimed[key]]} "
                    f"on {game.played_on:%Y-%m-%d})",
                )
            )
        claimed[key] += 1
    plan = ImportPlan(parsed=parsed, duplicates=duplicates, new_players=[])
    names = {f.name.lower(): f.name for g in plan.games for f in g.finishers}
    known = players_find(organization=league.organization, names=list(names.values()))
    plan.new_players = sorted((n for k, n in names.items() if k not in known), key=str.lower)
    plan.already_imported = (
        league.imports.filter(sha256=content_sha256(text), status=ImportBatch.Status.IMPORTED)
        .order_by("imported_at")
        .first()
    )
    return plan


def import_refusal_message(plan: ImportPlan, *, skip_invalid: bool) -> str | None:
    """Why the import cannot go ahead, or None when it can."""
    if plan.already_imported and not plan.games:
        batch = plan.already_imported
        return (
            f"This file was already imported into {batch.league} on "
            f"{batch.imported_at:%Y-%m-%d %H:%M}; every game in it is already there."
        )
    if plan.problems and not skip_invalid:
        count = len(plan.skipped_lines)
        return (
            f"Nothing was imported: {count} row{'s' if count != 1 else ''} "
            "cannot be imported. Fix the file, or import only the valid rows."
        )
    if not plan.games:
        return "Nothing to import: the file has no valid games."
    return None


def import_batch_create(*, league: League, text: str, filename: str = "", by=None) -> ImportBatch:
    """Keep an uploaded file until the organizer has seen its preview and confirms."""
    return ImportBatch.objects.create(
        league=league,
        filename=filename[:255],
        sha256=content_sha256(text),
        content=text,
        created_by=by if by is not None and by.is_authenticated else None,
    )


@transaction.atomic
def games_import(
    *,
    league: League,
    text: str,
    filename: str = "",
    by=None,
    skip_invalid: bool = False,
    batch: ImportBatch | None = None,
) -> ImportReport:
    """Import a Guildmaster CSV into `league`: all of it, or with skip_invalid the valid rows.

    Raises ImportRefused (writing nothing) when any row is bad and skip_invalid is off, when
    the file was imported before, or when nothing valid is left.
    """
    _lock_league(league)
    if batch is not None:
        batch = ImportBatch.objects.select_for_update().get(pk=batch.pk)
        if batch.status != ImportBatch.Status.PENDING:
            raise LeagueError(
                f"This upload was already {batch.get_status_display().lower()}.",
                field="file",
                code="batch_done",
            )
    plan = import_plan(league=league, text=text)
    refusal = import_refusal_message(plan, skip_invalid=skip_invalid)
    if refusal:
        raise ImportRefused(refusal, plan)

    names = [f.name for g in plan.games for f in g.finishers]
    players, created = players_get_or_create(organization=league.organization, names=names)
    user = by if by is not None and by.is_authenticated else None
    if batch is None:
        batch = ImportBatch(league=league, filename=filename[:255], content=text, created_by=user)
    batch.sha256 = content_sha256(text)
    batch.status = ImportBatch.Status.IMPORTED
    batch.imported_at = timezone.now()
    batch.games_imported = len(plan.games)
    batch.skipped_lines = plan.skipped_lines
    batch.save()

    games = Game.objects.bulk_create(
        Game(
            league=league,
            played_on=g.played_on,
            entered_by=user,
            source=Game.Source.IMPORT,
            import_batch=batch,
            notes=g.note,
        )
        for g in plan.games
    )
    GameResult.objects.bulk_create(
        GameResult(
            game=game,
            player=players[f.name.lower()],
            placement=f.place,
            seat=f.seat,
            stats=f.stats,
        )
        for game, parsed in zip(games, plan.games, strict=True)
        for f in parsed.finishers
    )
    return ImportReport(
        batch=batch,
        games=len(games),
        players_created=[p.name for p in created],
        skipped=plan.problems,
    )


def games_as_csv_games(games) -> list[CsvGame]:
    """Stored games (with results and players prefetched) as rows for the CSV writer."""
    return [
        CsvGame(
            line=0,
            played_on=game.played_on,
            finishers=tuple(
                Finisher(name=r.player.name, place=r.placement, seat=r.seat, stats=r.stats or {})
                for r in sorted(game.results.all(), key=lambda r: (r.placement, r.seat or 0, r.pk))
            ),
            note=game.notes,
        )
        for game in games
    ]
