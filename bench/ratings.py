"""Ratings benchmark: a league of 2,000 players and 100,000 pods of 3-4 on PostgreSQL.

    DEBUG=1 .venv/bin/python bench/ratings.py [--games 100000] [--players 2000] [--seed 7]
    DEBUG=1 .venv/bin/python bench/ratings.py --quick   # 300 games, 40 players: seconds (tests)

Uses its own database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/
guildhall_bench), migrates it, and builds the league once per (seed, size): later runs reuse it.
Prints one table:
  (a) `recalculate_ratings` end to end (read games, delete the old ledger, replay, COPY);
  (b) the floor: the same replay in plain Python on games already in memory, plus one COPY of
      the same ledger rows into a scratch table with the same indexes;
  (c) adding one game after all others: time and queries, on this league and on a 100-game one;
  (d) correcting a game 10 / 100 / 1,000 / 10,000 games before the end.
Goals (issue 3): a <= 2 x b; c constant queries and median < 30 ms; d grows with the games
after the corrected one, not with the league.
"""

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DEBUG", "1")
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/guildhall_bench"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.loadlib.cluster import database_ensure

database_ensure(os.environ["DATABASE_URL"])
import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from leagues import services as league_services  # noqa: E402
from leagues.models import League, Organization, Player  # noqa: E402
from ratings import ledger  # noqa: E402
from ratings.domain.replay import replay  # noqa: E402
from ratings.models import RatingChange  # noqa: E402
from ratings.services import rating_system_get, ratings_recalculate  # noqa: E402


def build_league(slug: str, players: int, games: int, seed: int) -> League:
    """The league with `games` pods of 3-4 over two years, written with COPY (once)."""
    league = League.objects.filter(slug=slug).first()
    if league is not None and league.games.count() == games:
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
    start = datetime.date(2024, 1, 1)
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval('leagues_game_id_seq') FROM generate_series(1, %s)", [games])
        game_ids = [row[0] for row in cursor.fetchall()]
    with transaction.atomic(), connection.cursor() as cursor:
        with cursor.cursor.copy(
            "COPY leagues_game (id, league_id, played_on, source, notes, created_at, version)"
            " FROM STDIN"
        ) as copy:
            for n, game_id in enumerate(game_ids):
                day = start + datetime.timedelta(days=n * 730 // games)
                copy.write_row((game_id, league.pk, day, "manual", "", "2024-01-01T00:00:00Z", 0))
        with cursor.cursor.copy(
            "COPY leagues_gameresult (game_id, player_id, placement, stats) FROM STDIN"
        ) as copy:
            for game_id in game_ids:
                pod = rng.sample(roster, rng.choice((3, 4)))
                for place, player in enumerate(pod, 1):
                    copy.write_row((game_id, player, place, "{}"))
    return league


def timed(fn, repeat: int = 1) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def floor(league: League) -> tuple[float, int]:
    """Replay in memory plus one COPY of the ledger rows into a scratch table."""
    system = rating_system_get(league=league)
    games = ledger.games_from(league.pk, ledger.START, with_stats=False)  # not timed
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_floor")
        cursor.execute(
            "CREATE UNLOGGED TABLE bench_floor (LIKE ratings_ratingchange INCLUDING ALL)"
        )
    started = time.perf_counter()
    rows, _ = replay(system, games, {})
    with (
        transaction.atomic(),
        connection.cursor() as cursor,
        cursor.cursor.copy(
            """COPY bench_floor (league_id, game_id, player_id, played_on, before, after, delta,
                   rating, deviation, games, wins) FROM STDIN"""
        ) as copy,
    ):
        for row in rows:
            copy.write_row((league.pk, *row))
    elapsed = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE bench_floor")
    return elapsed, len(rows)


def add_one_game(league: League, rng: random.Random) -> tuple[float, int]:
    """Record a game dated after every other and rate it (the on-commit catch-up)."""
    players = list(Player.objects.filter(organization=league.organization)[:500])
    pod = rng.sample(players, 4)
    last = league.games.order_by("-played_on").values_list("played_on", flat=True).first()
    results = [league_services.ResultIn(player=p, place=i) for i, p in enumerate(pod, 1)]
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        league_services.game_record(league=league, results=results, played_on=last)
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
    args = parser.parse_args()
    if args.quick:
        args.games, args.players, args.repeat = 300, 40, 1
    adds_per_league = 3 if args.quick else 20
    call_command("migrate", verbosity=0)

    t = time.perf_counter()
    league = build_league(f"bench-{args.games}", args.players, args.games, args.seed)
    small = build_league("bench-100", 100, 100, args.seed)
    print(f"league ready in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    ratings_recalculate(league=small)

    a = timed(
        lambda: call_command("recalculate_ratings", league=league.slug, verbosity=0), args.repeat
    )
    changes = RatingChange.objects.filter(league=league).count()
    b_runs = [floor(league) for _ in range(args.repeat)]
    b = [run[0] for run in b_runs]

    rng = random.Random(args.seed)
    adds = [add_one_game(league, rng) for _ in range(adds_per_league)]
    small_adds = [add_one_game(small, rng) for _ in range(adds_per_league)]
    corrections = {
        back: [correct_game(league, back) for _ in range(args.repeat)]
        for back in (10, 100, 1000, 10000)
        if back < args.games
    }

    rows = [
        ("(a) recalculate_ratings, end to end", statistics.median(a), f"{changes:,} ledger rows"),
        (
            "(b) floor: replay + one COPY",
            statistics.median(b),
            f"a/b = {statistics.median(a) / statistics.median(b):.2f}",
        ),
        (
            f"(c) add one game, {args.games:,}-game league",
            statistics.median(x[0] for x in adds),
            f"{max(x[1] for x in adds)} queries ({max(x[2] for x in adds)} for ratings)",
        ),
        (
            "(c) add one game, 100-game league",
            statistics.median(x[0] for x in small_adds),
            f"{max(x[1] for x in small_adds)} queries "
            f"({max(x[2] for x in small_adds)} for ratings)",
        ),
    ]
    rows += [
        (f"(d) correct a game {back:,} games before the end", statistics.median(times), "")
        for back, times in corrections.items()
    ]
    print(
        f"\nRatings benchmark: {args.players:,} players, {args.games:,} pods of 3-4, "
        f"system {rating_system_get(league=league).name}, median of {args.repeat} "
        f"(c: {adds_per_league})\n"
    )
    print(f"| {'measure':<48} | {'seconds':>8} | notes")
    print(f"|{'-' * 50}|{'-' * 10}|{'-' * 30}")
    for name, seconds, note in rows:
        print(f"| {name:<48} | {seconds:8.3f} | {note}")


if __name__ == "__main__":
    main()
