"""Issue 45's migrations keep what was stored as text readable (tournaments 0018, judging 0003):
a round's notes of before (one a line, in the TO's language) become notes shown as written, a
top-cut round's stage leaves its notes for its own column, and a penalty's English upgrade and
result are kept as texts; an empty one is none."""

from django.utils import translation

from judging.models import Penalty
from tests.migrations import friday_league, migrated
from tournaments.models import Round

BEFORE = [("tournaments", "0017_entry_extra_seat"), ("judging", "0002_penalty_loses_game")]
# Only up to the two migrations under test (the rest of the project's would render every app's
# state again for nothing these rows need: 30 s of the suite).
AFTER = [("tournaments", "0018_round_notes_as_data"), ("judging", "0003_penalty_texts_as_data")]


def test_the_texts_of_before_are_kept_and_shown_as_written(empty_database):
    old = migrated(BEFORE)
    league = friday_league(old)
    event = old.get_model("tournaments", "Tournament").objects.create(
        league=league, name="Friday", slug="fnm", seed=1
    )
    OldRound = old.get_model("tournaments", "Round")
    OldRound.objects.create(
        tournament=event, number=1, notes="1 Rematch: 1 v 2.\n14:05 tessa swapped Ann and Bob."
    )
    OldRound.objects.create(tournament=event, number=2, kind="top_cut", notes="Final")
    OldRound.objects.create(tournament=event, number=3, notes="")
    player = old.get_model("leagues", "Player").objects.create(
        organization_id=league.organization_id, name="Ann"
    )
    entry = old.get_model("tournaments", "Entry").objects.create(tournament=event, player=player)
    old.get_model("judging", "Penalty").objects.create(
        tournament=event,
        entry=entry,
        infraction="TE-SP",
        penalty="game_loss",
        expected="game_loss",
        upgrade_reason="the second Slow Play of this event (IPG 3)",
        result_entered="",
    )

    new = migrated(AFTER)

    # The rows as the migrations left them, read as today's models read them (the words
    # below are the models' own properties, which the migration state's models lack).
    fields = ("number", "stage", "notes", "kind", "status")
    rounds = {
        r["number"]: Round(**r)
        for r in new.get_model("tournaments", "Round").objects.values(*fields)
    }
    assert rounds[1].notes == [
        {"text": "1 Rematch: 1 v 2."},
        {"text": "14:05 tessa swapped Ann and Bob."},
    ]
    assert (rounds[2].stage, rounds[2].notes) == ("Final", [])
    assert (rounds[3].stage, rounds[3].notes) == ("", [])
    penalty = Penalty(
        **new.get_model("judging", "Penalty")
        .objects.values("upgrade_reason", "result_entered")
        .get()
    )
    assert penalty.upgrade_reason == {"text": "the second Slow Play of this event (IPG 3)"}
    assert penalty.result_entered == {}
    with translation.override("de"):
        assert rounds[1].notes_text == "1 Rematch: 1 v 2.\n14:05 tessa swapped Ann and Bob."
        assert rounds[2].label == "Finale"
        assert penalty.upgrade_text == "the second Slow Play of this event (IPG 3)"
