"""The cEDH matching protocol: every refusal names its place, valid requests pair everyone once."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.domain import protocol
from tournaments.domain.pods import PodPairing, PodPairingError, PodWeights, pod_sizes
from tournaments.domain.protocol import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TABLE,
    PodRequest,
    ProtocolError,
    event_points,
    parse_request,
    request_text,
    respond,
    standings_order,
)
from tournaments.domain.records import Table

# Three rounds of 14 players, written by hand: 4-4-3-3 pods, a draw in each round; player 14
# dropped after round 2 and player 9 after round 3, so round 3 seats 13 players as 4-3-3-3.
EVENT = {
    "players": [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 15],  # 15 joined late
    "rounds": [
        [
            {"players": [1, 2, 3, 4], "winner": 1},
            {"players": [5, 6, 7, 8], "winner": 0},
            {"players": [9, 10, 11], "winner": 11},
            {"players": [12, 13, 14], "winner": 13},
        ],
        [
            {"players": [1, 5, 11, 13], "winner": 5},
            {"players": [2, 6, 9, 12], "winner": 12},
            {"players": [3, 7, 14], "winner": 0},
            {"players": [4, 8, 10], "winner": 8},
        ],
        [
            {"players": [5, 12, 8, 1], "winner": 8},
            {"players": [13, 11, 2], "winner": 0},
            {"players": [3, 6, 10], "winner": 10},
            {"players": [4, 7, 9], "winner": 4},
        ],
    ],
}
# Points after round 3, by hand: win 3, draw 1, loss 0.
EVENT_POINTS = {
    1: 3, 2: 1, 3: 1, 4: 3, 5: 4, 6: 1, 7: 2, 8: 7, 9: 0, 10: 3, 11: 4, 12: 3, 13: 4, 14: 1,
}  # fmt: skip


def text(value) -> str:
    return json.dumps(value)


def event(**changes):
    """A deep copy of EVENT with top-level keys replaced."""
    copy = json.loads(json.dumps(EVENT))
    copy.update(changes)
    return copy


def with_table(round_index, table_index, **changes):
    copy = event()
    copy["rounds"][round_index][table_index].update(changes)
    return copy


def without(mapping, key):
    return {k: v for k, v in mapping.items() if k != key}


def check_response(request: PodRequest, response: dict) -> None:
    """The response's promises: JSON, every active player exactly once, pod sizes as laid out."""
    assert set(response) == {"placements"}
    assert json.loads(json.dumps(response)) == response
    for placement in response["placements"]:
        assert set(placement) == {"players"}
    seated = [p for placement in response["placements"] for p in placement["players"]]
    assert sorted(seated) == sorted(request.players)
    sizes, byes = pod_sizes(len(request.players), request.layout)
    got = sorted((len(p["players"]) for p in response["placements"]), reverse=True)
    assert got == sorted([*sizes, *[1] * byes], reverse=True)


# ---------------------------------------------------------------------------------------------
# Refusals: (request text, the place, a word of the problem)

CASES = [
    ("", "request", "empty"),
    ("   \n", "request", "empty"),
    ("players: [1, 2, 3]", "request", "not valid JSON"),
    ('{"players": [1, 2, 3], "rounds": []', "request", "not valid JSON"),
    ('{"players": [1, 2, 3], "rounds": []} {}', "request", "Extra data"),
    ('{"players": [1, 2, 3], "rounds": [], "seed": NaN}', "request", "NaN"),
    ('{"players": [1, 2, 3], "rounds": [], "weights": {"spread": Infinity}}', "request", "Inf"),
    ('{"players": [1, 2, 3], "players": [4, 5, 6], "rounds": []}', "request", "twice"),
    ("[" * 100_000, "request", "not valid JSON"),
    ('{"players": [1' + "0" * 5000 + ', 2, 3], "rounds": []}', "request", "not valid JSON"),
    (text([1, 2, 3]), "request", "must be a JSON object"),
    (text("players"), "request", "must be a JSON object"),
    (text(None), "request", "must be a JSON object"),
    (text(without(EVENT, "players")), "request", "'players'"),
    (text(without(EVENT, "rounds")), "request", "'rounds'"),
    (text(event(players="1,2,3")), "players", "must be a list"),
    (text(event(players={"1": 1})), "players", "must be a list"),
    (text(event(players=None)), "players", "must be a list"),
    (text(event(players=[1, 2, 0, 4])), "players[2]", "0 is not a player id"),
    (text(event(players=[1, 2, -4, 5])), "players[2]", "-4 is not a player id"),
    (text(event(players=[1, 2, 3.0, 5])), "players[2]", "3.0 is not a player id"),
    (text(event(players=[1, 2, 3.5, 5])), "players[2]", "3.5 is not a player id"),
    (text(event(players=[1, 2, True, 5])), "players[2]", "true is not a player id"),
    (text(event(players=[1, 2, "3", 5])), "players[2]", '"3" is not a player id'),
    (text(event(players=[1, 2, None, 5])), "players[2]", "null is not a player id"),
    (text(event(players=[1, 2, [3], 5])), "players[2]", "[3] is not a player id"),
    (text(event(players=[1, 2, 3, 2])), "players[3]", "2 is already listed at players[1]"),
    (text(event(players=[1, 2])), "players", "at least 3 active players"),
    (text(event(players=[])), "players", "got 0"),
    (text(event(players=list(range(1, MAX_PLAYERS + 2)))), "players", "more than 100000"),
    (text(event(rounds={"1": []})), "rounds", "must be a list of rounds"),
    (text(event(rounds=[[]] * (MAX_ROUNDS + 1))), "rounds", "1001 rounds is more than 1000"),
    (text(event(rounds=[{"players": [1, 2, 3], "winner": 1}])), "rounds[0]", "list of tables"),
    (text(event(rounds=[[], [[1, 2, 3]]])), "rounds[1][0]", "must be an object"),
    (text(event(rounds=[[], [None]])), "rounds[1][0]", "must be an object"),
    (text(event(rounds=[[{"players": [1, 2, 3]}]])), "rounds[0][0]", "'winner'"),
    (text(event(rounds=[[{"winner": 1}]])), "rounds[0][0]", "'players'"),
    (text(with_table(1, 2, players="3 7 14")), "rounds[1][2].players", "must be a list"),
    (text(with_table(1, 2, players=[], winner=0)), "rounds[1][2].players", "at least one"),
    (
        text(with_table(0, 2, players=list(range(20, 21 + MAX_TABLE)), winner=20)),
        "rounds[0][2].players",
        "more than 8",
    ),
    (text(with_table(2, 1, players=[13, 0, 2])), "rounds[2][1].players[1]", "0 is not a player"),
    (text(with_table(2, 1, players=[13, -11, 2])), "rounds[2][1].players[1]", "-11 is not"),
    (text(with_table(2, 1, players=[13, 11.0, 2])), "rounds[2][1].players[1]", "11.0 is not"),
    (text(with_table(2, 1, players=[13, False, 2])), "rounds[2][1].players[1]", "false is not"),
    (text(with_table(2, 1, players=[13, "11", 2])), "rounds[2][1].players[1]", '"11" is not'),
    (text(with_table(2, 1, players=[13, 11, 13])), "rounds[2][1].players[2]", "twice at this"),
    # Player 5 sits at rounds[2][0] already.
    (text(with_table(2, 1, players=[13, 11, 5])), "rounds[2][1].players[2]", "rounds[2][0]"),
    (text(with_table(2, 1, winner=17)), "rounds[2][1].winner", "17 is not at this pod"),
    (text(with_table(2, 1, winner=5)), "rounds[2][1].winner", "5 is not at this pod"),
    (text(with_table(2, 1, winner=-1)), "rounds[2][1].winner", "not -1"),
    (text(with_table(2, 1, winner=13.0)), "rounds[2][1].winner", "not 13.0"),
    (text(with_table(2, 1, winner=True)), "rounds[2][1].winner", "not true"),
    (text(with_table(2, 1, winner="13")), "rounds[2][1].winner", 'not "13"'),
    (text(with_table(2, 1, winner=None)), "rounds[2][1].winner", "not null"),
    (text(with_table(2, 1, players=[13], winner=0)), "rounds[2][1].winner", "bye"),
    (text(with_table(2, 1, players=[13], winner=2)), "rounds[2][1].winner", "2 is not at"),
    (text(event(weights=[1, 2])), "weights", "must be an object"),
    (text(event(weights="fast")), "weights", "must be an object"),
    (text(event(weights={"speed": 1})), "weights", 'unknown weight "speed"'),
    (text(event(weights={"spread": "4"})), "weights.spread", "must be a number"),
    (text(event(weights={"spread": True})), "weights.spread", "must be a number"),
    (text(event(weights={"repeat": -1})), "weights.repeat", "between 0 and 1e9"),
    (text(event(weights={"odd_pod": 1e10})), "weights.odd_pod", "between 0 and 1e9"),
    (
        '{"players": [1, 2, 3], "rounds": [], "weights": {"odd_pod": 1e400}}',
        "weights.odd_pod",
        "between 0 and 1e9",
    ),
    (text(event(weights={"rematch": "0.5"})), "weights.rematch", "must be a number"),
    (text(event(weights={"3_player_table": -0.2})), "weights.3_player_table", "from 0"),
    (text(event(layout="sixes")), "layout", 'not "sixes"'),
    (text(event(layout=4)), "layout", "must be one of threes, fives, byes"),
    (text(event(seed=1.5)), "seed", "not 1.5"),
    (text(event(seed="1")), "seed", 'not "1"'),
    (text(event(seed=False)), "seed", "not false"),
    (text(event(planned_rounds=0)), "planned_rounds", "from 1 to 1000, not 0"),
    (text(event(planned_rounds=2.5)), "planned_rounds", "not 2.5"),
    (text(event(planned_rounds="5")), "planned_rounds", 'not "5"'),
    (text(event(planned_rounds=True)), "planned_rounds", "not true"),
    (text(event(planned_rounds=1001)), "planned_rounds", "not 1001"),
]


@pytest.mark.parametrize(("request_text", "place", "problem"), CASES)
def test_bad_requests_are_refused_naming_the_place(request_text, place, problem):
    with pytest.raises(ProtocolError) as raised:
        parse_request(request_text)
    message = str(raised.value)
    assert message.startswith(f"{place}: "), message
    assert problem in message
    assert "\n" not in message and len(message) < 200


def test_the_spec_example_message():
    bad = with_table(2, 1, winner=17)
    with pytest.raises(ProtocolError, match=r"^rounds\[2\]\[1\]\.winner: 17 is not at this pod$"):
        parse_request(text(bad))


def test_a_round_seating_too_many_players_is_refused():
    ids = iter(range(1, 10**7))
    huge = [{"players": [next(ids), next(ids)], "winner": 0} for _ in range(MAX_PLAYERS // 2 + 1)]
    with pytest.raises(ProtocolError, match=r"^rounds\[0\]: seats more than 100000 players$"):
        parse_request(text(event(rounds=[huge])))


def test_request_text_refuses_bytes_that_are_not_utf8():
    assert request_text('\ufeff{"a": "é"}'.encode()) == '{"a": "é"}'
    with pytest.raises(ProtocolError, match=r"^request: not UTF-8 text \(byte 0xff at offset 1\)"):
        request_text(b"{\xff}")


def test_a_long_bad_value_is_cut_short():
    with pytest.raises(ProtocolError) as raised:
        parse_request(text(event(players="x" * 10_000)))
    assert str(raised.value) == "players: must be a list of player ids, not a string"
    with pytest.raises(ProtocolError) as raised:
        parse_request(text(event(seed="y" * 10_000)))
    assert str(raised.value) == 'seed: must be a whole number, not "' + "y" * 36 + "..."


# ---------------------------------------------------------------------------------------------
# Reading valid requests


def test_a_request_reads_into_records():
    request = parse_request(
        text(
            {
                "players": [4, 2, 3, 9],
                "rounds": [
                    [
                        {"players": [2, 7, 4], "winner": 0},
                        {"players": [3, 9], "winner": 9},
                        {"players": [5], "winner": 5},
                    ]
                ],
            }
        )
    )
    assert request == PodRequest(
        players=(4, 2, 3, 9),
        history=((Table((2, 7, 4), None), Table((3, 9), 9), Table((5,), 5)),),
        weights=PodWeights(),
        layout="threes",
        seed=0,
    )


def test_optional_keys_and_ignored_keys():
    request = parse_request(
        text(
            event(
                weights={"spread": 2, "odd_pod": 0},
                layout="fives",
                seed=-7,
                tournament="Friday cEDH",
                version=2,
            )
        )
    )
    assert request.weights == PodWeights(spread=2.0, odd_pod=0.0)  # repeat keeps its default
    assert (request.layout, request.seed) == ("fives", -7)
    nulls = parse_request(text(event(weights=None, layout=None, seed=None)))
    assert (nulls.weights, nulls.layout, nulls.seed) == (PodWeights(), "threes", 0)


def test_extra_keys_in_tables_are_ignored():
    """The reference web interface stores the placements it got back, plus a winner."""
    request = parse_request(text(with_table(0, 0, name="Table 1", note={"x": [1]})))
    assert request.history[0][0] == Table((1, 2, 3, 4), 1)


def test_cedh_matching_weights_are_accepted_and_not_applied():
    # Exactly what cedh_matching's web interface sends with every request.
    theirs = {"rematch": 0.5, "non_equal_scores": 0.1, "3_player_table": 0.2}
    assert parse_request(text(event(weights=theirs))).weights == PodWeights()
    mixed = parse_request(text(event(weights={**theirs, "repeat": 3})))
    assert mixed.weights == PodWeights(repeat=3.0)


# ---------------------------------------------------------------------------------------------
# Standings and the response


def test_event_points_by_hand():
    history = parse_request(text(EVENT)).history
    assert event_points(history) == EVENT_POINTS
    bye_and_draw = (
        (Table((1,), 1), Table((2, 3), None)),
        (Table((1, 2), 2), Table((3,), 3)),
    )
    assert event_points(bye_and_draw) == {1: 3, 2: 4, 3: 4}
    assert event_points(()) == {}


def test_standings_order_is_points_then_id():
    assert standings_order([15, 13, 8, 1, 5, 11, 9], EVENT_POINTS) == [8, 5, 11, 13, 1, 9, 15]


@pytest.mark.parametrize(
    ("layout", "sizes"),
    [("threes", [4, 3, 3, 3]), ("fives", [5, 4, 4]), ("byes", [4, 4, 4, 1])],
)
def test_a_three_round_history_round_trips(layout, sizes):
    request = parse_request(text(event(layout=layout)))
    response = respond(request)
    check_response(request, response)
    got = sorted((len(p["players"]) for p in response["placements"]), reverse=True)
    assert got == sizes  # 13 active players, worked out by hand
    seated = {p for placement in response["placements"] for p in placement["players"]}
    assert seated.isdisjoint({9, 14})  # dropped
    assert 15 in seated  # joined late
    if layout == "byes":
        assert [len(p["players"]) for p in response["placements"]][-1] == 1  # byes come last


def test_the_response_follows_the_standings():
    """Round 1: 1 and 5 win their pods. Every split of the two pods into two repeats the same
    number of pairs, so only points decide: the two winners must meet."""
    request = parse_request(
        text(
            {
                "players": list(range(1, 9)),
                "rounds": [
                    [{"players": [1, 2, 3, 4], "winner": 1}, {"players": [5, 6, 7, 8], "winner": 5}]
                ],
            }
        )
    )
    pods = [set(p["players"]) for p in respond(request)["placements"]]
    assert any({1, 5} <= pod for pod in pods)


def test_the_same_request_gives_the_same_response_and_the_seed_matters():
    first_round = event(rounds=[])
    request = parse_request(text(first_round))
    assert respond(request) == respond(parse_request(text(first_round)))
    others = {
        json.dumps(respond(parse_request(text({**first_round, "seed": s})))) for s in range(5)
    }
    assert len(others) > 1


def test_a_first_round_of_three():
    request = parse_request(text({"players": [7, 3, 5], "rounds": []}))
    response = respond(request)
    assert sorted(response["placements"][0]["players"]) == [3, 5, 7]
    assert len(response["placements"]) == 1


@pytest.mark.parametrize(("planned", "told"), [(None, None), (5, 5), ({"absent": 1}, None)])
def test_the_planned_rounds_reach_the_pairer(monkeypatch, planned, told):
    """`planned_rounds` is passed to `pair_pods` as `rounds` (absent or null: not known)."""
    asked = []
    real = protocol.pair_pods

    def noting(**kwargs):
        asked.append((kwargs["round_number"], kwargs["rounds"]))
        return real(**kwargs)

    monkeypatch.setattr(protocol, "pair_pods", noting)
    request = event()
    if planned != {"absent": 1}:
        request["planned_rounds"] = planned
    respond(parse_request(text(request)))
    assert asked == [(len(EVENT["rounds"]) + 1, told)]


@pytest.mark.parametrize(
    ("pods", "byes"),
    [(((1, 2, 3, 4),), ()), (((1, 2, 3), (4, 5, 6, 7)), (7,)), (((1, 2, 8), (3, 4, 5, 6)), (7,))],
)
def test_a_wrong_pairing_from_the_engine_is_never_answered(monkeypatch, pods, byes):
    """Seven players; the engine is made to lose one, seat one twice, or seat a stranger."""
    wrong = PodPairing(pods=pods, byes=byes, badness=0, spread=0.0, warnings=())
    monkeypatch.setattr(protocol, "pair_pods", lambda **kwargs: wrong)
    request = parse_request(text({"players": [1, 2, 3, 4, 5, 6, 7], "rounds": []}))
    with pytest.raises(PodPairingError, match="every player exactly once"):
        respond(request)


# ---------------------------------------------------------------------------------------------
# Properties: nothing gets past but a refusal or a correct pairing

KEYS = [
    "players",
    "rounds",
    "winner",
    "weights",
    "layout",
    "seed",
    "planned_rounds",
    "spread",
    "repeat",
    "x",
]
JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=30)
    | st.integers()
    | st.floats()
    | st.sampled_from(["threes", "byes", "", "1"])
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(KEYS), inner),
    max_leaves=40,
)


def outcome(request_text: str):
    """The response, or None for a refusal; any other exception fails the test."""
    try:
        request = parse_request(request_text)
        response = respond(request)
    except (ProtocolError, PodPairingError) as error:
        message = str(error)
        assert message and "\n" not in message
        return None
    check_response(request, response)
    return response


@settings(max_examples=300, deadline=None)
@given(JSONISH)
def test_any_json_value_is_refused_or_paired(value):
    outcome(json.dumps(value))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='{}[]":,0123456789 -.enulltrueplayersroundswinner', max_size=80))
def test_any_text_is_refused_or_paired(value):
    outcome(value)


@st.composite
def valid_requests(draw):
    """Random valid requests: 3-20 active players, up to 4 earlier rounds with drops, late
    joiners, byes and draws, and sometimes the optional keys."""
    pool = list(range(1, 26))
    players = draw(st.lists(st.sampled_from(pool), min_size=3, max_size=20, unique=True))
    rounds = []
    for _ in range(draw(st.integers(0, 4))):
        present = draw(st.permutations(draw(st.lists(st.sampled_from(pool), unique=True))))
        tables, i = [], 0
        while i < len(present):
            size = draw(st.integers(1, 5))
            seats = present[i : i + size]
            i += size
            winner = seats[0] if len(seats) == 1 else draw(st.sampled_from([0, *seats]))
            tables.append({"players": seats, "winner": winner})
        rounds.append(tables)
    request = {"players": players, "rounds": rounds}
    if draw(st.booleans()):
        request["layout"] = draw(st.sampled_from(["threes", "fives", "byes"]))
        request["seed"] = draw(st.integers(-(2**70), 2**70))
        request["weights"] = draw(
            st.dictionaries(
                st.sampled_from(["spread", "repeat", "odd_pod", "rematch"]),
                st.floats(0, 100) | st.integers(0, 100),
            )
        )
    return request


BAD_IDS = [0, -1, 1.0, 2.5, True, False, None, "1", [1], {"id": 1}]


@st.composite
def broken_requests(draw):
    """A valid request with one change the protocol forbids, and the place it must name."""
    request = draw(valid_requests())
    tables = [(r, t) for r, round_ in enumerate(request["rounds"]) for t in range(len(round_))]
    choices = ["player id", "player twice", "top key", "weights", "layout", "seed"]
    if tables:
        choices += ["seat id", "winner", "seat twice", "empty table", "table key"]
    choice = draw(st.sampled_from(choices))
    if choice == "player id":
        index = draw(st.integers(0, len(request["players"]) - 1))
        request["players"][index] = draw(st.sampled_from(BAD_IDS))
        return request, f"players[{index}]"
    if choice == "player twice":
        index = draw(st.integers(1, len(request["players"]) - 1))
        request["players"][index] = request["players"][0]
        return request, f"players[{index}]"
    if choice == "top key":
        key = draw(st.sampled_from(["players", "rounds"]))
        del request[key]
        return request, "request"
    if choice == "weights":
        request["weights"] = draw(
            st.sampled_from([{"speed": 1}, {"spread": -1}, {"repeat": "1"}, [1], "w"])
        )
        return request, "weights"
    if choice == "layout":
        request["layout"] = draw(st.sampled_from(["", "fours", 3, ["threes"]]))
        return request, "layout"
    if choice == "seed":
        request["seed"] = draw(st.sampled_from([0.5, "0", True, [0]]))
        return request, "seed"
    r, t = draw(st.sampled_from(tables))
    table = request["rounds"][r][t]
    place = f"rounds[{r}][{t}]"
    if choice == "seat id":
        seat = draw(st.integers(0, len(table["players"]) - 1))
        table["players"][seat] = draw(st.sampled_from(BAD_IDS))
        return request, f"{place}.players[{seat}]"
    if choice == "winner":
        table["winner"] = draw(
            st.sampled_from([-1, 26, 1.0, True, None, "0", 0 if len(table["players"]) == 1 else -2])
        )
        return request, f"{place}.winner"
    if choice == "seat twice":
        earlier = [p for table_ in request["rounds"][r][:t] for p in table_["players"]]
        if earlier:
            table["players"][0] = draw(st.sampled_from(earlier))
            return request, f"{place}.players[0]"
        table["players"].append(table["players"][0])
        return request, f"{place}.players[{len(table['players']) - 1}]"
    if choice == "empty table":
        table["players"] = []
        return request, f"{place}.players"
    del table[draw(st.sampled_from(["players", "winner"]))]
    return request, place


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_requests())
def test_valid_requests_are_paired(value):
    response = outcome(json.dumps(value))
    assert response is not None
    seated = {p for placement in response["placements"] for p in placement["players"]}
    assert seated == set(value["players"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_requests())
def test_broken_requests_are_refused_at_their_place(broken):
    value, place = broken
    with pytest.raises(ProtocolError) as raised:
        parse_request(json.dumps(value))
    assert str(raised.value).startswith((f"{place}: ", f"{place}.")), (str(raised.value), place)
