"""One game at a time: record, correct, delete (one or many) and undo, each under the league
lock with its audit entry; `game_enter` is the form's use case (names in finishing order)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.actors import acting_user
from audit.errors import UndoRefused
from audit.models import AuditEntry
from audit.services import log_action
from audit.summary import N_, Summary

from ..actions import Action
from ..domain.ranking import RankingError, validate_places
from ..models import Game, GameResult, League, Organization, Player
from .common import (
    GameConflict,
    LeagueError,
    ResultIn,
    _lock_league,
    game_date_check,
)
from .players import (
    player_name_clean,
    players_find,
    players_get_or_create,
)


def _check_results(league: League, results: Sequence[ResultIn]) -> None:
    players = [r.player for r in results]
    for r in results:
        if r.player.organization_id != league.organization_id:
            raise LeagueError(
                _("%(player)s is not a player of %(store)s.")
                % {"player": r.player, "store": league.organization},
                field="players",
            )
    seen: set[int] = set()
    for p in players:
        if p.pk in seen:
            raise LeagueError(
                _("%(player)s is listed twice in this game.") % {"player": p},
                field="players",
                code="twice",
            )
        seen.add(p.pk)
    try:
        validate_places([r.place for r in results])
    except RankingError as error:
        raise LeagueError(str(error), field="players", code=error.code) from error
    seats = [r.seat for r in results if r.seat is not None]
    if any(s < 1 for s in seats):
        raise LeagueError(_("Seats are numbered from 1."), field="seats", code="seat_below_one")
    if len(seats) != len(set(seats)):
        raise LeagueError(
            _("Two players cannot have the same seat."), field="seats", code="seat_twice"
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


def _game_summary(game: Game) -> Summary:
    return Summary(
        N_("%(league)s: game #%(game)s of %(date)s"),
        league=game.league.name,
        game=game.pk,
        date=f"{game.played_on:%Y-%m-%d}",
    )


def _audit_game(game: Game, action: str, before, after, by, *, via="", reverts=None):
    """`log_action` for a game: filed under its league, its summary the game's line."""
    league, summary = game.league, _game_summary(game)
    return log_action(league, action, game, summary, before, after, by, via=via, reverts=reverts)


# No savepoint of its own inside a caller's transaction (a tournament table's): nobody catches
# its errors and goes on in the same transaction, so the caller's rollback covers it, and the
# tap saves the SAVEPOINT and RELEASE round trips.
@transaction.atomic(savepoint=False)
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
        _audit_game(game, Action.GAME_CREATE, None, game_snapshot(game), by, via=via)
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
            game=None, message=_("This game was deleted meanwhile: there is nothing to correct.")
        )
    if target.organization_id != current.league.organization_id:
        raise LeagueError(
            _("A game of %(store)s cannot move to %(league)s.")
            % {"store": current.league.organization, "league": target},
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
        after = game_snapshot(game)
        _audit_game(game, action, before, after, by, via=via, reverts=reverts)
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
    _audit_game(current, Action.GAME_DELETE, before, None, by, via=via)
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
            ngettext(
                "%(players)s no longer exists: the game cannot be put back.",
                "%(players)s no longer exist: the game cannot be put back.",
                len(missing),
            )
            % {"players": ", ".join(missing)},
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
        raise UndoRefused(_("This game was deleted since: there is nothing to undo."), code="gone")
    _lock_league(game.league)
    game.refresh_from_db(fields=["version"])
    if game.version != entry.after["version"]:
        raise UndoRefused(
            _(
                "This game was changed again after this correction: undoing it would lose the "
                "later change. Correct the game by hand instead."
            ),
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
        raise UndoRefused(_("The league of this game was deleted."), code="gone")
    if before.get("source") == Game.Source.TOURNAMENT:
        raise UndoRefused(
            _("This game was a tournament table: report the table again from the event."),
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
    _audit_game(game, Action.GAME_RESTORE, None, game_snapshot(game), by, reverts=entry)


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
            _("%(store)s has no player named %(names)s yet.")
            % {"store": organization, "names": shown},
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
    look_alikes_confirmed: bool = False,
    game: Game | None = None,
    expected_version: int | None = None,
    entry_key: str | None = None,
) -> Game:
    """Record a new game (or correct `game`) from names as typed on the entry form.

    Names match the organization's players ignoring case; unknown names become new players
    only with create_players, otherwise UnknownPlayers lists them and nothing is written. A
    new name that reads like a player the store has also needs look_alikes_confirmed.
    """
    game_date_check(played_on)
    names = [player_name_clean(line.name) for line in finish]
    if create_players:
        players, _created = players_get_or_create(
            organization=league.organization,
            names=names,
            look_alikes_confirmed=look_alikes_confirmed,
        )
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
