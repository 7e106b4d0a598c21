"""The round the phone pairs from the JSON input is the round the server pairs: the same
standings, the same pairing, the same seats (Python on the server here; the browser's Pyodide
run is tests/browser/test_offline_pairing.py)."""

import json

import pytest

from tournaments.domain import nextround
from tournaments.selectors.pairing_snapshot import pairing_input, pairing_snapshot

from .states import STATES, build, server_round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("state", STATES, ids=[s[0] for s in STATES])
def test_the_json_input_pairs_the_round_the_server_pairs(league, state):
    event = build(league, *state)
    # Through JSON text, as the phone receives it.
    data = json.loads(json.dumps(pairing_input(event)))

    phone = nextround.pair_next(data)

    assert phone.tables == server_round(event)
    assert phone.number == event.rounds.order_by("-number").first().number


def test_the_snapshot_needs_a_result_for_every_table_the_phone_taps_the_rest(league):
    event = build(league, *STATES[1])  # 1v1: the server's results carry the games
    snapshot = pairing_snapshot(event)
    opened = snapshot["open"]["tables"]
    table = next(t for t in opened if len(t["players"]) == 2)
    stored, table["result"] = table["result"], None
    winner = stored["winner"] or table["players"][0]

    with pytest.raises(nextround.NextRoundError, match=f"table {table['number']}"):
        nextround.close_round(snapshot)
    closed = nextround.close_round(snapshot, {str(table["number"]): {"winner": winner}})

    tapped = next(t for t in closed["history"][-1] if t["players"] == table["players"])
    assert tapped["winner"] == winner
    assert tapped["finish"] == [1 if p == winner else 2 for p in table["players"]]
    assert tapped["game_wins"] is None
    # The server stored the games too: the phone's input is not the server's (an upload of a
    # round paired from it is refused as stale, with the round named).
    assert nextround.digest(closed) != nextround.digest(pairing_input(event))
    with pytest.raises(nextround.NextRoundError, match="Tap the winner"):
        nextround.close_round(snapshot, {str(table["number"]): {"winner": 10**9}})
