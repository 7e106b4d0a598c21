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
