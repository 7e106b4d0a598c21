"""Ratings benchmark: a league of 2,000 players and 100,000 pods of 3-4 on PostgreSQL.

    DEBUG=1 .venv/bin/python bench/ratings.py [--games 100000] [--players 2000] [--seed 7]
    DEBUG=1 .venv/bin/python bench/ratings.py --quick   # 300 games, 40 players: seconds (tests)

Uses its own database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/
guildhall_bench), migrates it, and builds the league once per (seed, size): later runs reuse it.
Prints two tables:
  1. `recalculate_ratings` beside its floor, each in a fresh interpreter, alternated, in the
     same run. The floor (issue 13) is `floor_child` below, run as `bench/ratings.py --floor
     URL LEAGUE_ID` before any Django import: one SELECT of the league's results in game order,
     a plain-Python pairwise Elo replay of them (K 40, D 800, start 1500: the `elo` defaults),
     one COPY of the same number of ledger rows into a temporary table. The command's time is
     the one it prints (the service call, after Django's start-up), the floor's from before its
     SELECT to after its COPY's commit. Goal: `elo` within 1.5x its floor; the other systems
     (guildmaster, elo-dynamic, openskill) beside the same floor for information.
  2. adding one game after all others: time and queries, on this league and on a 100-game one;
     correcting a game 10 / 100 / 1,000 / 10,000 games before the end.
Goals: the add < 30 ms with the same queries on both leagues; a correction grows with the
games after the corrected one, not with the league.
"""

import argparse
import datetime
import io
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]


def floor_child(url: str, league_id: int) -> None:
    """The floor, meant for a fresh interpreter: prints its seconds and ledger rows."""
    k, d, start = 40.0, 800.0, 1500.0
    with psycopg.connect(url) as conn:
        conn.execute(
            """CREATE TEMP TABLE floor_ledger (league_id bigint, game_id bigint,
                   player_id bigint, played_on date, before double precision,
                   after double precision, delta double precision, rating double precision,
                   deviation double precision, games integer, wins integer, draws integer)"""
        )
        conn.commit()
        started = time.perf_counter()
        results = conn.execute(
            """SELECT g.id, g.played_on, r.player_id, r.placement
                 FROM leagues_game g JOIN leagues_gameresult r ON r.game_id = g.id
                WHERE g.league_id = %s ORDER BY g.played_on, g.id, r.placement, r.player_id""",
            [league_id],
        ).fetchall()
        rating: dict[int, float] = {}
        games: dict[int, int] = {}
        wins: dict[int, int] = {}
        draws: dict[int, int] = {}
        rows = []
        i, n = 0, len(results)
        while i < n:
            j = i + 1
            while j < n and results[j][0] == results[i][0]:
                j += 1
            pod = results[i:j]
            before = [rating.get(r[2], start) for r in pod]
            deltas = [0.0] * len(pod)
            for a in range(len(pod)):
                for b in range(a + 1, len(pod)):
                    place_a, place_b = pod[a][3], pod[b][3]
                    score = 1.0 if place_a < place_b else 0.5 if place_a == place_b else 0.0
                    delta = k * (score - 1.0 / (1.0 + 10.0 ** ((before[b] - before[a]) / d)))
                    deltas[a] += delta
                    deltas[b] -= delta
            # A win is an unshared first place, a draw a shared one (leagues.domain.outcome).
            shared = sum(r[3] == 1 for r in pod) > 1
            for (game_id, played_on, player, place), old, delta in zip(
                pod, before, deltas, strict=True
            ):
                new = old + delta
                rating[player] = new
                games[player] = games.get(player, 0) + 1
                wins[player] = wins.get(player, 0) + (place == 1 and not shared)
                draws[player] = draws.get(player, 0) + (place == 1 and shared)
                rows.append(
                    (
                        league_id,
                        game_id,
                        player,
                        played_on,
                        old,
                        new,
                        new - old,
                        new,
                        None,
                        games[player],
                        wins[player],
                        draws[player],
                    )
                )
            i = j
        with conn.cursor().copy(
            """COPY floor_ledger (league_id, game_id, player_id, played_on, before, after,
                   delta, rating, deviation, games, wins, draws) FROM STDIN"""
        ) as copy:
            for row in rows:
                copy.write_row(row)
        conn.commit()
        print(f"{time.perf_counter() - started:.6f} {len(rows)}")


if __name__ == "__main__" and sys.argv[1:2] == ["--floor"]:
    floor_child(sys.argv[2], int(sys.argv[3]))
    sys.exit(0)

sys.path.insert(0, str(ROOT))
os.environ.setdefault("DEBUG", "1")
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/guildhall_bench"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.loadlib.cluster import database_ensure  # noqa: E402
from bench.loadlib.games import copy_pods  # noqa: E402

database_ensure(os.environ["DATABASE_URL"])
import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from leagues import services as league_services  # noqa: E402
from leagues.models import League, Organization, Player  # noqa: E402
from ratings.models import RatingChange  # noqa: E402
from ratings.services import rating_system_set, ratings_recalculate  # noqa: E402

ADDED = "added by bench/ratings.py"


def build_league(slug: str, players: int, games: int, seed: int) -> League:
    """The league with `games` pods of 3-4 over two years, written with COPY (once)."""
    league = League.objects.filter(slug=slug).first()
    if league is not None:
        # Games an earlier run added (timing an addition) go, so the league is reused.
        league.games.filter(notes=ADDED).delete()
        if league.games.count() == games:
            return league
    rng = random.Random(seed)
    org, _ = Organization.objects.get_or_create(slug="bench", defaults={"name": "Bench"})
    if league is not None:
        league.delete()
    league = League.objects.create(organization=org, name=slug, slug=slug)
    names = [f"bench-{seed}-{i:05d}" for i in range(players)]
    existing = set(Player.objects.filter(organization=org).values_list("name", flat=True))
    Player.objects.bulk_create(
        [Player(organization=org, name=n) for n in names if n not in existing], batch_size=5000
    )
    ids = dict(Player.objects.filter(name__in=names).values_list("name", "id"))
    roster = [ids[n] for n in names]
    copy_pods(league.pk, roster, games, rng, datetime.date(2024, 1, 1))
    analyze("leagues_game", "leagues_gameresult")
    return league


def analyze(*tables: str, vacuum: bool = False) -> None:
    """What autovacuum does soon after a bulk write (the test cluster runs without it):
    statistics for the planner, and with `vacuum` the dead row versions cleared."""
    with connection.cursor() as cursor:
        cursor.execute(f"{'VACUUM ' if vacuum else ''}ANALYZE {', '.join(tables)}")


def fresh(args: list[str]) -> str:
    """Run `args` in a fresh interpreter from the project root; its standard output."""
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def floor(league: League) -> tuple[float, int]:
    """The floor in a fresh interpreter: seconds, ledger rows written."""
    url = os.environ["DATABASE_URL"]
    seconds, rows = fresh([__file__, "--floor", url, str(league.pk)]).split()
    return float(seconds), int(rows)


def recalculate(league: League) -> float:
    """`recalculate_ratings --league SLUG` in a fresh interpreter (`--recalculate SLUG`): the
    seconds of the command's call, after Django's start-up."""
    return float(fresh([__file__, "--recalculate", league.slug]))


def recalculate_child(slug: str) -> None:
    started = time.perf_counter()
    call_command("recalculate_ratings", league=slug, verbosity=0, stdout=io.StringIO())
    print(f"{time.perf_counter() - started:.6f}")


def add_one_game(league: League, rng: random.Random) -> tuple[float, int]:
    """Record a game dated after every other and rate it (the on-commit catch-up)."""
    players = list(Player.objects.filter(organization=league.organization)[:500])
    pod = rng.sample(players, 4)
    last = league.games.order_by("-played_on").values_list("played_on", flat=True).first()
    results = [league_services.ResultIn(player=p, place=i) for i, p in enumerate(pod, 1)]
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        league_services.game_record(league=league, results=results, played_on=last, notes=ADDED)
        elapsed = time.perf_counter() - started
    rating_queries = sum("rating" in q["sql"] for q in queries.captured_queries)
    return elapsed, len(queries.captured_queries), rating_queries


def correct_game(league: League, back: int) -> float:
    game = (
        league.games.order_by("-played_on", "-id")
        .prefetch_related("results__player")[back - 1 : back]
        .get()
    )
    results = sorted(game.results.all(), key=lambda r: r.placement)
    swapped = [
        league_services.ResultIn(player=r.player, place=i)
        for i, r in enumerate([results[1], results[0], *results[2:]], 1)
    ]
    started = time.perf_counter()
    league_services.game_update(game=game, results=swapped, played_on=game.played_on)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--quick", action="store_true", help="300 games, 40 players, once: proves it runs"
    )
    parser.add_argument("--recalculate", metavar="SLUG", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.recalculate:
        recalculate_child(args.recalculate)
        return
    if args.quick:
        args.games, args.players, args.repeat = 300, 40, 1
    adds_per_league = 3 if args.quick else 20
    call_command("migrate", verbosity=0)

    t = time.perf_counter()
    league = build_league(f"bench-{args.games}", args.players, args.games, args.seed)
    small = build_league("bench-100", 100, 100, args.seed)
    print(f"league ready in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    ratings_recalculate(league=small)

    # `elo` last, so the league stays on the system the goal is about for the rest.
    timings = {}
    for system in ("guildmaster", "elo-dynamic", "openskill", "elo"):
        started = time.perf_counter()
        rating_system_set(league=league, system=system)  # every ledger row changes
        switch = time.perf_counter() - started
        command, floors = [], []
        for _ in range(args.repeat):  # alternated, so both see the same machine
            seconds, floor_rows = floor(league)
            floors.append(seconds)
            command.append(recalculate(league))
        changes = RatingChange.objects.filter(league=league).count()
        if changes != floor_rows:
            raise SystemExit(f"{system}: {changes} ledger rows, the floor wrote {floor_rows}")
        timings[system] = (statistics.median(command), statistics.median(floors), changes, switch)

    # Each switch above rewrote every ledger row: clear the dead versions before timing the
    # small writes, as autovacuum would after such a rewrite.
    analyze("ratings_ratingchange", "ratings_rating", vacuum=True)
    rng = random.Random(args.seed)
    adds = [add_one_game(league, rng) for _ in range(adds_per_league)]
    small_adds = [add_one_game(small, rng) for _ in range(adds_per_league)]
    corrections = {
        back: [correct_game(league, back) for _ in range(args.repeat)]
        for back in (10, 100, 1000, 10000)
        if back < args.games
    }

    print(
        f"\nRatings benchmark: {args.players:,} players, {args.games:,} pods of 3-4, "
        f"median of {args.repeat} (adds: {adds_per_league}); recalculate_ratings and its floor "
        "each in a fresh interpreter, alternated\n"
    )
    print(
        "| league | system | ledger rows | recalculate_ratings ms | floor ms | ratio "
        "| switching to it ms |"
    )
    print("|---|---|---|---|---|---|---|")
    for system in ("elo", "guildmaster", "elo-dynamic", "openskill"):
        command, floor_seconds, changes, switch = timings[system]
        print(
            f"| {args.games:,} games, {args.players:,} players | {system} | {changes:,} "
            f"| {command * 1000:,.0f} | {floor_seconds * 1000:,.0f} "
            f"| {command / floor_seconds:.2f} | {switch * 1000:,.0f} |"
        )
    print(
        "\n(recalculate_ratings re-rates a league whose ledger is right, as the issue timed it,"
        " and writes only rows that differ; switching system rewrites every row, in the"
        " bench's own process)"
    )
    elo_ratio = timings["elo"][0] / timings["elo"][1]
    print(
        f"\nelo within 1.5x its floor: {'yes' if elo_ratio <= 1.5 else 'NO'} "
        f"({elo_ratio:.2f}x; the floor is the elo replay, the other systems are beside it "
        "for information)\n"
    )

    rows = [
        (
            f"add one game, {args.games:,}-game league",
            statistics.median(x[0] for x in adds),
            f"{max(x[1] for x in adds)} queries ({max(x[2] for x in adds)} for ratings)",
        ),
        (
            "add one game, 100-game league",
            statistics.median(x[0] for x in small_adds),
            f"{max(x[1] for x in small_adds)} queries "
            f"({max(x[2] for x in small_adds)} for ratings)",
        ),
    ]
    rows += [
        (f"correct a game {back:,} games before the end", statistics.median(times), "")
        for back, times in corrections.items()
    ]
    print("| measure | ms | notes |")
    print("|---|---|---|")
    for name, seconds, note in rows:
        print(f"| {name} | {seconds * 1000:,.1f} | {note} |")


if __name__ == "__main__":
    main()
