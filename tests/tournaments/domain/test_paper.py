"""The wall sheet's order: by a name's last word, accents and case aside."""

import pytest

from tournaments.domain.paper import last_name_key, wall_name


@pytest.mark.parametrize(
    ("name", "last", "rest", "letter"),
    [
        ("Bob Baker", "Baker", "Bob", "B"),
        ("Ann de Vries", "Vries", "Ann de", "V"),  # the last word, as the sheet says
        ("Cher", "Cher", "", "C"),
        ("  Émile   Åberg ", "Åberg", "Émile", "A"),
        ("", "", "", "#"),
    ],
)
def test_a_name_splits_at_its_last_word(name, last, rest, letter):
    split = wall_name(name)
    assert (split.last, split.rest, split.letter) == (last, rest, letter)


def test_the_order_is_by_last_word_then_the_rest_ignoring_accents_and_case():
    names = ["zoe baker", "Ann Baker", "Émile Åberg", "Cy ADAMS", "Bob baker", "Cher"]
    assert sorted(names, key=last_name_key) == [
        "Émile Åberg",
        "Cy ADAMS",
        "Ann Baker",
        "Bob baker",
        "zoe baker",
        "Cher",
    ]
