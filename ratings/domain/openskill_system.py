"""`openskill`: Weng-Lin Bayesian rating with the Plackett-Luce model (PyPI `openskill`).

Each player has a skill estimate mu and its uncertainty sigma (stored as RatingState.rating and
.deviation). A game is rated by the library's `PlackettLuce.rate` with one-player teams and the
places as ranks, so pods of any size and ties are handled natively (Weng & Lin 2011, JMLR 12,
Algorithm 4). The game is canonicalised first, so the result never depends on input order.
The leaderboard shows the conservative estimate mu - 3 sigma; the favourite is the highest mu;
win probabilities are the library's `predict_win`. Players with fewer than `provisional_games`
games are provisional.
"""

from collections.abc import Hashable, Mapping, Sequence

from openskill.models import PlackettLuce

from core.translate import gettext as _
from core.translate import translated
from ratings.domain.base import N_, Finish, Param, ParamError, ParamSystem, RatingState, canonical

MAX_MU_PER_BETA = 300


class OpenSkill(ParamSystem):
    name = "openskill"
    label = translated(N_("OpenSkill (Plackett-Luce)"))
    integer = False
    PARAMS = (
        Param(
            "mu",
            "float",
            25.0,
            N_("Starting skill (mu)"),
            N_("The skill estimate of a new player."),
            min=-100_000,
            max=100_000,
        ),
        Param(
            "sigma",
            "float",
            25.0 / 3.0,
            N_("Starting uncertainty (sigma)"),
            N_("How unsure the estimate of a new player is; shrinks as they play."),
            min=0,
            max=100_000,
            min_exclusive=True,
        ),
        Param(
            "beta",
            "float",
            25.0 / 6.0,
            N_("Performance spread (beta)"),
            N_("How much one game's performance varies around a player's skill."),
            min=0,
            max=100_000,
            min_exclusive=True,
        ),
        Param(
            "tau",
            "float",
            25.0 / 300.0,
            N_("Skill drift (tau)"),
            N_("Uncertainty added before every game so ratings keep moving."),
            min=0,
            max=100_000,
        ),
        Param(
            "provisional_games",
            "int",
            5,
            N_("Games before a rating counts"),
            N_("Players with fewer games are marked provisional on the leaderboard."),
            min=0,
            max=1000,
        ),
    )

    def _check(self, cleaned: dict) -> dict:
        # The model computes exp(mu / c) with c >= beta * sqrt(2): keep it inside a double.
        if abs(cleaned["mu"]) > MAX_MU_PER_BETA * cleaned["beta"]:
            raise ParamError(
                field="mu",
                message=_("must be within %(times)s times beta of 0 (beta is %(beta)s)")
                % {"times": MAX_MU_PER_BETA, "beta": f"{cleaned['beta']:g}"},
            )
        return cleaned

    def __init__(self, params: Mapping | None = None, /, **kwargs):
        super().__init__(params, **kwargs)
        p = self._p
        model = PlackettLuce(mu=p["mu"], sigma=p["sigma"], beta=p["beta"], tau=p["tau"])
        object.__setattr__(self, "_model", model)

    def initial(self) -> RatingState:
        return RatingState(rating=float(self._p["mu"]), deviation=float(self._p["sigma"]))

    def _team(self, state: RatingState) -> list:
        sigma = self._p["sigma"] if state.deviation is None else state.deviation
        return [self._model.rating(mu=state.rating, sigma=sigma)]

    def rate(
        self, before: Mapping[Hashable, RatingState], finish: Sequence[Finish]
    ) -> dict[Hashable, RatingState]:
        game = canonical(finish)
        states = [before.get(f.player, self.initial()) for f in game]
        if len(game) < 2:  # nobody to compare with: nothing learnt
            return {f.player: s for f, s in zip(game, states, strict=True)}
        teams = self._model.rate(
            [self._team(s) for s in states],
            ranks=[float(f.place) for f in game],
        )
        return {
            f.player: RatingState(rating=team[0].mu, deviation=team[0].sigma)
            for f, team in zip(game, teams, strict=True)
        }

    def display(self, state: RatingState) -> float:
        sigma = self._p["sigma"] if state.deviation is None else state.deviation
        return state.rating - 3.0 * sigma

    def strength(self, state: RatingState) -> float:
        return state.rating

    def win_probabilities(self, states: Sequence[RatingState]) -> list[float]:
        if len(states) < 2:
            return [1.0] * len(states)
        return self._model.predict_win([self._team(s) for s in states])

    def is_provisional(self, games: int) -> bool:
        return games < self._p["provisional_games"]
