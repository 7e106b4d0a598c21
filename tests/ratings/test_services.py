"""The rating ledger follows every change to a league's games and always equals a full replay."""

import datetime
import random

import pytest
from django.db import connection

from leagues import services as league_services
from leagues.models import Game, GameResult
from ratings import ledger
from ratings.domain.base import ParamError
from ratings.models import LeagueRating, Rating, RatingChange
from ratings.services import (
    rating_settings_get,
    rating_system_set,
    ratings_catch_up,
    ratings_recalculate,
)
from tests.factories import GameFactory, LeagueFactory, PlayerFactory

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 1, 1)


@pytest.fixture
def roster(league):
    return PlayerFactory.create_batch(8, organization=league.organization)


def record(league, players, *, day=DAY, places=None):
    places = places or list(range(1, len(players) + 1))
    results = [
        league_services.ResultIn(player=p, place=place)
        for p, place in zip(players, places, strict=True)
    ]
    return league_services.game_record(league=league, results=results, played_on=day)


def ledger_snapshot(league):
    changes = list(
        RatingChange.objects.filter(league=league)
        .order_by("played_on", "game_id", "player_id")
        .values_list("game_id", "player_id", "before", "after", "delta", "rating", "games", "wins")
    )
    ratings = list(
        Rating.objects.filter(league=league)
        .order_by("player_id")
        .values_list("player_id", "value", "rating", "games", "wins", "last_played", "last_game_id")
    )
    return changes, ratings


def assert_equals_full_replay(league):
    incremental = ledger_snapshot(league)
    ratings_recalculate(league=league)
    assert ledger_snapshot(league) == incremental


def test_four_equal_players_move_60_20_minus_20_minus_60(
    league, roster, django_capture_on_commit_callbacks
):
    """The Guildmaster seed's case: K 40, D 800, all at 1500 → E = ½ for every pair."""
    with django_capture_on_commit_callbacks(execute=True):
        game = record(league, roster[:4])
    changes = RatingChange.objects.filter(game=game).order_by("before", "-after")
    assert [(c.player_id, c.before, c.after, c.delta) for c in changes] == [
        (roster[0].pk, 1500, 1560, 60),
        (roster[1].pk, 1500, 1520, 20),
        (roster[2].pk, 1500, 1480, -20),
        (roster[3].pk, 1500, 1440, -60),
    ]
    assert Rating.objects.get(league=league, player=roster[0]).value == 1560
    assert Rating.objects.get(league=league, player=roster[0]).wins == 1


def test_the_marker_survives_until_the_catch_up_runs(league, roster):
    """Without the on-commit callback (a crash after commit), the stale position stays noted."""
    game = record(league, roster[:2])
    settings = LeagueRating.objects.get(league=league)
    assert settings.dirty_from == (game.played_on, game.pk)
    assert not RatingChange.objects.exists()
    report = ratings_catch_up(league_id=league.pk)
    assert report.games == 1
    settings.refresh_from_db()
    assert settings.dirty_from is None
    assert RatingChange.objects.filter(game=game).count() == 2


def test_marker_keeps_the_earliest_position(league, roster):
    late = record(league, roster[:2], day=DAY + datetime.timedelta(days=5))
    early = record(league, roster[2:4], day=DAY)
    later = record(league, roster[4:6], day=DAY + datetime.timedelta(days=9))
    assert LeagueRating.objects.get(league=league).dirty_from == (early.played_on, early.pk)
    assert late.pk < early.pk < later.pk


@pytest.mark.slow
def test_every_kind_of_change_keeps_the_ledger_equal_to_a_replay(
    league, roster, django_capture_on_commit_callbacks
):
    """A seeded random walk of additions (also back-dated), corrections, date moves and deletes."""
    rng = random.Random(20261122)
    games: list[Game] = []
    for step in range(80):
        with django_capture_on_commit_callbacks(execute=True):
            action = rng.random()
            if action < 0.5 or len(games) < 3:
                pod = rng.sample(roster, rng.choice([2, 3, 4]))
                places = sorted(rng.choice([1, 1, 2, 3]) for _ in pod)
                places = [1 + sum(p < place for p in places) for place in places]
                day = DAY + datetime.timedelta(days=rng.randrange(30))
                games.append(record(league, pod, day=day, places=places))
            elif action < 0.75:
                game = rng.choice(games)
                pod = rng.sample(roster, rng.choice([2, 3, 4]))
                league_services.game_update(
                    game=game,
                    results=[
                        league_services.ResultIn(player=p, place=i) for i, p in enumerate(pod, 1)
                    ],
                    played_on=DAY + datetime.timedelta(days=rng.randrange(30)),
                )
            else:
                game = games.pop(rng.randrange(len(games)))
                league_services.game_delete(game=game)
        assert LeagueRating.objects.get(league=league).dirty_from is None, step
        assert_equals_full_replay(league)
    assert (
        RatingChange.objects.filter(league=league).count()
        == GameResult.objects.filter(game__league=league).count()
    )


def test_changes_through_plain_model_saves_are_followed(
    league, roster, django_capture_on_commit_callbacks
):
    """What the admin does: save the game, then its result rows one by one."""
    with django_capture_on_commit_callbacks(execute=True):
        first = record(league, roster[:3])
        second = record(league, roster[:3], day=DAY + datetime.timedelta(days=1))
    with django_capture_on_commit_callbacks(execute=True):
        GameResult.objects.filter(game=first, player=roster[0]).update(placement=3)  # no signal
        row = GameResult.objects.get(game=first, player=roster[2])
        row.placement = 1
        row.save()  # the signal that marks the game
    first_after = RatingChange.objects.get(game=first, player=roster[2]).after
    assert first_after > 1500
    assert RatingChange.objects.filter(game=second).count() == 3
    assert_equals_full_replay(league)


def test_moving_a_game_to_another_league_re_rates_both(
    organization, league, roster, django_capture_on_commit_callbacks
):
    other = LeagueFactory(organization=organization)
    with django_capture_on_commit_callbacks(execute=True):
        game = record(league, roster[:2])
    with django_capture_on_commit_callbacks(execute=True):
        game.league = other
        game.save()
    assert not Rating.objects.filter(league=league).exists()
    assert Rating.objects.filter(league=other).count() == 2
    assert_equals_full_replay(league)
    assert_equals_full_replay(other)


def test_import_rates_the_imported_games(league, django_capture_on_commit_callbacks):
    text = ",2026-01-01,Ann,Bob,Cy,Dee\r\n,2026-01-02,Bob,Ann\r\n"
    with django_capture_on_commit_callbacks(execute=True):
        league_services.games_import(league=league, text=text)
    ratings = dict(Rating.objects.filter(league=league).values_list("player__name", "value"))
    # Game 1: +60/+20/-20/-60 from 1500. Game 2: Bob (1520) beats Ann (1560):
    # E_Bob = 1/(1+10^(40/800)) = 0.47124, Δ = 40·(1-0.47124) = 21.15 → 21.
    assert ratings == {"Ann": 1539, "Bob": 1541, "Cy": 1480, "Dee": 1440}


def test_deleting_the_league_takes_its_ratings(league, roster, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        record(league, roster[:3])
    with django_capture_on_commit_callbacks(execute=True):
        league.delete()
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert not LeagueRating.objects.exists()


def test_switching_system_re_rates_and_bad_params_change_nothing(
    league, roster, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        record(league, roster[:2])
    rating_system_set(league=league, system="elo", params={"k": 32, "d": 400})
    winner = Rating.objects.get(league=league, player=roster[0])
    assert winner.value == pytest.approx(1516.0)  # K/2 for an even game
    assert rating_settings_get(league=league).params["k"] == 32
    with pytest.raises(ParamError) as error:
        rating_system_set(league=league, system="elo", params={"k": "lots"})
    assert error.value.field == "k"
    with pytest.raises(ParamError):
        rating_system_set(league=league, system="chess-960", params={})
    assert rating_settings_get(league=league).system == "elo"
    assert Rating.objects.get(league=league, player=roster[0]).value == pytest.approx(1516.0)


def test_adding_a_game_at_the_end_costs_the_same_queries_whatever_the_league_size(
    league, roster, django_capture_on_commit_callbacks, django_assert_num_queries
):
    from django.test.utils import CaptureQueriesContext

    def catch_up_queries(games_before: int) -> int:
        target = LeagueFactory(organization=league.organization)
        with django_capture_on_commit_callbacks(execute=True):
            for i in range(games_before):
                record(target, roster[i % 4 : i % 4 + 3], day=DAY)
        record(target, roster[:4], day=DAY + datetime.timedelta(days=1))
        with CaptureQueriesContext(connection) as queries:
            ratings_catch_up(league_id=target.pk)
        return len(queries.captured_queries)

    assert catch_up_queries(2) == catch_up_queries(60)


# What recording one game after all others costs, the write and its rating catch-up together
# (the bench measures the same path on a 100,000-game league), the league's page version
# (core.pagecache) bumped by the replay included. Every statement is logged: the few ledger
# rows go by INSERT, not by a COPY the count would not see; the catch-up reads the players'
# tallies in its DELETE statement and writes ledger and Rating rows in one statement. Inside
# this test's transaction `game_record` opens no savepoint (it has none of its own when
# nested); on the site its BEGIN and COMMIT stand there, 17 as bench/ratings.py counts.
ADD_GAME_QUERIES = 15


def test_recording_a_game_after_all_others_costs_a_pinned_count_whatever_the_league_size(
    league, roster, django_capture_on_commit_callbacks
):
    from django.test.utils import CaptureQueriesContext

    def add_queries(games_before: int) -> list[str]:
        target = LeagueFactory(organization=league.organization)
        with django_capture_on_commit_callbacks(execute=True):
            for i in range(games_before):
                record(target, roster[i % 5 : i % 5 + 3], day=DAY + datetime.timedelta(days=i))
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            game = record(target, roster[:4], day=DAY + datetime.timedelta(days=games_before))
        assert RatingChange.objects.filter(game=game).count() == 4
        assert_equals_full_replay(target)
        return [q["sql"] for q in queries.captured_queries]

    small, large = add_queries(3), add_queries(80)
    assert len(small) == len(large) == ADD_GAME_QUERIES, "\n".join(large)


def test_correction_replays_only_from_the_corrected_game(
    league, roster, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        games = [record(league, roster[i % 5 : i % 5 + 3], day=DAY) for i in range(20)]
    untouched = list(
        RatingChange.objects.filter(game__in=games[:15]).order_by("id").values_list("id", flat=True)
    )
    target = games[15]
    with django_capture_on_commit_callbacks(execute=True):
        league_services.game_update(
            game=target,
            results=[
                league_services.ResultIn(player=p, place=i)
                for i, p in enumerate(reversed(list(target.players.all())), 1)
            ],
            played_on=DAY,
        )
    # The ledger rows of the 15 earlier games were not rewritten (same ids).
    assert (
        list(
            RatingChange.objects.filter(game__in=games[:15])
            .order_by("id")
            .values_list("id", flat=True)
        )
        == untouched
    )
    assert_equals_full_replay(league)


def test_positions_order_by_date_then_entry(league, roster):
    later_entered = record(league, roster[:2], day=DAY)
    earlier_day = record(league, roster[2:4], day=DAY - datetime.timedelta(days=1))
    games = ledger.games_from(league.pk, ledger.START, with_stats=False)
    assert [g.game_id for g in games] == [earlier_day.pk, later_entered.pk]


def test_game_factory_games_are_rated_too(league, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = GameFactory(league=league, players__n=3)
    assert RatingChange.objects.filter(game=game).count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_organizers_saving_at_once_leave_a_ledger_equal_to_a_replay():
    """Real threads, real commits: writes and catch-ups interleave only through the league lock."""
    import threading

    from django.db import connections

    league = LeagueFactory()
    roster = PlayerFactory.create_batch(6, organization=league.organization)
    errors = []

    def organizer(seed: int):
        rng = random.Random(seed)
        try:
            for _ in range(12):
                pod = rng.sample(roster, 3)
                day = DAY + datetime.timedelta(days=rng.randrange(10))  # back-dated too
                record(league, pod, day=day)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=organizer, args=(seed,)) for seed in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert Game.objects.filter(league=league).count() == 36
    assert LeagueRating.objects.get(league=league).dirty_from is None
    assert RatingChange.objects.filter(league=league).count() == 108
    assert_equals_full_replay(league)


@pytest.mark.slow
def test_the_lab_page_on_public_data_shows_the_study_figures(
    client, league, django_capture_on_commit_callbacks
):
    """cedh-topdeck imported from its normalised CSV: the lab matches shared RESULTS.md
    ("Elo pairwise K=40 D=800": top-1 E[tie-break] 0.285, log-loss 1.377; random 0.251/1.384)."""
    from pathlib import Path

    from django.urls import reverse

    path = Path(__file__).resolve().parents[3] / "shared/bench-data/cedh-topdeck/cedh-topdeck.csv"
    with django_capture_on_commit_callbacks(execute=True):
        league_services.games_import(league=league, text=path.read_text())
    html = client.get(reverse("rating_lab", args=[league.slug])).content.decode()
    row = html.split("Elo (pairwise)", 1)[1].split("</tr>", 1)[0]
    assert "28.5%" in row and "1.377" in row
    random_row = html.split("Random guess", 1)[1].split("</tr>", 1)[0]
    assert "25.1%" in random_row and "1.384" in random_row


def test_a_full_replay_repairs_a_ledger_that_drifted_and_rewrites_nothing_that_is_right(
    league, roster, django_capture_on_commit_callbacks
):
    """The full replay writes only what differs (ledger.rewrite_all): it must still fix a
    changed value, a moved date, a missing row and a stray row, and leave right rows alone."""
    with django_capture_on_commit_callbacks(execute=True):
        games = [
            record(league, roster[i % 5 : i % 5 + 3], day=DAY + datetime.timedelta(days=i))
            for i in range(12)
        ]
    # The reference: every ledger row gone, then a full replay (all inserts).
    RatingChange.objects.filter(league=league).delete()
    ratings_recalculate(league=league)
    right = ledger_snapshot(league)
    dates = dict(RatingChange.objects.filter(league=league).values_list("id", "played_on"))
    ids = sorted(dates)

    changed, moved, missing = (
        RatingChange.objects.filter(game=games[i]).order_by("id").first() for i in (2, 5, 8)
    )
    RatingChange.objects.filter(pk=changed.pk).update(rating=changed.rating + 1, wins=7)
    RatingChange.objects.filter(pk=moved.pk).update(played_on=DAY - datetime.timedelta(days=3))
    RatingChange.objects.filter(pk=missing.pk).delete()
    stranger = PlayerFactory(organization=league.organization)
    RatingChange.objects.create(
        league=league, game=games[4], player=stranger, played_on=games[4].played_on,
        before=1500, after=1600, delta=100, rating=1600, games=1, wins=1,
    )  # fmt: skip
    # The Rating cache is synced the same way: a wrong row, a missing one, a stray one.
    wrong, lost = Rating.objects.filter(league=league).order_by("player_id")[:2]
    Rating.objects.filter(pk=wrong.pk).update(value=wrong.value + 5, games=99)
    Rating.objects.filter(pk=lost.pk).delete()
    Rating.objects.create(league=league, player=stranger, value=1600, rating=1600, games=1)
    assert ledger_snapshot(league) != right

    ratings_recalculate(league=league)
    assert ledger_snapshot(league) == right
    after = dict(RatingChange.objects.filter(league=league).values_list("id", "played_on"))
    assert after[moved.pk] == moved.played_on
    # Every row that was right kept its id (nothing deleted and re-inserted)...
    kept = [i for i in ids if i != missing.pk]
    assert set(kept) <= set(after)
    # ...and the one missing row came back as the only new one.
    assert len(set(after) - set(kept)) == 1

    # A switch of system rewrites every value the same way a from-scratch replay does.
    rating_system_set(league=league, system="elo", params={"k": 32})
    switched = ledger_snapshot(league)
    RatingChange.objects.filter(league=league).delete()
    ratings_recalculate(league=league)
    assert ledger_snapshot(league) == switched != right


def test_re_rating_a_league_whose_ledger_is_right_writes_no_ledger_row(
    league, roster, django_capture_on_commit_callbacks
):
    """The full replay compares its rows with the stored ones, read beside the games: a right
    ledger costs that one read, and no ledger statement writes (the issue's
    `recalculate_ratings` on an up-to-date league); right Rating rows are not rewritten
    either."""
    from django.test.utils import CaptureQueriesContext

    with django_capture_on_commit_callbacks(execute=True):
        for i in range(12):
            record(league, roster[i % 5 : i % 5 + 3], day=DAY + datetime.timedelta(days=i))
    before = ledger_snapshot(league)
    with CaptureQueriesContext(connection) as queries:
        ratings_recalculate(league=league)
    ledger_sql = [q["sql"] for q in queries.captured_queries if "ratings_ratingchange" in q["sql"]]
    assert len(ledger_sql) == 1, "\n".join(ledger_sql)  # the read beside the games
    assert all(sql.lstrip().startswith("SELECT") for sql in ledger_sql), "\n".join(ledger_sql)
    rating_sql = [q["sql"] for q in queries.captured_queries if "ratings_rating " in q["sql"]]
    assert len(rating_sql) == 1 and rating_sql[0].startswith("SELECT"), "\n".join(rating_sql)
    assert ledger_snapshot(league) == before


def _commit_mode_seen_by_the_replay(league_id: int) -> list[str]:
    """Run the catch-up and note `synchronous_commit` as its transaction sees it."""
    seen = []

    def progress(done, total):
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            seen.append(cursor.fetchone()[0])

    assert ratings_catch_up(league_id=league_id, progress=progress) is not None
    return seen


@pytest.mark.django_db(transaction=True)
def test_a_catch_up_on_its_own_commits_without_waiting_for_the_disk_and_only_itself():
    """What it writes is derived and its marker was committed durably by the writer: its own
    commit may skip the flush; the setting ends with its transaction."""
    league = LeagueFactory()
    roster = PlayerFactory.create_batch(3, organization=league.organization)
    game = record(league, roster)  # committed; its catch-up ran on commit
    LeagueRating.objects.filter(league=league).update(
        dirty_from_date=game.played_on, dirty_from_game=game.pk
    )
    assert _commit_mode_seen_by_the_replay(league.pk)[-1] == "off"
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"
    assert LeagueRating.objects.get(league=league).dirty_from is None
    assert_equals_full_replay(league)


def test_a_catch_up_inside_a_writers_transaction_leaves_its_durability_alone(league, roster):
    """An import or the API catching up in their own transaction: their games are user data."""
    record(league, roster[:3])  # the test's transaction never commits: the marker is set
    assert _commit_mode_seen_by_the_replay(league.pk)[-1] == "on"


def test_the_sweep_catches_up_a_marker_whose_catch_up_was_lost(league, roster):
    from jobs.registry import sweeps
    from ratings.services import ratings_sweep

    assert ratings_sweep in sweeps()  # the worker's reaper calls it
    game = record(league, roster[:4])  # no on-commit catch-up: as after a crash
    other = LeagueFactory()
    assert ratings_sweep() == [league.pk]
    assert LeagueRating.objects.get(league=league).dirty_from is None
    assert RatingChange.objects.filter(game=game).count() == 4
    assert_equals_full_replay(league)
    assert ratings_sweep() == []  # nothing left
    assert not RatingChange.objects.filter(league=other).exists()


def test_the_sweep_hands_a_big_replay_to_one_job_and_then_leaves_it_to_the_job(
    league, roster, settings
):
    from jobs.models import Job
    from ratings.services import ratings_sweep

    settings.GUILDHALL_INLINE_RERATE_GAMES = 1
    record(league, roster[:2])
    record(league, roster[2:4])
    assert ratings_sweep() == [league.pk]
    jobs = Job.objects.filter(league=league, key=f"catch_up:{league.pk}")
    assert jobs.count() == 1
    assert LeagueRating.objects.get(league=league).dirty_from is not None  # the job's to do
    assert ratings_sweep() == []
    assert jobs.count() == 1
    assert not RatingChange.objects.filter(league=league).exists()


@pytest.mark.django_db(transaction=True)
def test_the_sweep_never_waits_on_a_league_someone_holds():
    """The reaper's thread must not sit behind a re-rating or a writer: a locked league is
    left to whoever holds it, and caught up by a later sweep."""
    import threading

    from django.db import connections, transaction

    from ratings.services import ratings_sweep

    league = LeagueFactory()
    roster = PlayerFactory.create_batch(3, organization=league.organization)
    game = record(league, roster)
    LeagueRating.objects.filter(league=league).update(
        dirty_from_date=game.played_on, dirty_from_game=game.pk
    )
    locked, release = threading.Event(), threading.Event()

    def holder():
        try:
            with transaction.atomic():
                league.__class__.objects.select_for_update().get(pk=league.pk)
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert locked.wait(10)
        assert ratings_sweep() == []  # at once, not after the holder lets go
        assert LeagueRating.objects.get(league=league).dirty_from is not None
    finally:
        release.set()
        thread.join()
    assert ratings_sweep() == [league.pk]
    assert LeagueRating.objects.get(league=league).dirty_from is None
    assert_equals_full_replay(league)
