"""Pod top cut: the semi-final pods, draws advancing the better seed, the errors, and the
suggested rounds and cut by attendance. Expected pods are written out by hand."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.podcut import (
    POD_CUT_SIZES,
    PodBracket,
    PodCutError,
    advance_pods,
    create_pod_bracket,
    seat_order,
    seats_from_picks,
    semi_final_pods,
    suggested_structure,
)
from tournaments.domain.records import CEDH_PODS, Table
from tournaments.domain.standings import POD_OMW_FLOOR, PRESETS, compute_standings

# Seeds are player ids in standings order: seed 1 is player 101, ..., seed 20 is player 120.
SEEDS = list(range(101, 121))


def test_semi_final_pods_spread_the_top_sixteen():
    # Seeds 1-8-9-16, 2-7-10-15, 3-6-11-14, 4-5-12-13, best seed in seat 1; 17-20 miss the cut.
    assert semi_final_pods(SEEDS) == (
        (101, 108, 109, 116),
        (102, 107, 110, 115),
        (103, 106, 111, 114),
        (104, 105, 112, 113),
    )
    assert semi_final_pods(["a", "b", "c", "d", "e", "f", "g", "h", *"ijklmnop"]) == (
        ("a", "h", "i", "p"),
        ("b", "g", "j", "o"),
        ("c", "f", "k", "n"),
        ("d", "e", "l", "m"),
    )


def test_a_top_four_is_one_final_pod_in_seed_order():
    bracket = create_pod_bracket([14, 3, 27, 8, 5, 99], 4)
    assert bracket.size == 4 and bracket.seeds == (14, 3, 27, 8)
    assert bracket.stages == (((14, 3, 27, 8),),)
    assert bracket.current == ((14, 3, 27, 8),)
    assert bracket.stage_label(0) == "Final"
    assert not bracket.finished and bracket.champion is None
    done = advance_pods(bracket, [27])
    assert done.finished and done.champion == 27
    assert done.current == () and done.results == ((27,),)


def test_a_top_sixteen_plays_semi_finals_then_a_final_seated_by_seed():
    bracket = create_pod_bracket(SEEDS, 16)
    assert bracket.seeds == tuple(range(101, 117))
    assert [bracket.stage_label(i) for i in (0, 1)] == ["Semi-finals", "Final"]
    # Pod 1: seed 16 (116) wins. Pod 2: drawn, seed 2 (102) goes through. Pod 3: seed 11
    # (111) wins. Pod 4: seed 4 (104) wins.
    semis_played = advance_pods(bracket, [116, None, 111, 104])
    assert semis_played.results == ((116, None, 111, 104),)
    # The final: seeds 2, 4, 11, 16, best first.
    assert semis_played.current == ((102, 104, 111, 116),)
    assert semis_played.stages[0] == bracket.stages[0]
    assert not semis_played.finished and semis_played.champion is None
    done = advance_pods(semis_played, [111])
    assert done.champion == 111 and done.finished
    assert done.results == ((116, None, 111, 104), (111,))
    assert bracket.current == semi_final_pods(SEEDS)  # the original value is unchanged


def test_draws_everywhere_send_the_top_four_seeds_through():
    bracket = advance_pods(create_pod_bracket(SEEDS, 16), [None, None, None, None])
    assert bracket.current == ((101, 102, 103, 104),)
    assert advance_pods(bracket, [None]).champion == 101  # a drawn final: seed 1 wins


def test_a_draw_goes_to_the_best_seed_wherever_they_sit():
    # A TO moved seed 1 to seat 2 by hand: a draw still advances seed 1 (player 1), not seat 1.
    bracket = PodBracket(size=4, seeds=(1, 2, 3, 4), stages=(((3, 1, 4, 2),),))
    assert advance_pods(bracket, [None]).champion == 1
    assert advance_pods(bracket, [4]).champion == 4


def test_a_top_four_from_pod_standings():
    # One round of cEDH pods: 1 wins pod 1 2 3 4 at seat 1, 5 wins pod 5 6 7 at seat 1, 9 wins
    # pod 8 9 10 at seat 2. Points 5 for 1, 5, 9; OMW 1/4 for all three (their opponents are
    # all on 0, floored at 1/4); seat sum 9: 2 > 1, 5: 1; 4-pod share 1: 1 > 5: 0 -> 9, 1, 5.
    # Fourth: the losers at the 3-pods have OMW (1 + ¼)/2 = 5/8 (those at the 4-pod (1 + ½)/3
    # = ½); of 6, 7, 8, 10 the seat sums are 2, 3, 1, 3, and 7 and 10 stay tied (no wins):
    # listed by id, 7 is fourth.
    rounds = [
        (
            Table((1, 2, 3, 4), 1),
            Table((5, 6, 7), 5),
            Table((8, 9, 10), 9),
        )
    ]
    rows = compute_standings(
        players=range(1, 11),
        rounds=rounds,
        scheme=CEDH_PODS,
        precedence=PRESETS["pods"],
        params={"omw_floor": POD_OMW_FLOOR},
    )
    bracket = create_pod_bracket([row.player for row in rows], 4)
    assert bracket.current == ((9, 1, 5, 7),)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 8, 10, 12, 32, -4])
def test_only_top_four_and_top_sixteen(size):
    assert size not in POD_CUT_SIZES
    with pytest.raises(PodCutError) as caught:
        create_pod_bracket(SEEDS, size)
    assert caught.value.code == "bad_size"


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: create_pod_bracket(SEEDS[:15], 16), "too_few_players"),
        (lambda: create_pod_bracket([1, 2, 3], 4), "too_few_players"),
        (lambda: semi_final_pods(SEEDS[:12]), "too_few_players"),
        (lambda: create_pod_bracket([1, 2, 3, 2, 5], 4), "duplicate_seed"),
        (lambda: semi_final_pods([*SEEDS[:16], 101]), "duplicate_seed"),
    ],
)
def test_seeds_that_cannot_fill_the_cut(call, code):
    with pytest.raises(PodCutError) as caught:
        call()
    assert caught.value.code == code


SEMIS = create_pod_bracket(SEEDS, 16)


@pytest.mark.parametrize(
    ("bracket", "results", "code"),
    [
        (SEMIS, [101, 102, 103], "wrong_result_count"),  # four pods, three results
        (SEMIS, [101, 102, 103, 104, None], "wrong_result_count"),
        (SEMIS, [], "wrong_result_count"),
        (SEMIS, [102, 101, 103, 104], "winner_not_at_pod"),  # 102 sits at pod 2, not pod 1
        (SEMIS, [101, 102, 103, 117], "winner_not_at_pod"),  # seed 17 missed the cut
        (create_pod_bracket(SEEDS, 4), [101, 102], "wrong_result_count"),
        (create_pod_bracket(SEEDS, 4), [105], "winner_not_at_pod"),
        (advance_pods(create_pod_bracket(SEEDS, 4), [102]), [102], "bracket_finished"),
        (advance_pods(create_pod_bracket(SEEDS, 4), [None]), [None], "bracket_finished"),
    ],
)
def test_bad_results(bracket, results, code):
    with pytest.raises(PodCutError) as caught:
        advance_pods(bracket, results)
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("players", "structure"),
    [
        (3, (3, 0)),
        (11, (3, 0)),
        (12, (3, 4)),
        (16, (3, 4)),
        (17, (3, 4)),
        (34, (3, 4)),
        (35, (4, 4)),
        (64, (4, 4)),
        (65, (5, 16)),
        (100, (5, 16)),
        (128, (5, 16)),
        (129, (6, 16)),
        (256, (6, 16)),
        (257, (7, 16)),
        (1000, (7, 16)),
    ],
)
def test_suggested_structure_at_its_boundaries(players, structure):
    assert suggested_structure(players) == structure


@pytest.mark.parametrize("players", [2, 1, 0, -5])
def test_no_structure_for_fewer_than_three(players):
    with pytest.raises(PodCutError) as caught:
        suggested_structure(players)
    assert caught.value.code == "too_few_players"


def test_the_cut_never_takes_more_than_the_room():
    for players in range(3, 400):
        rounds, cut = suggested_structure(players)
        assert cut in (0, *POD_CUT_SIZES) and cut <= players
        assert rounds >= 3


@given(st.sampled_from(POD_CUT_SIZES), st.data())
def test_any_results_reach_one_champion(size, data):
    seeds = list(range(500, 500 + size + 3))
    bracket = create_pod_bracket(seeds, size)
    first = bracket.current
    if size == 16:
        # Each semi-final holds one seed from each block of four, and every pod sums to 34.
        numbers = [[bracket.seed(p) for p in pod] for pod in first]
        assert all(sum(pod) == 34 for pod in numbers)
        assert all([(n - 1) // 4 for n in pod] == [0, 1, 2, 3] for pod in numbers)
    stages = 0
    while not bracket.finished:
        current = bracket.current
        assert all(
            [bracket.seed(p) for p in pod] == sorted(bracket.seed(p) for p in pod)
            for pod in current
        )
        results = [data.draw(st.sampled_from([*pod, None])) for pod in current]
        after = advance_pods(bracket, results)
        expected = [
            r if r is not None else min(pod, key=bracket.seed)
            for pod, r in zip(current, results, strict=True)
        ]
        if not after.finished:
            assert sorted(after.current[0]) == sorted(expected)
        else:
            assert after.champion == expected[0]
        bracket = after
        stages += 1
    assert stages == (2 if size == 16 else 1)
    assert bracket.champion in bracket.seeds and bracket.current == ()


# --- Cut seats (podcut.CUT_SEATS), worked by hand ------------------------------------------


@pytest.mark.parametrize("rule", ["by_seed", "seed_picks"])
def test_cut_pods_seat_by_seed_until_the_seeds_choose(rule):
    # Seeds 1, 8, 9, 16 of a top 16's first pod: the best seed in seat 1 (MTRA 2.2).
    assert seat_order((11, 18, 19, 26), rule) == (11, 18, 19, 26)


def test_random_cut_seats_are_a_reproducible_shuffle():
    pod = (11, 18, 19, 26)
    seated = seat_order(pod, "random", draw="event 7, stage 0, pod 1")
    assert sorted(seated) == sorted(pod)
    assert seat_order(pod, "random", draw="event 7, stage 0, pod 1") == seated
    draws = {seat_order(pod, "random", draw=f"event 7, stage 0, pod {n}") for n in range(24)}
    assert len(draws) > 1  # not always the same order


@pytest.mark.parametrize(
    ("picks", "seated"),
    [
        ((1, 2, 3, 4), (11, 18, 19, 26)),  # everyone takes the seat of their seed
        # Seed 1 takes seat 2 (going second against a fast deck), seed 8 seat 1, seed 9 seat 4,
        # seed 16 the seat left, 3.
        ((2, 1, 4, 3), (18, 11, 26, 19)),
        ((4, 3, 2, 1), (26, 19, 18, 11)),
    ],
)
def test_seats_from_the_seeds_picks(picks, seated):
    assert seats_from_picks((11, 18, 19, 26), picks) == seated


@pytest.mark.parametrize(
    ("picks", "code"),
    [
        ((1, 2, 3), "picks_count"),
        ((1, 2, 3, 5), "bad_seat"),
        ((0, 1, 2, 3), "bad_seat"),
        ((1, 1, 2, 3), "seat_taken"),
    ],
)
def test_bad_picks_are_refused(picks, code):
    with pytest.raises(PodCutError) as refused:
        seats_from_picks((11, 18, 19, 26), picks)
    assert refused.value.code == code


def test_an_unknown_seat_rule_is_refused():
    with pytest.raises(PodCutError) as refused:
        seat_order((1, 2, 3, 4), "highest_rating")
    assert refused.value.code == "bad_seat_rule"
