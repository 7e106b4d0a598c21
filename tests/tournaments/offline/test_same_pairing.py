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


def test_the_snapshot_needs_the_phone_results_for_the_tables_the_server_lacks(league):
    event = build(league, *STATES[1])
    snapshot = pairing_snapshot(event)
    opened = snapshot["open"]["tables"]
    table = next(t for t in opened if len(t["players"]) == 2)
    result, table["result"] = table["result"], None

    with pytest.raises(nextround.NextRoundError, match=f"table {table['number']}"):
        nextround.close_round(snapshot)
    closed = nextround.close_round(snapshot, {str(table["number"]): result})

    assert nextround.digest(closed) == nextround.digest(pairing_input(event))
