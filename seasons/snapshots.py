"""What an event gives its season: every player's finish as the points tables read it.

`event_snapshot(event)` returns the event's number of players, each player's finish (the band
of places, the rounds they were in, their wins, draws and byes) and whether the event is
finished. The places are the event's own placings (`tournaments.domain.placings`: the top
cut's bands, then the Swiss standing), during the event the Swiss standing after the last
complete round, as the event's pages show it; the records are the Swiss standings' ones
plus the top cut: a cut table is a round played, won by its winner (a pod's 1st), drawn by
everyone when the table drew. An event with no complete round gives nothing (None).
"""

from collections import Counter

from tournaments.domain.placings import PlacingError, final_placings
from tournaments.models import Tournament
from tournaments.selectors.placings import cut_stages
from tournaments.selectors.standings import completed_history, history, standings

# [player_id, first, last, rounds, wins, draws, byes]
Snapshot = tuple[int, list[list[int]], bool]


def event_snapshot(event: Tournament) -> Snapshot | None:
    final = event.status == Tournament.Status.FINISHED
    rounds = history(event) if final else completed_history(event)
    if not rounds:
        return None
    rows = standings(event, rounds).rows
    swiss = [(row.player, row.rank) for row in rows]
    cut = cut_stages(event) if final and event.top_cut else []
    try:
        placings = final_placings(swiss, cut)
    except PlacingError:
        cut = []  # a cut that does not add up: the Swiss standing, as the event's pages do
        placings = final_placings(swiss)
    cut_rounds: Counter = Counter()
    cut_wins: Counter = Counter()
    cut_draws: Counter = Counter()
    for stage in cut:
        for table in stage:
            firsts = [p for p, place in table.items() if place == 1]
            for player in table:
                cut_rounds[player] += 1
            if len(firsts) == 1:
                cut_wins[firsts[0]] += 1
            elif len(firsts) == len(table):
                for player in firsts:
                    cut_draws[player] += 1
    record = {row.player: row for row in rows}
    finishes = []
    for placing in placings:
        row = record[placing.player]
        finishes.append(
            [
                placing.player,
                placing.first,
                placing.last,
                row.played + cut_rounds[placing.player],
                row.wins + cut_wins[placing.player],
                row.draws + cut_draws[placing.player],
                row.byes,
            ]
        )
    return len(placings), finishes, final
