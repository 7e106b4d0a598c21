"""Migration tournaments 0005 (issue 16): the events already stored keep how they were ranked
and paired (1/3 floors, stored as 0.333; the bye moved up to avoid a rematch), and events
created afterwards get the MTR's settings."""

from decimal import Decimal

from tests.migrations import friday_league, migrated

BEFORE = [("tournaments", "0004_tournament_judge")]
AFTER = [("tournaments", "0005_game_draws_floors_bye_pairing")]


def test_existing_events_keep_their_floors_and_bye(empty_database):
    old = migrated(BEFORE)
    Tournament = old.get_model("tournaments", "Tournament")
    league = friday_league(old)
    made = {
        "modern": Tournament.objects.create(league=league, name="Modern", slug="modern", seed=1),
        "set": Tournament.objects.create(
            league=league, name="Set", slug="set", seed=1, omw_floor=Decimal("0.25")
        ),
        "pods": Tournament.objects.create(
            league=league, name="cEDH", slug="cedh", seed=1, format="pods", top_cut=4
        ),
    }
    new = migrated(AFTER).get_model("tournaments", "Tournament")
    stored = {k: new.objects.get(pk=t.pk) for k, t in made.items()}
    floors = {k: (t.omw_floor, t.gw_floor, t.bye_pairing) for k, t in stored.items()}
    assert floors == {
        "modern": (Decimal("0.333"), Decimal("0.333"), "avoid_rematch"),  # was 1/3 by default
        "set": (Decimal("0.250"), Decimal("0.333"), "avoid_rematch"),  # its own floor kept
        "pods": (None, Decimal("0.333"), "avoid_rematch"),  # the pod default (1/4) stays
    }
    fresh = new.objects.create(league_id=league.pk, name="New", slug="new", seed=1)
    assert (fresh.omw_floor, fresh.gw_floor, fresh.bye_pairing) == (None, None, "mtr")
