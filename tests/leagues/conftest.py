from pathlib import Path

import pytest

from leagues.models import Game, GameResult, ImportBatch, Player
from tests.factories import LeagueFactory

SAMPLE = Path("/work/shared/guildmaster/mtgscores.csv")


@pytest.fixture
def sample_bytes() -> bytes:
    """The real Guildmaster file: 225 rows, CRLF, one bad row (line 142, "Caid,Caid")."""
    return SAMPLE.read_bytes()


@pytest.fixture
def other_league(organization):
    """A second, empty league of the same organization (so it shares the players)."""
    return LeagueFactory(organization=organization, name="Tuesday Modern", slug="tuesday")


@pytest.fixture
def db_counts(db):
    """Row counts of everything an import writes, to check that nothing was written."""

    def counts() -> dict[str, int]:
        return {
            "games": Game.objects.count(),
            "results": GameResult.objects.count(),
            "players": Player.objects.count(),
            "batches": ImportBatch.objects.count(),
        }

    return counts


@pytest.fixture
def league_snapshot(db):
    """A league's games in rating order as plain data, to compare two leagues exactly."""

    def snapshot(league) -> list[tuple]:
        games = league.games.order_by("played_on", "id").prefetch_related("results__player")
        return [
            (
                game.played_on,
                game.notes,
                [
                    (r.placement, r.player.name, r.seat, r.stats)
                    for r in sorted(game.results.all(), key=lambda r: (r.placement, r.player.name))
                ],
            )
            for game in games
        ]

    return snapshot
