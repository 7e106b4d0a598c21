"""A TO's night through the services: register, pair, report, correct, drop, finish."""

import threading

import pytest
from django.db import connections

from leagues.models import Game, Player
from ratings.models import RatingChange
from tests.factories import PlayerFactory, TournamentFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.errors import ResultConflict, TournamentError
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import standings, top_cut_bracket
from tournaments.services.entries import entry_drop, entry_register
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import (
    round_edit,
    round_end,
    round_give_bye,
    round_pair,
    round_swap,
)
from tournaments.services.topcut import top_cut_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league):
    return TournamentFactory(league=league)


def pairs(round_):
    return [
        tuple(sorted(s.entry.player.name for s in t.seats.all()))
        for t in round_.tables.prefetch_related("seats__entry__player")
    ]


def test_registration_matches_store_players_ignoring_case(event):
    existing = PlayerFactory(organization=event.league.organization, name="Ann")
    ann, _ = register(event, "ann", "Bob")
    assert ann.player == existing
    assert Player.objects.get(name="Bob").organization == event.league.organization
    with pytest.raises(TournamentError, match="already registered"):
        register(event, "ANN")


def test_pairing_a_round_seats_everyone_once(event):
    register(event, *"ABCDEFGH")
    round_ = round_pair(tournament=event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.SWISS
    assert event.swiss_rounds == 3  # ⌈log2 8⌉
    seated = [name for pair in pairs(round_) for name in pair]
    assert sorted(seated) == list("ABCDEFGH")
    assert round_.tables.count() == 4 and round_.status == Round.Status.PLAYING
    with pytest.raises(TournamentError, match="tables 1, 2, 3 and 4 have no result"):
        round_pair(tournament=event)


def test_odd_field_gets_a_bye_that_is_already_reported_and_makes_no_game(event):
    register(event, *"ABCDE")
    round_ = round_pair(tournament=event)
    byes = [t for t in round_.tables.all() if t.seats.count() == 1]
    assert len(byes) == 1
    assert byes[0].reported and byes[0].winner == byes[0].seats.get().entry
    assert byes[0].game is None
    with pytest.raises(TournamentError, match="bye"):
        table_report(table=byes[0], winner=byes[0].winner)


def test_a_reported_result_becomes_a_rated_league_game(event, django_capture_on_commit_callbacks):
    register(event, "Ann", "Bob")
    table = round_pair(tournament=event).tables.get()
    first, second = (s.entry for s in table.seats.order_by("position"))
    with django_capture_on_commit_callbacks(execute=True):
        table = table_report(table=table, winner=second, game_wins={first.pk: 1, second.pk: 2})
    game = table.game
    assert game.source == Game.Source.TOURNAMENT and game.league == event.league
    assert [(r.player, r.placement, r.seat) for r in game.results.order_by("placement")] == [
        (second.player, 1, 2),
        (first.player, 2, 1),
    ]
    # Guildmaster Elo, 1500 v 1500: E = ½, Δ = 40 · ½ = 20.
    assert RatingChange.objects.get(game=game, player=second.player).delta == 20


def test_correcting_a_result_updates_the_same_game(event, django_capture_on_commit_callbacks):
    register(event, "Ann", "Bob")
    table = round_pair(tournament=event).tables.get()
    a, _ = (s.entry for s in table.seats.order_by("position"))
    with django_capture_on_commit_callbacks(execute=True):
        table = table_report(table=table, winner=a)
        game_id, version = table.game_id, table.version
        table = table_report(table=table, draw=True, expected_version=version)
    assert table.game_id == game_id and table.version == version + 1
    places = sorted(Game.objects.get(pk=game_id).results.values_list("placement", flat=True))
    assert places == [1, 1]
    assert RatingChange.objects.get(game_id=game_id, player=a.player).delta == 0


def test_a_stale_form_cannot_overwrite_a_newer_result(event):
    register(event, "Ann", "Bob")
    table = round_pair(tournament=event).tables.get()
    a, b = (s.entry for s in table.seats.order_by("position"))
    seen = table.version
    table_report(table=table, winner=a, expected_version=seen)  # judge 1
    same = table_report(table=table, winner=a, expected_version=seen)  # double tap
    assert same.version == seen + 1
    with pytest.raises(ResultConflict, match="already has a different result"):
        table_report(table=table, winner=b, expected_version=seen)  # judge 2, stale
    table.refresh_from_db()
    assert table.winner == a and table.version == seen + 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "Choose a winner, or a draw"),
        ({"draw": True, "winner": "first"}, "Choose a winner, or a draw"),
        ({"winner": "outsider"}, "is not at this table"),
        ({"winner": "first", "game_wins": {"first": 1, "second": 2}}, "won the most games"),
        ({"draw": True, "game_wins": {"first": 2, "second": 1}}, "equal game wins"),
        ({"winner": "first", "game_wins": {"first": 2}}, "every player's game wins"),
    ],
)
def test_bad_results_are_refused_and_change_nothing(event, kwargs, message):
    register(event, "Ann", "Bob", "Cy", "Dee")
    round_ = round_pair(tournament=event)
    table, other = list(round_.tables.all()[:2])
    entries = {
        "first": table.seats.get(position=1).entry,
        "second": table.seats.get(position=2).entry,
        "outsider": other.seats.get(position=1).entry,
    }
    call = dict(kwargs)
    if "winner" in call:
        call["winner"] = entries[call["winner"]]
    if "game_wins" in call:
        call["game_wins"] = {entries[k].pk: w for k, w in call["game_wins"].items()}
    with pytest.raises(TournamentError, match=message):
        table_report(table=table, **call)
    table.refresh_from_db()
    assert not table.reported and table.version == 0 and table.game is None
    assert not Game.objects.exists()


def test_a_whole_event_has_no_rematches_and_finishes(event):
    register(event, *"ABCDEFGH")
    for _ in range(3):
        play_round(event)
    all_pairs = [p for r in event.rounds.all() for p in pairs(r)]
    assert len(all_pairs) == len(set(all_pairs)) == 12
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    with pytest.raises(TournamentError, match="All 3 Swiss rounds"):
        round_pair(tournament=event)
    table = standings(event)
    assert len(table.rows) == 8
    assert table.points[table.ranking[0]] == 9  # 3 wins: winners meet winners each round


def test_drops_are_not_paired_again_and_late_entries_join_the_next_round(event):
    ann, *_ = register(event, *"ABCDEFGH")
    play_round(event)
    entry_drop(entry=Entry.objects.get(pk=ann.pk))
    late = entry_register(tournament=event, name="Zed", create_player=True)
    assert late.joined_round == 2
    round_two = round_pair(tournament=event)
    seated = {name for pair in pairs(round_two) for name in pair}
    assert "A" not in seated and "Zed" in seated and len(seated) == 8
    assert ann.player_id in standings(event).ranking  # a dropped player stays ranked


def test_no_late_entry_once_the_last_swiss_round_is_paired(event):
    """A red-team find: registered "from round 4" of a 3-round event, the player played no
    round and stood last in the final standings. Refused, nothing written; in round 2 of 3 a
    late entry still joins round 3."""
    register(event, *"ABCDEFGH")
    play_round(event)
    assert entry_register(tournament=event, name="Yan", create_player=True).joined_round == 2
    play_round(event)
    event.refresh_from_db()
    assert event.swiss_rounds == 3
    round_pair(tournament=event)  # round 3 of 3
    entries = event.entries.count()
    with pytest.raises(TournamentError, match=r"^Round 3 is the event's last Swiss round"):
        entry_register(tournament=event, name="Zed", create_player=True)
    assert event.entries.count() == entries
    assert not Player.objects.filter(name="Zed").exists()


def test_ending_a_round_needs_every_result(event):
    register(event, *"ABCD")
    round_ = round_pair(tournament=event)
    first = round_.tables.first()
    table_report(table=first, winner=first.seats.first().entry)
    with pytest.raises(TournamentError, match=r"^Table 2 still has no result\.$"):
        round_end(round_=round_)


def test_a_pod_event_says_which_pods_have_no_result(league):
    """Issue 31 #10: "Tables 1 still have no result" at a pod event."""
    event = TournamentFactory(league=league, slug="pods", pods=True)
    register(event, *"ABCDEFGHIJKL")
    round_ = round_pair(tournament=event)
    assert round_.tables.count() == 3
    first = round_.tables.get(number=1)
    table_report(table=first, winner=first.seats.first().entry)
    with pytest.raises(TournamentError, match=r"^Pods 2 and 3 still have no result\.$"):
        round_end(round_=round_)
    second = round_.tables.get(number=2)
    table_report(table=second, winner=second.seats.first().entry)
    with pytest.raises(TournamentError, match=r"^Pod 3 still has no result\.$"):
        round_end(round_=round_)
    with pytest.raises(TournamentError, match=r"not finished: pod 3 has no result\.$"):
        round_pair(tournament=event)


def test_pairing_is_reproducible_from_the_seed(league):
    def first_round(seed):
        event = TournamentFactory(league=league, seed=seed)
        register(event, *(f"P{i}" for i in range(16)))
        return pairs(round_pair(tournament=event))

    assert first_round(7) == first_round(7)
    assert any(first_round(7) != first_round(s) for s in (8, 9, 10))


@pytest.mark.django_db(transaction=True)
def test_two_judges_reporting_the_same_table_at_once_never_lose_a_result():
    event = TournamentFactory()
    register(event, "Ann", "Bob")
    table = round_pair(tournament=event).tables.get()
    a, b = (s.entry for s in table.seats.order_by("position"))
    outcomes = []
    barrier = threading.Barrier(2)

    def judge(winner):
        barrier.wait()
        try:
            table_report(table=table, winner=winner, expected_version=0)
            outcomes.append(("ok", winner.pk))
        except ResultConflict:
            outcomes.append(("conflict", winner.pk))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=judge, args=(w,)) for w in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o for o, _ in outcomes) == ["conflict", "ok"]
    table.refresh_from_db()
    winner = next(w for o, w in outcomes if o == "ok")
    assert table.winner_id == winner and table.version == 1
    assert Game.objects.count() == 1


def test_top_cut_from_the_final_standings_to_a_champion(league):
    event = TournamentFactory(league=league, top_cut=4)
    register(event, *"ABCDEFGH")
    with pytest.raises(TournamentError, match="starts after the Swiss rounds"):
        top_cut_start(tournament=event)
    play_round(event)
    with pytest.raises(TournamentError, match="Play every Swiss round first"):
        top_cut_start(tournament=event)
    for _ in range(2):
        play_round(event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.SWISS  # not finished: the cut is next
    seeds = standings(event).ranking[:4]
    semis = top_cut_start(tournament=event)
    assert semis.kind == Round.Kind.TOP_CUT and semis.number == 4
    matches = [
        [s.entry.player_id for s in t.seats.order_by("position")] for t in semis.tables.all()
    ]
    assert matches == [[seeds[0], seeds[3]], [seeds[1], seeds[2]]]  # 1 v 4, 2 v 3
    table = semis.tables.first()
    with pytest.raises(TournamentError, match="needs a winner"):
        table_report(table=table, draw=True)
    # The lower seed wins both semifinals.
    for table in semis.tables.all():
        table_report(table=table, winner=table.seats.get(position=2).entry)
    round_end(round_=semis)
    final = event.rounds.get(number=5)
    finalists = sorted(s.entry.player_id for s in final.tables.get().seats.all())
    assert finalists == sorted([seeds[3], seeds[2]])
    assert final.tables.get().seats.get(position=1).entry.player_id == seeds[2]  # better seed
    table_report(table=final.tables.get(), winner=final.tables.get().seats.first().entry)
    round_end(round_=final)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert top_cut_bracket(event).champion == seeds[2]
    with pytest.raises(TournamentError):
        round_pair(tournament=event)


def table_of(round_, entry):
    """The players at `entry`'s table in `round_` now (just them: a bye)."""
    seat = round_.seats.select_related("table").get(entry=entry)
    return {s.entry for s in seat.table.seats.all()}


def test_a_to_swaps_two_players_and_the_edit_is_recorded(event):
    register(event, *"ABCDE")  # two tables and a bye
    round_ = round_pair(tournament=event)
    tables = list(round_.tables.all())
    on_bye = next(t for t in tables if t.seats.count() == 1).seats.get().entry
    match = next(t for t in tables if t.seats.count() == 2)
    seated, opponent = (s.entry for s in match.seats.order_by("position"))
    user = organizer_of(event.league.organization, username="tessa")
    round_swap(round_=round_, a=on_bye, b=seated, by=user)
    assert table_of(round_, seated) == {seated}  # the bye went with the seat...
    bye = round_.seats.get(entry=seated).table
    assert bye.reported and bye.winner == seated  # ...already reported as a win
    assert table_of(round_, on_bye) == {on_bye, opponent}
    assert sorted(t.number for t in round_.tables.all()) == [1, 2, 3]
    round_.refresh_from_db()
    assert f"tessa swapped {on_bye.player} and {seated.player}" in round_.notes_text


def test_pairing_two_players_by_hand(event):
    register(event, *"ABCD")
    round_ = round_pair(tournament=event)
    t1, t2 = round_.tables.all()
    a, a_opp = (s.entry for s in t1.seats.order_by("position"))
    b, b_opp = (s.entry for s in t2.seats.order_by("position"))
    round_edit(round_=round_, edit="pair", a=a, b=b)
    assert table_of(round_, a) == {a, b}
    assert table_of(round_, a_opp) == {a_opp, b_opp}  # the former opponents meet
    round_.refresh_from_db()
    assert f"paired {a.player} against {b.player}" in round_.notes_text


def test_a_bye_in_a_round_that_had_none(event):
    register(event, *"ABCD")
    round_ = round_pair(tournament=event)
    t1 = round_.tables.first()
    a, opponent = (s.entry for s in t1.seats.order_by("position"))
    round_give_bye(round_=round_, entry=a)
    assert table_of(round_, a) == {a} and table_of(round_, opponent) == {opponent}
    assert round_.tables.filter(reported=True).count() == 2  # two byes, both wins


def test_a_swap_that_recreates_a_match_is_allowed_with_a_warning(event):
    register(event, "Ann", "Bob", "Cy", "Dee")
    first = play_round(event)
    met = {tuple(sorted(s.entry_id for s in t.seats.all())) for t in first.tables.all()}
    round_ = round_pair(tournament=event)
    t1, t2 = round_.tables.all()
    a1, a2 = t1.seats.order_by("position")
    b1, b2 = t2.seats.order_by("position")
    # Swap so that a round-1 pair meets again, whichever way the tables fell.
    partner = {x: y for pair in met for x, y in (pair, pair[::-1])}
    swap = b1.entry if partner[a1.entry_id] == b1.entry_id else b2.entry  # a1's old opponent
    warnings = round_swap(round_=round_, a=a2.entry, b=swap)
    assert any("rematch" in w.lower() or "met" in w.lower() for w in warnings), warnings


def test_a_swap_into_a_reported_table_is_refused(event):
    register(event, *"ABCD")
    round_ = round_pair(tournament=event)
    t1, t2 = round_.tables.all()
    table_report(table=t1, winner=t1.seats.get(position=1).entry)
    with pytest.raises(TournamentError, match="already has a result"):
        round_swap(round_=round_, a=t1.seats.get(position=2).entry, b=t2.seats.first().entry)
    with pytest.raises(TournamentError, match="two different players"):
        entry = t2.seats.first().entry
        round_swap(round_=round_, a=entry, b=entry)


def test_giving_the_bye_to_someone_else(event):
    register(event, *"ABCDE")
    round_ = round_pair(tournament=event)
    holder = next(t for t in round_.tables.all() if t.seats.count() == 1).seats.get().entry
    match = next(t for t in round_.tables.all() if t.seats.count() == 2)
    chosen, opponent = (s.entry for s in match.seats.order_by("position"))
    round_give_bye(round_=round_, entry=chosen)
    assert table_of(round_, chosen) == {chosen}
    assert table_of(round_, holder) == {holder, opponent}  # the old bye takes the seat
    with pytest.raises(TournamentError, match="already has the bye"):
        round_give_bye(round_=round_, entry=chosen)


def test_the_tiebreaker_preset_is_chosen_per_event(league):
    chess = tournament_create(league=league, name="Club", points="chess")
    assert chess.tiebreakers[:2] == ["points", "median_buchholz"]
    mixed = tournament_create(league=league, name="Mixed", points="magic", tiebreakers="chess")
    assert float(mixed.points_win) == 3 and mixed.tiebreakers[1] == "median_buchholz"


def test_any_tiebreaker_order_can_be_set_and_is_checked(league):
    from django.core.exceptions import ValidationError

    event = TournamentFactory(league=league, tiebreakers=["points", "wins", "buchholz"])
    event.full_clean()
    register(event, *"ABCD")
    play_round(event)
    row = standings(event).rows[0]
    assert set(row.metrics) >= {"wins", "buchholz"}
    event.tiebreakers = ["points", "omw", "omw"]
    with pytest.raises(ValidationError, match="Each tiebreaker once"):
        event.full_clean()
    event.tiebreakers = ["points", "coin_flip"]
    with pytest.raises(ValidationError, match="Unknown: coin_flip"):
        event.full_clean()
