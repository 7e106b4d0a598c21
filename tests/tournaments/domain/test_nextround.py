"""domain.nextround without a database: the digest names an input however its numbers were
written, and check_round holds a round to the pairing's rules (the server-side comparisons are
in tests/tournaments/offline/)."""

import pytest

from tournaments.domain.nextround import NextRoundError, check_round, digest, phone_result

PODS = {
    "format": "pods",
    "pod_layout": "threes",
    "players": list(range(1, 11)),
    "sitting_out": [10],
}
MATCHES = {"format": "1v1", "players": [1, 2, 3, 4, 5], "sitting_out": []}


def test_the_digest_reads_whole_floats_as_ints_and_skips_the_names():
    data = {"scheme": {"win": 5.0, "draw": 1.5}, "names": {"1": "Ann"}, "round": 2}
    same = {"scheme": {"win": 5, "draw": 1.5}, "names": {"1": "Bob"}, "round": 2}
    assert digest(data) == digest(same)
    assert digest(data) != digest({**same, "round": 3})


def test_a_tapped_result_is_stored_as_the_server_stores_it():
    assert phone_result([4, 7, 9], {"winner": 7})["finish"] == [2, 1, 2]
    assert phone_result([4, 7], {"draw": True}) == {
        "winner": None, "game_wins": None, "game_draws": 0, "finish": [1, 1]
    }  # fmt: skip


@pytest.mark.parametrize(
    ("games", "stored"),
    [
        # What the server stores for the card's "0-2", "2-1-1" and ID (MTR 2.4: 0-0-3).
        ([0, 2, 0], {"winner": 7, "game_wins": [0, 2], "game_draws": 0, "finish": [2, 1]}),
        ([2, 1, 1], {"winner": 4, "game_wins": [2, 1], "game_draws": 1, "finish": [1, 2]}),
        ([0, 0, 3], {"winner": None, "game_wins": [0, 0], "game_draws": 3, "finish": [1, 1]}),
    ],
)
def test_a_matchs_games_waiting_in_the_consoles_queue_keep_their_game_wins(games, stored):
    assert phone_result([4, 7], {"games": games}) == stored


@pytest.mark.parametrize(
    ("players", "games"),
    [([4, 7], [0, 0, 0]), ([4, 7], [3, 0, 0]), ([4, 7], [2, 0]), ([4, 7], [2, 0, 4]),
     ([4, 7, 9], [2, 0, 0]), ([4, 7], [True, 0, 0]), ([4, 7], "2-0")],
)  # fmt: skip
def test_games_no_card_could_give_are_refused(players, games):
    with pytest.raises(NextRoundError) as refused:
        phone_result(players, {"games": games})
    assert refused.value.code == "bad_result"


@pytest.mark.parametrize(
    ("data", "tables"),
    [
        (PODS, [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]]),
        (MATCHES, [[1, 2], [3, 4], [5]]),
    ],
)
def test_a_round_the_pairing_could_make_passes(data, tables):
    check_round(data, tables)


@pytest.mark.parametrize(
    ("data", "tables", "code"),
    [
        (PODS, [[1, 2, 3], [4, 5, 6], [7, 8, 9]], "requested"),  # the bye asked for is missing
        (PODS, [[1, 2, 3], [4, 5, 6], [7, 8], [9], [10]], "sizes"),
        (PODS, [[1, 2, 3, 4], [5, 6, 7, 8, 9], [10]], "sizes"),
        (PODS, [[1, 2, 3], [4, 5, 6], [7, 8, 10], [9]], "requested"),
        (MATCHES, [[5], [1, 2], [3, 4]], "order"),
        (MATCHES, [[1, 2], [3, 4], [5], []], "shape"),
        (MATCHES, [[1, 2], [3, 4], [5, 6]], "not_active"),
        (MATCHES, [[1, 2], [3, 4]], "unseated"),
        (MATCHES, [[1, 2], [3, 1], [5]], "twice"),
        (MATCHES, [[1, 2, 3], [4, 5]], "sizes"),
        (MATCHES, [[1, 2], [3, True], [5]], "shape"),
    ],
)
def test_a_round_that_breaks_a_rule_is_refused(data, tables, code):
    with pytest.raises(NextRoundError) as refused:
        check_round(data, tables)
    assert refused.value.code == code
