"""What an event's earlier rounds say about its players: who met whom, byes and seats.

`read_history` reads the rounds played (tables in seat order; a table of one is a bye) once,
for both pairers: how often each two players sat at one table (`met`, `times_met`), each
player's pairing-allocated byes (a requested bye does not count: FIDE C.04.1), their seats at
1v1 tables (for who goes first: `first_seats`, `seats`) and at pods (odd-sized pods had, the
sum of seat positions and its expected value, how often each seat). Each pairer reads the
fields it needs; the standings (`domain.standings`) read the results of the same rounds.
Pure Python: plain values in, one `History` out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.domain.records import PlayerId, Round


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

    def times_met(self, a: PlayerId, b: PlayerId) -> int:
        return self.met.get(a, {}).get(b, 0)


def read_history(history: Sequence[Round]) -> History:
    """Every earlier round, oldest first, read once."""
    past = History({}, Counter(), Counter(), Counter(), Counter(), Counter(), Counter(), {})
    met = past.met
    for round_ in history:
        for table in round_:
            players = table.players
            size = len(players)
            if size == 1:
                if not table.requested:  # a requested bye is no pairing-allocated bye
                    past.byes[players[0]] += 1
                continue
            if size == 2:
                past.first_seats[players[0]] += 1
                past.seats[players[0]] += 1
                past.seats[players[1]] += 1
            for position, a in enumerate(players, 1):
                if size != 4:
                    past.odd[a] += 1
                past.seat_sum[a] += position
                past.seat_expected[a] += (size + 1) / 2
                past.seat_count.setdefault(a, Counter())[position] += 1
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
