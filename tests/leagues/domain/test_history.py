"""The history page's lines from audit snapshots: plain dicts in, readable lines out."""

import pytest

from leagues.domain.history import Line, changes, describe

GAME = {
    "played_on": "2026-11-20",
    "notes": "",
    "results": [
        {"player_id": 1, "player": "Ann", "place": 1, "seat": 2},
        {"player_id": 2, "player": "Bob", "place": 2},
        {"player_id": 3, "player": "Cy", "place": 2},
    ],
}


def seat(entry, player, position, place=None, game_wins=None):
    return {
        "entry_id": entry,
        "player": player,
        "position": position,
        "place": place,
        "game_wins": game_wins,
    }


@pytest.mark.parametrize(
    ("object_type", "snapshot", "lines"),
    [
        ("game", GAME, ["Played 2026-11-20", "1st Ann (seat 2)", "2nd Bob", "2nd Cy"]),
        ("game", {**GAME, "results": [], "notes": "late"}, ["Played 2026-11-20", "Note: late"]),
        ("table", {"reported": False, "seats": []}, ["No result"]),
        (
            "table",
            {
                "reported": True,
                "draw": False,
                "winner": "Bob",
                "seats": [seat(1, "Ann", 1, 2, 1), seat(2, "Bob", 2, 1, 2)],
            },
            ["Bob won 2-1 against Ann"],  # the winner's side, though Bob sat second
        ),
        (
            "table",
            {"reported": True, "draw": True, "seats": [seat(1, "Ann", 1, 1), seat(2, "Bob", 2, 1)]},
            ["Ann v Bob: draw"],
        ),
        (
            "table",
            {
                "reported": True,
                "draw": False,
                "seats": [seat(1, "A", 1, 3), seat(2, "B", 2, 1), seat(3, "C", 3, 2)],
            },
            ["1st B", "2nd C", "3rd A"],
        ),
        (
            "round",
            {
                "tables": [
                    {"number": 1, "players": ["Ann", "Bob"]},
                    {"number": 2, "players": ["Cy", "Dee", "Eve"]},
                    {"number": 3, "players": ["Fay"]},
                ]
            },
            ["Table 1: Ann v Bob", "Pod 2: Cy, Dee, Eve", "Bye: Fay"],
        ),
        ("entry", {"player": "Ann", "dropped_after": 3}, ["Ann dropped after round 3"]),
        ("entry", {"player": "Ann", "dropped_after": None}, ["Ann playing"]),
        (
            "import",
            {"games": 1, "filename": "a.csv", "players_created": ["Zed"], "skipped_lines": [4]},
            ["1 game from a.csv", "New players: Zed", "Skipped lines: 4"],
        ),
        ("game", None, []),
    ],
)
def test_snapshots_read_as_lines(object_type, snapshot, lines):
    assert describe(object_type, snapshot) == lines


def test_changes_mark_what_differs_on_each_side():
    after = {
        **GAME,
        "results": [GAME["results"][1] | {"place": 1}, GAME["results"][0] | {"place": 2}],
    }
    before_lines, after_lines = changes("game", GAME, after)
    assert before_lines == [
        Line("Played 2026-11-20", False),
        Line("1st Ann (seat 2)", True),
        Line("2nd Bob", True),
        Line("2nd Cy", True),
    ]
    assert after_lines == [
        Line("Played 2026-11-20", False),
        Line("1st Bob", True),
        Line("2nd Ann (seat 2)", True),
    ]
    assert changes("game", None, GAME)[0] == []


class Field:
    def __init__(self, label, choices=None, show=None):
        self.label, self.choices, self.show = label, choices, show


def test_an_upper_apps_kind_is_a_line_per_field_by_the_fields_its_app_registered():
    """A registration (tournaments' kind): each key by its label, a code by its label, a yes
    or no for a flag, a dash for nothing, a list joined; the page's `value` for the rest."""
    fields = {
        "player": Field("Player"),
        "status": Field("Status", {"waitlisted": "On the waitlist"}),
        "paid": Field("Paid"),
    }
    snapshot = {
        "status": "waitlisted",
        "paid": False,
        "player": "Ann",
        "note": None,
        "promoted": ["Bob", "Cy"],
        "since": "2026-12-04T20:00:00+00:00",
    }
    lines = describe("registration", snapshot, fields, lambda v: f"<{v}>")
    assert lines == [
        "note: —",  # a key no app named: its own name
        "Paid: no",
        "Player: <Ann>",
        "promoted: <Bob>; <Cy>",
        "since: <2026-12-04T20:00:00+00:00>",
        "Status: On the waitlist",
    ]
    # A field whose app writes its stored value itself (a note kept before translation).
    noted = {"upgrade": Field("Upgrade", show=lambda data: data["msgid"].upper())}
    assert describe("penalty", {"upgrade": {"msgid": "twice"}}, noted) == ["Upgrade: TWICE"]
    assert describe("penalty", {"upgrade": ""}, noted) == ["Upgrade: —"]
    # Without fields or a page (a kind nobody registered): key and value as they are.
    assert describe("widget", {"size": 3}) == ["size: 3"]


def test_the_pure_labels_are_the_models_own():
    """The History's pure module names a claim's states and a member's roles by the models'
    English labels (the catalogue's msgids), without importing the models: the two agree."""
    from django.utils import translation

    from leagues.domain.history import CLAIM_STATUS, ROLE_LABELS
    from leagues.models import PlayerClaim, Role

    with translation.override("en"):
        assert {code: str(label) for code, label in PlayerClaim.Status.choices} == CLAIM_STATUS
        assert {code: str(label) for code, label in Role.choices} == ROLE_LABELS
