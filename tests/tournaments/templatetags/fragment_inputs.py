"""Small fixed inputs for the golden tests of the hot fragments (test_fragments_golden.py):
plain rows as the selectors return them, with names that need escaping and every branch a
fragment draws."""

from types import SimpleNamespace

from django.template import Context, Template

from tournaments.formats import FORMATS
from tournaments.selectors import BoardSeat, BoardTable, SeatFinder, StandingLine
from tournaments.selectors.console import SeatRow

TABLES_URL = "/events/fnm/tables/"


def render(source: str, **context) -> str:
    return Template(source).render(Context(context))


def seat(pk, entry, position, name, *, place=None, game_wins=None, table=1):
    return SeatRow(pk, entry, position, game_wins, place, entry + 1000, name, table)


def card_table(pk, number, seats, **fields):
    """A table as `console_round` hands it to the cards: model fields, seat rows."""
    values = {
        "pk": pk,
        "number": number,
        "version": 1,
        "extra_minutes": 0,
        "reported": False,
        "is_draw": False,
        "winner_id": None,
        "game_draws": 0,
        "result_label": "",
    }
    values.update(fields)
    table = SimpleNamespace(**values)
    table.seat_rows = seats
    return table


def unreported():
    return SimpleNamespace(state="unreported", open=[], decided=None, waiting_for=[], needed=2)


def pod_cards() -> str:
    tables = [
        card_table(
            11,
            1,
            [
                seat(1, 101, 1, "Ann <b>", place=1),
                seat(2, 102, 2, "Bob & Co", place=2),
                seat(3, 103, 3, 'Cy "C"', place=2),
            ],
            version=3,
            reported=True,
            winner_id=101,
        ),
        card_table(
            12,
            2,
            [seat(4, 104, 1, "Dee"), seat(5, 105, 2, "Eve"), seat(6, 106, 3, "Finn")],
            extra_minutes=5,
            report_state=unreported(),
        ),
        card_table(
            13,
            3,
            [
                seat(7, 107, 1, "Gus", place=1),
                seat(8, 108, 2, "Hal", place=1),
                seat(9, 109, 3, "Ida", place=1),
            ],
            version=2,
            reported=True,
            is_draw=True,
            report_state=SimpleNamespace(
                state="entered", open=[], decided=None, waiting_for=[], needed=0
            ),
        ),
    ]
    return render(
        "{% load console %}{% table_cards tables %}",
        tables=tables,
        event=SimpleNamespace(play=FORMATS["pods"]),
        csrf_token="tok&1",
        tables_url=TABLES_URL,
        round=SimpleNamespace(kind="swiss"),
    )


def match_cards() -> str:
    tables = [
        card_table(
            21,
            1,
            [seat(1, 201, 1, "Ann <b>", game_wins=2), seat(2, 202, 2, "Bob", game_wins=1)],
            reported=True,
            winner_id=201,
            game_draws=1,
            result_label="2-1-1",
            version=4,
        ),
        card_table(22, 2, [seat(3, 203, 1, "Cy")], reported=True, winner_id=203),
        card_table(
            23,
            3,
            [seat(4, 204, 1, "Dee", game_wins=1), seat(5, 205, 2, "Eve", game_wins=1)],
            reported=True,
            is_draw=True,
            extra_minutes=10,
        ),
        card_table(24, 4, [seat(6, 206, 1, "Finn"), seat(7, 207, 2, "Gus")]),
    ]
    return render(
        "{% load console %}{% table_cards tables %}",
        tables=tables,
        event=SimpleNamespace(play=FORMATS["1v1"]),
        csrf_token="tok&1",
        tables_url=TABLES_URL,
        round=SimpleNamespace(kind="top_cut"),
        message="That table's result changed <meanwhile>",
        cards_oob=True,
    )


def entry(pk, name, *, joined=1, dropped=None, seated=True, byes=(), by_player=False):
    return {
        "pk": pk,
        "name": name,
        "joined_round": joined,
        "dropped_after": dropped,
        "seated": seated,
        "bye_rounds": list(byes),
        "dropped_by_player": by_player,
    }


def entry_list(status: str = "swiss") -> str:
    entries = [
        entry(1, "Ann <b>", joined=2, byes=[3, 4]),
        entry(2, "Bob", dropped=2),
        entry(3, "Cy & Co", dropped=1, seated=False, by_player=True),
        entry(4, "Dee", seated=False),
    ]
    return render(
        "{% load console %}{% entry_list entries %}",
        entries=entries,
        event=SimpleNamespace(status=status),
        entries_url="/events/fnm/entries/",
        csrf_token="tok&1",
    )


def board_seat(entry, name, position, *, won=False, place="", deck=""):
    return BoardSeat(entry, name, position, won, place, deck)


def pod_board() -> list[BoardTable]:
    return [
        BoardTable(
            31,
            1,
            True,
            False,
            False,
            "",
            True,
            [
                board_seat(1, "Ann <b>", 1, won=True, place="1st", deck="Elves & Co"),
                board_seat(2, "Bob", 2, place="2nd"),
                board_seat(3, "Cy", 3, place="3rd\u20134th"),
                board_seat(4, "Dee", 4, place="3rd\u20134th"),
            ],
        ),
        BoardTable(
            32,
            2,
            False,
            False,
            False,
            "",
            False,
            [board_seat(5, "Eve", 1), board_seat(6, "Finn", 2), board_seat(7, "Gus", 3)],
            extra_minutes=5,
        ),
        BoardTable(
            33,
            3,
            True,
            False,
            False,
            "",
            False,
            [board_seat(8, "Hal", 1, won=True), board_seat(9, "Ida", 2), board_seat(10, "Jo", 3)],
        ),
        BoardTable(
            34,
            4,
            True,
            True,
            False,
            "",
            False,
            [board_seat(11, "Kai", 1), board_seat(12, "Lu", 2), board_seat(13, "Max", 3)],
        ),
        BoardTable(35, 5, True, False, True, "", False, [board_seat(14, "Ned", 1, won=True)]),
        BoardTable(36, 6, True, False, False, "", False, [board_seat(15, "Oz", 1, won=True)]),
    ]


def match_board() -> list[BoardTable]:
    return [
        BoardTable(
            41,
            1,
            True,
            False,
            False,
            "2-1 <x>",
            False,
            [board_seat(1, "Ann <b>", 1, won=True, deck="Elves & Co"), board_seat(2, "Bob", 2)],
        ),
        BoardTable(
            42,
            2,
            False,
            False,
            False,
            "",
            False,
            [board_seat(3, "Cy", 1), board_seat(4, "Dee", 2)],
            extra_minutes=10,
        ),
        BoardTable(
            43,
            3,
            True,
            False,
            False,
            "",
            False,
            [board_seat(5, "Eve", 1), board_seat(6, "Finn", 2)],
            extra_minutes=10,
        ),
        BoardTable(44, 4, True, False, True, "bye", False, [board_seat(7, "Gus", 1, won=True)]),
        BoardTable(45, 5, True, False, False, "bye", False, [board_seat(8, "Hal", 1, won=True)]),
    ]


def finder() -> list[SeatFinder]:
    return [
        SeatFinder("Ann <b>", 1, 1, ["Bob & Co", "Cy"]),
        SeatFinder("Dee", 7, 3, []),
    ]


def standing_lines() -> list[StandingLine]:
    return [
        StandingLine(1, False, 10, "Ann <b>", 9.0, "3-0-0", ["66.7%", "\u2013"], False),
        StandingLine(2, True, 20, "Bob & Co", 4.5, "1-1-1", ["50.0%", "<1>"], True),
        StandingLine(2, True, 30, "Cy", 4.5, "1-1-1", ["50.0%", "1"], False),
    ]


def standings(placings=None) -> str:
    return render(
        "{% load standings %}{% standing_rows lines placings %}",
        event=SimpleNamespace(slug="fnm"),
        lines=standing_lines(),
        decks={"Bob & Co": "Elves <3>"},
        placings=placings,
    )


def final_placings():
    """A finished event's placings: Cy won the cut, Ann and Bob share 2nd-3rd."""
    placings = [
        SimpleNamespace(player=30, label="1st"),
        SimpleNamespace(player=10, label="2nd\u20133rd"),
        SimpleNamespace(player=20, label="2nd\u20133rd"),
    ]
    return SimpleNamespace(
        final=True,
        placings=placings,
        by_player=lambda: {placing.player: placing for placing in placings},
    )
