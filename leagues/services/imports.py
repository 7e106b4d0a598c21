"""Guildmaster CSV imports: the plan (what importing would do, nothing written), the stored
preview of an upload, the import itself in chunks under the league lock, and the export rows."""

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from audit.actors import acting_user
from audit.services import log_action
from audit.summary import Nn_, Summary

from ..actions import Action
from ..domain.csvformat import (
    REPEATS_REFUSE,
    CsvGame,
    Finisher,
    ParsedCsv,
    RowProblem,
    parse_games_csv,
)
from ..models import Game, GameResult, ImportBatch, League
from ..signals import games_changed
from .common import (
    LeagueError,
    _lock_league,
    game_date_latest,
)
from .players import (
    names_folded,
    players_find,
    players_get_or_create,
    players_look_alike,
)


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


def import_plan(*, league: League, text: str, repeated_names: str = REPEATS_REFUSE) -> ImportPlan:
    """Parse `text` and find rows that are already games of the league.

    `repeated_names` says what a row naming one player twice is (see `parse_games_csv`).

    A file may hold the same game twice on purpose (two identical results on one night), so
    duplicates are counted: a row is a duplicate while the league has more stored games with
    that date and finishing order than earlier rows of the file have claimed.
    """
    parsed = parse_games_csv(text, latest=game_date_latest(), repeated_names=repeated_names)
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
                    _("this game is already in the league (game #%(id)s on %(date)s)")
                    % {"id": ids[claimed[key]], "date": f"{game.played_on:%Y-%m-%d}"},
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
        return _(
            "This file was already imported into %(league)s on %(when)s; every game in it is "
            "there, so there is nothing new to import."
        ) % {"league": batch.league, "when": f"{batch.imported_at:%Y-%m-%d %H:%M}"}
    bad = len({p.line for p in plan.parsed.problems})
    there = len(plan.duplicates)
    if not plan.games:
        if there and not bad:
            return _("Every game in the file is already in the league: nothing new to import.")
        if there:
            return ngettext(
                "%(count)s row of the file cannot be imported and the others are already in "
                "the league: nothing new to import.",
                "%(count)s rows of the file cannot be imported and the others are already in "
                "the league: nothing new to import.",
                bad,
            ) % {"count": bad}
        return _("The file has no valid games to import.")
    if plan.problems and not skip_invalid:
        if bad and there:
            reasons = ngettext(
                "%(rows)s cannot be imported and %(count)s row is already in the league.",
                "%(rows)s cannot be imported and %(count)s rows are already in the league.",
                there,
            ) % {"rows": _rows(bad), "count": there}
        elif bad:
            reasons = ngettext(
                "%(count)s row cannot be imported.", "%(count)s rows cannot be imported.", bad
            ) % {"count": bad}
        else:
            reasons = ngettext(
                "%(count)s row is already in the league.",
                "%(count)s rows are already in the league.",
                there,
            ) % {"count": there}
        games = len(plan.games)
        fix = ngettext(
            "Fix the file, or import only the %(count)s valid new game and skip those rows.",
            "Fix the file, or import only the %(count)s valid new games and skip those rows.",
            games,
        ) % {"count": games}
        return f"{reasons} {fix}"
    return None


def _rows(count: int) -> str:
    return ngettext("%(count)s row", "%(count)s rows", count) % {"count": count}


def text_line_count(text: str) -> int:
    """Physical lines of a file, as the preview numbers them."""
    return len(_LINE_BREAK.split(text.removeprefix("\ufeff").rstrip("\r\n")))


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def import_batch_create(
    *,
    league: League,
    text: str,
    filename: str = "",
    by=None,
    preview_rows: int | None = None,
    repeated_names: str = REPEATS_REFUSE,
) -> ImportBatch:
    """Keep an uploaded file until the organizer has seen its preview and confirms.

    A file of at most `preview_rows` lines (default: settings.GUILDHALL_INLINE_IMPORT_ROWS)
    gets its preview now; a longer one is left to a job (`import_batch_preview`). The batch
    keeps `repeated_names`, so the preview and the import read the file the same way.
    """
    lines = text_line_count(text)
    limit = settings.GUILDHALL_INLINE_IMPORT_ROWS if preview_rows is None else preview_rows
    return ImportBatch.objects.create(
        league=league,
        filename=filename[:255],
        sha256=content_sha256(text),
        content=text,
        line_count=lines,
        preview=(
            import_preview_build(league=league, text=text, repeated_names=repeated_names)
            if lines <= limit
            else None
        ),
        created_by=acting_user(by),
        repeated_names=repeated_names,
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


def import_preview_build(
    *, league: League, text: str, repeated_names: str = REPEATS_REFUSE
) -> dict:
    """What the preview page shows about importing `text` into `league`, as plain JSON."""
    plan = import_plan(league=league, text=text, repeated_names=repeated_names)
    rows = _preview_rows(plan, text)
    refusal = import_refusal_message(plan, skip_invalid=False)
    return {
        "computed_at": timezone.now().isoformat(),
        # Its problems and refusal are sentences in this language (the preview is kept with
        # the batch: leagues.views.imports draws a small file's again for another language).
        "language": get_language(),
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
        # New names that read like the store's players: shown before the organizer confirms,
        # and confirming the import confirms them (games_import).
        "look_alikes": [
            [name, like]
            for name, like in players_look_alike(
                organization=league.organization, names=plan.new_players
            ).items()
        ],
        "skipped_count": len(plan.skipped_lines),
        "refusal": refusal,
        "can_import_all": refusal is None,
        "can_import_valid": bool(plan.problems)
        and import_refusal_message(plan, skip_invalid=True) is None,
    }


def import_batch_preview(*, batch: ImportBatch) -> dict:
    """Compute the batch's preview and keep it with the batch (a pending batch only)."""
    preview = import_preview_build(
        league=batch.league, text=batch.content, repeated_names=batch.repeated_names
    )
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
    repeated_names: str | None = None,
    look_alikes_confirmed: bool | None = None,
) -> ImportReport:
    """Import a Guildmaster CSV into `league`: all of it, or with skip_invalid the valid rows.

    Raises ImportRefused (writing nothing) when any row is bad and skip_invalid is off, when
    the file was imported before, or when nothing valid is left. `progress(done, total)` hears
    of the games written so far (total: the games to write, plus one step for the checks).
    `repeated_names` (see `parse_games_csv`) defaults to the batch's choice, else refusing.
    A new name that reads like a player of the store is refused (LookAlikeNames) unless
    `look_alikes_confirmed`, which defaults to whether there is a batch: its preview showed
    the look-alikes to the organizer who pressed "import".
    """
    _lock_league(league)
    if batch is not None:
        batch = ImportBatch.objects.select_for_update().get(pk=batch.pk)
        if batch.league_id != league.pk:
            raise LeagueError(
                _("This upload was made for another league."), field="file", code="batch_league"
            )
        if batch.status != ImportBatch.Status.PENDING:
            raise LeagueError(
                _("This upload was already %(status)s.")
                % {"status": batch.get_status_display().lower()},
                field="file",
                code="batch_done",
            )
    if repeated_names is None:
        repeated_names = batch.repeated_names if batch is not None else REPEATS_REFUSE
    plan = import_plan(league=league, text=text, repeated_names=repeated_names)
    refusal = import_refusal_message(plan, skip_invalid=skip_invalid)
    if refusal:
        raise ImportRefused(refusal, plan=plan)
    total = len(plan.games) + 1
    if progress:
        progress(1, total)

    names = [f.name for g in plan.games for f in g.finishers]
    if look_alikes_confirmed is None:
        look_alikes_confirmed = batch is not None
    players, created = players_get_or_create(
        organization=league.organization, names=names, look_alikes_confirmed=look_alikes_confirmed
    )
    user = acting_user(by)
    if batch is None:
        batch = ImportBatch(league=league, filename=filename[:255], content=text, created_by=user)
    batch.sha256 = content_sha256(text)
    batch.repeated_names = repeated_names
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
    after = {
        "batch": batch.pk,
        "filename": batch.filename,
        "games": len(games),
        "game_ids": [min(g.pk for g in games), max(g.pk for g in games)] if games else [],
        "players_created": [p.name for p in created],
        "skipped_lines": plan.skipped_lines,
        "repeated_names": repeated_names,
    }
    if batch.filename:
        summary = Summary(
            Nn_("%(league)s: %(n)s game from %(file)s", "%(league)s: %(n)s games from %(file)s"),
            league=league.name,
            n=len(games),
            file=batch.filename,
        )
    else:
        summary = Summary(
            Nn_("%(league)s: %(n)s game from an upload", "%(league)s: %(n)s games from an upload"),
            league=league.name,
            n=len(games),
        )
    log_action(league, Action.IMPORT_APPLY, batch, summary, None, after, by, via="import")
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
