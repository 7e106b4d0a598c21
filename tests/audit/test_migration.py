"""The audit trail's move out of leagues keeps every row (leagues 0008, audit 0001).

A database of its own is migrated up to the move and put in the shape leagues 0005-0007 gave
it then (the event as a foreign key to tournaments, no event name column; 0005 no longer
writes that column), rows are written there, and the migrations run forward through the move
(the rest of the project's would render every app's state again for nothing these rows need).
"""

from django.db import connection

from audit.models import AuditEntry
from tests.migrations import friday_league, migrated

BEFORE_THE_MOVE = [
    ("leagues", "0007_importbatch_preview"),
    ("tournaments", "0004_tournament_judge"),
]
THE_MOVE = [("audit", "0001_initial"), ("tournaments", "0004_tournament_judge")]


def _tournament_foreign_keys() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT c.conname FROM pg_constraint c
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
               WHERE c.conrelid = 'leagues_auditentry'::regclass AND c.contype = 'f'
                 AND a.attname = 'tournament_id'"""
        )
        return [row[0] for row in cursor.fetchall()]


def test_moving_the_audit_trail_keeps_its_rows_and_frees_the_event(empty_database):
    old = migrated(BEFORE_THE_MOVE)
    league = friday_league(old)
    event = old.get_model("tournaments", "Tournament").objects.create(
        league=league, name="Friday Night Magic", slug="fnm", seed=1
    )
    with connection.cursor() as cursor:  # the table exactly as leagues 0005-0007 left it
        cursor.execute(
            """ALTER TABLE leagues_auditentry ADD COLUMN tournament_id bigint NULL
                   CONSTRAINT old_tournament_fk REFERENCES tournaments_tournament (id)
                   DEFERRABLE INITIALLY DEFERRED;
               INSERT INTO leagues_auditentry (organization_id, league_id, tournament_id,
                   actor_label, action, object_type, object_id, summary, created_at)
               VALUES (%(org)s, %(league)s, NULL, 'olive', 'game.create', 'game', 7,
                       'a game', now()),
                      (%(org)s, %(league)s, %(event)s, 'jude', 'entry.drop', 'entry', 3,
                       'a drop', now())""",
            {"org": league.organization_id, "league": league.pk, "event": event.pk},
        )
    assert _tournament_foreign_keys() == ["old_tournament_fk"]

    new = migrated(THE_MOVE)
    rows = new.get_model("audit", "AuditEntry").objects

    # The rows read as today's model reads them (its action labels are its own method).
    fields = ("pk", "action", "tournament_id", "tournament_name", "actor_label")
    entries = {row["action"]: AuditEntry(**row) for row in rows.values(*fields)}
    assert set(entries) == {"game.create", "entry.drop"}
    drop = entries["entry.drop"]
    assert (drop.tournament_id, drop.tournament_name) == (event.pk, "Friday Night Magic")
    assert drop.actor_label == "jude" and drop.get_action_display() == "Player dropped"
    assert entries["game.create"].tournament_id is None
    assert _tournament_foreign_keys() == []  # audit sits below tournaments now
    new.get_model("tournaments", "Tournament").objects.get(pk=event.pk).delete()
    kept = rows.get(pk=drop.pk)  # the entry outlives its event
    assert (kept.tournament_id, kept.tournament_name) == (event.pk, "Friday Night Magic")
