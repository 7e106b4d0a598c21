"""`seed_event`: a demo event with K rounds played at random and the next round open.

Checked against the rows it leaves, not against its own output: entries, rounds, every table
of a played round reported with a league game whose places are the seats' places, the next
round paired with nothing reported, the same `--seed` giving the same event, and a refused or
failed run leaving nothing behind.
"""

import io

import pytest
from django.core.management import CommandError, call_command

from leagues.models import Game, League, Organization
from tournaments.models import Entry, Round, Seat, Table, Tournament


def seed(**options):
    call_command("seed_event", stdout=io.StringIO(), stderr=io.StringIO(), **options)
    slug = options.get("slug") or f"demo-{options['format']}-{options['players']}"
    return Tournament.objects.get(slug=slug)


def results(event) -> list[tuple]:
    """(round, table, player, place) for every seat, by name: comparable across events."""
    return list(
        Seat.objects.filter(table__round__tournament=event)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "entry__player__name", "place")
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "players", "played", "table_sizes"),
    [("pods", 14, 2, {3, 4}), ("1v1", 9, 3, {1, 2})],
)
def test_rounds_played_with_results_stored_and_the_next_round_open(
    format, players, played, table_sizes
):
    event = seed(players=players, format=format, rounds_played=played)

    league = League.objects.get(slug="friday-commander")
    assert event.league == league and league.is_public
    assert league.organization.slug == "dragons-den"  # the demo store, loaded on the way
    assert Entry.objects.filter(tournament=event, joined_round=1).count() == players
    rounds = list(event.rounds.order_by("number"))
    assert [r.number for r in rounds] == list(range(1, played + 2))
    assert [r.status for r in rounds] == [Round.Status.COMPLETE] * played + [Round.Status.PLAYING]

    for round_ in rounds[:played]:
        seated = Seat.objects.filter(table__round=round_)
        assert sorted(seated.values_list("entry_id", flat=True)) == sorted(
            event.entries.values_list("pk", flat=True)
        )  # everyone sat once
        for table in round_.tables.prefetch_related("seats__entry__player"):
            seats = list(table.seats.all())
            assert len(seats) in table_sizes
            assert table.reported
            if len(seats) == 1:
                continue  # a bye: no game
            assert all(s.place is not None for s in seats)
            assert (table.winner_id is None) == table.is_draw
            stored = {r.player_id: r.placement for r in table.game.results.all()}
            assert stored == {s.entry.player_id: s.place for s in seats}
            assert table.game.source == Game.Source.TOURNAMENT

    open_round = rounds[-1]
    for table in open_round.tables.prefetch_related("seats"):
        # Open: only a bye is reported at once.
        assert table.reported == (len(table.seats.all()) == 1)
        assert table.game_id is None
    assert Seat.objects.filter(table__round=open_round).count() == players
    assert Seat.objects.filter(table__round=open_round, place__isnull=False).count() == 0


@pytest.mark.django_db
def test_the_same_seed_gives_the_same_event_and_another_seed_another():
    first = seed(players=16, format="pods", rounds_played=2, slug="a", seed=7)
    same = seed(players=16, format="pods", rounds_played=2, slug="b", seed=7)
    other = seed(players=16, format="pods", rounds_played=2, slug="c", seed=8)
    assert results(first) == results(same)
    assert results(first) != results(other)


@pytest.mark.django_db
def test_a_taken_slug_is_refused_and_replace_makes_it_anew():
    event = seed(players=8, format="1v1", rounds_played=1, slug="friday")
    games = Game.objects.count()
    with pytest.raises(CommandError, match=r"exists already.*--replace"):
        seed(players=10, format="1v1", rounds_played=2, slug="friday")
    assert Tournament.objects.get(slug="friday").pk == event.pk
    assert event.entries.count() == 8 and Game.objects.count() == games

    again = seed(players=10, format="1v1", rounds_played=2, slug="friday", replace=True)
    assert again.pk != event.pk and again.entries.count() == 10
    assert not Tournament.objects.filter(pk=event.pk).exists()
    # The old event's league games went with it: the demo's 300 plus the new event's.
    assert (
        Game.objects.count()
        == 300 + Table.objects.filter(round__tournament=again, game__isnull=False).count()
    )


@pytest.mark.django_db
def test_a_run_that_fails_leaves_nothing_behind():
    # 8 players play 3 Swiss rounds: 3 played leaves no next round to pair.
    with pytest.raises(CommandError, match="at most 2"):
        seed(players=8, format="1v1", rounds_played=3)
    assert not Tournament.objects.exists()
    assert not Organization.objects.exists()  # not even the demo store it loaded first
    with pytest.raises(CommandError, match="at least 3"):
        seed(players=2, format="pods", rounds_played=0)


@pytest.mark.django_db
def test_one_round_played_is_said_in_the_singular():
    """Issue 31 #10: "1 rounds played"."""
    out = io.StringIO()
    call_command("seed_event", players=8, format="1v1", rounds_played=1, stdout=out)
    said = out.getvalue()
    assert "8 players, 1 round played, round 2 paired and open" in said, said
