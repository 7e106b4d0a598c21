"""The load bench's checks, run with gunicorn stopped so that nothing is still in flight.

0. no request failed (with an outage: none outside it, and every request sent once PostgreSQL
   was back succeeded), none timed out, and every stale form answered was refused with 409;
1. every result a judge saw accepted is stored, as that judge last entered it (table and game);
2. the standings page equals a recomputation from scratch: the pure domain code fed only with
   the pods the judges saw and the results they entered;
3. the rating ledger equals a replay of the league's games (row by row, and the leaderboard).
Each check prints one line, `ok` or `FAIL`, with its figures.
"""

from collections import defaultdict

from .client import Sample
from .report import in_window, show_errors
from .scenario import EVENT, LEAGUE, Ledger


class Checks:
    def __init__(self):
        self.failures: list[str] = []

    def check(self, ok: bool, what: str) -> None:
        print(f"  {'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            self.failures.append(what)

    def verdict(self) -> int:
        """Print the outcome; the bench's exit status (1 if any check failed)."""
        if self.failures:
            print(f"FAILED: {len(self.failures)} checks")
            return 1
        print("all checks passed")
        return 0


KEPT_UP = 0.8  # the share of the visitors' offered requests the site must serve


def verify_kept_up(
    checks: Checks,
    samples: list[Sample],
    *,
    visitors: int,
    think: float,
    seconds: float,
    outage: tuple[float, float] | None,
) -> None:
    """The site kept up with the visitors: they sent at least 80% of the requests they would
    have sent had every answer been instant. A visitor waits for each answer before thinking
    again, so a saturated site slows them down rather than failing them: without this check
    a run whose pages took 8 s passed. (Each arrives within the first `think` seconds, then
    sends one request every `think` seconds on average.) Not checked with the restart drill,
    whose outage stops everyone for a while by design."""
    if outage is not None:
        print("  --   the site kept up with the visitors: not checked with the restart drill")
        return
    sent = sum(1 for s in samples if s.label.startswith("visitor"))
    offered = visitors * max(0.0, seconds - think / 2) / think
    latency = [s.ms for s in samples if s.label.startswith("visitor") and s.ok]
    mean = sum(latency) / len(latency) if latency else float("nan")
    checks.check(
        sent >= KEPT_UP * offered,
        f"the site kept up with the visitors: {sent:,} requests of the {offered:,.0f} they "
        f"offered ({sent / offered:.0%}; goal {KEPT_UP:.0%}), {mean:,.0f} ms an answer on "
        "average"
        if offered
        else "the site kept up with the visitors (none offered)",
    )


def verify_requests(
    checks: Checks,
    samples: list[Sample],
    ledger: Ledger,
    outage: tuple[float, float] | None,
) -> None:
    """Check 0: the clients' side (failures, timeouts, the stale forms' 409s)."""
    errors = [s for s in samples if not s.ok]
    # A timeout is the site not keeping up (the machine's capacity); anything else (a 5xx,
    # a refused or reset connection, an unexpected status) is the site failing.
    timeouts = [s for s in errors if s.error == "TimeoutError"]
    failures = [s for s in errors if s.error != "TimeoutError"]
    if outage:
        back_up = outage[1]
        late = [s for s in failures if not in_window(s, outage)]
        after = [s for s in samples if s.at > back_up and s.error != "TimeoutError"]
        # The first request sent once PostgreSQL was back that got its answer: recovery time.
        first_ok = min(
            (s.at + s.ms / 1000 for s in samples if s.ok and s.at >= back_up), default=None
        )
        checks.check(not late, f"no failed request outside the outage ({len(late)})")
        show_errors(late, "outside the outage")
        checks.check(
            bool(after) and all(s.ok for s in after) and first_ok is not None,
            f"the site recovered by itself: {len(after):,} requests answered after the "
            f"outage, none failed (the first answered {first_ok - back_up:.1f} s after "
            "PostgreSQL was back)"
            if first_ok is not None
            else "the site recovered by itself (no success after the restart)",
        )
    else:
        checks.check(not failures, f"no failed requests ({len(failures)})")
        show_errors(failures, "failed")
    checks.check(
        not timeouts, f"no request timed out after 30 s: the site kept up ({len(timeouts)})"
    )
    show_errors(timeouts, "timed out")
    answered = ledger.stale_sent - ledger.stale_unanswered
    checks.check(
        not ledger.stale_accepted and ledger.stale_refused == answered,
        f"every stale form answered was refused with 409 ({ledger.stale_refused} of "
        f"{answered}; accepted: {len(ledger.stale_accepted)}; unanswered in an outage: "
        f"{ledger.stale_unanswered})",
    )
    checks.check(bool(ledger.accepted), "judges entered results")


def verify_results(
    checks: Checks, ledger: Ledger, *, source: str = "its judge last entered"
) -> dict[int, int | None]:
    """Compare the stored pods with the judges' record; return each reported pod's result as
    a judge entered it (the last accepted, or one sent as the run ended and never answered).
    `source` says in the check's line where the record's results come from."""
    from leagues.models import GameResult
    from tournaments.models import Entry, Table

    tables = {t.pk: t for t in Table.objects.filter(round__tournament__slug=EVENT)}
    stored = {pk: (None if t.is_draw else t.winner_id) for pk, t in tables.items() if t.reported}
    final, wrong, unanswered = {}, [], 0
    for pk in set(stored) | set(ledger.accepted):
        if pk not in stored:
            wrong.append(pk)  # accepted, yet not stored
        elif pk in ledger.accepted and stored[pk] == ledger.accepted[pk]:
            final[pk] = stored[pk]
        elif stored[pk] in ledger.unanswered.get(pk, []):
            final[pk], unanswered = stored[pk], unanswered + 1
        else:
            wrong.append(pk)  # a result no judge entered last
    checks.check(
        not wrong,
        f"every pod holds the result {source}: {len(final):,} pods "
        f"({unanswered} sent as the run ended, unanswered, and stored; {len(wrong)} wrong)",
    )
    places = defaultdict(dict)
    for game_id, player_id, place in GameResult.objects.filter(
        game__tournament_table__round__tournament__slug=EVENT
    ).values_list("game_id", "player_id", "placement"):
        places[game_id][player_id] = place
    entry_player = dict(Entry.objects.filter(tournament__slug=EVENT).values_list("pk", "player_id"))
    bad_games = 0
    for pk, winner in final.items():
        table = tables[pk]
        pod = ledger.pods[pk]
        expected = {entry_player[e]: 1 if winner is None or e == winner else 2 for e in pod.seats}
        if table.game_id is None or places.get(table.game_id) != expected:
            bad_games += 1
    checks.check(
        bad_games == 0,
        f"every pod's league game has the places of its result ({bad_games} not)",
    )
    return final


def recomputed_standings(ledger: Ledger, final: dict[int, int | None]):
    """The standings from scratch: the domain code fed only with what the judges saw."""
    from tournaments.domain import records
    from tournaments.domain.standings import compute_standings
    from tournaments.models import Entry, Tournament
    from tournaments.selectors import gw_floor, omw_floor, points_scheme, tiebreakers

    event = Tournament.objects.get(slug=EVENT)
    entries = dict(Entry.objects.filter(tournament=event).values_list("pk", "player_id"))
    rounds = defaultdict(list)
    for pk in final:
        pod = ledger.pods[pk]
        rounds[pod.round].append(pod)
    history = []
    for number in sorted(rounds):
        tables = []
        for pod in sorted(rounds[number], key=lambda p: p.number):
            winner = final[pod.table_id]
            players = tuple(entries[e] for e in pod.seats)
            finish = tuple(1 if winner is None or e == winner else 2 for e in pod.seats)
            tables.append(
                records.Table(
                    players=players,
                    winner=None if winner is None else entries[winner],
                    game_wins=None,
                    finish=finish,
                )
            )
        history.append(tuple(tables))
    rows = compute_standings(
        players=list(entries.values()),
        rounds=history,
        scheme=points_scheme(event),
        precedence=tiebreakers(event),
        params={"omw_floor": omw_floor(event), "gw_floor": gw_floor(event)},
    )
    return event, rows


def verify_standings(checks: Checks, ledger: Ledger, final: dict[int, int | None]) -> None:
    from django.test import Client as PageClient

    from tournaments.domain.standings import TIEBREAKERS
    from tournaments.selectors import tiebreakers

    from .pages import read_standings

    event, rows = recomputed_standings(ledger, final)
    precedence = [m for m in tiebreakers(event) if m != "points"]

    def shown(metric, value):
        if value is None:
            return "\u2013"
        if TIEBREAKERS[metric].is_percent:
            return f"{100 * value:.1f}%"
        return f"{value:g}"

    expected = [
        (
            row.rank,
            row.tied,
            row.player,
            f"{row.points:g}",
            f"{row.wins + row.byes}-{row.losses}-{row.draws}",
            [shown(m, row.metrics.get(m)) for m in precedence],
        )
        for row in rows
    ]
    # The page as the site renders it (in this process: gunicorn is stopped by now).
    response = PageClient(HTTP_HOST="127.0.0.1").get(f"/events/{EVENT}/standings/", secure=True)
    status = response.status_code
    page = [row.as_tuple() for row in read_standings(response.content.decode())]
    checks.check(
        status == 200 and len(page) == len(expected),
        f"the standings page lists every player ({len(page)} of {len(expected)})",
    )
    differing = sum(1 for a, b in zip(page, expected, strict=False) if a != b)
    if differing:
        for a, b in zip(page, expected, strict=False):
            if a != b:
                print(f"       page {a}\n       from scratch {b}")
                break
    checks.check(
        status == 200 and page == expected,
        f"the standings page equals a recomputation from scratch ({differing} rows differ)",
    )


def ledger_rows(league):
    from ratings.models import Rating, RatingChange

    changes = list(
        RatingChange.objects.filter(league=league)
        .order_by("played_on", "game_id", "player_id")
        .values_list(
            "game_id", "player_id", "played_on", "before", "after", "delta", "rating",
            "deviation", "games", "wins", "draws",
        )
    )  # fmt: skip
    ratings = list(
        Rating.objects.filter(league=league)
        .order_by("player_id")
        .values_list(
            "player_id", "value", "rating", "deviation", "games", "wins", "draws",
            "last_played", "last_game_id",
        )
    )  # fmt: skip
    return changes, ratings


def replayed_rows(league):
    """The ledger a replay from scratch writes, computed in memory by the pure replay."""
    from ratings import ledger
    from ratings.domain.replay import replay
    from ratings.services import rating_system_get

    system = rating_system_get(league=league)
    games = ledger.games_from(
        league.pk, ledger.START, with_stats=getattr(system, "uses_stats", False)
    )
    rows, tallies = replay(system, games, {})
    changes = sorted((tuple(r) for r in rows), key=lambda r: (r[2], r[0], r[1]))
    ratings = sorted(
        (p, system.display(t.state), t.state.rating, t.state.deviation, t.games, t.wins,
         t.draws, t.last_played, t.last_game)
        for p, t in tallies.items()
    )  # fmt: skip
    return changes, ratings


def verify_ledger(checks: Checks) -> None:
    from leagues.models import League
    from ratings.models import LeagueRating
    from ratings.services import ratings_catch_up

    league = League.objects.get(slug=LEAGUE)
    settings = LeagueRating.objects.filter(league=league).first()
    if settings is not None and settings.dirty_from is not None:
        # A catch-up cut off by the outage leaves its marker for the next change: be that change.
        print(f"  note: ratings were stale from {settings.dirty_from}; caught up now")
        ratings_catch_up(league_id=league.pk)
    stored, replayed = ledger_rows(league), replayed_rows(league)
    differing = sum(1 for a, b in zip(stored[0], replayed[0], strict=False) if a != b)
    checks.check(
        stored == replayed,
        f"the rating ledger equals a replay ({len(stored[0]):,} ledger rows, "
        f"{len(stored[1])} ratings; {differing} rows differ)",
    )
