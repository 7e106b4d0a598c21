"""Replaying games through a rating system: the ledger rows and each player's running tally.

Pure: games and tallies in, ledger rows and tallies out. The database side (ratings.ledger)
feeds it the games from some position on and each player's tally just before that position.
A system with `rate_floats` (the Elo systems whose state is one float shown as it is) is
replayed on plain floats and tuples, without a state or tally object per ledger row: the
same rows to the last bit, at a fraction of the cost on a 100,000-game league.
`replay_results` takes the results as the ledger reads them, one flat row per player, and
rates those systems straight from the rows, without a game or finish object per row.
"""

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import groupby
from operator import itemgetter
from types import MappingProxyType

from leagues.domain.outcome import Outcome, outcomes

from .base import Finish, RatingState, RatingSystem, canonical

WIN, DRAW = Outcome.WIN, Outcome.DRAW


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's standing after their latest rated game. Wins and draws are counted as
    `leagues.domain.outcome` defines them (a draw is a shared first place, not a win)."""

    state: RatingState
    games: int
    wins: int
    draws: int
    last_played: date
    last_game: int


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game to rate. `canonical`: its `finish` is already in `base.canonical`'s order and
    valid (each player once, places from 1), as the database's constraints and the ledger's
    reader (ratings.ledger.games_from) guarantee, so the replay need not sort it again."""

    game_id: int
    played_on: date
    finish: Sequence[Finish]
    canonical: bool = False


# One ledger row: game, player, played_on, before, after, delta, rating, deviation, games, wins,
# draws (the running counts after this game).
ChangeRow = tuple[int, Hashable, date, float, float, float, float, float | None, int, int, int]


def replay(
    system: RatingSystem,
    games: Iterable[RatedGame],
    tallies: Mapping[Hashable, Tally],
    *,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[ChangeRow], dict[Hashable, Tally]]:
    """Rate `games` in order, starting from `tallies`; return the ledger rows and new tallies.

    Players without a tally start from `system.initial()` with no games.
    """
    if hasattr(system, "rate_floats"):
        return _replay_floats(system, games, tallies, progress=progress)
    current = dict(tallies)
    rows: list[ChangeRow] = []
    initial = system.initial()
    display = system.display
    for count, game in enumerate(games, 1):
        before = {}
        for finish in game.finish:
            tally = current.get(finish.player)
            before[finish.player] = tally.state if tally is not None else initial
        after = system.rate(before, game.finish)
        won = outcomes([finish.place for finish in game.finish])
        for finish, result in zip(game.finish, won, strict=True):
            player = finish.player
            tally = current.get(player)
            games_played = (tally.games if tally else 0) + 1
            wins = (tally.wins if tally else 0) + (result is WIN)
            draws = (tally.draws if tally else 0) + (result is DRAW)
            state = after[player]
            shown_before, shown_after = display(before[player]), display(state)
            rows.append(
                (
                    game.game_id,
                    player,
                    game.played_on,
                    shown_before,
                    shown_after,
                    shown_after - shown_before,
                    state.rating,
                    state.deviation,
                    games_played,
                    wins,
                    draws,
                )
            )
            current[player] = Tally(state, games_played, wins, draws, game.played_on, game.game_id)
        if progress is not None and count % 1000 == 0:
            progress(count)
    return rows, current


def _replay_floats(
    system: RatingSystem,
    games: Iterable[RatedGame],
    tallies: Mapping[Hashable, Tally],
    *,
    progress: Callable[[int], None] | None,
) -> tuple[list[ChangeRow], dict[Hashable, Tally]]:
    """`replay` for a system whose state is one float, displayed as is (`rate_floats`).

    A player's running tally is a tuple (rating, games, wins, draws, played_on, game id) until the
    end; rows come out in each game's given order, as the general path writes them.
    """
    rate_floats = system.rate_floats
    uses_stats = getattr(system, "uses_stats", False)
    start = system.initial().rating
    current = {
        player: (t.state.rating, t.games, t.wins, t.draws, t.last_played, t.last_game)
        for player, t in tallies.items()
    }
    no_tally = (start, 0, 0, 0, None, None)
    rows: list[ChangeRow] = []
    append = rows.append
    for count, game in enumerate(games, 1):
        if uses_stats and any(f.stats for f in game.finish):
            # A row whose stats change how it is rated (Guildmaster's repeated names): `rate`.
            states = {
                f.player: RatingState(current.get(f.player, no_tally)[0]) for f in game.finish
            }
            after = {p: state.rating for p, state in system.rate(states, game.finish).items()}
        else:
            ordered = game.finish if game.canonical else canonical(game.finish)
            before = [current.get(f.player, no_tally)[0] for f in ordered]
            after = dict(
                zip(
                    [f.player for f in ordered],
                    rate_floats(before, [f.place for f in ordered]),
                    strict=True,
                )
            )
        game_id, played_on = game.game_id, game.played_on
        won = outcomes([finish.place for finish in game.finish])
        for finish, result in zip(game.finish, won, strict=True):
            player = finish.player
            old, games_played, wins, draws, _, _ = current.get(player, no_tally)
            new = after[player]
            games_played += 1
            wins += result is WIN
            draws += result is DRAW
            append(
                (game_id, player, played_on, old, new, new - old, new, None, games_played, wins,
                 draws)
            )  # fmt: skip
            current[player] = (new, games_played, wins, draws, played_on, game_id)
        if progress is not None and count % 1000 == 0:
            progress(count)
    return rows, {
        player: Tally(RatingState(rating), games_played, wins, draws, played_on, game_id)
        for player, (rating, games_played, wins, draws, played_on, game_id) in current.items()
    }


# One player's result as the ledger reads it: game id, played_on, player, place, stats (None
# when the result has none), possibly followed by columns the replay ignores. A league's
# results come in rating order, each game's in `base.canonical` order, valid (each player once,
# places from 1) as the database's constraints keep them.
ResultRow = Sequence
NO_STATS: Mapping = MappingProxyType({})  # shared by every finish without stats


def replay_results(
    system: RatingSystem,
    results: Sequence[ResultRow],
    tallies: Mapping[Hashable, Tally],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[ChangeRow], dict[Hashable, Tally], int]:
    """`replay` of result rows: the ledger rows, the new tallies and how many games there were.

    `progress(done, total)` is told the games rated every thousand games. A system with
    `rate_floats` is rated straight from the rows (as `_replay_floats` rates games: the same
    rows to the last bit); any other is given the games `games_of` builds.
    """
    pods = [list(rows) for _, rows in groupby(results, key=itemgetter(0))]
    total = len(pods)
    counted = (lambda done: progress(done, total)) if progress is not None else None
    if not hasattr(system, "rate_floats"):
        rows, new = replay(system, [_game(pod) for pod in pods], tallies, progress=counted)
        return rows, new, total
    rate_floats = system.rate_floats
    uses_stats = getattr(system, "uses_stats", False)
    start = system.initial().rating
    current = {
        player: (t.state.rating, t.games, t.wins, t.draws, t.last_played, t.last_game)
        for player, t in tallies.items()
    }
    no_tally = (start, 0, 0, 0, None, None)
    get = current.get
    rows: list[ChangeRow] = []
    append = rows.append
    for count, pod in enumerate(pods, 1):
        game_id, played_on = pod[0][0], pod[0][1]
        olds = [get(r[2], no_tally) for r in pod]
        places = [r[3] for r in pod]
        if uses_stats and any(r[4] for r in pod):
            # A result whose stats change how it is rated (Guildmaster's repeated names).
            game = _game(pod)
            after = system.rate(
                {f.player: RatingState(t[0]) for f, t in zip(game.finish, olds, strict=True)},
                game.finish,
            )
            news = [after[r[2]].rating for r in pod]
        else:
            news = rate_floats([t[0] for t in olds], places)
        won = outcomes(places)
        for r, (old, games_played, wins, draws, _, _), new, result in zip(
            pod, olds, news, won, strict=True
        ):
            games_played += 1
            wins += result is WIN
            draws += result is DRAW
            append(
                (game_id, r[2], played_on, old, new, new - old, new, None, games_played, wins,
                 draws)
            )  # fmt: skip
            current[r[2]] = (new, games_played, wins, draws, played_on, game_id)
        if counted is not None and count % 1000 == 0:
            counted(count)
    new_tallies = {
        player: Tally(RatingState(rating), games_played, wins, draws, played_on, game_id)
        for player, (rating, games_played, wins, draws, played_on, game_id) in current.items()
    }
    return rows, new_tallies, total


def games_of(results: Iterable[ResultRow]) -> list[RatedGame]:
    """Result rows (see `ResultRow`) as the games they make, in the same order."""
    return [_game(list(rows)) for _, rows in groupby(results, key=itemgetter(0))]


def _game(pod: Sequence[ResultRow]) -> RatedGame:
    finish = [Finish(r[2], r[3], r[4] or NO_STATS) for r in pod]
    return RatedGame(pod[0][0], pod[0][1], finish, canonical=True)
