"""The actions the apps register: every code the log ever stored keeps its label and its undo."""

import pytest

from audit.registry import action_get, action_label, action_register

# The labels of the choices enum the entries had in leagues (migration leagues 0006).
LABELS_BEFORE_THE_MOVE = {
    "game.create": "Game entered",
    "game.correct": "Game corrected",
    "game.delete": "Game deleted",
    "game.undo": "Correction undone",
    "game.restore": "Deleted game restored",
    "import.apply": "CSV imported",
    "match.report": "Match reported",
    "match.correct": "Match corrected",
    "match.undo": "Match correction undone",
    "pod.report": "Pod reported",
    "pod.correct": "Pod corrected",
    "pod.undo": "Pod correction undone",
    "pairing.swap": "Players swapped",
    "pairing.manual": "Paired by hand",
    "pairing.bye": "Bye given",
    "entry.drop": "Player dropped",
    "entry.undrop": "Drop undone",
    "entry.remove": "Entry removed",
}

# What an undo of each undoable action records (the old AuditEntry.UNDO_ACTIONS).
UNDONE_AS = {
    "game.correct": "game.undo",
    "game.delete": "game.restore",
    "match.correct": "match.undo",
    "pod.correct": "pod.undo",
    "entry.drop": "entry.undrop",
}


@pytest.mark.parametrize("code,label", LABELS_BEFORE_THE_MOVE.items())
def test_every_stored_action_keeps_its_label_and_its_undo(code, label):
    assert action_label(code) == label
    action = action_get(code)
    assert (action.undone_as, action.undo is not None) == (
        UNDONE_AS.get(code),
        code in UNDONE_AS,
    )


def test_an_action_cannot_be_registered_twice_with_another_meaning():
    with pytest.raises(ValueError, match="already registered"):
        action_register("game.create", "Something else")
    action_register("game.create", "Game entered")  # the same again is harmless
