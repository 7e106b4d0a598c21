"""Player names: one spelling for what reads the same, and look-alikes told apart (issue 30,
break 9). Worked examples from the red team's names and Unicode's tables."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.domain.csvformat import parse_games_csv
from leagues.domain.names import look_alikes, name_normalize, name_skeleton

CYRILLIC_E = "\u0435"
GREEK_CAPITAL_O = "\u039f"


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Reg1\u200b", "Reg1"),  # zero-width space
        ("Re\u200cg1", "Reg1"),  # zero-width non-joiner
        ("R\u200deg1", "Reg1"),  # zero-width joiner
        ("Reg\u20601", "Reg1"),  # word joiner
        ("\ufeffReg1", "Reg1"),  # byte-order mark
        ("Re\u00adg1", "Reg1"),  # soft hyphen
        ("Reg1\u200e", "Reg1"),  # left-to-right mark
        ("Reg1\ufe0f", "Reg1"),  # variation selector
        ("\uff32\uff45\uff47\uff11", "Reg1"),  # full-width letters (NFKC)
        ("Big\u00a07", "Big 7"),  # no-break space is a space
        ("Ann  \u2003 Lee", "Ann Lee"),  # runs of any white space fold to one space
        ("  Ann\t", "Ann"),
        ("Jos\u0065\u0301", "Jos\u00e9"),  # composed: é typed as e + accent is é
        ("\u0418\u0432\u0430\u043d", "\u0418\u0432\u0430\u043d"),  # Иван stays Иван
    ],
)
def test_a_name_is_stored_as_it_reads(typed, stored):
    assert name_normalize(typed) == stored


@pytest.mark.parametrize(
    ("new", "existing", "reads_like"),
    [
        (f"R{CYRILLIC_E}g1", "Reg1", True),
        (f"R{CYRILLIC_E}G1", "reg1", True),  # ignoring case, as players are matched
        (f"{GREEK_CAPITAL_O}live", "Olive", True),
        ("\u0410nn", "Ann", True),  # Cyrillic capital A
        ("reg1", "Reg1", False),  # the same name: found, not a look-alike
        ("Reg2", "Reg1", False),
        ("\u0418\u0432\u0430\u043d", "Ivan", False),  # a name in Cyrillic is not "Ivan"
        ("Jos\u00e9", "Jose", False),  # an accent is a different letter, seen as one
    ],
)
def test_look_alikes(new, existing, reads_like):
    found = look_alikes([new], [existing])
    assert found == ({new: existing} if reads_like else {})


def test_two_new_names_may_read_alike_too():
    new = ["Reg1", f"R{CYRILLIC_E}g1"]
    assert look_alikes(new, new) == {"Reg1": f"R{CYRILLIC_E}g1", f"R{CYRILLIC_E}g1": "Reg1"}


@given(st.text(max_size=30))
def test_normalizing_twice_changes_nothing(text):
    once = name_normalize(text)
    assert name_normalize(once) == once
    assert name_skeleton(once) == name_skeleton(text)


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=20))
def test_an_ascii_name_is_its_own_skeleton_ignoring_case(text):
    assert name_skeleton(text) == " ".join(text.split()).casefold()


def test_a_csv_name_of_invisible_characters_only_is_a_problem_of_its_row():
    parsed = parse_games_csv("g1,2020-11-20,Ann,\u200b\u200b,Bob\ng2,2020-11-21,Reg1\u200b,Ann\n")

    assert [(p.line, p.field, p.message) for p in parsed.problems] == [
        (1, "column D (2nd place)", "the name has no visible characters")
    ]
    assert [[f.name for f in g.finishers] for g in parsed.games] == [["Reg1", "Ann"]]
