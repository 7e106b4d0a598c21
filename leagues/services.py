"""Writes to league data: one function per use case, each one transaction.

Every game write locks its league row first (SELECT ... FOR UPDATE), so concurrent entries,
corrections and imports for one league are serialised; that is what keeps duplicate detection
honest now and the rating ledger in order later. Validation raises `LeagueError` with a field
and a message a person can act on; nothing is written when it does.
"""

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.db import connection, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from .domain.csvformat import (
    NAME_MAX_LENGTH,
    CsvGame,
    Finisher,
    ParsedCsv,
    RowProblem,
    clean_text,
    has_control_characters,
    parse_games_csv,
)
from .domain.ranking import RankingError, validate_places
from .models import Game, GameResult, ImportBatch, League, Organization, Player
from .permissions import acting_user
from .signals import games_changed


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
    # None keeps what is stored (a correction from a form that does not show stats).
    stats: dict | None = None


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
    if has_control_characters(name):
        raise LeagueError(
            "The name contains control characters.", field="name", code="control_characters"
        )
    return name


def names_folded(names: Iterable[str]) -> dict[str, str]:
    """Each name to lower(name) as the database computes it, the rule of the unique constraint.

    Python's str.lower() differs for a few letters ("İ" is "i̇" in Python but "i" in
    PostgreSQL), and matching with it would miss a player the constraint then refuses to
    create twice.
    """
    unique = list(dict.fromkeys(names))
    folded: dict[str, str] = {}
    with connection.cursor() as cursor:
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            cursor.execute("SELECT " + ", ".join(["lower(CAST(%s AS text))"] * len(chunk)), chunk)
            folded.update(zip(chunk, cursor.fetchone(), strict=True))
    return folded


def players_find(*, organization: Organization, names: Sequence[str]) -> dict[str, Player]:
    """Existing players of `organization` for `names`, keyed by each given name's .lower().

    Names match ignoring case the way the unique constraint does (see `names_folded`).
    """
    folded = names_folded(names)
    if not folded:
        return {}
    found = {
        p.lname: p
        for p in Player.objects.annotate(lname=Lower("name")).filter(
            organization=organization, lname__in=set(folded.values())
        )
    }
    return {name.lower(): found[key] for name, key in folded.items() if key in found}


def players_get_or_create(
    *, organization: Organization, names: Sequence[str]
) -> tuple[dict[str, Player], list[Player]]:
    """Players for `names` (matched ignoring case), creating the missing ones in one insert."""
    cleaned = [player_name_clean(n) for n in names]
    folded = names_folded(cleaned)
    existing = players_find(organization=organization, names=cleaned)
    by_key = {folded[n]: existing[n.lower()] for n in cleaned if n.lower() in existing}
    to_create: dict[str, Player] = {}
    for name in cleaned:
        key = folded[name]
        if key not in by_key and key not in to_create:
            to_create[key] = Player(organization=organization, name=name)
    # Another league of the same store may be adding the same newcomer right now (only the
    # league is locked): skip names that win that race, then read every player back.
    Player.objects.bulk_create(to_create.values(), ignore_conflicts=True)
    if to_create:
        missing = [p.name for p in to_create.values()]
        found = players_find(organization=organization, names=missing)
        by_key.update({folded[n]: found[n.lower()] for n in missing})
    created = [by_key[key] for key in to_create]
    return {name.lower(): by_key[folded[name]] for name in cleaned}, created


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
        entered_by=acting_user(by),
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
    # Update rows in place so a player's stored stats survive a correction of places.
    stored = {row.player_id: row for row in game.results.all()}
    game.results.exclude(player_id__in=[r.player.pk for r in results]).delete()
    game.results.update(seat=None)  # seats may be swapped: clear them before reassigning
    changed = []
    for result in results:
        row = stored.pop(result.player.pk, None)
        if row is None:
            continue
        row.placement, row.seat = result.place, result.seat
        if result.stats is not None:
            row.stats = result.stats
        changed.append(row)
    GameResult.objects.bulk_update(changed, ["placement", "seat", "stats"])
    known = {row.player_id for row in changed}
    GameResult.objects.bulk_create(
        _result_rows(game, [r for r in results if r.player.pk not in known])
    )
    return game


@transaction.atomic
def game_delete(*, game: Game, by=None) -> None:
    _lock_league(game.league)
    game.delete()


@dataclass(frozen=True)
class FinishLine:
    """One line of a game as a person enters it: a name (not yet a Player) and a place."""

    name: str
    place: int
    seat: int | None = None


class UnknownPlayers(LeagueError):
    def __init__(self, names: list[str], organization: Organization):
        shown = ", ".join(f'"{n}"' for n in names)
        super().__init__(
            f"{organization} has no player named {shown} yet.",
            field="players",
            code="unknown_player",
        )
        self.names = names


@transaction.atomic
def game_enter(
    *,
    league: League,
    finish: Sequence[FinishLine],
    played_on: date,
    notes: str = "",
    by=None,
    create_players: bool = False,
    game: Game | None = None,
) -> Game:
    """Record a new game (or correct `game`) from names as typed on the entry form.

    Names match the organization's players ignoring case; unknown names become new players
    only with create_players, otherwise UnknownPlayers lists them and nothing is written.
    """
    names = [player_name_clean(line.name) for line in finish]
    if create_players:
        players, _ = players_get_or_create(organization=league.organization, names=names)
    else:
        players = players_find(organization=league.organization, names=names)
        missing = [n for n in dict.fromkeys(names) if n.lower() not in players]
        if missing:
            raise UnknownPlayers(missing, league.organization)
    results = [
        ResultIn(player=players[name.lower()], place=line.place, seat=line.seat)
        for name, line in zip(names, finish, strict=True)
    ]
    if game is None:
        return game_record(league=league, results=results, played_on=played_on, by=by, notes=notes)
    return game_update(game=game, results=results, played_on=played_on, notes=notes, by=by)


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
    plan: ImportPlan | None = None  # for its warnings and header line


def content_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _game_key(game: CsvGame, folded: dict[str, str]) -> tuple:
    """What makes two games the same: the date and who finished where (names as the DB folds)."""
    return (game.played_on, tuple(sorted((f.place, folded[f.name]) for f in game.finishers)))


def _existing_game_keys(league: League, dates: set[date]) -> dict[tuple, list[int]]:
    """Keys (as `_game_key`) of the league's stored games on `dates`, to their game ids."""
    rows = (
        GameResult.objects.filter(game__league=league, game__played_on__in=dates)
        .annotate(lname=Lower("player__name"))
        .values_list("game_id", "game__played_on", "placement", "lname")
        .order_by("game_id")
    )
    finishes: dict[int, list] = defaultdict(list)
    played: dict[int, date] = {}
    for game_id, played_on, placement, lname in rows:
        finishes[game_id].append((placement, lname))
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
    folded = names_folded(f.name for g in parsed.games for f in g.finishers)
    for game in parsed.games:
        # Two spellings the parser tells apart but the database does not ("İlker", "ilker").
        seen: dict[str, str] = {}
        for f in game.finishers:
            other = seen.setdefault(folded[f.name], f.name)
            if other != f.name:
                parsed.problems.append(
                    RowProblem(
                        game.line,
                        "players",
                        f'"{other}" and "{f.name}" are the same player (names match ignoring '
                        "case), named twice in this game",
                    )
                )
    stored = _existing_game_keys(league, {g.played_on for g in parsed.games})
    claimed: Counter = Counter()
    duplicates = []
    for game in parsed.games:
        key = _game_key(game, folded)
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
    # The first spelling of a new name is the one created (as players_get_or_create does).
    names: dict[str, str] = {}
    for g in plan.games:
        for f in g.finishers:
            names.setdefault(folded[f.name], f.name)
    known = players_find(organization=league.organization, names=list(names.values()))
    plan.new_players = sorted((n for n in names.values() if n.lower() not in known), key=str.lower)
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
            f"{batch.imported_at:%Y-%m-%d %H:%M}; every game in it is there, so there is "
            "nothing new to import."
        )
    bad = len({p.line for p in plan.parsed.problems})
    there = len(plan.duplicates)
    if not plan.games:
        if there and not bad:
            return "Every game in the file is already in the league: nothing new to import."
        if there:
            return (
                f"{_rows(bad)} of the file cannot be imported and the others are already in "
                "the league: nothing new to import."
            )
        return "The file has no valid games to import."
    if plan.problems and not skip_invalid:
        reasons = []
        if bad:
            reasons.append(f"{_rows(bad)} cannot be imported")
        if there:
            reasons.append(f"{_rows(there)} {'is' if there == 1 else 'are'} already in the league")
        games = len(plan.games)
        return (
            f"{' and '.join(reasons)}. Fix the file, or import only the {games} valid new "
            f"game{'s' if games != 1 else ''} and skip those rows."
        )
    return None


def _rows(count: int) -> str:
    return f"{count} row{'s' if count != 1 else ''}"


def import_batch_create(*, league: League, text: str, filename: str = "", by=None) -> ImportBatch:
    """Keep an uploaded file until the organizer has seen its preview and confirms."""
    return ImportBatch.objects.create(
        league=league,
        filename=filename[:255],
        sha256=content_sha256(text),
        content=text,
        created_by=acting_user(by),
    )


def import_batch_cancel(*, batch: ImportBatch, by=None) -> bool:
    """Drop a pending upload; False when it was already imported or cancelled meanwhile."""
    cancelled = ImportBatch.objects.filter(pk=batch.pk, status=ImportBatch.Status.PENDING).update(
        status=ImportBatch.Status.CANCELLED
    )
    if cancelled:
        batch.status = ImportBatch.Status.CANCELLED
    return bool(cancelled)


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
        if batch.league_id != league.pk:
            raise LeagueError(
                "This upload was made for another league.", field="file", code="batch_league"
            )
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
    user = acting_user(by)
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
    if games:
        first = min(games, key=lambda g: (g.played_on, g.pk))
        games_changed.send(sender=League, league=league, since=(first.played_on, first.pk))
    return ImportReport(
        batch=batch,
        games=len(games),
        players_created=[p.name for p in created],
        skipped=plan.problems,
        plan=plan,
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
