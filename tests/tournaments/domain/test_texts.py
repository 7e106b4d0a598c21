"""A pairing warning (`domain.texts.Note`): English as a string for the pure code and the
browser, its template and values kept so the site writes it in the reader's language."""

from tournaments.domain.history import read_history
from tournaments.domain.pairing import met_before
from tournaments.domain.records import Table
from tournaments.domain.texts import N_, Nn_, Note


def test_a_note_reads_as_its_english_sentence_with_the_right_plural():
    one = Note(Nn_("%(n)s pod seats X.", "%(n)s pods seat X."), {"n": 1}, count=1)
    two = Note(Nn_("%(n)s pod seats X.", "%(n)s pods seat X."), {"n": 2}, count=2)
    assert (one, two) == ("1 pod seats X.", "2 pods seat X.")
    assert isinstance(one, str) and one.template == "%(n)s pod seats X."


def test_a_note_renders_in_another_language_its_inner_notes_and_lists_too():
    pairs = tuple(
        Note(N_("%(a)s and %(b)s"), {"a": a, "b": b}) for a, b in (("A", "B"), ("C", "D"))
    )
    note = Note(N_("Pod %(number)s: %(pairs)s."), {"number": 3, "pairs": pairs})
    assert note == "Pod 3: A and B; C and D."
    german = {
        "%(a)s and %(b)s": "%(a)s und %(b)s",
        "Pod %(number)s: %(pairs)s.": "Tisch %(number)s: %(pairs)s.",
    }
    plural = lambda one, many, n: {1: "ein Tisch", 2: "%(n)s Tische"}[min(n, 2)]  # noqa: E731
    assert note.render(german.__getitem__, plural, " / ".join) == "Tisch 3: A und B / C und D."
    counted = Note(Nn_("%(n)s pod", "%(n)s pods"), {"n": 4}, count=4)
    assert counted.render(german.get, plural, ", ".join) == "4 Tische"


def test_the_rematches_name_each_table_and_how_often_its_players_met():
    history = [(Table(players=(1, 2), winner=1),), (Table(players=(1, 2), winner=2),)]
    (note,) = met_before(read_history(history), [(1, 2)])
    assert note == "1 v 2 (met before: 2)"


def test_a_note_kept_as_data_comes_back_the_same_with_its_inner_notes_and_context():
    """Issue 45: a round's notes and a penalty's reason are stored as `Note.data()` (JSON) and
    read back with `Note.load`, to be written in whoever reads them."""
    import json

    from tournaments.domain.texts import Np_, note_data, notes_data, notes_load

    pairs = tuple(
        Note(N_("%(a)s and %(b)s"), {"a": a, "b": b}) for a, b in (("A", "B"), ("C", "D"))
    )
    note = Note(
        Nn_("%(n)s pod: %(pairs)s.", "%(n)s pods: %(pairs)s."),
        {
            "n": 2,
            "pairs": pairs,
            "name": Note(Np_("IPG penalty", "Warning"), context="IPG penalty"),
        },
        count=2,
    )
    data = json.loads(json.dumps(note.data()))
    again = Note.load(data)
    assert again == note == "2 pods: A and B; C and D."
    assert (again.plural, again.count, again.params["name"].context) == (
        "%(n)s pods: %(pairs)s.",
        2,
        "IPG penalty",
    )
    german = {"%(a)s and %(b)s": "%(a)s und %(b)s"}
    plural = lambda one, many, n: "%(n)s Pods: %(pairs)s."  # noqa: E731
    pgettext = lambda context, text: {"Warning": "Verwarnung"}[text]  # noqa: E731
    text = again.render(lambda s: german.get(s, s), plural, "; ".join, pgettext)
    assert text == "2 Pods: A und B; C und D."
    assert again.params["name"].render(str, plural, "; ".join, pgettext) == "Verwarnung"
    # A text of before: as written, whether a `{"text": ...}` or a bare string of lines.
    assert Note.load({"text": "Paired on the phone."}) == "Paired on the phone."
    assert notes_load("one\n\ntwo") == ["one", "two"]
    assert notes_data("one\ntwo") == [{"text": "one"}, {"text": "two"}]
    assert note_data("typed") == {"text": "typed"}


def test_a_problems_plural_takes_the_form_for_its_count():
    from tournaments.domain.edits import validate_manual
    from tournaments.domain.nextround import NextRoundError, close_round
    from tournaments.domain.texts import fill

    pair = Nn_("%(count)s table.", "%(count)s tables.")
    assert (fill(pair, {"count": 1}), fill(pair, {"count": 3})) == ("1 table.", "3 tables.")
    polish = lambda one, many, n: ["%(count)s stół.", "%(count)s stoły.", "%(count)s stołów."][  # noqa: E731
        0 if n == 1 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2
    ]
    assert fill(pair, {"count": 5}, str, polish) == "5 stołów."
    problems = validate_manual([(1, 2), (1, 3)], [1], [1, 2, 3], [])
    assert "Player 1 is seated 3 times." in problems
    assert "Table 1 seats 1 player; a 1v1 table seats exactly 2 players." in validate_manual(
        [(1,), (2, 3)], [], [1, 2, 3], []
    )
    opened = {"tables": [{"number": n, "players": [n, n + 10], "requested": False} for n in (2, 5)]}
    try:
        close_round({"history": [], "open": opened})
    except NextRoundError as error:
        assert error.message == "No result yet at tables 2, 5."
        assert (error.plural, error.count) == ("No result yet at tables %(tables)s.", 2)
    else:
        raise AssertionError("a round without results was closed")
