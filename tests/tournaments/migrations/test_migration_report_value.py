"""Migration tournaments 0014 (issue 32): a player's report keeps its result as one value
(`domain.result.Result.as_json`), converted from what its form posted; going back writes the
form's fields again. Each report below is written as 0013 stored it, by hand."""

from tests.migrations import friday_league, migrated

BEFORE = [("tournaments", "0013_event_listing_and_series")]
AFTER = [("tournaments", "0014_report_result_value")]


def _table(apps, league, fmt, names):
    Tournament = apps.get_model("tournaments", "Tournament")
    Player = apps.get_model("leagues", "Player")
    event = Tournament.objects.create(
        league=league, name=fmt, slug=f"e-{fmt}", seed=1, format=fmt, top_cut=0
    )
    round_ = event.rounds.create(number=1, status="playing")
    table = round_.tables.create(number=1)
    entries = []
    for position, name in enumerate(names, 1):
        player = Player.objects.create(organization_id=league.organization_id, name=name)
        entry = event.entries.create(player=player)
        table.seats.create(round=round_, entry=entry, position=position)
        entries.append(entry.pk)
    return table, entries


def test_reports_keep_the_value_their_form_said_and_go_back(empty_database):
    old = migrated(BEFORE)
    league = friday_league(old)
    pod, (a, b, c, d) = _table(old, league, "pods", ["Ann", "Bob", "Cy", "Dee"])
    match, (m, n) = _table(old, league, "1v1", ["Mo", "Ned"])
    Report = old.get_model("tournaments", "ResultReport")

    def stored(table, entry, number, payload, result):
        return Report.objects.create(
            table=table,
            entry_id=entry,
            number=number,
            payload=payload,
            result=result,
            summary="as said then",
            table_version=0,
        ).pk

    def settled(winner, places, wins=None, draws=0):
        return {
            "winner": winner,
            "places": {str(e): p for e, p in places.items()},
            "wins": {str(e): w for e, w in (wins or {}).items()},
            "draws": draws,
        }

    posted = {
        # Bob's name tapped: Bob won, the others share second.
        "winner": (pod, a, 1, {"winner": str(b)}, settled(b, {a: 2, b: 1, c: 2, d: 2})),
        "draw": (pod, b, 2, {"result": "draw"}, settled(None, {a: 1, b: 1, c: 1, d: 1})),
        "order": (
            pod,
            c,
            3,
            {"result": "order", f"place-{a}": "1", f"place-{b}": "2", f"place-{c}": "2"}
            | {f"place-{d}": "4"},
            settled(a, {a: 1, b: 2, c: 2, d: 4}),
        ),
        "1-2": (match, m, 1, {"result": "1-2"}, settled(n, {m: 2, n: 1}, {m: 1, n: 2})),
        "id": (match, n, 2, {"result": "id"}, settled(None, {m: 1, n: 1}, {m: 0, n: 0}, 3)),
    }
    ids = {key: stored(*row) for key, row in posted.items()}

    new = migrated(AFTER).get_model("tournaments", "ResultReport")
    values = {key: new.objects.get(pk=pk).result for key, pk in ids.items()}
    nothing = {"places": {}, "game_wins": {}, "game_draws": 0}
    assert values == {
        "winner": {"winner": b, "draw": False, **nothing},
        "draw": {"winner": None, "draw": True, **nothing},
        "order": {
            "winner": a,
            "draw": False,
            "places": {str(a): 1, str(b): 2, str(c): 2, str(d): 4},
            "game_wins": {},
            "game_draws": 0,
        },
        "1-2": {
            "winner": n,
            "draw": False,
            "places": {},
            "game_wins": {str(m): 1, str(n): 2},
            "game_draws": 0,
        },
        "id": {
            "winner": None,
            "draw": True,
            "places": {},
            "game_wins": {str(m): 0, str(n): 0},
            "game_draws": 3,
        },
    }
    assert not any(f.name == "payload" for f in new._meta.get_fields())

    back = migrated(BEFORE).get_model("tournaments", "ResultReport")
    again = {key: back.objects.get(pk=pk) for key, pk in ids.items()}
    assert {key: r.result for key, r in again.items()} == {k: r[4] for k, r in posted.items()}
    assert {key: r.payload for key, r in again.items()} == {
        "winner": {"winner": str(b)},
        "draw": {"result": "draw"},
        "order": posted["order"][3],
        "1-2": {"result": "1-2"},
        "id": {"result": "0-0-3"},  # the same result as "id" (read_code reads both)
    }
