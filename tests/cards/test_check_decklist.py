"""`manage.py check_decklist`: every problem with its line and rule; exit 1 when not legal,
0 when legal, 2 for a usage error; --json for machines."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.django_db

ILLEGAL = """Commander
1 Thrasios, Triton Hero
1 Tymna the Weaver

Deck
1 Sol Ring
1 sol ring
1 Mana Crypt
1 Lightning Bolt
1 Not A Real Card (XYZ) 12
30 Island
30 Plains
30 Swamp
"""
LEGAL = "Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n\nDeck\n1 Sol Ring\n97 Island\n"


def run(tmp_path, text, *args):
    path = tmp_path / "deck.txt"
    path.write_text(text)
    out = io.StringIO()
    try:
        call_command("check_decklist", str(path), *args, stdout=out)
    except SystemExit as exit:
        return exit.code, out.getvalue()
    return 0, out.getvalue()


def test_every_problem_with_its_line_and_rule(tmp_path, sample_cards_loaded):
    code, out = run(tmp_path, ILLEGAL, "--format", "commander")
    assert code == 1
    assert out.splitlines() == [
        "the list: [deck-size] The deck has 96 cards with its commanders (not counting 1 "
        "unknown line): exactly 100.",
        "line 7: [singleton] 2 copies of Sol Ring (first on line 6): one copy.",
        "line 8: [banned] Mana Crypt is banned in commander.",
        "line 9: [color-identity] Lightning Bolt (R) is outside the commanders' color "
        "identity (WUBG).",
        "line 10: [unknown-card] No card named “Not A Real Card”.",
        f"{tmp_path / 'deck.txt'}: 96 cards, commander: not legal (5 problems).",
    ]


def test_json(tmp_path, sample_cards_loaded):
    code, out = run(tmp_path, ILLEGAL, "--format", "commander", "--json")
    report = json.loads(out)
    assert code == 1 and report["legal"] is False
    assert [(p["line"], p["rule"]) for p in report["problems"]] == [
        (None, "deck-size"), (7, "singleton"), (8, "banned"), (9, "color-identity"),
        (10, "unknown-card"),
    ]  # fmt: skip
    assert report["commanders"] == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    sol = next(c for c in report["cards"] if c["name"] == "Sol Ring")
    assert sol["count"] == 2 and len(sol["oracle_id"]) == 36


def test_legal_exits_zero(tmp_path, sample_cards_loaded):
    code, out = run(tmp_path, LEGAL, "--format", "commander", "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    code, out = run(tmp_path, "4 Lightning Bolt\n56 Mountain\n", "--format", "modern")
    assert code == 0 and out.strip().endswith("60 cards, modern: legal.")


def test_commander_given_on_the_command_line(tmp_path, sample_cards_loaded):
    code, _ = run(tmp_path, "1 Sol Ring\n98 Island\n", "--format", "commander",
                  "--commander", "thrasios, triton hero")  # fmt: skip
    assert code == 0


def test_without_card_data_or_with_a_bad_file_exit_two(tmp_path, db):
    with pytest.raises(CommandError, match="load_cards") as error:
        run(tmp_path, LEGAL, "--format", "commander")
    assert error.value.returncode == 2


def test_unreadable_file_exits_two(tmp_path, sample_cards_loaded):
    with pytest.raises(CommandError, match="Cannot read") as error:
        call_command("check_decklist", str(tmp_path / "none.txt"), "--format", "modern")
    assert error.value.returncode == 2


def test_an_unknown_format_is_refused(tmp_path, sample_cards_loaded):
    with pytest.raises(CommandError, match="invalid choice"):
        run(tmp_path, LEGAL, "--format", "yugioh")
