"""Events played through the services up to the moment the next round is paired, for the tests
that pair that round on the server and from its JSON input (on the server or on the phone)."""

import random

from tournaments.models import Round
from tournaments.services.entries import entry_drop, requested_bye_add
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

from ..play import register

# (name, format, players, rounds played before the one compared, pod layout)
STATES = [
    ("1v1-17-drop", "1v1", 17, 2, "threes"),
    ("1v1-9-drop", "1v1", 9, 1, "threes"),
    ("pods-17-drop", "pods", 17, 2, "threes"),
    ("pods-9-drop", "pods", 9, 1, "fives"),
    ("pods-13-first", "pods", 13, 0, "threes"),
]


def report_all(round_, rng: random.Random) -> None:
    """A result at every table: a match's winner (2-0 or 2-1) or a draw, a pod's winner or its
    full order, drawn from `rng`."""
    pods = round_.tournament.format == "pods"
    for table in round_.tables.all():
        seats = list(table.seats.order_by("position"))
        if len(seats) < 2:
            continue
        if pods and rng.random() < 0.3:
            order = rng.sample(range(1, len(seats) + 1), len(seats))
            table_report(
                table=table, places={s.entry_id: p for s, p in zip(seats, order, strict=True)}
            )
        elif rng.random() < 0.15:
            table_report(table=table, draw=True)
        else:
            first, second = rng.sample(seats, 2)
            wins = {} if pods else {first.entry_id: 2, second.entry_id: rng.choice([0, 1])}
            table_report(table=table, winner=first.entry, game_wins=wins)


def build(league, name: str, format: str, players: int, played: int, layout: str):
    """The event with `played` rounds complete and the next one paired and fully reported (not
    ended): the moment the TO's phone pairs the round after it. A player drops during the last
    round, another asks to sit the next one out."""
    rng = random.Random(name)
    event = tournament_create(
        league=league, name=name, format=format, pod_layout=layout, swiss_rounds=played + 3
    )
    event.seed = rng.randrange(1, 10**6)  # reproducible: tournament_create draws one at random
    event.save(update_fields=["seed"])
    entries = register(event, *(f"{name} player {n:02d}" for n in range(players)))
    for _ in range(played):
        round_ = round_pair(tournament=event)
        report_all(round_, rng)
        round_end(round_=round_)
    if played:
        round_ = round_pair(tournament=event)
        report_all(round_, rng)
        leaving = rng.choice(entries)
        entry_drop(entry=leaving)
        requested_bye_add(
            entry=rng.choice([e for e in entries if e.pk != leaving.pk]),
            round_number=round_.number + 1,
        )
    event.refresh_from_db()
    return event


def server_round(event) -> list[list[int]]:
    """The server pairs the next round (ending the one being played): its tables by number,
    players in seat order."""
    opened = event.rounds.exclude(status=Round.Status.COMPLETE).first()
    if opened is not None:
        round_end(round_=opened)
    round_ = round_pair(tournament=event)
    return seatings(round_)


def seatings(round_) -> list[list[int]]:
    return [
        [s.entry.player_id for s in t.seats.order_by("position").select_related("entry")]
        for t in round_.tables.order_by("number")
    ]
