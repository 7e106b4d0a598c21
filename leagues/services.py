"""Writes to league data: one function per use case, each one transaction.

Every game write locks its league row first (SELECT ... FOR UPDATE), so concurrent entries,
corrections and imports for one league are serialised; that is what keeps duplicate detection
honest now and the rating ledger in order later. Validation raises `LeagueError` with a field
and a message a person can act on; nothing is written when it does.

Every write records an `AuditEntry` (who, when, before, after) in its own transaction through
`audit.services.audit_record`, whatever the entry point: the form, the admin, an import, the
API or a tournament table. A game carries a `version`: a correction made from an outdated form
raises `GameConflict` unless it is identical to what is stored, and an identical correction is
a no-op (no entry, no re-rating). `game_correction_undo` and `game_delete_undo` put a
correction or a deletion back; `audit.services.audit_undo` calls them (see leagues.apps).
"""

import hashlib
import re
import secrets
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.db import connection, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import slugify

from audit.actors import acting_user
from audit.errors import UndoRefused
from audit.models import AuditEntry
from audit.services import audit_record
from core.errors import DomainError

from .actions import Action
from .domain.csvformat import (
    NAME_MAX_LENGTH,
    CsvGame,
    Finisher,
    ParsedCsv,
    RowProblem,
    clean_text,
    future_date_problem,
    has_control_characters,
    latest_game_date,
    parse_games_csv,
)
from .domain.ranking import RankingError, validate_places
from .models import Game, GameResult, ImportBatch, League, Organization, Player
from .signals import games_changed


class LeagueError(DomainError, ValueError):
    """Bad input for a league write; `field` says where, the message says why.

    The message may also be given first, positionally, as every league refusal is written.
    """

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message=message, field=field, code=code)


class GameConflict(LeagueError):
    """The game changed (or went) since the form that corrects it was loaded (HTTP 409)."""

    status = 409
    default_code = "stale"

    def __init__(self, *, game: Game | None, message: str | None = None):
        if message is None:
            last = AuditEntry.objects.filter(object_type="game", object_id=game.pk).first()
            who = last.actor_label if last else "Someone"
            when = timezone.localtime(last.created_at if last else None)
            message = (
                f"{who} changed this game at {when:%H:%M} after you opened it: it is shown "
                "below as it is now. Check it before changing it again."
            )
        super().__init__(message)
        self.game = game


@dataclass(frozen=True)
class ResultIn:
    """One player's line in a game to be stored."""

    player: Player
    place: int
    seat: int | None = None
    # None keeps what is stored (a correction from a form that does not show stats).
    stats: dict | None = None


# --- slugs ------------------------------------------------------------------------------------

# Room kept after the stem for a suffix: "-2" ... "-99999", or "-" and 6 random hex digits.
SLUG_SUFFIX_ROOM = 7


def slug_new(*, model, organization: Organization, name: str, scope: str, fallback: str) -> str:
    """A new, unused slug for a `model` row (League, Tournament) of `organization`.

    Slugs are unique across the site (they are the public addresses /leagues/<slug>/ and
    /events/<slug>/), but what one store gets must never depend on another store's rows, or
    a "-2" would tell a store that someone else has a private league or event of that name.
    So the slug is the store's own slug and the name ("dragons-den-friday-modern"), numbered
    against the store's own rows only (`scope` is the path from `model` to Organization). If
    another store does hold that exact slug (only possible through an ambiguous hyphenation,
    "dragons" + "den-x" against "dragons-den" + "x", or a slug from before this rule), a
    random suffix is used, which says nothing about which store or row. Call it inside the
    transaction that saves the row: an advisory lock per store serialises two at once.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtext('guildhall-slug'), %s)", [organization.pk]
        )
    max_length = model._meta.get_field("slug").max_length
    stem = slugify(name) or fallback
    base = f"{organization.slug}-{stem}"[: max_length - SLUG_SUFFIX_ROOM].strip("-")
    own = set(
        model.objects.filter(**{scope: organization}, slug__startswith=base).values_list(
            "slug", flat=True
        )
    )
    candidate, n = base, 1
    while candidate in own:
        n += 1
        candidate = f"{base}-{n}"
    while model.objects.filter(slug=candidate).exists():
        candidate = f"{base}-{secrets.token_hex(3)}"
    return candidate


def _lock_league(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


def game_date_latest() -> date:
    """The latest date a game may have: a day ahead of today in the store's time zone."""
    return latest_game_date(timezone.localdate())


def game_date_check(played_on: date, *, field: str = "played_on") -> date:
    """`played_on` if a game may be dated so, else LeagueError (code future_date)."""
    problem = future_date_problem(played_on, game_date_latest())
    if problem:
        raise LeagueError(problem[0].upper() + problem[1:] + ".", field=field, code="future_date")
    return played_on


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


# --- the audit log --------------------------------------------------------------------------


def game_snapshot(game: Game) -> dict:
    """The game as plain data for the log: date, note, version and every player's line."""
    rows = game.results.select_related("player").order_by("placement", "seat", "id")
    results = []
    for row in rows:
        line = {"player_id": row.player_id, "player": row.player.name, "place": row.placement}
        if row.seat is not None:
            line["seat"] = row.seat
        if row.stats:
            line["stats"] = row.stats
        results.append(line)
    return {
        "game": game.pk,
        "league": game.league.slug,
        "played_on": game.played_on.isoformat(),
        "notes": game.notes,
        "source": game.source,
        "version": game.version,
        "results": results,
    }


def _game_content(played_on: date, notes: str, lines) -> tuple:
    """What makes two versions of a game the same: date, note, and (player, place, seat)."""
    return (played_on, notes.strip(), sorted(lines))


def _game_summary(game: Game) -> str:
    return f"{game.league.name}: game #{game.pk} of {game.played_on:%Y-%m-%d}"


def _audit_game(game: Game, action: str, *, before, after, by, via="", reverts=None):
    return audit_record(
        organization_id=game.league.organization_id,
        league_id=game.league_id,
        action=action,
        object_type="game",
        object_id=game.pk,
        before=before,
        after=after,
        summary=_game_summary(game),
        by=by,
        via=via,
        reverts=reverts,
    )


@transaction.atomic
def game_record(
    *,
    league: League,
    results: Sequence[ResultIn],
    played_on: date,
    by=None,
    source: str = Game.Source.MANUAL,
    notes: str = "",
    entry_key: str | None = None,
    via: str = "",
    audit: bool = True,
) -> Game:
    """Store one game with its results.

    `entry_key` is the entry form's (or an API client's) one-time token: when the league
    already has a game with that key, this is a second submission of the same form (a double
    tap) and that game is returned, marked `is_replay`, with nothing written. A tournament
    table records its own audit entry and passes audit=False.
    """
    _check_results(league, results)
    _lock_league(league)
    if entry_key:
        existing = Game.objects.filter(league=league, entry_key=entry_key).first()
        if existing is not None:
            existing.is_replay = True
            return existing
    game = Game.objects.create(
        league=league,
        played_on=played_on,
        entered_by=acting_user(by),
        source=source,
        notes=notes.strip(),
        entry_key=entry_key or None,
    )
    GameResult.objects.bulk_create(_result_rows(game, results))
    game.is_replay = False
    if audit:
        _audit_game(
            game,
            Action.GAME_CREATE,
            before=None,
            after=game_snapshot(game),
            by=by,
            via=via,
        )
    return game


@transaction.atomic
def game_update(
    *,
    game: Game,
    results: Sequence[ResultIn],
    played_on: date,
    notes: str = "",
    by=None,
    expected_version: int | None = None,
    via: str = "",
    audit: bool = True,
    reverts: AuditEntry | None = None,
    league: League | None = None,
) -> Game:
    """Correct a stored game: its date, note and every player's result.

    `expected_version` is the version the correcting form showed. A correction identical to
    the stored game changes nothing (no version, no log entry, no re-rating), whatever its
    version; a different one from an outdated form raises GameConflict with the game as it
    is now. `league` moves the game to another league of the same store (the admin offers
    it); both leagues are locked, in id order. Sets `changed` on the returned game.
    """
    target = league or game.league
    _check_results(target, results)
    if league is None:
        _lock_league(game.league)
    else:  # `game` may be a form's instance already pointing at `league`: ask the table
        stored_league = Game.objects.filter(pk=game.pk).values_list("league_id", flat=True)
        for pk in sorted({stored_league.first() or target.pk, target.pk}):
            League.objects.select_for_update().filter(pk=pk).values_list("pk").first()
    current = Game.objects.select_related("league").filter(pk=game.pk).first()
    if current is None:
        raise GameConflict(
            game=None, message="This game was deleted meanwhile: there is nothing to correct."
        )
    if target.organization_id != current.league.organization_id:
        raise LeagueError(
            f"A game of {current.league.organization} cannot move to {target}.",
            field="league",
            code="other_organization",
        )
    before = game_snapshot(current)
    stored = {line["player_id"]: line for line in before["results"]}
    same = current.league_id == target.pk and _game_content(
        current.played_on,
        current.notes,
        [(p, line["place"], line.get("seat") or 0) for p, line in stored.items()],
    ) == _game_content(played_on, notes, [(r.player.pk, r.place, r.seat or 0) for r in results])
    same = same and all(
        r.stats is None or r.stats == stored.get(r.player.pk, {}).get("stats", {}) for r in results
    )
    if same:
        current.changed = False
        return current
    if expected_version is not None and expected_version != current.version:
        raise GameConflict(game=current)
    game = current
    game.league = target
    game.played_on = played_on
    game.notes = notes.strip()
    game.version += 1
    game.save(update_fields=["league", "played_on", "notes", "version"])
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
    if audit:
        action = Action.GAME_UNDO if reverts else Action.GAME_CORRECT
        _audit_game(
            game, action, before=before, after=game_snapshot(game), by=by, via=via, reverts=reverts
        )
    game.changed = True
    return game


@transaction.atomic
def game_delete(*, game: Game, by=None, expected_version: int | None = None, via: str = "") -> bool:
    """Delete a game (the log keeps it, and it can be restored from there); False when it
    was already gone.

    With `expected_version`, a game changed since the confirmation page was loaded is not
    deleted: GameConflict shows it as it is now.
    """
    _lock_league(game.league)
    current = Game.objects.select_related("league").filter(pk=game.pk).first()
    if current is None:
        return False  # already gone: a double tap on "delete"
    if expected_version is not None and expected_version != current.version:
        raise GameConflict(game=current)
    before = game_snapshot(current)
    _audit_game(current, Action.GAME_DELETE, before=before, after=None, by=by, via=via)
    current.delete()
    return True


@transaction.atomic
def games_delete(*, games: Iterable[Game], by=None, via: str = "") -> int:
    """Delete several games at once (the admin's bulk action), each logged as `game_delete`
    does; their leagues are locked first, in id order, so two bulk deletes cannot deadlock.
    Returns how many were deleted."""
    games = list(games)
    for pk in sorted({g.league_id for g in games}):
        League.objects.select_for_update().filter(pk=pk).values_list("pk").first()
    deleted = 0
    for game in games:
        deleted += game_delete(game=game, by=by, via=via)
    return deleted


def _snapshot_results(organization_id: int, snapshot: dict) -> list[ResultIn]:
    """The results of a game snapshot with today's players; refused if one is gone."""
    ids = [line["player_id"] for line in snapshot["results"]]
    players = Player.objects.filter(organization_id=organization_id).in_bulk(ids)
    missing = [line["player"] for line in snapshot["results"] if line["player_id"] not in players]
    if missing:
        raise UndoRefused(
            f"{', '.join(missing)} no longer exist{'s' if len(missing) == 1 else ''}: "
            "the game cannot be put back.",
            code="player_gone",
        )
    return [
        ResultIn(
            player=players[line["player_id"]],
            place=line["place"],
            seat=line.get("seat"),
            stats=line.get("stats", {}),
        )
        for line in snapshot["results"]
    ]


def game_correction_undo(*, entry: AuditEntry, by=None) -> None:
    """Put a corrected game back as it was before `entry` (called by audit_undo)."""
    game = Game.objects.select_related("league").filter(pk=entry.object_id).first()
    if game is None:
        raise UndoRefused("This game was deleted since: there is nothing to undo.", code="gone")
    _lock_league(game.league)
    game.refresh_from_db(fields=["version"])
    if game.version != entry.after["version"]:
        raise UndoRefused(
            "This game was changed again after this correction: undoing it would lose the "
            "later change. Correct the game by hand instead.",
            code="stale",
        )
    before = entry.before
    game_update(
        game=game,
        results=_snapshot_results(game.league.organization_id, before),
        played_on=date.fromisoformat(before["played_on"]),
        notes=before["notes"],
        by=by,
        expected_version=game.version,
        reverts=entry,
    )


def game_delete_undo(*, entry: AuditEntry, by=None) -> None:
    """Put a deleted game back as it was (called by audit_undo); tournament games refused."""
    before = entry.before
    if entry.league is None:
        raise UndoRefused("The league of this game was deleted.", code="gone")
    if before.get("source") == Game.Source.TOURNAMENT:
        raise UndoRefused(
            "This game was a tournament table: report the table again from the event.",
            code="tournament_game",
        )
    league = _lock_league(entry.league)
    game = game_record(
        league=league,
        results=_snapshot_results(league.organization_id, before),
        played_on=date.fromisoformat(before["played_on"]),
        by=by,
        source=before.get("source") or Game.Source.MANUAL,
        notes=before["notes"],
        audit=False,
    )
    _audit_game(
        game,
        Action.GAME_RESTORE,
        before=None,
        after=game_snapshot(game),
        by=by,
        reverts=entry,
    )


@dataclass(frozen=True)
class FinishLine:
    """One line of a game as a person enters it: a name (not yet a Player) and a place."""

    name: str
    place: int
    seat: int | None = None


class UnknownPlayers(LeagueError):
    """Names that are no player of the store yet; nothing is created until confirmed."""

    def __init__(self, *, names: list[str], organization: Organization):
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
    expected_version: int | None = None,
    entry_key: str | None = None,
) -> Game:
    """Record a new game (or correct `game`) from names as typed on the entry form.

    Names match the organization's players ignoring case; unknown names become new players
    only with create_players, otherwise UnknownPlayers lists them and nothing is written.
    """
    game_date_check(played_on)
    names = [player_name_clean(line.name) for line in finish]
    if create_players:
        players, _ = players_get_or_create(organization=league.organization, names=names)
    else:
        players = players_find(organization=league.organization, names=names)
        missing = [n for n in dict.fromkeys(names) if n.lower() not in players]
        if missing:
            raise UnknownPlayers(names=missing, organization=league.organization)
    results = [
        ResultIn(player=players[name.lower()], place=line.place, seat=line.seat)
        for name, line in zip(names, finish, strict=True)
    ]
    if game is None:
        return game_record(
            league=league,
            results=results,
            played_on=played_on,
            by=by,
            notes=notes,
            entry_key=entry_key,
        )
    return game_update(
        game=game,
        results=results,
        played_on=played_on,
        notes=notes,
        by=by,
        expected_version=expected_version,
    )


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
    """A file that cannot be imported as asked; `plan` says what it holds."""

    def __init__(self, message: str, *, plan: ImportPlan):
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
    parsed = parse_games_csv(text, latest=game_date_latest())
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


def text_line_count(text: str) -> int:
    """Physical lines of a file, as the preview numbers them."""
    return len(_LINE_BREAK.split(text.removeprefix("\ufeff").rstrip("\r\n")))


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def import_batch_create(
    *, league: League, text: str, filename: str = "", by=None, preview_rows: int | None = None
) -> ImportBatch:
    """Keep an uploaded file until the organizer has seen its preview and confirms.

    A file of at most `preview_rows` lines (default: settings.GUILDHALL_INLINE_IMPORT_ROWS)
    gets its preview now; a longer one is left to a job (`import_batch_preview`).
    """
    lines = text_line_count(text)
    limit = settings.GUILDHALL_INLINE_IMPORT_ROWS if preview_rows is None else preview_rows
    return ImportBatch.objects.create(
        league=league,
        filename=filename[:255],
        sha256=content_sha256(text),
        content=text,
        line_count=lines,
        preview=import_preview_build(league=league, text=text) if lines <= limit else None,
        created_by=acting_user(by),
    )


PREVIEW_ROWS = 300  # the rows table stops here; the problem list is never cut short


def _problem(p: RowProblem) -> list:
    return [p.line, p.field, p.message]


def _preview_rows(plan: ImportPlan, text: str) -> list[dict]:
    """Every row of the file in line order (the first PREVIEW_ROWS): the games read, and the
    raw text of rows that could not be read as a game."""
    rows: dict[int, dict] = {
        g.line: {
            "line": g.line,
            "played_on": g.played_on.isoformat(),
            "finishers": [[f.place, f.name, f.seat] for f in g.finishers],
            "note": g.note,
            "raw": None,
            "problems": [],
            "css": "",
        }
        for g in plan.parsed.games
    }
    physical = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    for problem in plan.problems:
        row = rows.get(problem.line)
        if row is None:
            raw = physical[problem.line - 1] if problem.line <= len(physical) else ""
            row = rows[problem.line] = {"line": problem.line, "raw": raw, "problems": []}
        row["problems"].append(f"{problem.field}: {problem.message}")
    duplicate_lines = {p.line for p in plan.duplicates}
    for row in rows.values():
        if row["problems"]:
            row["css"] = "dup" if row["line"] in duplicate_lines else "bad"
    return sorted(rows.values(), key=lambda row: row["line"])


def import_preview_build(*, league: League, text: str) -> dict:
    """What the preview page shows about importing `text` into `league`, as plain JSON."""
    plan = import_plan(league=league, text=text)
    rows = _preview_rows(plan, text)
    refusal = import_refusal_message(plan, skip_invalid=False)
    return {
        "computed_at": timezone.now().isoformat(),
        "counts": {
            "rows": len(rows),
            "games": len(plan.games),
            "problems": len({p.line for p in plan.parsed.problems}),
            "duplicates": len(plan.duplicates),
            "new_players": len(plan.new_players),
        },
        "rows": rows[:PREVIEW_ROWS],
        "rows_hidden": max(0, len(rows) - PREVIEW_ROWS),
        "problems": [_problem(p) for p in plan.problems],
        "warnings": [_problem(p) for p in plan.parsed.warnings],
        "header_line": plan.parsed.header_line,
        "new_players": plan.new_players,
        "skipped_count": len(plan.skipped_lines),
        "refusal": refusal,
        "can_import_all": refusal is None,
        "can_import_valid": bool(plan.problems)
        and import_refusal_message(plan, skip_invalid=True) is None,
    }


def import_batch_preview(*, batch: ImportBatch) -> dict:
    """Compute the batch's preview and keep it with the batch (a pending batch only)."""
    preview = import_preview_build(league=batch.league, text=batch.content)
    ImportBatch.objects.filter(pk=batch.pk, status=ImportBatch.Status.PENDING).update(
        preview=preview
    )
    batch.preview = preview
    return preview


def import_batch_cancel(*, batch: ImportBatch, by=None) -> bool:
    """Drop a pending upload; False when it was already imported or cancelled meanwhile."""
    cancelled = ImportBatch.objects.filter(pk=batch.pk, status=ImportBatch.Status.PENDING).update(
        status=ImportBatch.Status.CANCELLED
    )
    if cancelled:
        batch.status = ImportBatch.Status.CANCELLED
    return bool(cancelled)


IMPORT_CHUNK = 2000  # games written per round trip, and per progress step


@transaction.atomic
def games_import(
    *,
    league: League,
    text: str,
    filename: str = "",
    by=None,
    skip_invalid: bool = False,
    batch: ImportBatch | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Import a Guildmaster CSV into `league`: all of it, or with skip_invalid the valid rows.

    Raises ImportRefused (writing nothing) when any row is bad and skip_invalid is off, when
    the file was imported before, or when nothing valid is left. `progress(done, total)` hears
    of the games written so far (total: the games to write, plus one step for the checks).
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
        raise ImportRefused(refusal, plan=plan)
    total = len(plan.games) + 1
    if progress:
        progress(1, total)

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

    games: list[Game] = []
    for start in range(0, len(plan.games), IMPORT_CHUNK):
        chunk = plan.games[start : start + IMPORT_CHUNK]
        written = Game.objects.bulk_create(
            Game(
                league=league,
                played_on=g.played_on,
                entered_by=user,
                source=Game.Source.IMPORT,
                import_batch=batch,
                notes=g.note,
            )
            for g in chunk
        )
        GameResult.objects.bulk_create(
            GameResult(
                game=game,
                player=players[f.name.lower()],
                placement=f.place,
                seat=f.seat,
                stats=f.stats,
            )
            for game, parsed in zip(written, chunk, strict=True)
            for f in parsed.finishers
        )
        games.extend(written)
        if progress:
            progress(1 + len(games), total)
    if games:
        first = min(games, key=lambda g: (g.played_on, g.pk))
        games_changed.send(sender=League, league=league, since=(first.played_on, first.pk))
    audit_record(
        organization_id=league.organization_id,
        league_id=league.pk,
        action=Action.IMPORT_APPLY,
        object_type="import",
        object_id=batch.pk,
        after={
            "batch": batch.pk,
            "filename": batch.filename,
            "games": len(games),
            "game_ids": [min(g.pk for g in games), max(g.pk for g in games)] if games else [],
            "players_created": [p.name for p in created],
            "skipped_lines": plan.skipped_lines,
        },
        summary=f"{league.name}: {len(games)} games from {batch.filename or 'an upload'}",
        by=by,
        via="import",
    )
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
