"""`audit.summary.Summary`, a History sentence kept before translation: it keeps in JSON what
it was made of (nested phrases, lists, clauses, days, plurals, a context), reads in English as
the old summaries did, and in the active language with every piece of it translated."""

from datetime import date

import pytest
from django.utils import translation

from audit.summary import N_, Day, Nn_, Summary


def invited(players) -> Summary:
    return Summary(
        N_("Top %(top)s of %(season)s invited: %(players)s"),
        top=4,
        season="Winter",
        players=players,
    )


def test_it_keeps_what_it_was_made_of_in_json_and_comes_back_equal():
    summary = Summary(
        N_("Events of %(season)s: %(changes)s"),
        season="Winter",
        changes=Summary.clauses(
            [
                Summary(N_("%(event)s: no longer counts"), event="Friday"),
                Summary(N_("%(event)s: counts as %(type)s"), event="Saturday", type="Regular"),
            ]
        ),
    )
    nested = Summary(
        N_("%(where)s: judge called by %(who)s (%(reason)s)"),
        where=Summary(N_("round %(number)s"), number=3),
        who="Ann",
        reason=Summary.pgettext("why a judge is called", "time"),
    )
    counted = Summary(Nn_("%(n)s no-show removed", "%(n)s no-shows removed"), n=2)
    day = Summary(N_("copied to %(days)s"), days=[Day(date(2026, 12, 3), "GH_DAY_MONTH")])
    for value in (summary, nested, counted, day, invited(["Ann", "Bob"])):
        data = value.to_json()
        assert Summary.from_json(data) == value
        assert Summary.from_json(data).english() == value.english()
    assert nested.to_json()["v"]["reason"] == {"t": "time", "ctx": "why a judge is called"}
    assert (
        summary.english()
        == "Events of Winter: Friday: no longer counts; Saturday: counts as Regular"
    )
    assert nested.english() == "round 3: judge called by Ann (time)"
    assert day.english() == "copied to 3 Dec"


def test_a_plural_reads_by_its_count_and_needs_one():
    one = Summary(Nn_("%(n)s no-show removed", "%(n)s no-shows removed"), n=1)
    assert (one.english(), str(Summary.from_json({**one.to_json(), "v": {"n": 3}}))) == (
        "1 no-show removed",
        "3 no-shows removed",
    )
    with pytest.raises(ValueError, match="counted by"):
        Summary(Nn_("%(n)s game", "%(n)s games"), games=3)


def test_a_value_is_a_name_a_number_a_phrase_a_list_or_a_day():
    with pytest.raises(TypeError):
        Summary(N_("%(player)s dropped"), player=object())


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Top 4 von Winter eingeladen: Ann, Bob"),
        ("ja", "Winterの上位4名を招待しました：Ann、Bob"),  # noqa: RUF001
    ],
)
def test_it_reads_in_the_active_language_with_its_list_joined_there(language, expected):
    with translation.override(language):
        assert invited(["Ann", "Bob"]).render() == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Runde 3: Judge gerufen von Ann (Zeit)"),
        ("ja", "ラウンド3：Annがジャッジを呼びました（時間）"),  # noqa: RUF001
    ],
)
def test_its_nested_phrases_translate_too(language, expected):
    summary = Summary(
        N_("%(where)s: judge called by %(who)s (%(reason)s)"),
        where=Summary(N_("Round %(number)s"), number=3),
        who="Ann",
        reason=Summary.pgettext("why a judge is called", "time"),
    )
    with translation.override(language):
        assert summary.render() == expected
