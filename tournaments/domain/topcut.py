"""Top cut: single elimination of the best 2/4/8/16/32... players after the Swiss rounds.

`create_bracket(seeds, size)` takes the standings order (best first), keeps the top `size`
and pairs them in the standard bracket order (for 8: 1v8, 4v5, 2v7, 3v6), in which seeds 1
and 2 can only meet in the final, 1-4 and 2-3 only from the semifinals on, and so on: each
match's seeds sum to size + 1, and the better seed of every match meets the better seed of
the neighbouring one. `advance(bracket, winners)` records the current round's winners and
returns a new bracket holding the next round's matches, or the champion after the final.
Everything is an immutable value; mistakes raise `TopCutError` with a code.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.domain.records import PlayerId
from tournaments.domain.texts import N_, Refusal

Match = tuple[PlayerId, PlayerId]  # (better seed, worse seed)


class TopCutError(Refusal):
    """A bracket that cannot be built or advanced; `code` names the problem."""


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order: 2 -> [1, 2], 4 -> [1, 4, 2, 3], 8 -> [1, 8, 4, 5, 2, 7, 3, 6].

    Built by doubling: each seed s of the smaller bracket is followed by its opponent,
    (2 x current size + 1) - s, so every match sums to size + 1 and the top seeds stay apart.
    """
    _check_size(size)
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def _check_size(size: int) -> None:
    if size < 2 or size & (size - 1):
        raise TopCutError(
            "bad_size",
            N_("A top cut needs 2, 4, 8, 16, 32... players, not %(size)s."),
            {"size": size},
        )


def seed_bracket(seeds: Sequence[PlayerId], size: int) -> list[Match]:
    """The first round of a top `size` cut of `seeds` (standings order, best first)."""
    _check_size(size)
    if len(set(seeds)) != len(seeds):
        raise TopCutError("duplicate_seed", N_("A player is seeded twice."))
    if len(seeds) < size:
        raise TopCutError(
            "too_few_players",
            N_("A top %(size)s needs %(size)s players; there are %(players)s."),
            {"size": size, "players": len(seeds)},
        )
    order = bracket_order(size)
    return [(seeds[order[i] - 1], seeds[order[i + 1] - 1]) for i in range(0, size, 2)]


@dataclass(frozen=True, slots=True)
class Bracket:
    """A single-elimination bracket: its seeds, every round's matches and the winners so far.

    `rounds[i]` lists round i's matches top to bottom; `winners[i]` the winners of round i in
    the same order (present once round i is decided). The last round is the current one until
    its winners are in; after the final, `champion` is set.
    """

    seeds: tuple[PlayerId, ...]  # seeds[0] is seed 1; only the top `size` are kept
    rounds: tuple[tuple[Match, ...], ...]
    winners: tuple[tuple[PlayerId, ...], ...] = ()

    @property
    def size(self) -> int:
        return len(self.seeds)

    @property
    def current(self) -> tuple[Match, ...]:
        """The matches waiting for results (empty once there is a champion)."""
        return () if self.champion is not None else self.rounds[-1]

    @property
    def champion(self) -> PlayerId | None:
        if len(self.winners) == len(self.rounds) and len(self.rounds[-1]) == 1:
            return self.winners[-1][0]
        return None

    def seed(self, player: PlayerId) -> int:
        """A player's seed number (1 = best)."""
        return self.seeds.index(player) + 1

    def round_label(self, index: int) -> str:
        """The usual name of round `index`: "Final", "Semifinals", "Quarterfinals", "Top 16"."""
        players = self.size >> index
        named = {2: N_("Final"), 4: N_("Semifinals"), 8: N_("Quarterfinals")}
        return named.get(players, f"Top {players}")  # labels.round_label translates "Top 16"


def create_bracket(seeds: Sequence[PlayerId], size: int) -> Bracket:
    """A top `size` bracket of the best `size` of `seeds` (standings order), first round paired."""
    first = seed_bracket(seeds, size)
    return Bracket(seeds=tuple(seeds[:size]), rounds=(tuple(first),))


def advance(bracket: Bracket, winners: Iterable[PlayerId]) -> Bracket:
    """Record the current round's winners (one per match, any order) and pair the next round.

    Winners of neighbouring matches meet (match 1's against match 2's, 3's against 4's, ...),
    the better seed listed first. After the final the returned bracket has its champion.
    """
    if bracket.champion is not None:
        raise TopCutError("bracket_finished", N_("The final is already decided."))
    current = bracket.rounds[-1]
    given = list(winners)
    if len(set(given)) != len(given):
        raise TopCutError("duplicate_winner", N_("A winner is given twice."))
    decided: list[PlayerId] = []
    for high, low in current:
        found = [p for p in (high, low) if p in given]
        if not found:
            raise TopCutError(
                "missing_result",
                N_("No winner given for %(high)s v %(low)s."),
                {"high": high, "low": low},
            )
        if len(found) == 2:
            raise TopCutError(
                "two_winners",
                N_("Both %(high)s and %(low)s are given as winners."),
                {"high": high, "low": low},
            )
        decided.append(found[0])
    if len(decided) != len(given):
        stray = next(p for p in given if p not in decided)
        raise TopCutError(
            "not_in_round", N_("Player %(player)s has no match in this round."), {"player": stray}
        )
    bracket_winners = (*bracket.winners, tuple(decided))
    if len(decided) == 1:
        return Bracket(bracket.seeds, bracket.rounds, bracket_winners)
    following = tuple(
        tuple(sorted((decided[i], decided[i + 1]), key=bracket.seed))
        for i in range(0, len(decided), 2)
    )
    return Bracket(bracket.seeds, (*bracket.rounds, following), bracket_winners)
