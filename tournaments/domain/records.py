"""What a tournament's history looks like to the pure code: tables, results, points.

Everything here is a plain immutable value. The database side (tournaments.models) turns its
rows into these; pairing, standings and the simulator read only these.
"""

from dataclasses import dataclass

PlayerId = int


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a completed round: a 1v1 match, a pod, or a bye (a table of one player).

    A bye is the pairer's (a pairing-allocated bye: the round's odd player out, scoring
    `PointsScheme.bye`) unless `requested`: a requested ("half-point") bye, a round the player
    asked to sit out before it was paired (common in chess opens), scoring
    `PointsScheme.requested_bye`. FIDE C.04.1 keeps them apart: a requested bye does not count
    as the pairing-allocated bye a player may get only once, and FIDE C.07 (2023) counts it as a
    voluntarily unplayed round. Only a table of one may be `requested`.

    `players` is the seat order. `winner` is the winning player, or None when the table was a
    draw (everyone at it drew). A bye's `winner` is its one player. For best-of-three 1v1
    matches `game_wins` gives each seat's games won, in seat order (e.g. (2, 1)); `game_draws`
    counts drawn games. `finish`, when known, is every player's place at the table (1 = winner,
    equal places are ties), in seat order.
    """

    players: tuple[PlayerId, ...]
    winner: PlayerId | None
    game_wins: tuple[int, ...] | None = None
    game_draws: int = 0
    finish: tuple[int, ...] | None = None
    requested: bool = False

    def __post_init__(self):
        if self.requested and len(self.players) != 1:
            raise ValueError("only a bye (a table of one) can be a requested bye")

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    @property
    def is_allocated_bye(self) -> bool:
        """A bye the pairer gave (the odd player out), not one the player asked for."""
        return len(self.players) == 1 and not self.requested

    def outcome(self, player: PlayerId) -> str:
        """ "win", "draw" or "loss" for a player at this table ("win" for a bye)."""
        if self.winner is None:
            return "draw"
        return "win" if self.winner == player else "loss"


Round = tuple[Table, ...]


@dataclass(frozen=True, slots=True)
class PointsScheme:
    """Match points. Presets: Magic 3/1/0 (bye 3), chess 1/½/0 (bye 1), cEDH pods 5/1/0 (bye 5).

    `requested_bye` is what a requested bye scores; None (the presets) means a draw's points:
    the "half-point bye" of chess opens (½ of a 1-point win), 1 point in Magic, 1 at a pod.
    """

    win: float = 3.0
    draw: float = 1.0
    loss: float = 0.0
    bye: float = 3.0
    requested_bye: float | None = None

    @property
    def requested_bye_points(self) -> float:
        return self.draw if self.requested_bye is None else self.requested_bye

    def points(self, table: Table, player: PlayerId) -> float:
        if table.is_bye:
            return self.requested_bye_points if table.requested else self.bye
        return {"win": self.win, "draw": self.draw, "loss": self.loss}[table.outcome(player)]


MAGIC = PointsScheme(3, 1, 0, 3)
CHESS = PointsScheme(1, 0.5, 0, 1)
CEDH_PODS = PointsScheme(5, 1, 0, 5)
