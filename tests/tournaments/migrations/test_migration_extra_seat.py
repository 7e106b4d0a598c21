"""Migration tournaments 0017 (issue 43): a registration not seated whose player the TO had
entered by name (they played while their pages said "on the waitlist") takes that entry."""

from tests.migrations import friday_league, migrated

BEFORE = [("tournaments", "0016_round_decklist_problems")]
AFTER = [("tournaments", "0017_entry_extra_seat")]


def test_a_waiting_player_the_to_entered_is_seated_by_the_entry(empty_database):
    old = migrated(BEFORE)
    league = friday_league(old)
    Tournament = old.get_model("tournaments", "Tournament")
    Player = old.get_model("leagues", "Player")
    Registration = old.get_model("tournaments", "Registration")
    event = Tournament.objects.create(
        league=league, name="Friday", slug="friday-1", seed=1, format="pods", top_cut=0
    )
    people = {
        n: Player.objects.create(organization_id=league.organization_id, name=n)
        for n in ("Ann", "Eve", "Fay")
    }
    ann = event.entries.create(player=people["Ann"])
    Registration.objects.create(tournament=event, player=people["Ann"], status="seated", entry=ann)
    eve = event.entries.create(player=people["Eve"])  # the TO typed her in from the waitlist
    Registration.objects.create(tournament=event, player=people["Eve"], status="waitlisted")
    Registration.objects.create(tournament=event, player=people["Fay"], status="waitlisted")

    new = migrated(AFTER)
    rows = new.get_model("tournaments", "Registration").objects.order_by("player__name")
    assert [(r.player.name, r.status, r.entry_id) for r in rows] == [
        ("Ann", "seated", ann.pk),
        ("Eve", "seated", eve.pk),
        ("Fay", "waitlisted", None),
    ]
    assert rows.get(player__name="Eve").checked_in_at is not None
    Entry = new.get_model("tournaments", "Entry")
    assert not Entry.objects.filter(extra_seat=True).exists()
