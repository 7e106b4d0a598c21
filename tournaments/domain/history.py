"""What an event's earlier rounds say about its players: who met whom, byes and seats.

`read_history` reads the rounds played (tables in seat order; a table of one is a bye) once,
for both pairers: how often each two players sat at one table (`met`, `times_met`), each
player's pairing-allocated byes (a requested bye does not count: FIDE C.04.1), their seats at
1v1 tables (for who goes first: `first_seats`, `seats`) and at pods (odd-sized pods had, the
sum of seat positions and its expected value, how often each seat), and every table each
player sat at in order (`sittings`, byes of both kinds included: the round, the table with its
result, the seat), from which the standings (`domain.standings`) score each player's points,
games, encounters and seats. Pairers and standings read one `History`, so a rule about what a
round means (a table of one is a bye) is read in one place. Pure Python: plain values in, one
`History` out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tournaments.domain.records import PlayerId, Round, Table


class Sitting(NamedTuple):
    """One table a player sat at: the round (0-based index), the table as played, the seat.

    A named tuple rather than a frozen dataclass: one is made per player per round, on every
    standings view, and a tuple is built several times faster.
    """

    round: int
    table: Table
    seat: int  # 0-based position in table.players

    @property
    def is_bye(self) -> bool:
        return len(self.table.players) == 1

    @property
    def opponents(self) -> tuple[PlayerId, ...]:
        """Everyone else at the table, in seat order (none at a bye)."""
        players = self.table.players
        return players[: self.seat] + players[self.seat + 1 :]


@dataclass(slots=True)
class History:
    met: dict[PlayerId, dict[PlayerId, int]]  # met[a][b]: times a and b sat at one table
    byes: Counter  # player -> byes had
    first_seats: Counter  # player -> times seated first at a 1v1 table
    seats: Counter  # player -> 1v1 tables played
    odd: Counter  # player -> tables of other than 4 players had (pods: 3 or 5)
    seat_sum: Counter  # player -> sum of seat positions at tables of two or more
    seat_expected: Counter  # player -> sum of (table size + 1) / 2 over those tables
    seat_count: dict[PlayerId, Counter]  # player -> seat position -> times
    sittings: dict[PlayerId, list[Sitting]]  # player -> every table sat at, oldest first

    def times_met(self, a: PlayerId, b: PlayerId) -> int:
        return self.met.get(a, {}).get(b, 0)


def read_history(history: Sequence[Round]) -> History:
    """Every earlier round, oldest first, read once.

    Runs on every standings view and every pairing, so the loop binds its counters to locals
    and makes a player's per-seat Counter only the first time they sit.
    """
    past = History({}, Counter(), Counter(), Counter(), Counter(), Counter(), Counter(), {}, {})
    met, sittings, seat_count = past.met, past.sittings, past.seat_count
    byes, first_seats, seats = past.byes, past.first_seats, past.seats
    odd, seat_sum, seat_expected = past.odd, past.seat_sum, past.seat_expected
    for index, round_ in enumerate(history):
        for table in round_:
            players = table.players
            size = len(players)
            for seat, player in enumerate(players):
                sat = sittings.get(player)
                if sat is None:
                    sittings[player] = [Sitting(index, table, seat)]
                else:
                    sat.append(Sitting(index, table, seat))
            if size == 1:
                if not table.requested:  # a requested bye is no pairing-allocated bye
                    byes[players[0]] += 1
                continue
            if size == 2:
                first_seats[players[0]] += 1
                seats[players[0]] += 1
                seats[players[1]] += 1
            expected = (size + 1) / 2
            for position, a in enumerate(players, 1):
                if size != 4:
                    odd[a] += 1
                seat_sum[a] += position
                seat_expected[a] += expected
                counts = seat_count.get(a)
                if counts is None:
                    counts = seat_count[a] = Counter()
                counts[position] += 1
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    if a == b:
                        continue
                    row = met.get(a)
                    if row is None:
                        row = met[a] = {}
                    row[b] = row.get(b, 0) + 1
                    row = met.get(b)
                    if row is None:
                        row = met[b] = {}
                    row[a] = row.get(a, 0) + 1
    return past
