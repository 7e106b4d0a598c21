"""The database's own rules on PostgreSQL: constraints, and the deferred ranking trigger.

Every failing case runs in its own `transaction.atomic()` (a savepoint inside the test's
transaction), so after the expected IntegrityError the test transaction is still usable and
nothing invalid is left for the constraint check at teardown.
"""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from leagues.models import Game, GameResult, League, Player
from tests.factories import GameFactory, LeagueFactory, OrganizationFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def constraint_of(error: IntegrityError) -> str | None:
    """The name of the constraint PostgreSQL says was broken."""
    return error.__cause__.diag.constraint_name


def check_deferred_now() -> None:
    """Run the deferred checks that would otherwise wait for COMMIT."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def fails_at_commit(write) -> IntegrityError:
    """Run `write` in a savepoint; the deferred checks must refuse it. Returns the error.

    The checks still pending from the test's setup run first, as if it had been committed,
    so that only what `write` does is checked (a pending check of a game created in setup
    would otherwise catch what the trigger missed).
    """
    check_deferred_now()
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        write()
        check_deferred_now()
    return caught.value


def passes_at_commit(write) -> None:
    check_deferred_now()
    with transaction.atomic():
        write()
        check_deferred_now()


@pytest.fixture
def org():
    return OrganizationFactory()


@pytest.fixture
def league(org):
    return LeagueFactory(organization=org)


@pytest.fixture
def four(org):
    return [PlayerFactory(organization=org, name=name) for name in ("Ann", "Bob", "Cy", "Dee")]


def game_with(league, players, places, seats=None):
    """A game and its results, written in one go (games are checked only at commit)."""
    game = Game.objects.create(league=league, played_on=datetime.date(2024, 5, 1))
    seats = seats or [None] * len(players)
    GameResult.objects.bulk_create(
        GameResult(game=game, player=player, placement=place, seat=seat)
        for player, place, seat in zip(players, places, seats, strict=True)
    )
    return game


# --- players ------------------------------------------------------------------------------


def test_player_names_are_unique_per_organization_ignoring_case(org):
    Player.objects.create(organization=org, name="Ann")
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        Player.objects.create(organization=org, name="aNN")
    assert constraint_of(caught.value) == "player_name_unique_per_org_ci"
    assert Player.objects.filter(organization=org).count() == 1


def test_the_same_player_name_is_fine_in_another_organization(org):
    Player.objects.create(organization=org, name="Ann")
    other = Player.objects.create(organization=OrganizationFactory(), name="ANN")
    assert other.pk is not None


def test_player_name_uniqueness_gives_a_friendly_validation_message(org):
    Player.objects.create(organization=org, name="Ann")
    with pytest.raises(ValidationError) as caught:
        Player(organization=org, name="ann").full_clean()
    assert "This organization already has a player with this name." in caught.value.messages


def test_an_empty_player_name_is_refused(org):
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        Player.objects.create(organization=org, name="")
    assert constraint_of(caught.value) == "player_name_not_empty"


# --- results ------------------------------------------------------------------------------


def test_a_player_appears_once_per_game(league, four):
    ann, bob, cy, _ = four
    game = GameFactory(league=league, players=[ann, bob])
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        GameResult.objects.create(game=game, player=ann, placement=3)
    assert constraint_of(caught.value) == "result_one_per_player_per_game"
    # The same player in another game is fine.
    GameFactory(league=league, players=[ann, cy])
    assert GameResult.objects.filter(player=ann).count() == 2


def test_placements_start_at_one(league, four):
    game = GameFactory(league=league, players=four[:2])
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        GameResult.objects.filter(game=game, player=four[1]).update(placement=0)
    assert constraint_of(caught.value) == "result_placement_from_one"


def test_seats_start_at_one(league, four):
    game = GameFactory(league=league, players=four[:2])
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        GameResult.objects.filter(game=game, player=four[0]).update(seat=0)
    assert constraint_of(caught.value) == "result_seat_from_one"


def test_seats_are_distinct_within_a_game(league, four):
    ann, bob, cy, dee = four
    game = GameFactory(league=league, players=[ann, bob, cy])
    GameResult.objects.filter(game=game, player=ann).update(seat=1)
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        GameResult.objects.filter(game=game, player=bob).update(seat=1)
    assert constraint_of(caught.value) == "result_one_player_per_seat"
    # Several players without a seat, and the same seat in another game, are fine.
    other = GameFactory(league=league, players=[ann, bob, dee])
    GameResult.objects.filter(game=other, player=ann).update(seat=1)
    assert GameResult.objects.filter(seat=1).count() == 2
    assert GameResult.objects.filter(game=game, seat__isnull=True).count() == 2


# --- leagues ------------------------------------------------------------------------------


def test_a_league_cannot_end_before_it_starts(org):
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        League.objects.create(
            organization=org,
            name="Backwards",
            slug="backwards",
            starts_on=datetime.date(2024, 6, 1),
            ends_on=datetime.date(2024, 5, 31),
        )
    assert constraint_of(caught.value) == "league_ends_after_it_starts"


@pytest.mark.parametrize(
    ("starts_on", "ends_on"),
    [
        (datetime.date(2024, 6, 1), datetime.date(2024, 6, 1)),
        (datetime.date(2024, 6, 1), None),
        (None, datetime.date(2024, 6, 1)),
        (None, None),
    ],
)
def test_open_ended_and_one_day_leagues_are_fine(org, starts_on, ends_on):
    League.objects.create(
        organization=org, name="Ok", slug="ok", starts_on=starts_on, ends_on=ends_on
    )


def test_league_dates_give_a_friendly_validation_message(org):
    league = League(
        organization=org,
        name="Backwards",
        slug="backwards",
        starts_on=datetime.date(2024, 6, 1),
        ends_on=datetime.date(2024, 5, 31),
    )
    with pytest.raises(ValidationError) as caught:
        league.full_clean()
    assert "A league cannot end before it starts." in caught.value.messages


def test_league_slugs_are_unique(org):
    LeagueFactory(organization=org, slug="friday")
    with pytest.raises(IntegrityError), transaction.atomic():
        LeagueFactory(organization=OrganizationFactory(), slug="friday")


# --- the deferred ranking trigger ---------------------------------------------------------


def test_a_game_with_one_result_fails_at_commit(league, four):
    error = fails_at_commit(lambda: game_with(league, four[:1], [1]))
    assert constraint_of(error) == "game_has_two_players"


def test_a_game_with_no_results_fails_at_commit(league):
    error = fails_at_commit(
        lambda: Game.objects.create(league=league, played_on=datetime.date(2024, 5, 1))
    )
    assert constraint_of(error) == "game_has_two_players"


@pytest.mark.parametrize("places", [[1, 3], [2, 3], [1, 2, 2, 3], [1, 1, 2], [2, 2]])
def test_places_that_are_not_a_ranking_fail_at_commit(league, four, places):
    error = fails_at_commit(lambda: game_with(league, four[: len(places)], places))
    assert constraint_of(error) == "game_places_are_a_ranking"


@pytest.mark.parametrize("places", [[1, 2], [1, 1], [1, 2, 2, 4], [1, 1, 1, 1], [2, 1, 4, 2]])
def test_rankings_pass_at_commit(league, four, places):
    passes_at_commit(lambda: game_with(league, four[: len(places)], places))
    assert GameResult.objects.count() == len(places)


def test_nothing_is_checked_before_commit(league, four):
    """Inside the transaction a game may be incomplete: results can come after the game."""
    with transaction.atomic():
        game = Game.objects.create(league=league, played_on=datetime.date(2024, 5, 1))
        GameResult.objects.create(game=game, player=four[0], placement=1)  # 1 player: no error
        GameResult.objects.create(game=game, player=four[1], placement=3)  # a gap: no error
        GameResult.objects.filter(game=game, placement=3).update(placement=2)
        check_deferred_now()


def test_deleting_a_whole_game_passes(league, four):
    game = GameFactory(league=league, players=four, players__places=[1, 2, 2, 4])
    passes_at_commit(game.delete)
    assert not Game.objects.exists()
    assert not GameResult.objects.exists()


def test_deleting_a_result_below_two_players_fails(league, four):
    game = GameFactory(league=league, players=four[:2])
    error = fails_at_commit(lambda: game.results.filter(player=four[1]).delete())
    assert constraint_of(error) == "game_has_two_players"
    assert game.results.count() == 2


def test_deleting_a_result_that_leaves_a_gap_fails(league, four):
    game = GameFactory(league=league, players=four[:3])
    error = fails_at_commit(lambda: game.results.filter(player=four[1]).delete())
    assert constraint_of(error) == "game_places_are_a_ranking"


def test_moving_a_result_to_another_game_checks_the_game_it_left(league, four):
    ann, bob, cy, dee = four
    left = GameFactory(league=league, players=[ann, bob])
    joined = GameFactory(league=league, players=[cy, dee])
    error = fails_at_commit(
        lambda: GameResult.objects.filter(game=left, player=bob).update(game=joined, placement=3)
    )
    assert constraint_of(error) == "game_has_two_players"


def test_a_player_of_another_store_cannot_be_in_the_game(league, four):
    game = GameFactory(league=league, players=four[:2])
    outsider = PlayerFactory()  # another organization
    error = fails_at_commit(
        lambda: GameResult.objects.create(game=game, player=outsider, placement=3)
    )
    assert constraint_of(error) == "game_players_of_its_organization"


def test_changing_a_placement_into_a_gap_fails(league, four):
    game = GameFactory(league=league, players=four[:3])
    error = fails_at_commit(lambda: game.results.filter(placement=3).update(placement=4))
    assert constraint_of(error) == "game_places_are_a_ranking"


def test_replacing_every_result_of_a_game_passes(league, four):
    """What services.game_update does: delete the results, then write the new ones."""
    game = GameFactory(league=league, players=four[:2])

    def replace():
        game.results.all().delete()
        GameResult.objects.bulk_create(
            GameResult(game=game, player=player, placement=place)
            for player, place in zip(four, [1, 1, 3, 3], strict=True)
        )

    passes_at_commit(replace)
    assert sorted(game.results.values_list("placement", flat=True)) == [1, 1, 3, 3]


def test_the_factory_builds_valid_games(league):
    GameFactory(league=league)
    GameFactory(league=league, players__places=[1, 1])
    GameFactory(league=league, players__n=4)
    check_deferred_now()


@pytest.mark.django_db(transaction=True)
def test_the_trigger_refuses_a_real_commit():
    """Outside the test's wrapping transaction: the error comes at COMMIT, nothing is kept."""
    league = LeagueFactory()
    ann, bob = PlayerFactory.create_batch(2, organization=league.organization)
    with pytest.raises(IntegrityError), transaction.atomic():
        game_with(league, [ann, bob], [1, 3])
    assert not Game.objects.exists()
    with transaction.atomic():
        game_with(league, [ann, bob], [1, 2])
    assert Game.objects.count() == 1
