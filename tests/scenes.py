"""The event states many tests start from, built through the real services.

A store, an event with its players entered, round 1 paired, its results reported, rounds
played, a top cut started, an event finished: each scene is one function returning a `Scene`
(the league, the event, its entries by name, the round last paired), and each is built on the
one before it, so a test that drives one step (a report, a round's end, a page) names the state
it starts from in one line and does the rest itself:

    scene = round_paired(players=4)                  # a 1v1 event of four, round 1 paired
    scene = round_reported(format="pods", players=8, swiss_rounds=3)
    scene = rounds_played(2, players=5)              # two rounds done, a bye each round
    scene = round_paired(rounds_played(1, players=8), drop=["Eve"], late=["Late"])

Every scene but `store` takes an earlier scene to carry on from, or the keywords of
`event_open` to build it from nothing. Nothing here mocks the ORM or writes a row a service
would not: the scenes are the services' own results, so a change to a service shows in them.
tests/test_scenes.py checks each scene's state, so a scene that stops building what it says
fails there first.

Players are named from NAMES: four players are Ann, Bob, Cy and Dee, eight are EIGHT; past
the names, "Player 09" and on. An event made here has a seed drawn at random (as
`tournament_create` draws one): tests must not lean on who is paired with whom.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from leagues.models import League, Organization
from tests.factories import LeagueFactory, OrganizationFactory, PlayerFactory, organizer_of
from tournaments.models import Entry, Round, Seat, Table, Tournament
from tournaments.services.entries import entry_drop, entry_register
from tournaments.services.events import tournament_create
from tournaments.services.registration import (
    check_in,
    check_in_close,
    check_in_open,
    registration_join,
    registration_settings_set,
)
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair
from tournaments.services.topcut import top_cut_start

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")
EIGHT = NAMES


def names(players: int | Iterable[str]) -> list[str]:
    """`players` names: a count (the first of NAMES, then "Player 09" on) or the names."""
    if isinstance(players, int):
        return [NAMES[n] if n < len(NAMES) else f"Player {n + 1:02}" for n in range(players)]
    return list(players)


@dataclass
class Store:
    """A store, its league (public), and the organizer who runs its events (or None)."""

    organization: Organization
    league: League
    organizer: object | None


@dataclass
class Scene:
    """An event at some state: its league, the event, its entries by player name (in the order
    they were entered), and the round last paired (None before round 1)."""

    league: League
    event: Tournament
    entries: dict[str, Entry] = field(default_factory=dict)
    round: Round | None = None

    def entry(self, name: str) -> Entry:
        return self.entries[name]

    def table(self, number: int, round_number: int | None = None) -> Table:
        """Table `number` of round `round_number` (by default the round last paired)."""
        if round_number is None:
            round_number = self.round.number
        return Table.objects.get(
            round__tournament=self.event, round__number=round_number, number=number
        )

    def seated(self, number: int, round_number: int | None = None) -> list[Entry]:
        """The entries at table `number` (of the round last paired), in seat order."""
        table = self.table(number, round_number)
        return [s.entry for s in table.seats.select_related("entry__player").order_by("position")]

    def refreshed(self) -> Scene:
        """The scene with its event and round read again (statuses the services changed)."""
        self.event.refresh_from_db()
        if self.round is not None:
            self.round.refresh_from_db()
        return self


def store(
    *, name: str | None = None, slug: str | None = None, organizer: str | None = "olive", **org
) -> Store:
    """A store (an Organization; `org`: its other fields, e.g. time_zone), one public league of
    it, and an organizer of it (a staff user named `organizer`; None for no organizer)."""
    fields = {k: v for k, v in (("name", name), ("slug", slug)) if v is not None}
    organization = OrganizationFactory(**fields, **org)
    league = LeagueFactory(organization=organization)
    user = organizer_of(organization, username=organizer) if organizer else None
    return Store(organization=organization, league=league, organizer=user)


def event_open(
    *,
    league: League | None = None,
    event: Tournament | None = None,
    players: int | Iterable[str] = 8,
    name: str = "Friday",
    format: str = "1v1",
    registration: dict | None = None,
    **options,
) -> Scene:
    """An event not started, `players` entered by the TO (`entry_register`, new players).

    The event is made by `tournament_create` in `league` (a new one by default) with `name`,
    `format` ("1v1" or "pods") and `options` (its other arguments: swiss_rounds, top_cut,
    round_minutes, ...), or is `event`, made by the caller (a factory's, for a fixed slug).
    `registration`: open online registration first, with these settings
    (`registration_settings_set`'s cap, deadline, note)."""
    if event is None:
        event = tournament_create(
            league=league or LeagueFactory(), name=name, format=format, **options
        )
    elif options or league is not None:
        raise TypeError("event_open: pass `event` or what to make it with, not both")
    if registration is not None:
        settings = {"cap": None, "deadline": None, "note": ""} | registration
        event = registration_settings_set(tournament=event, open=True, **settings)
    entries = {
        n: entry_register(tournament=event, name=n, create_player=True) for n in names(players)
    }
    return Scene(league=event.league, event=event, entries=entries)


def event_checked_in(
    *,
    players: int | Iterable[str] = 8,
    absent: Iterable[str] = (),
    cap: int | None = None,
    **build,
) -> Scene:
    """An event whose players registered online and checked in, the check-in closed: the
    players named in `absent` did not check in and are removed as no-shows; with a `cap`,
    those past it wait and the checked-in ones among them take the seats the no-shows freed.
    `build`: `event_open`'s keywords (no players are entered by the TO)."""
    scene = event_open(players=0, registration={"cap": cap}, **build)
    event = scene.event
    registrations = {}
    for n in names(players):
        player = PlayerFactory(organization=scene.league.organization, name=n)
        registrations[n] = registration_join(tournament=event, player=player)
    check_in_open(tournament=event)
    missing = set(absent)
    for n, registration in registrations.items():
        if n not in missing:
            check_in(registration=registration)
    check_in_close(tournament=event)
    entries = Entry.objects.filter(tournament=event).select_related("player").order_by("pk")
    scene.entries = {e.player.name: e for e in entries}
    scene.event.refresh_from_db()
    return scene


def round_paired(
    scene: Scene | None = None,
    *,
    drop: Iterable[str] = (),
    late: Iterable[str] = (),
    **build,
) -> Scene:
    """The next round paired and being played (round 1 of a new event by default).

    `drop`: players who leave before it is paired (`entry_drop`); `late`: players entered
    after it is paired, who play from the next round on. `build`: `event_open`'s keywords."""
    scene = scene or event_open(**build)
    for n in drop:
        scene.entries[n] = entry_drop(entry=scene.entries[n])
    scene.round = round_pair(tournament=scene.event)
    for n in names(list(late)):
        scene.entries[n] = entry_register(tournament=scene.event, name=n, create_player=True)
    return scene


def pods_round_in_play(scene: Scene | None = None, **build) -> Scene:
    """A pod event's round being played: round 1 of eight players (two pods of four) and
    three Swiss rounds by default. `build`: `round_paired`'s and `event_open`'s keywords."""
    if scene is None and "event" not in build:
        build = {"format": "pods", "swiss_rounds": 3} | build
    return round_paired(scene, **build)


def first_seat_wins(table: Table, seats: list[Seat]) -> Entry:
    return seats[0].entry


def tables_reported(round_: Round, decide: Callable = first_seat_wins) -> None:
    """A result at every table of `round_` still without one (a bye has one): `decide(table,
    seats)` names the winner (by default the player in the first seat)."""
    for table in round_.tables.filter(reported=False).order_by("number"):
        seats = list(table.seats.select_related("entry").order_by("position"))
        if len(seats) > 1:
            table_report(table=table, winner=decide(table, seats))


def round_reported(
    scene: Scene | None = None, *, decide: Callable = first_seat_wins, **build
) -> Scene:
    """A round with a result at every table, not yet ended: the round being played, or the
    next one paired (`round_paired`'s keywords in `build`)."""
    if scene is None or scene.round is None or scene.round.status == Round.Status.COMPLETE:
        scene = round_paired(scene, **build)
    tables_reported(scene.round, decide)
    return scene


def rounds_played(
    count: int, scene: Scene | None = None, *, decide: Callable = first_seat_wins, **build
) -> Scene:
    """`count` more rounds paired, reported (`decide`) and ended. `build`: `event_open`'s."""
    scene = scene or event_open(**build)
    for _ in range(count):
        scene = round_reported(scene, decide=decide)
        scene.round = round_end(round_=scene.round)
    return scene.refreshed()


def swiss_played(scene: Scene | None = None, *, decide=first_seat_wins, **build) -> Scene:
    """Every Swiss round played (the event's swiss_rounds; 3 for one made here unless told): an
    event without a top cut is finished, one with a cut waits for it to start."""
    if scene is None:
        scene = event_open(**(build if "event" in build else {"swiss_rounds": 3} | build))
    scene.event.refresh_from_db()
    left = scene.event.swiss_rounds - scene.event.rounds.filter(kind=Round.Kind.SWISS).count()
    return rounds_played(left, scene, decide=decide)


def top_cut_started(scene: Scene | None = None, *, decide=first_seat_wins, **build) -> Scene:
    """The Swiss rounds played and the top cut's first round paired (an event made here: a
    top 4 unless told)."""
    if scene is None and "event" not in build:
        build = {"top_cut": 4} | build
    scene = swiss_played(scene, decide=decide, **build)
    scene.round = top_cut_start(tournament=scene.event)
    return scene.refreshed()


def event_finished(scene: Scene | None = None, *, decide=first_seat_wins, **build) -> Scene:
    """The event played to its end: every Swiss round, then (with a top cut) every cut round,
    each table won by `decide`'s pick."""
    scene = swiss_played(scene, decide=decide, **build)
    if scene.event.top_cut and scene.event.status != Tournament.Status.FINISHED:
        if scene.event.status != Tournament.Status.TOP_CUT:
            scene.round = top_cut_start(tournament=scene.event)
        while scene.event.status != Tournament.Status.FINISHED:
            round_ = scene.event.rounds.exclude(status=Round.Status.COMPLETE).get()
            tables_reported(round_, decide)
            scene.round = round_end(round_=round_)
            scene.event.refresh_from_db()
    return scene.refreshed()
