"""A TO's manual edits of a 1v1 round, computed and checked: swap, bye, pair by hand.

`swap_players`, `give_bye` and `pair_by_hand` compute the round after an edit (tables of two
in seat order, byes as player ids); `validate_manual` lists what makes a hand-made round
unusable (everyone seated exactly once, tables of two) and `pairing_from_manual` records it
as a `Pairing`, with rematches, extra byes and repeated byes as warnings. Pure Python; the
pod format's edits are planned by `tournaments.formats.Pods`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from tournaments.domain.history import read_history
from tournaments.domain.pairing import Pairing, PairingError, met_before
from tournaments.domain.records import PlayerId, Round
from tournaments.domain.texts import N_, Nn_, Note, fill

# Tables are (player, player) in seat order; byes are player ids.
Tables = tuple[tuple[PlayerId, PlayerId], ...]


def validate_manual(
    tables: Sequence[Sequence[PlayerId]],
    byes: Sequence[PlayerId],
    players: Sequence[PlayerId],
    history: Sequence[Round],
) -> list[str]:
    """The problems that make a hand-made round unusable (empty when it can be used).

    Every active player sits exactly once (at a table or on a bye), nobody else does, each
    table seats two different players and each bye one. Rematches are allowed: they are
    warnings, which `pairing_from_manual` reports. `history` is accepted so that checks that
    need it stay in one place; today no rule in it makes a round unusable.
    """
    del history  # rematches are warnings, not problems
    return [fill(template, params) for template, params in manual_problems(tables, byes, players)]


def manual_problems(
    tables: Sequence[Sequence[PlayerId]],
    byes: Sequence[PlayerId],
    players: Sequence[PlayerId],
) -> list[tuple[str | tuple[str, str], dict]]:
    """`validate_manual`'s problems before their values are filled in: (template, params)
    each, the template marked for translation (the site shows them in the TO's language); a
    plural pair (`Nn_`) takes its form for `params["count"]` (`texts.fill`)."""
    problems: list[tuple[str | tuple[str, str], dict]] = []
    active = set(players)
    count: Counter = Counter()
    for number, table in enumerate(tables, start=1):
        seats = tuple(table)
        if len(seats) != 2:
            problems.append(
                (
                    Nn_(
                        "Table %(table)s seats %(count)s player; a 1v1 table seats exactly 2 "
                        "players.",
                        "Table %(table)s seats %(count)s players; a 1v1 table seats exactly 2 "
                        "players.",
                    ),
                    {"table": number, "count": len(seats)},
                )
            )
        if len(seats) == 2 and seats[0] == seats[1]:
            problems.append(
                (
                    N_("Table %(table)s pairs player %(player)s with themself."),
                    {"table": number, "player": seats[0]},
                )
            )
        count.update(set(seats))
    for bye in byes:
        if isinstance(bye, (tuple, list)):
            problems.append((N_("A bye is one player, not %(count)s."), {"count": len(bye)}))
            count.update(bye)
        else:
            count[bye] += 1
    for player, times in sorted(count.items()):
        if player not in active:
            problems.append(
                (
                    N_("Player %(player)s is not in this round (dropped or not entered)."),
                    {"player": player},
                )
            )
        elif times > 1:
            problems.append(
                (
                    Nn_(
                        "Player %(player)s is seated %(count)s time.",
                        "Player %(player)s is seated %(count)s times.",
                    ),
                    {"player": player, "count": times},
                )
            )
    for player in sorted(active - set(count)):
        problems.append((N_("Player %(player)s has no table and no bye."), {"player": player}))
    return problems


def pairing_from_manual(
    tables: Sequence[Sequence[PlayerId]],
    byes: Sequence[PlayerId],
    *,
    players: Sequence[PlayerId],
    history: Sequence[Round],
    points: Mapping[PlayerId, float],
    name: Callable[[PlayerId], str] = str,
) -> Pairing:
    """Record a TO's hand-made round as a `Pairing` (tables and seats kept as given); `name`
    names a player in the warnings (by default its id).

    Raises `PairingError("invalid_manual", ...)` listing the problems from `validate_manual`;
    rematches, extra byes and repeated byes come back as warnings.
    """
    problems = manual_problems(tables, byes, players)
    if problems:
        error = PairingError("invalid_manual", " ".join(fill(t, p) for t, p in problems))
        error.parts = tuple(problems)
        raise error
    past = read_history(history)
    seated = tuple((a, b) for a, b in tables)
    warnings: list[str] = []
    rematches = tuple(t for t in seated if past.times_met(*t))
    if rematches:
        warnings.append(
            Note(
                Nn_("%(n)s rematch: %(tables)s.", "%(n)s rematches: %(tables)s."),
                {"n": len(rematches), "tables": met_before(past, rematches, name)},
                count=len(rematches),
            )
        )
    if len(byes) > len(players) % 2:
        warnings.append(
            Note(
                Nn_(
                    "%(n)s bye where %(needed)s would do.", "%(n)s byes where %(needed)s would do."
                ),
                {"n": len(byes), "needed": len(players) % 2},
                count=len(byes),
            )
        )
    repeated = [b for b in byes if past.byes[b]]
    if repeated:
        warnings.append(
            Note(
                Nn_(
                    "Player %(players)s already had a bye.",
                    "Players %(players)s already had a bye.",
                ),
                {"players": tuple(map(name, repeated))},
                count=len(repeated),
            )
        )

    def pts(p):
        return float(points.get(p, 0.0))

    spread = sum((pts(a) - pts(b)) ** 2 for a, b in seated)
    return Pairing(seated, tuple(byes), rematches, spread, tuple(warnings))


def swap_players(
    tables: Sequence[tuple[PlayerId, PlayerId]],
    a: PlayerId,
    b: PlayerId,
    *,
    byes: Sequence[PlayerId] = (),
) -> tuple[Tables, tuple[PlayerId, ...]]:
    """Exchange the seats of players a and b (at tables or on byes): (tables, byes)."""

    def swapped(p):
        return b if p == a else a if p == b else p

    return (
        tuple((swapped(x), swapped(y)) for x, y in tables),
        tuple(swapped(p) for p in byes),
    )


def give_bye(
    tables: Sequence[tuple[PlayerId, PlayerId]],
    byes: Sequence[PlayerId],
    player: PlayerId,
) -> tuple[Tables, tuple[PlayerId, ...]]:
    """Give `player` a bye: (tables, byes).

    Their opponent takes the place of the player who had the bye, if exactly one other player
    had it (the usual "give the bye to X instead" edit); otherwise the opponent gets a bye too.
    """
    if player in byes:
        return tuple(tables), tuple(byes)
    new_tables = []
    orphan = None
    for x, y in tables:
        if player in (x, y):
            orphan = y if x == player else x
        else:
            new_tables.append((x, y))
    new_byes = list(byes)
    if orphan is not None:
        if len(new_byes) == 1:
            # The orphan sits where the player was, against the player who had the bye.
            previous = new_byes.pop()
            position = next(i for i, t in enumerate(tables) if player in t)
            seats = tables[position]
            table = (previous, orphan) if seats[0] == player else (orphan, previous)
            new_tables.insert(position, table)
        else:
            new_byes.append(orphan)
    new_byes.append(player)
    return tuple(new_tables), tuple(new_byes)


def pair_by_hand(
    tables: Sequence[tuple[PlayerId, PlayerId]],
    byes: Sequence[PlayerId],
    a: PlayerId,
    b: PlayerId,
) -> tuple[Tables, tuple[PlayerId, ...]]:
    """Seat a against b (a first): (tables, byes). Their former opponents play each other at
    the other freed table; a single former opponent left alone gets the bye."""
    if a == b:
        raise PairingError(
            "self_pairing", N_("Player %(player)s cannot play themself."), {"player": a}
        )
    if (a, b) in tables or (b, a) in tables:
        return tuple(tables), tuple(byes)
    orphans = []
    freed = []
    kept: list[tuple[PlayerId, PlayerId] | None] = []
    for x, y in tables:
        if x in (a, b) or y in (a, b):
            orphans.extend(p for p in (x, y) if p not in (a, b))
            freed.append(len(kept))
            kept.append(None)
        else:
            kept.append((x, y))
    new_byes = [p for p in byes if p not in (a, b)]
    slots = iter(freed)
    first = next(slots, None)
    if first is None:
        kept.append((a, b))
    else:
        kept[first] = (a, b)
    if len(orphans) == 2:
        second = next(slots)
        kept[second] = (orphans[0], orphans[1])
    else:
        new_byes.extend(orphans)
    return tuple(t for t in kept if t is not None), tuple(new_byes)
