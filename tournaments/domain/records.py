"""What a tournament's history looks like to the pure code: tables, results, points.

Everything here is a plain immutable value. The database side (tournaments.models) turns its
rows into these; pairing, standings and the simulator read only these.
"""

from dataclasses import dataclass

PlayerId = int


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a completed round: a 1v1 match, a pod, or a bye (a table of one player).

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

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    def outcome(self, player: PlayerId) -> str:
        """ "win", "draw" or "loss" for a player at this table ("win" for a bye)."""
        if self.winner is None:
            return "draw"
        return "win" if self.winner == player else "loss"


Round = tuple[Table, ...]


@dataclass(frozen=True, slots=True)
class PointsScheme:
    """Match points. Presets: Magic 3/1/0 (bye 3), chess 1/½/0 (bye 1), cEDH pods 5/1/0 (bye 5)."""

    win: float = 3.0
    draw: float = 1.0
    loss: float = 0.0
    bye: float = 3.0

    def points(self, table: Table, player: PlayerId) -> float:
        if table.is_bye:
            return self.bye
        return {"win": self.win, "draw": self.draw, "loss": self.loss}[table.outcome(player)]


MAGIC = PointsScheme(3, 1, 0, 3)
CHESS = PointsScheme(1, 0.5, 0, 1)
CEDH_PODS = PointsScheme(5, 1, 0, 5)
