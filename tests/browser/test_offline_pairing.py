"""The phone's pairing under Pyodide is the server's pairing (issue 34): the same events (1v1
and pods, 17 and 9 players with a drop and a requested bye, a first round of 13 pods), paired
by the server and by the pure code running in Chromium from the JSON the phone keeps. Pyodide
starts once for the whole module (its cold start is the heavy part)."""

import json

import pytest
from django.urls import reverse

from tests.factories import organizer_of
from tests.tournaments.offline.states import STATES, build, server_round
from tournaments.selectors.pairing_snapshot import pairing_snapshot

from .pyodide_assets import check_assets

pytestmark = pytest.mark.django_db(transaction=True)


def test_chromium_pairs_every_state_as_the_server_does(phone, league):
    check_assets()
    organizer_of(league.organization, username="olive")
    events = [build(league, *state) for state in STATES]
    snapshots = [json.loads(json.dumps(pairing_snapshot(event))) for event in events]
    phone.login("olive")
    phone.page.goto(phone.base + reverse("offline_pair", args=[events[0].slug]))
    phone.page.set_default_timeout(120_000)  # Pyodide's cold start

    answers = phone.page.evaluate(
        """async (snapshots) => {
            const run = await window.guildhallOffline.python;
            return snapshots.map((snapshot) => run(snapshot, {}));
        }""",
        snapshots,
    )

    for (name, *_), event, answer in zip(STATES, events, answers, strict=True):
        assert answer["ok"], (name, answer)
        assert answer["tables"] == server_round(event), name
