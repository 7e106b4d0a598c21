"""The event's history and standings as the pure code sees them: every reported table as domain
values (`history`), the points scheme, the tiebreakers and the match-win and game-win floors,
the players' league ratings, the standings (`domain.standings.compute_standings`), and the
Swiss rounds and cut suggested for a field.
"""

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Subquery
from django.db.models.functions import Coalesce

from ratings.models import Rating

from ..domain import byerules, records
from ..domain.standings import PRESETS, compute_standings
from ..formats import format_for
from ..models import Entry, RequestedBye, Round, Seat, Tournament


def points_scheme(tournament: Tournament) -> records.PointsScheme:
    return records.PointsScheme(
        win=float(tournament.points_win),
        draw=float(tournament.points_draw),
        loss=float(tournament.points_loss),
        bye=float(tournament.points_bye),
    )


def history(
    tournament: Tournament, *, kind: str = Round.Kind.SWISS, before=None
) -> list[records.Round]:
    """Every reported table of the event's rounds (of one kind, numbered below `before` if
    given: a number, or an expression such as a subquery), as domain values, in order."""
    seats = Seat.objects.filter(
        round__tournament=tournament, round__kind=kind, table__reported=True
    )
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    seats = (
        seats.select_related("table")
        .order_by("round__number", "table__number", "position")
        .values_list(
            "round__number",
            "table_id",
            "entry__player_id",
            "game_wins",
            "place",
            "table__is_draw",
            "table__winner__player_id",
            "table__game_draws",
            "table__requested_bye",
        )
    )
    rounds: dict[int, dict[int, list]] = {}
    for number, table_id, player, game_wins, place, is_draw, winner, draws, requested in seats:
        tables = rounds.setdefault(number, {})
        tables.setdefault(table_id, [None if is_draw else winner, draws, [], requested])[2].append(
            (player, game_wins, place)
        )
    result = []
    for number in sorted(rounds):
        tables = []
        for winner, draws, seated, requested in rounds[number].values():
            game_wins = tuple(g for _, g, _ in seated)
            places = tuple(p for _, _, p in seated)
            tables.append(
                records.Table(
                    players=tuple(p for p, _, _ in seated),
                    winner=winner,
                    game_wins=game_wins if all(g is not None for g in game_wins) else None,
                    game_draws=draws,
                    finish=places if all(p is not None for p in places) else None,
                    requested=requested and len(seated) == 1,
                )
            )
        result.append(tuple(tables))
    return result


@dataclass(frozen=True)
class Standing:
    rows: list
    ranking: list[int]  # player ids, best first
    points: dict[int, float]


def omw_floor(tournament: Tournament) -> Fraction:
    """The lowest match-win % a player counts with (OMW% averages them): the event's own,
    else 0.33 (MTR Appendix C) for 1v1 and 1/4 (par at a pod of four) for pods."""
    if tournament.omw_floor is not None:
        return Fraction(tournament.omw_floor)
    return format_for(tournament).default_mw_floor


def gw_floor(tournament: Tournament) -> Fraction:
    """The lowest game-win % a player counts with (GW%, OGW%): the event's own, else 0.33
    (MTR Appendix C) for 1v1 and 1/4 for pods."""
    if tournament.gw_floor is not None:
        return Fraction(tournament.gw_floor)
    return format_for(tournament).default_gw_floor


def tiebreakers(tournament: Tournament) -> list[str]:
    """The event's precedence of metrics; none chosen: the preset of its format."""
    return list(tournament.tiebreakers or PRESETS[format_for(tournament).standing_preset()])


FIDE_SUMS = {"buchholz", "buchholz_cut1", "median_buchholz", "sonneborn_berger"}


def bye_rule(tournament: Tournament, precedence: list[str] | None = None) -> str:
    """How a bye counts in the event's opponent tiebreakers (domain.byerules): the event's
    choice, else the default of its preset: pods MTRA 3.1's phantoms, a precedence with a
    Buchholz or Sonneborn-Berger (the chess preset) FIDE C.07 2023, otherwise none (MTR)."""
    if tournament.bye_rule:
        return tournament.bye_rule
    precedence = tiebreakers(tournament) if precedence is None else precedence
    play = format_for(tournament)
    if play.standing_preset() == "pods":
        return byerules.PRESET_DEFAULTS["pods"]
    if FIDE_SUMS & set(precedence):
        return byerules.PRESET_DEFAULTS["chess"]
    return byerules.PRESET_DEFAULTS["magic"]


def standings(
    tournament: Tournament,
    rounds: list[records.Round] | None = None,
    *,
    entered_by: int | None = None,
) -> Standing:
    """The standings after `rounds` (default: every round so far). `entered_by`: only the
    entries in by that round (`Entry.joined_round`), so that "7th of 16 after round 1" does
    not count the late entries who join in round 2 and have played nothing yet."""
    rounds = history(tournament) if rounds is None else rounds
    entries = list(tournament.entries.values_list("player_id", "joined_round", "dropped_after"))
    if entered_by is not None:
        seated = {p for round_ in rounds for table in round_ for p in table.players}
        entries = [e for e in entries if e[1] <= entered_by or e[0] in seated]
    entries = [(player, dropped) for player, _, dropped in entries]
    precedence = tiebreakers(tournament)
    params: dict = {
        "omw_floor": omw_floor(tournament),
        "gw_floor": gw_floor(tournament),
        "bye_rule": bye_rule(tournament, precedence),
    }
    if "avg_opp_rating" in precedence:
        params["ratings"] = entry_ratings(tournament, list(tournament.entries.all()))
    rows = compute_standings(
        players=[player for player, _ in entries],
        rounds=rounds,
        scheme=points_scheme(tournament),
        precedence=precedence,
        dropped={p: d for p, d in entries if d is not None},
        params=params,
    )
    return Standing(
        rows=rows,
        ranking=[row.player for row in rows],
        points={row.player: row.points for row in rows},
    )


def entry_ratings(tournament: Tournament, entries: list[Entry]) -> dict[int, float]:
    values = dict(
        Rating.objects.filter(
            league=tournament.league, player_id__in=[e.player_id for e in entries]
        ).values_list("player_id", "value")
    )
    return {e.player_id: values.get(e.player_id, 0.0) for e in entries}


def suggested_structure(tournament: Tournament, players: int) -> tuple[int, int | None]:
    """Swiss rounds and top cut that suit a field of `players`, as the format suggests:
    ⌈log₂ N⌉ rounds and no cut for 1v1; for pods, `podcut.suggested_structure` (0, 4 or 16)."""
    return format_for(tournament).suggested_structure(players)


def next_round_entrants(tournament: Tournament, number: int) -> tuple[list[Entry], set[int]]:
    """Who round `number` pairs: the entries in by then and not dropped (by player id, with
    their players), and the ids of those among them with a requested bye for it, who sit out.

    The server's pairing (`services.rounds.round_pair`) and the phone's input for pairing it
    without the server (`selectors.pairing_snapshot`) read the same entrants from here."""
    entered = list(
        tournament.entries.filter(joined_round__lte=number, dropped_after__isnull=True)
        .select_related("player")
        .order_by("player_id")
    )
    sitting_out = set(
        RequestedBye.objects.filter(entry__tournament=tournament, round_number=number).values_list(
            "entry_id", flat=True
        )
    )
    return entered, sitting_out


def completed_history(tournament: Tournament) -> list[records.Round]:
    """The Swiss rounds up to the last complete one, in the history's one query: they are
    numbered 1, 2, ... and a complete round has every table reported, so they are its rounds
    and their count is the last one's number. What the standings show during the event."""
    last_complete = Subquery(
        tournament.rounds.filter(kind=Round.Kind.SWISS, status=Round.Status.COMPLETE)
        .order_by("-number")
        .values("number")[:1]
    )
    return history(tournament, before=Coalesce(last_complete, 0) + 1)
