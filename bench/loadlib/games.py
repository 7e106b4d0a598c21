"""A league's games written the fast way, for the benches that need a big one: COPY."""

import datetime
import random

GAME_DAYS = 730  # the games spread over two years


def copy_pods(
    league_id: int, roster: list[int], games: int, rng: random.Random, start: datetime.date
) -> None:
    """Write `games` pods of 3 or 4 players drawn from `roster` (ids), places in the drawn
    order, one game every few hours from `start` on: two COPYs in one transaction."""
    from django.db import connection, transaction

    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval('leagues_game_id_seq') FROM generate_series(1, %s)", [games])
        game_ids = [row[0] for row in cursor.fetchall()]
    with transaction.atomic(), connection.cursor() as cursor:
        with cursor.cursor.copy(
            "COPY leagues_game (id, league_id, played_on, source, notes, created_at, version)"
            " FROM STDIN"
        ) as copy:
            for n, game_id in enumerate(game_ids):
                day = start + datetime.timedelta(days=n * GAME_DAYS // games)
                copy.write_row((game_id, league_id, day, "manual", "", "2024-01-01T00:00:00Z", 0))
        with cursor.cursor.copy(
            "COPY leagues_gameresult (game_id, player_id, placement, stats) FROM STDIN"
        ) as copy:
            for game_id in game_ids:
                pod = rng.sample(roster, rng.choice((3, 4)))
                for place, player in enumerate(pod, 1):
                    copy.write_row((game_id, player, place, "{}"))
