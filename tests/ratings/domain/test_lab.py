"""The rating lab: scoring by hand, and the figures of shared/bench-data/RESULTS.md."""

import math
from collections import Counter
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from ratings.domain.base import Finish, RatingState
from ratings.domain.elo import Elo
from ratings.domain.lab import evaluate, read_bench_csv
from ratings.domain.openskill_system import OpenSkill

BENCH = Path("/work/shared/bench-data")


def game(*order):
    """A game from (player, place) pairs or, for a strict order, player names."""
    return [
        Finish(p[0], p[1]) if isinstance(p, tuple) else Finish(p, i + 1)
        for i, p in enumerate(order)
    ]


def test_scoring_by_hand():
    games = [
        game("a", "b"),  # 1000 vs 1000: 2 favourites, winner one of them: 1/2; P = 1/2
        game("b", "a"),  # a 1020 > b 980: favourite lost: 0; P(b) = 1/(1+10^(40/800)) = 0.471249
        game(("a", 1), ("b", 1), ("c", 1)),  # three-way draw: not scored, but rated
    ]
    elo, baseline = evaluate(games, [Elo(initial=1000)])
    assert elo.system == "elo" and elo.params["initial"] == 1000
    assert elo.scored == 2
    # top-1: (1/2 + 0) / 2 = 0.25
    assert elo.top1 == pytest.approx(0.25)
    # log-loss: (ln 2 + -ln 0.471249) / 2 = (0.693147 + 0.752368) / 2 = 0.722758
    assert elo.log_loss == pytest.approx(0.722758, abs=1e-5)
    assert elo.warm_scored == 0 and elo.warm_top1 is None
    # random: 1/2 and ln 2 for both duels
    assert baseline.is_baseline and baseline.system == "random"
    assert baseline.scored == 2
    assert baseline.top1 == pytest.approx(0.5)
    assert baseline.log_loss == pytest.approx(math.log(2))


def test_tie_break_credit_is_exact():
    # four new players: all favourites, the winner is one of them: 1/4
    (elo, baseline) = evaluate([game("a", "b", "c", "d")], [Elo()])
    assert elo.top1 == pytest.approx(0.25)
    assert elo.log_loss == pytest.approx(math.log(4))
    assert baseline.top1 == pytest.approx(0.25)


def test_warm_games_need_five_earlier_games_each():
    # a beats b six times: game 1 credit 1/2 (cold tie), then a is the favourite: 1 each.
    # Only game 6 is warm (both have 5 earlier games).
    (elo, baseline) = evaluate([game("a", "b")] * 6, [Elo()])
    assert elo.top1 == pytest.approx((0.5 + 5) / 6)
    assert elo.warm_scored == 1 and elo.warm_top1 == 1.0
    assert baseline.warm_scored == 1 and baseline.warm_top1 == 0.5


def test_no_scored_games():
    (elo, baseline) = evaluate([game(("a", 1), ("b", 1))], [Elo()])
    assert elo.scored == 0 and elo.top1 is None and elo.log_loss is None
    assert baseline.top1 is None


def test_probability_is_clipped():
    class Certain(Elo):
        """Says the last player listed surely wins (in a strict order: the loser)."""

        def win_probabilities(self, states):
            return [0.0] * (len(states) - 1) + [1.0]

    (result, _) = evaluate([game("b", "a")], [Certain()])
    assert result.log_loss == pytest.approx(-math.log(1e-15))


def test_systems_replay_independently_and_in_order():
    games = [game("a", "b"), game("b", "c")]
    results = evaluate(games, [Elo(), OpenSkill(), Elo(k=10)])
    assert [r.system for r in results] == ["elo", "openskill", "elo", "random"]
    # the same system twice gives the same figures as once
    assert evaluate(games, [Elo()])[0] == results[0]


def test_read_bench_csv(tmp_path):
    path = tmp_path / "games.csv"
    path.write_text(
        "game_id,date,player,placement\n"
        "g1,2024-01-01,ann,1\n"
        "g1,2024-01-01,bob,2\n"
        "g2,2024-01-02,bob,1\n"
        "g2,2024-01-02,cy,1\n"
        "g1,2024-01-03,ann,2\n"  # an id seen before, but not consecutive: a new game
        "g1,2024-01-03,cy,1\n"
    )
    assert read_bench_csv(path) == [
        [Finish("ann", 1), Finish("bob", 2)],
        [Finish("bob", 1), Finish("cy", 1)],
        [Finish("ann", 2), Finish("cy", 1)],
    ]


# --- RESULTS.md -------------------------------------------------------------------------------


class StudySeats:
    """A system as the study's scripts applied it to a game that lists one player twice.

    Six 18xx-tournaments games repeat a player (e.g. 2008-01-19-04-03 has mike-coyne 2nd and
    5th). Our systems reject that, as the database does; the study rated every row as a seat,
    and the lab predicted per seat (which `evaluate` already does). Rating such a game:

    - Elo: each seat starts from the player's rating; the deltas of all the player's seats are
      summed (the seat-against-own-seat pair cancels out).
    - OpenSkill: the study passed the player's one rating object in both seats, so the library
      (which deep-copies the teams, keeping the aliasing) applied tau and both seats' updates to
      that one object; reproduced here by calling the library the same way.

    Every game without a repeated player goes straight to the system under test.
    """

    def __init__(self, system):
        self.system = system
        self.name, self.label = system.name, system.label

    def __getattr__(self, attr):
        return getattr(self.system, attr)

    def rate(self, before, finish):
        if max(Counter(f.player for f in finish).values()) == 1:
            return self.system.rate(before, finish)
        if isinstance(self.system, OpenSkill):
            p = self.system.params()
            model = PlackettLuce(mu=p["mu"], sigma=p["sigma"], beta=p["beta"], tau=p["tau"])
            shared = {
                f.player: model.rating(mu=before[f.player].rating, sigma=before[f.player].deviation)
                for f in finish
            }
            teams = model.rate(
                [[shared[f.player]] for f in finish], ranks=[f.place for f in finish]
            )
            return {
                f.player: RatingState(team[0].mu, team[0].sigma)
                for f, team in zip(finish, teams, strict=True)
            }
        seats = [Finish((f.player, i), f.place) for i, f in enumerate(finish)]
        seat_after = self.system.rate({s.player: before[s.player[0]] for s in seats}, seats)
        after = dict(before)
        for (player, _), state in seat_after.items():
            after[player] = RatingState(after[player].rating + state.rating - before[player].rating)
        return after


def test_bench_file_repeats_players_in_six_games():
    games = read_bench_csv(BENCH / "18xx-tournaments/18xx-tournaments.csv")
    repeated = [g for g in games if len({f.player for f in g}) < len(g)]
    assert len(repeated) == 6
    with pytest.raises(ValueError, match="twice"):
        evaluate(games, [Elo()])


ELO_GM = {"initial": 1000, "k": 40, "d": 800}

# RESULTS.md: (top-1 E[tie-break], log-loss, warm top-1, warm n) per dataset and row:
# "Elo pairwise K=40 D=800 (Guildmaster)", "Elo K=40 D=800, tied losers not paired",
# "OpenSkill PlackettLuce" (log-loss: the predict_win figure), "Elo pairwise K=32 D=400",
# and the random guess (no warm top-1 printed).
EXPECTED = {
    "cedh-topdeck": {
        "elo": (0.285, 1.377, 0.389, 36),
        "elo-skip": (0.289, 1.377, 0.417, 36),
        "openskill": (0.286, 1.376, 0.389, 36),
        "elo-32-400": (0.285, 1.377, 0.389, 36),
        "random": (0.251, 1.384, None, 36),
    },
    "18xx-tournaments": {
        "elo": (0.417, 1.283, 0.505, 103),
        "elo-skip": (0.417, 1.283, 0.505, 103),
        "openskill": (0.427, 1.294, 0.515, 103),
        "elo-32-400": (0.403, 1.273, 0.476, 103),
        "random": (0.243, 1.431, None, 103),
    },
    "boardgames-friends": {
        "elo": (0.331, 1.216, 0.328, 137),
        "elo-skip": (0.331, 1.217, 0.328, 137),
        "openskill": (0.336, 1.239, 0.358, 137),
        "elo-32-400": (0.315, 1.234, 0.314, 137),
        "random": (0.299, 1.229, None, 137),
    },
}
SCORED = {"cedh-topdeck": 281, "18xx-tournaments": 420, "boardgames-friends": 193}


def close(value, printed):
    """Equal to `printed` to the 3 decimals RESULTS.md prints."""
    return abs(value - printed) <= 0.0005 + 1e-12


@pytest.mark.parametrize("dataset", list(EXPECTED))
def test_results_md_figures(dataset):
    games = read_bench_csv(BENCH / dataset / f"{dataset}.csv")
    systems = [
        Elo(ELO_GM),
        Elo(ELO_GM, tied_below_first="skip"),
        OpenSkill(),
        Elo(initial=1000, k=32, d=400),
    ]
    results = evaluate(games, [StudySeats(s) for s in systems])
    rows = ["elo", "elo-skip", "openskill", "elo-32-400", "random"]
    got = dict(zip(rows, results, strict=True))
    for row, (top1, log_loss, warm, warm_n) in EXPECTED[dataset].items():
        r = got[row]
        assert r.scored == SCORED[dataset], row
        assert close(r.top1, top1), (row, r.top1)
        assert close(r.log_loss, log_loss), (row, r.log_loss)
        assert r.warm_scored == warm_n, row
        if warm is not None:
            assert close(r.warm_top1, warm), (row, r.warm_top1)


@pytest.mark.slow
def test_results_md_football_elo():
    # 49,520 duels, ~1 s: Elo K 40 D 800 init 1000 and the random guess
    games = read_bench_csv(BENCH / "football-international/football-international.csv")
    elo, baseline = evaluate(games, [Elo(ELO_GM)])
    assert elo.scored == 38262
    assert close(elo.top1, 0.718) and close(elo.log_loss, 0.558)
    assert elo.warm_scored == 37120 and close(elo.warm_top1, 0.723)
    assert close(baseline.top1, 0.500) and close(baseline.log_loss, 0.693)
