"""The pages players refresh at round start, each beside its floor, in one run.

    DEBUG=1 .venv/bin/python bench/pages.py [--repeat 7] [--quick]

In one process, with the deployed settings (DEBUG off) and the database cache: a pod event of
256 players after 3 rounds and a 1v1 event of 512 players after 3 rounds (both made with
`seed_event`, the next round paired and open), and a public league of 1,200 players and 20,000
pods of 3-4 (written with COPY, then rated). For each page the table gives:

- rows: what the page lists (seats, standing lines, board rows, games, cards and entries);
- queries: the page's queries, rendered with nothing cached;
- render ms: the page rendered for an anonymous visitor (the console: for its organizer) with
  whole pages not cached, computed values kept per version (`GUILDHALL_PAGE_CACHE=values`:
  the event's standings are computed once per change, not once per view);
- cold ms: the first view after a change, nothing cached at all (`GUILDHALL_PAGE_CACHE=0`);
- cached ms: the same visit served from the shared cache (public pages);
- floor ms: the same rows fetched with the fewest queries (hand-written SQL, one statement per
  kind of row, tuples, no models) and rendered by a minimal template with the same columns
  and links, no layout, in the same process, alternated with the page;
- ratio: render ms / floor ms. Goal (issue 13): at most 2 on every page.

The pod result tap is a console POST (a winner tapped; the card comes back by htmx) on a
different open table each time; its floor is the least a tap must write and read in one
transaction (the table's result, its seats' places, the league game and its results, the
ratings, the pages' version), committed as a result must be (durably: a tap is not done until
its result would survive a crash), and the card rendered by a minimal template, on a table of
its own each run. Below the table: the same POST to a table that does not exist, a 404
through the same middleware, session, user, event and permission reads (what any tap pays
before writing anything), beside the tap's floor. Times are medians of
`--repeat` runs (taps: one per run, different tables), the page and its floor alternated. The
events are made anew by each run (`seed_event --replace`); the league is built once and kept.
`--quick`: a 32-player pod event and a 16-player 1v1 event after 1 round, a league of 60
players and 300 games, 3 runs.
"""

import argparse
import datetime
import io
import logging
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadlib.cluster import database_ensure  # noqa: E402
from bench.loadlib.games import copy_pods  # noqa: E402
from bench.loadlib.server import site_environment  # noqa: E402

URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/guildhall_bench")
os.environ.update(site_environment(URL))
os.environ["ALLOWED_HOSTS"] = "testserver"
os.environ["GUILDHALL_PAGE_CACHE"] = "1"
database_ensure(URL)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.template import Context, Engine  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from core import pagecache  # noqa: E402

LEAGUE_SLUG = "bench-pages-league"
ENGINE = Engine(autoescape=True)

# ---------------------------------------------------------------------------------------------
# The minimal templates of the floors: the same columns and links as the pages, no layout.

PAIRINGS = ENGINE.from_string(
    """<h2>Round {{ number }}</h2><table>{% for name, table, seat, others in finder %}
<tr><td>{{ name }}</td><td>{{ table }}</td><td>{{ seat }}</td><td>{{ others }}</td>
</tr>{% endfor %}
</table>{% for table, seats in tables %}<section><h3>Table {{ table }}</h3>
<ol>{% for seat, name, pid in seats %}
<li><a href="{{ prefix }}{{ pid }}/">{{ name }}</a></li>{% endfor %}</ol>
</section>{% endfor %}"""
)
PROJECTOR = ENGINE.from_string(
    """<h1>{{ event }}</h1><ol>{% for name, table, seat, others in finder %}
<li><span>{{ name }}</span><span>{{ table }} · {{ seat }}</span></li>{% endfor %}</ol>"""
)
STANDINGS = ENGINE.from_string(
    """<table>{% for rank, name, pid, points, record, metrics in lines %}
<tr><td>{{ rank }}</td><td><a href="{{ prefix }}{{ pid }}/">{{ name }}</a></td>
<td>{{ points }}</td>
<td>{{ record }}</td>{% for value in metrics %}<td>{{ value }}</td>{% endfor %}</tr>
{% endfor %}</table>"""
)
BOARD = ENGINE.from_string(
    """<table>{% for rank, pid, name, value, games, wins, change in rows %}
<tr><td>{{ rank }}</td><td><a href="{{ prefix }}{{ pid }}/">{{ name }}</a></td>
<td>{{ value }}</td>
<td>{{ games }}</td><td>{{ wins }}</td><td>{{ change }}</td></tr>{% endfor %}</table>"""
)
GAMES = ENGINE.from_string(
    """{% for game, day, results in games %}<article><h3>{{ day }}</h3>
<ol>{% for place, pid, name, delta, after in results %}
<li>{{ place }} <a href="{{ prefix }}{{ pid }}/">{{ name }}</a> {{ delta }} {{ after }}</li>
{% endfor %}</ol>
<a href="/games/{{ game }}/edit/">edit</a></article>{% endfor %}"""
)
PLAYER = ENGINE.from_string(
    """<h1>{{ name }}</h1><p>{{ rank }} · {{ value }}</p><svg>
<polyline points="{% for day, rating in points %}{{ forloop.counter }},{{ rating }}
{% endfor %}"/></svg>
{% for game, day, results in games %}<article><h3>{{ day }}</h3>
<ol>{% for place, pid, name, delta, after in results %}
<li>{{ place }} <a href="{{ prefix }}{{ pid }}/">{{ name }}</a> {{ delta }} {{ after }}</li>
{% endfor %}</ol></article>{% endfor %}"""
)
CONSOLE = ENGINE.from_string(
    """
{% for table, version, reported, seats in tables %}
<form method="post" action="{{ tables_url }}{{ table }}/report/">
<input type="hidden" name="csrfmiddlewaretoken" value="{{ token }}">
<input type="hidden" name="version" value="{{ version }}">
<h3>Table {{ table }}{% if reported %} · reported{% endif %}</h3>
{% for entry, name, place in seats %}
<button name="winner" value="{{ entry }}">{{ name }}</button>
{% endfor %}<button name="result" value="draw">Draw</button></form>{% endfor %}
<ul>
{% for entry, name, dropped in entries %}<li>{{ name }}
<a href="{{ entries_url }}{{ entry }}/actions/">
{% if dropped %}dropped{% else %}drop{% endif %}</a></li>
{% endfor %}</ul>"""
)
CARD = ENGINE.from_string(
    """<form id="table-{{ table }}" method="post" action="{{ tables }}{{ table }}/report/">
<input type="hidden" name="version" value="{{ version }}"><h3>Table {{ number }} · reported</h3>
{% for entry, name, place in seats %}
<button name="winner" value="{{ entry }}">{{ place }} {{ name }}</button>{% endfor %}</form>
<p id="waiting" hx-swap-oob="true">Waiting for {{ missing|join:", " }}</p>"""
)


def fetch(sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def open_round(event) -> tuple[int, int]:
    (row,) = fetch(
        """SELECT id, number FROM tournaments_round WHERE tournament_id = %s
            ORDER BY number DESC LIMIT 1""",
        [event.pk],
    )
    return row


ROUND_SEATS = """
    SELECT t.number, s.position, p.name, p.id, e.id, s.place, t.id, t.version, t.reported
      FROM tournaments_seat s JOIN tournaments_table t ON t.id = s.table_id
      JOIN tournaments_entry e ON e.id = s.entry_id JOIN leagues_player p ON p.id = e.player_id
     WHERE t.round_id = %s ORDER BY t.number, s.position"""


def _by_table(seats):
    tables: dict[int, list] = {}
    for number, position, name, pid, *_ in seats:
        tables.setdefault(number, []).append((position, name, pid))
    return tables


def _finder(tables) -> list[tuple]:
    rows = []
    for number, seats in tables.items():
        for position, name, _ in seats:
            others = ", ".join(n for _, n, _ in seats if n != name)
            rows.append((name, number, position, others))
    return sorted(rows, key=lambda r: r[0].lower())


def floor_pairings(event) -> tuple[str, int]:
    round_id, number = open_round(event)
    seats = fetch(ROUND_SEATS, [round_id])
    tables = _by_table(seats)
    html = PAIRINGS.render(
        Context(
            {
                "number": number,
                "finder": _finder(tables),
                "tables": tables.items(),
                "prefix": f"/events/{event.slug}/players/",
            }
        )
    )
    return html, len(seats)


def floor_projector(event) -> tuple[str, int]:
    round_id, _ = open_round(event)
    seats = fetch(ROUND_SEATS, [round_id])
    finder = _finder(_by_table(seats))
    return PROJECTOR.render(Context({"event": event.name, "finder": finder})), len(seats)


def floor_standings(event) -> tuple[str, int]:
    """The standing lines as kept per change (one cache read, as the page's) and the names
    with one query: the rows the page shows, fetched the cheapest way."""
    from tournaments.page_versions import event_scopes

    labels, lines = pagecache._get(pagecache.memo_key("event-standings", event_scopes(event)))
    names = dict(
        fetch(
            """SELECT p.id, p.name FROM tournaments_entry e
                 JOIN leagues_player p ON p.id = e.player_id WHERE e.tournament_id = %s""",
            [event.pk],
        )
    )
    rows = [
        (line.rank, names[line.player_id], line.player_id, line.points, line.record, line.metrics)
        for line in lines
    ]
    html = STANDINGS.render(
        Context({"lines": rows, "prefix": f"/events/{event.slug}/players/", "labels": labels})
    )
    return html, len(rows)


def floor_console(event) -> tuple[str, int]:
    round_id, _ = open_round(event)
    seats = fetch(ROUND_SEATS, [round_id])
    tables: dict[int, tuple] = {}
    for number, _, name, _, entry, place, table_id, version, reported in seats:
        tables.setdefault(number, (table_id, version, reported, []))[3].append((entry, name, place))
    entries = fetch(
        """SELECT e.id, p.name, e.dropped_after IS NOT NULL FROM tournaments_entry e
             JOIN leagues_player p ON p.id = e.player_id
            WHERE e.tournament_id = %s ORDER BY p.name""",
        [event.pk],
    )
    html = CONSOLE.render(
        Context(
            {
                "tables": tables.values(),
                "entries": entries,
                "token": "x" * 64,
                "tables_url": f"/events/{event.slug}/tables/",
                "entries_url": f"/events/{event.slug}/entries/",
            }
        )
    )
    return html, len(seats) + len(entries)


def floor_board(league) -> tuple[str, int]:
    rows = fetch(
        """SELECT b.*, (SELECT sum(delta) FROM ratings_ratingchange c
                          WHERE c.league_id = %s AND c.player_id = b.player_id
                            AND c.played_on > now()::date - 30)
             FROM (SELECT rank() OVER (ORDER BY r.value DESC), r.player_id, p.name, r.value,
                          r.games, r.wins
                     FROM ratings_rating r JOIN leagues_player p ON p.id = r.player_id
                    WHERE r.league_id = %s ORDER BY r.value DESC, p.name LIMIT 50) b""",
        [league.pk, league.pk],
    )
    html = BOARD.render(Context({"rows": rows, "prefix": f"/leagues/{league.slug}/players/"}))
    return html, len(rows)


GAME_ROWS = """
    SELECT g.id, g.played_on, r.placement, p.id, p.name, c.delta, c.after
      FROM leagues_game g JOIN leagues_gameresult r ON r.game_id = g.id
      JOIN leagues_player p ON p.id = r.player_id
      LEFT JOIN ratings_ratingchange c ON c.game_id = g.id AND c.player_id = r.player_id
     WHERE g.id IN ({games}) ORDER BY g.played_on DESC, g.id DESC, r.placement"""


def _games(rows) -> list[tuple]:
    games: dict[int, tuple] = {}
    for game, day, place, pid, name, delta, after in rows:
        games.setdefault(game, (game, day, []))[2].append((place, pid, name, delta, after))
    return list(games.values())


def floor_games(league) -> tuple[str, int]:
    rows = fetch(
        GAME_ROWS.format(
            games="""SELECT id FROM leagues_game WHERE league_id = %s
                      ORDER BY played_on DESC, id DESC LIMIT 25"""
        ),
        [league.pk],
    )
    html = GAMES.render(
        Context({"games": _games(rows), "prefix": f"/leagues/{league.slug}/players/"})
    )
    return html, len(rows)


def floor_player(league, player_id: int) -> tuple[str, int]:
    (standing,) = fetch(
        """SELECT p.name, r.value, (SELECT count(*) + 1 FROM ratings_rating o
                                     WHERE o.league_id = r.league_id AND o.value > r.value)
             FROM ratings_rating r JOIN leagues_player p ON p.id = r.player_id
            WHERE r.league_id = %s AND r.player_id = %s""",
        [league.pk, player_id],
    )
    points = fetch(
        """SELECT played_on, after FROM ratings_ratingchange
            WHERE league_id = %s AND player_id = %s ORDER BY played_on, game_id""",
        [league.pk, player_id],
    )
    rows = fetch(
        GAME_ROWS.format(
            games="""SELECT g.id FROM leagues_game g JOIN leagues_gameresult r ON r.game_id = g.id
                      WHERE g.league_id = %s AND r.player_id = %s
                      ORDER BY g.played_on DESC, g.id DESC LIMIT 25"""
        ),
        [league.pk, player_id],
    )
    name, value, rank = standing
    html = PLAYER.render(
        Context(
            {
                "name": name,
                "value": value,
                "rank": rank,
                "points": points,
                "games": _games(rows),
                "prefix": f"/leagues/{league.slug}/players/",
            }
        )
    )
    return html, len(rows) + len(points)


def floor_tap(event, table_id: int, winner_entry: int, judge: tuple[str, int]) -> tuple[str, int]:
    """The least a tap must read and write, in one transaction, committed: the judge's
    session and user, the result on the table and its seats, the league game and its results,
    each player's rating read and written with a ledger row (a pairwise Elo: the winner +K,
    the rest shared), an audit line, the pages' versions; then the card read back."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            session_key, user_id = judge
            cursor.execute(  # the session and its user, in one statement
                """SELECT s.session_data, u.is_superuser FROM django_session s, auth_user u
                    WHERE s.session_key = %s AND s.expire_date > now() AND u.id = %s""",
                [session_key, user_id],
            )
            cursor.fetchone()
            cursor.execute(
                """UPDATE tournaments_seat SET place = CASE WHEN entry_id = %s THEN 1 ELSE 2 END
                    WHERE table_id = %s RETURNING entry_id, position""",
                [winner_entry, table_id],
            )
            seated = cursor.fetchall()
            cursor.execute(
                """INSERT INTO leagues_game (league_id, played_on, source, notes, created_at,
                                             version)
                   VALUES (%s, now()::date, 'tournament', '', now(), 0) RETURNING id""",
                [event.league_id],
            )
            (game,) = cursor.fetchone()
            cursor.execute(
                """UPDATE tournaments_table SET reported = true, winner_id = %s, game_id = %s,
                          version = version + 1, reported_by_id = %s, reported_at = now()
                    WHERE id = %s RETURNING number, version, round_id""",
                [winner_entry, game, user_id, table_id],
            )
            number, version, round_id = cursor.fetchone()
            cursor.execute(
                """INSERT INTO leagues_gameresult (game_id, player_id, placement, stats)
                   SELECT %s, e.player_id, CASE WHEN e.id = %s THEN 1 ELSE 2 END, '{}'
                     FROM tournaments_entry e WHERE e.id = ANY(%s)
                RETURNING player_id, placement""",
                [game, winner_entry, [entry for entry, _ in seated]],
            )
            placed = cursor.fetchall()
            cursor.execute(
                """SELECT player_id, value, games, wins FROM ratings_rating
                    WHERE league_id = %s AND player_id = ANY(%s)""",
                [event.league_id, [player for player, _ in placed]],
            )
            known = {player: (value, games, wins) for player, value, games, wins in cursor}
            rows = []
            for player, place in placed:
                value, games, wins = known.get(player, (1500.0, 0, 0))
                delta = 40.0 if place == 1 else -40.0 / (len(placed) - 1)
                rows.append((player, value, value + delta, delta, games + 1, wins + (place == 1)))
            cursor.execute(
                "INSERT INTO ratings_ratingchange (league_id, game_id, player_id, played_on,"
                " before, after, delta, rating, games, wins) VALUES "
                + ", ".join(["(%s, %s, %s, now()::date, %s, %s, %s, %s, %s, %s)"] * len(rows)),
                [
                    part
                    for player, before, after, delta, games, wins in rows
                    for part in (event.league_id, game, player, before, after, delta, after,
                                 games, wins)
                ],
            )  # fmt: skip
            cursor.execute(
                "INSERT INTO ratings_rating (league_id, player_id, value, rating, games, wins,"
                " last_played, last_game_id) VALUES "
                + ", ".join(["(%s, %s, %s, %s, %s, %s, now()::date, %s)"] * len(rows))
                + """ ON CONFLICT (league_id, player_id) DO UPDATE SET value = EXCLUDED.value,
                      rating = EXCLUDED.rating, games = EXCLUDED.games, wins = EXCLUDED.wins,
                      last_played = EXCLUDED.last_played, last_game_id = EXCLUDED.last_game_id""",
                [
                    part
                    for player, _, after, _, games, wins in rows
                    for part in (event.league_id, player, after, after, games, wins, game)
                ],
            )
            cursor.execute(
                """INSERT INTO leagues_auditentry (organization_id, league_id, tournament_id,
                          tournament_name, actor_id, actor_label, action, object_type,
                          object_id, summary, after, created_at)
                   SELECT l.organization_id, l.id, %s, %s, %s, 'bench', 'table_report', 'table',
                          %s, 'result', '{}'::jsonb, now()
                     FROM leagues_league l WHERE l.id = %s""",
                [event.pk, event.name, user_id, table_id, event.league_id],
            )
            pagecache.touch(("event", event.pk), ("league", event.league_id))
            cursor.execute(
                """SELECT s.entry_id, p.name, s.place FROM tournaments_seat s
                     JOIN tournaments_entry e ON e.id = s.entry_id
                     JOIN leagues_player p ON p.id = e.player_id
                    WHERE s.table_id = %s ORDER BY s.position""",
                [table_id],
            )
            seats = cursor.fetchall()
            cursor.execute(
                """SELECT number FROM tournaments_table WHERE round_id = %s AND NOT reported
                    ORDER BY number""",
                [round_id],
            )
            missing = [n for (n,) in cursor.fetchall()]
        html = CARD.render(
            Context(
                {
                    "table": table_id,
                    "number": number,
                    "version": version,
                    "seats": seats,
                    "missing": missing,
                    "tables": f"/events/{event.slug}/tables/",
                }
            )
        )
    return html, len(seats)


# ---------------------------------------------------------------------------------------------
# Building the data


def seed(players: int, format: str, rounds: int, slug: str):
    from tournaments.models import Tournament

    call_command(
        "seed_event",
        players=players,
        format=format,
        rounds_played=rounds,
        slug=slug,
        replace=True,
        seed=1,
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return Tournament.objects.get(slug=slug)


def build_league(players: int, games: int):
    """A public league of `players` and `games` pods of 3-4 over two years, rated (once)."""
    from leagues.models import League, Organization, Player
    from ratings.services import ratings_recalculate

    league = League.objects.filter(slug=LEAGUE_SLUG).first()
    if league is not None and league.games.count() == games:
        return league
    if league is not None:
        league.delete()
    rng = random.Random(7)
    org, _ = Organization.objects.get_or_create(
        slug="bench-pages", defaults={"name": "Bench Pages"}
    )
    league = League.objects.create(
        organization=org, name="Bench league", slug=LEAGUE_SLUG, is_public=True
    )
    names = [f"Player {i:05d}" for i in range(players)]
    existing = set(Player.objects.filter(organization=org).values_list("name", flat=True))
    Player.objects.bulk_create(
        [Player(organization=org, name=n) for n in names if n not in existing], batch_size=5000
    )
    roster = list(
        Player.objects.filter(organization=org, name__in=names).values_list("id", flat=True)
    )
    copy_pods(league.pk, roster, games, rng, datetime.date.today() - datetime.timedelta(days=730))
    ratings_recalculate(league=league)
    return league


# ---------------------------------------------------------------------------------------------
# Timing


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def get(client: Client, path: str) -> None:
    response = client.get(path, secure=True)
    if response.status_code != 200:
        raise SystemExit(f"GET {path}: {response.status_code}")
    response.content  # noqa: B018 (a streamed page would be read here)


def queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


class Page:
    def __init__(self, label, path, floor, *, client, public=True):
        self.label, self.path, self.floor = label, path, floor
        self.client, self.public = client, public

    def measure(self, repeat: int) -> dict:
        visit = lambda: get(self.client, self.path)  # noqa: E731
        settings.GUILDHALL_PAGE_CACHE = False
        count = queries(visit)
        cold = statistics.median(timed(visit) for _ in range(max(1, repeat // 2)))
        settings.GUILDHALL_PAGE_CACHE = "values"
        visit()  # the computed values, once per change
        pages, floors = [], []
        for _ in range(repeat):
            pages.append(timed(visit))
            floors.append(timed(self.floor))
        _, rows = self.floor()
        cached = bare = None
        if self.public:
            settings.GUILDHALL_PAGE_CACHE = True
            visit()
            cached = statistics.median(timed(visit) for _ in range(repeat))
            bare = bare_cached(self.path, visit, 5 * repeat)
        settings.GUILDHALL_PAGE_CACHE = True
        return {
            "bare": bare,
            "rows": rows,
            "queries": count,
            "ms": statistics.median(pages),
            "cold": cold,
            "cached": cached,
            "floor": statistics.median(floors),
        }


_BARE: list[Client] = []


def bare_cached(path: str, visit, repeat: int) -> tuple[float, float]:
    """The cached page (median ms) with the language middleware and a per-language cache key,
    and without either (a client whose middleware has no language step, the key's language
    fixed), alternated `repeat` times: what choosing a language costs a cached page."""
    from core import pagecache

    if not _BARE:
        client = Client()
        bare = [m for m in settings.MIDDLEWARE if m != "core.languages.LanguageMiddleware"]
        with override_settings(MIDDLEWARE=bare):
            client.get("/", secure=True)  # its handler loads this middleware now
        _BARE.append(client)
    keyed = pagecache._language
    unkeyed = lambda: ("en", False)  # noqa: E731
    get(_BARE[0], path)
    with_, without = [], []
    try:
        for _ in range(repeat):
            pagecache._language = keyed
            with_.append(timed(visit))
            pagecache._language = unkeyed
            without.append(timed(lambda: get(_BARE[0], path)))
    finally:
        pagecache._language = keyed
    return statistics.median(with_), statistics.median(without)


def measure_taps(event, client: Client, user_id: int, repeat: int) -> dict:
    """One tap per run on an open table, alternated with the floor on another one (each writes
    and commits a result, so every run takes two tables)."""
    from tournaments.models import Seat

    round_id, _ = open_round(event)
    open_tables = fetch(
        """SELECT t.id, t.version, min(s.entry_id) FROM tournaments_table t
             JOIN tournaments_seat s ON s.table_id = t.id
            WHERE t.round_id = %s AND NOT t.reported GROUP BY t.id HAVING count(*) > 1
            ORDER BY t.number""",
        [round_id],
    )
    if len(open_tables) < 2 * repeat:
        raise SystemExit(f"{event.slug}: {len(open_tables)} open tables, {2 * repeat} needed")
    url = reverse("table_report", kwargs={"slug": event.slug, "table_id": 0})
    prefix = url.removesuffix("0/report/")
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table"}
    taps, floors, counts, refusals = [], [], [], []
    judge = (client.cookies[settings.SESSION_COOKIE_NAME].value, user_id)
    missing = f"{prefix}{2**31 - 1}/report/"  # no such table: the request path, then a 404

    logging.getLogger("django.request").setLevel(logging.ERROR)  # the 404s are expected

    def refused():
        response = client.post(missing, {"winner": "1", "version": "1"}, secure=True, **headers)
        if response.status_code != 404:
            raise SystemExit(f"tap on a missing table: {response.status_code}, not 404")

    for (table_id, version, entry), floor_table in zip(
        open_tables[:repeat], open_tables[repeat : 2 * repeat], strict=True
    ):

        def tap(table_id=table_id, version=version, entry=entry):
            response = client.post(
                f"{prefix}{table_id}/report/",
                {"winner": str(entry), "version": str(version)},
                secure=True,
                **headers,
            )
            if response.status_code != 200:
                raise SystemExit(f"tap on table {table_id}: {response.status_code}")

        if not counts:
            counts.append(queries(tap))
        else:
            taps.append(timed(tap))
        floors.append(timed(lambda t=floor_table: floor_tap(event, t[0], t[2], judge)))
        refusals.append(timed(refused))
    if not taps:  # one run: the counted tap is the timed one
        taps = floors[:1]
    seats = Seat.objects.filter(table_id=open_tables[0][0]).count()
    return {
        "rows": seats,
        "queries": counts[0],
        "ms": statistics.median(taps),
        "cold": None,
        "cached": None,
        "floor": statistics.median(floors),
        "refused": statistics.median(refusals),
    }


def cell(value) -> str:
    return "-" if value is None else f"{value:,.1f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        pods, onevone, played, league_size, repeat = 32, 16, 1, (60, 300), 3
    else:
        pods, onevone, played, league_size, repeat = 256, 512, 3, (1200, 20000), args.repeat
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # as deployed
    started = time.perf_counter()
    pod_event = seed(pods, "pods", played, f"bench-pages-pods-{pods}")
    match_event = seed(onevone, "1v1", played, f"bench-pages-1v1-{onevone}")
    league = build_league(*league_size)
    with connection.cursor() as cursor:  # as autovacuum would after such a load
        cursor.execute("ANALYZE")
    print(
        f"Pages benchmark: a pod event of {pods} players and a 1v1 event of {onevone} after "
        f"{played} round{'s' * (played != 1)}, a league of {league_size[0]:,} players and "
        f"{league_size[1]:,} games (built in {time.perf_counter() - started:.0f} s); "
        f"medians of {repeat} runs, DEBUG off, the database cache\n"
    )
    User = get_user_model()
    organizer, _ = User.objects.get_or_create(username="bench-pages", defaults={"is_staff": True})
    organizer.is_superuser = True
    organizer.save()
    visitor, judge = Client(), Client()
    judge.force_login(organizer)
    player_id = fetch(
        """SELECT player_id FROM ratings_rating WHERE league_id = %s
            ORDER BY games DESC, player_id LIMIT 1""",
        [league.pk],
    )[0][0]
    pages = []
    for event, size in ((pod_event, f"{pods} pods"), (match_event, f"{onevone} 1v1")):
        slug = event.slug
        pages += [
            Page(
                f"event pairings, {size}",
                f"/events/{slug}/",
                lambda e=event: floor_pairings(e),
                client=visitor,
            ),
            Page(
                f"event standings, {size}",
                f"/events/{slug}/standings/",
                lambda e=event: floor_standings(e),
                client=visitor,
            ),
        ]
        if event is pod_event:
            pages.append(
                Page(
                    f"projector, {size}",
                    f"/events/{slug}/projector/",
                    lambda e=event: floor_projector(e),
                    client=visitor,
                )
            )
        pages.append(
            Page(
                f"TO console, {size}",
                f"/events/{slug}/run/",
                lambda e=event: floor_console(e),
                client=judge,
                public=False,
            )
        )
    players = f"{league_size[0]:,} players"
    pages += [
        Page(
            f"league standings, {players}",
            f"/leagues/{LEAGUE_SLUG}/",
            lambda: floor_board(league),
            client=visitor,
        ),
        Page(
            f"player page, {players}",
            f"/leagues/{LEAGUE_SLUG}/players/{player_id}/",
            lambda: floor_player(league, player_id),
            client=Client(),
            public=False,
        ),
        Page(
            f"game log, {players}",
            f"/leagues/{LEAGUE_SLUG}/games/",
            lambda: floor_games(league),
            client=Client(),
            public=False,
        ),
    ]
    results = [(page.label, page.measure(repeat)) for page in pages]
    results.append(
        (f"pod result tap, {pods} pods", measure_taps(pod_event, judge, organizer.pk, repeat))
    )
    print(
        "| page | rows | queries | render ms | cold ms | cached ms | floor ms | ratio |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    over = []
    for label, r in results:
        ratio = r["ms"] / r["floor"]
        if ratio > 2:
            over.append(f"{label} ({ratio:.2f}x)")
        print(
            f"| {label} | {r['rows']:,} | {r['queries']} | {cell(r['ms'])} | {cell(r['cold'])} "
            f"| {cell(r['cached'])} | {cell(r['floor'])} | {ratio:.2f} |"
        )
    tap = results[-1][1]
    print(
        f"\nthe same tap on a table that does not exist (a 404 after the session, the user, the "
        f"event and its permission are read and the table looked up): {tap['refused']:,.1f} ms, "
        f"{tap['refused'] / tap['floor']:.2f}x the tap's floor before any result is written"
    )
    bare = [(label, r["bare"]) for label, r in results if r.get("bare")]
    added = [with_ / without - 1 for _label, (with_, without) in bare]
    print(
        "\nthe language middleware and the per-language cache key on a cached page (with / "
        "without, alternated): "
        + ", ".join(f"{label} {w:.2f}/{wo:.2f} ms" for label, (w, wo) in bare)
        + f"; median {100 * statistics.median(added):+.1f} % (goal, issue 45: at most +10 %)"
    )
    print(
        "\nevery page within 2x its floor: "
        + ("yes" if not over else "NO, over: " + ", ".join(over))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
