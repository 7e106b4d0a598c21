"""Commander / cEDH pods of 3-5: pods in seat order, a result as a winner, a draw or the full
finishing order, pairing edits by swapping seats, and a top cut of pods.

Pairs with `domain.pods`, warns of repeats from `domain.history`, cuts with `domain.podcut`.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from core.translate import names_text
from leagues.domain.ranking import is_valid_ranking

from ..actions import Action
from ..domain import podcut
from ..domain.labels import place_label
from ..domain.pods import FEWEST_PLAYERS, PodPairingError, pair_pods, seating_warnings
from ..domain.result import Result
from ..domain.standings import POD_OMW_FLOOR
from ..errors import TournamentError, domain_message
from .base import EditPlan, Format, PenaltyLoss, SlipBoxes, small_int


class Pods(Format):
    """Commander / cEDH pods of 3-5 in seat order (`domain.pods`), a result as a winner, a
    draw or a full finishing order, and a cut of pods (`domain.podcut`)."""

    key = "pods"
    noun, nouns = "pod", "pods"
    noun_text = pgettext_lazy("a pod (a multiplayer table) of an event", "pod")
    noun_title = pgettext_lazy("a pod (a multiplayer table) of an event", "Pod")
    template = "tournaments/formats/pod.html"
    bracket_class, stage_class = " pods", " pod-stage"
    page_class = " pod"
    fewest_players = FEWEST_PLAYERS
    short_name = "cEDH"
    finder_columns = 4  # player, pod, seat, with
    commander_decks = True
    has_order_form = True
    penalty_loses_game = True
    # A pod win must be worth more than a four-way draw (4 x 1): with 3/1/0 drawing out is
    # the better deal, so cEDH events score 5/1/0.
    default_points = "cedh"
    # Par at a pod of four, for match-win and game-win percentages alike (a pod is one game).
    default_mw_floor = default_gw_floor = POD_OMW_FLOOR
    top_cuts = (0, 4, 16)  # one final pod of 4, or four semi-final pods and a final pod
    top_cut_problem = gettext_lazy(
        "A pod event cuts to the top 4 (one final pod) or the top 16 (four semi-final "
        "pods, then a final pod)."
    )
    edits = [
        # between pods, inside a pod, or with a bye
        ("swap", gettext_lazy("Swap their seats"), True),
        ("bye", gettext_lazy("Give the bye (leaves a pod of 4 or 5)"), False),
    ]
    # Translators: a sentence after another under the pairing edit forms (keep the space).
    edit_help = gettext_lazy(
        " A swap puts each player in the other's seat; the bye takes a player out of a pod of "
        "4 or 5."
    )
    report_actions = {
        (False, False): Action.POD_REPORT,
        (True, False): Action.POD_CORRECT,
        (True, True): Action.POD_UNDO,
    }
    shows_seats = True
    suggests_cut = True
    bracket_errors = (podcut.PodCutError,)

    def tiebreaker_preset(self, points: str) -> str:
        return "pods"

    def standing_preset(self) -> str:
        return "pods"

    def suggested_structure(self, players):
        """`podcut.suggested_structure` (the cut: 0, 4 or 16)."""
        try:
            return podcut.suggested_structure(players)
        except podcut.PodCutError:  # fewer than 3 players: no pod yet
            return super().suggested_structure(players)

    def pair(self, tournament, **kwargs):
        """Strongest pod first, each in seat order, then the byes as tables of one. (The pod
        pairer's warnings name no player: `name` is for `seating_warnings`' own.)"""
        kwargs.pop("name", None)
        try:
            pairing = pair_pods(
                **kwargs,
                layout=tournament.pod_layout,
                win_points=float(tournament.points_win),
                draw_points=float(tournament.points_draw),
            )
        except PodPairingError as error:
            raise TournamentError(domain_message(error), code=error.code) from None
        return [*pairing.pods, *((b,) for b in pairing.byes)], list(pairing.warnings)

    def seating_warnings(self, past, seatings, entries):
        """A warning for each pod that seats players who met before and for each player
        given a second bye (domain.pods.seating_warnings)."""
        return seating_warnings(past, seatings, lambda p: str(entries[p].player))

    def read_result(self, data, players):
        """A pod card's tap: a winner's name, Draw, or the full order (a place per seat)."""
        if "winner" in data:
            winner = small_int(str(data["winner"]))
            if winner is None or winner not in {e for e, _ in players}:
                raise TournamentError(
                    _("Tap the name of a player at this pod."), code="bad_result", field="winner"
                )
            return Result(winner=winner)
        code = data.get("result", "")
        if code == "draw":
            return Result(draw=True)
        if code == "order":
            places = {}
            for entry_id, name in players:
                place = small_int(str(data.get(f"place-{entry_id}", "")))
                if place is None or not 1 <= place <= len(players):
                    raise TournamentError(
                        _("Choose a place for %(name)s (1 to %(last)s).")
                        % {"name": name, "last": len(players)},
                        code="bad_result",
                        field="places",
                    )
                places[entry_id] = place
            return Result(places=places)
        raise TournamentError(
            _("Tap the winner's name, Draw, or save the full order."),
            code="bad_result",
            field="result",
        )

    def penalty_loss(self, loss, *, player, opponents, games):
        """A Swiss pod round is one game: a Game Loss, a Match Loss and a Disqualification
        all take the player out of it (they finish last)."""
        return PenaltyLoss(out=True) if loss and opponents else None

    def slip(self, players):
        """A place per player (1st to the pod's size), or the pod's draw."""
        return SlipBoxes(
            columns=tuple(place_label(n, _) for n in range(1, players + 1)),
            tick=True,
            boxes=((_("Draw: everyone shares first"), True),),
            how=_(
                "Tick each player's place (shared places: 1st, 2nd, 2nd, 4th), or tick Draw. "
                "Only the winner known: tick their 1st alone."
            ),
        )

    def check_result(self, entries, result, *, top_cut, lost=frozenset()):
        """A pod's winner (None: a draw) and every seat's place.

        A winner alone: the others share second. A draw: everyone shares first. A full order:
        a place per seat forming a competition ranking (1, 2, 2, 4); its single first place is
        the winner, a shared first place a draw. A winner or draw given with it must agree.

        `lost`: players who lost the pod's game by a judge's penalty (a Game Loss or a Match
        Loss: a Swiss pod round is one game). They finish last, as a TO would place them: a
        winner alone or a draw is among the others, and the penalized share the last place; a
        full order must already place them after everyone else, and none of them can win.
        """
        winner_id, finish = self._places(entries, result)
        if result.game_wins or result.game_draws:
            raise TournamentError(
                _("A pod has no game wins: give the winner, a draw or the places."),
                code="game_wins",
                field="game_wins",
            )
        return self._lost_last(entries, result, winner_id, finish, lost & set(entries))

    def _lost_last(self, entries, result, winner_id, finish, lost):
        if not lost:
            return winner_id, finish
        names = names_text(str(entries[e].entry.player) for e in sorted(lost))
        if winner_id in lost:
            raise TournamentError(
                _("%(player)s lost this pod's game by a judge's penalty: they cannot win it.")
                % {"player": entries[winner_id].entry.player},
                code="penalty_loss",
                field="places" if result.place_of else "winner",
            )
        playing = [e for e in entries if e not in lost]
        if result.place_of:
            if any(finish[out] <= finish[e] for out in lost for e in playing):
                raise TournamentError(
                    _(
                        "%(players)s lost this pod's game by a judge's penalty: place them "
                        "after everyone else."
                    )
                    % {"players": names},
                    code="penalty_loss",
                    field="places",
                )
            return winner_id, finish
        if winner_id is None and len(playing) == 1:
            winner_id = playing[0]  # a draw among one player is their win
        places = {e: 1 if winner_id is None or e == winner_id else 2 for e in playing}
        places.update(dict.fromkeys(lost, len(playing) + 1))
        return winner_id, places

    def _places(self, entries, result):
        winner, draw, given = result.winner, result.draw, result.place_of
        if not given:
            if draw == (winner is not None):
                raise TournamentError(
                    _("Tap the winner, or Draw, or give every place."),
                    code="no_result",
                    field="winner",
                )
            if draw:
                return None, dict.fromkeys(entries, 1)
            return winner, {e: 1 if e == winner else 2 for e in entries}
        if set(given) != set(entries):
            raise TournamentError(
                _("Give every player at the pod a place."), code="places", field="places"
            )
        values = list(given.values())
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in values) or not (
            is_valid_ranking(values)
        ):
            raise TournamentError(
                _(
                    "The places must be a finishing order: 1, 2, 3, 4, with shared places as "
                    "1, 2, 2, 4."
                ),
                code="places",
                field="places",
            )
        first = [e for e, p in given.items() if p == 1]
        winner_id = first[0] if len(first) == 1 else None
        if draw and winner_id is not None:
            raise TournamentError(
                _("A draw needs a shared first place."), code="places", field="places"
            )
        if winner is not None and winner != winner_id:
            raise TournamentError(
                _("%(player)s must be the only player in first place.")
                % {"player": entries[winner].entry.player},
                code="places",
                field="winner",
            )
        return winner_id, given

    def same_result(self, table, seats, result, *, winner_id, finish):
        """A winner or a draw that agrees with the stored result is the same, keeping its
        full order; a full order must match seat by seat."""
        same = table.reported and table.winner_id == winner_id and table.is_draw == (not winner_id)
        if result.places:
            same = same and all(seats[e].place == finish[e] for e in seats)
        return same

    def undo_result(self, before, seats):
        return Result(places={line["entry_id"]: line["place"] for line in before["seats"]})

    def check_edit(self, edit):
        if edit == "pair":
            raise TournamentError(
                _(
                    "Pairing two players by hand is for 1v1 matches: swap players between pods "
                    "instead."
                ),
                code="format",
            )

    def plan_edit(self, *, tables, before, edit, a, b, number, entries, read_past, read_points):
        """A swap exchanges two players' seats (between pods, within a pod, or with a bye);
        the bye takes a player out of a pod of four or five. The changed pods keep their
        numbers and a new bye comes last. Warned of: each changed pod that seats players
        who met before and each player given a second bye."""
        after = {pk: list(players) for pk, players in before.items()}
        where = {p: pk for pk, players in before.items() for p in players}
        byes: list[tuple[int, ...]] = []
        if edit == "swap":
            at_a, at_b = where[a.player_id], where[b.player_id]
            i, j = after[at_a].index(a.player_id), after[at_b].index(b.player_id)
            after[at_a][i], after[at_b][j] = b.player_id, a.player_id
        else:
            table = next(t for t in tables if t.pk == where[a.player_id])
            size = len(before[table.pk])
            if size == 1:
                raise TournamentError(
                    _("%(player)s already has the bye.") % {"player": a.player}, code="has_bye"
                )
            if size <= 3:
                raise TournamentError(
                    _(
                        "Pod %(number)s would be left with %(count)s players: swap %(player)s "
                        "with a player who has a bye instead."
                    )
                    % {"number": table.number, "count": size - 1, "player": a.player},
                    code="pod_too_small",
                )
            after[table.pk].remove(a.player_id)
            byes.append((a.player_id,))
        changed = [t for t in tables if tuple(after[t.pk]) != before[t.pk]]
        self._check_unreported(changed, before)
        top = max((t.number for t in tables), default=0)
        seatings = [(t.number, tuple(after[t.pk])) for t in changed]
        seatings += [(top + n, bye) for n, bye in enumerate(byes, 1)]
        warnings = self.seating_warnings(read_past(number), seatings, entries)
        return EditPlan([t.pk for t in changed], seatings, warnings)

    def bracket_create(self, seeds, size):
        return podcut.create_pod_bracket(seeds, size)

    def bracket_advance(self, bracket, winners):
        """Each pod's winner goes on; None (a draw) advances the pod's best seed."""
        return podcut.advance_pods(bracket, winners)

    def bracket_label(self, bracket, index):
        """ "Semi-finals" and "Final"."""
        return bracket.stage_label(index)

    def bracket_stages(self, top_cut):
        # pods per stage: four semi-final pods, then the final pod
        return [4, 1] if top_cut == 16 else [1]

    def cut_seating(self, tables, *, rule, draw):
        """Each cut pod seated by the event's rule (podcut.seat_order): by seed, by seed until
        the seeds' choices are recorded, or drawn at random (`draw` and the pod's number)."""
        return [
            podcut.seat_order(pod, rule, draw=f"{draw} pod {number}")
            for number, pod in enumerate(tables, 1)
        ]
