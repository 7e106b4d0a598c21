"""Results that read like a tournament, on the pages: the winner banner of a finished event,
each player's own finish ("3rd\u20134th of 8", "4th of 17", "5th of 17 after round 2") on the
event player page and on their own event page, and the final standings' place column.

The expected places follow from the bracket by hand: who won which top-cut table is chosen
by seed below, and the bands (1st, 2nd, 3rd-4th, then the Swiss standing) are the rule."""

import pytest
from django.urls import reverse

from tests import scenes
from tests.factories import UserFactory
from tests.tournaments.play import play_round
from tournaments.domain.labels import place_label
from tournaments.models import Entry, Round, Tournament
from tournaments.page_versions import event_changed
from tournaments.selectors import standings
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end
from tournaments.services.topcut import top_cut_start

pytestmark = pytest.mark.django_db

EN = "\u2013"


def entry_of(event, player_id):
    return Entry.objects.select_related("player").get(tournament=event, player_id=player_id)


def name_of(event, player_id):
    return entry_of(event, player_id).player.name


def page(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def report_by_seed(round_, winners):
    """Report each table of a top-cut round: `winners[i]` is the player id who wins table i+1."""
    for table, winner in zip(round_.tables.order_by("number"), winners, strict=True):
        entry = table.seats.get(entry__player_id=winner).entry
        table_report(table=table, winner=entry)
    return round_end(round_=round_)


@pytest.fixture
def top4(league):
    """8 players, 1v1, 3 Swiss rounds (the first seat wins), a top 4: seed 4 beats seed 1,
    seed 2 beats seed 3, then seed 2 beats seed 4 in the final. Ann's account holds seed 1."""
    event = scenes.swiss_played(league=league, name="Friday 1v1", swiss_rounds=3, top_cut=4).event
    seeds = standings(event).ranking
    semis = top_cut_start(tournament=event)
    assert [
        sorted(s.entry.player_id for s in t.seats.all()) for t in semis.tables.order_by("number")
    ] == [sorted([seeds[0], seeds[3]]), sorted([seeds[1], seeds[2]])]
    report_by_seed(semis, [seeds[3], seeds[1]])
    final = event.rounds.get(kind=Round.Kind.TOP_CUT, number=5)
    report_by_seed(final, [seeds[1]])
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    return event, seeds


def test_finished_event_shows_the_winner_banner(client, top4):
    event, seeds = top4
    entry = entry_of(event, seeds[1])
    entry.deck_name = "Mono-Red Burn"
    entry.save(update_fields=["deck_name"])
    event_changed(event.pk)  # a deck edited outside the services: the pages follow
    text = page(client, "event_detail", event.slug)
    assert f"Winner: {name_of(event, seeds[1])}" in text
    assert "Mono-Red Burn" in text  # decks are public once the event ends


def test_each_player_finish_on_their_event_player_page(client, top4):
    event, seeds = top4
    expected = {
        seeds[1]: "1st of 8",  # won the final
        seeds[3]: "2nd of 8",  # lost the final
        seeds[0]: f"3rd{EN}4th of 8",  # lost a semi-final
        seeds[2]: f"3rd{EN}4th of 8",
    }
    for player, finish in expected.items():
        text = page(client, "event_player", event.slug, player)
        assert f"Finished <strong>{finish}</strong>" in text, (player, finish)


def test_the_players_own_event_page_says_where_they_finished(client, top4):
    event, seeds = top4
    user = UserFactory(username="seed1")
    player = entry_of(event, seeds[0]).player
    player.user = user
    player.save(update_fields=["user"])
    client.force_login(user)
    text = page(client, "my_event", event.slug)
    assert f"You finished <strong>3rd{EN}4th of 8</strong>" in text


def test_final_standings_show_the_place_column_in_final_order(client, top4):
    event, seeds = top4
    text = page(client, "event_standings", event.slug)
    assert '<th class="place">Place</th>' in text
    rows = [name_of(event, p) for p in (seeds[1], seeds[3], seeds[0], seeds[2])]
    positions = [text.index(f">{name}</a>") for name in rows]
    assert positions == sorted(positions)  # 1st, 2nd, then the two 3rd-4th by Swiss seed
    assert '<td class="place">1st</td>' in text
    assert text.count(f'<td class="place">3rd{EN}4th</td>') == 2


@pytest.fixture
def no_cut(league):
    """8 players, 1v1, 3 Swiss rounds (the first seat wins), no top cut: finished."""
    event = scenes.event_finished(league=league, name="No cut", swiss_rounds=3).event
    assert event.status == Tournament.Status.FINISHED
    return event


def test_final_standings_say_how_they_are_ordered(client, top4, no_cut):
    event, _ = top4
    assert "the top cut by the round each player reached" in page(
        client, "event_standings", event.slug
    )
    # No cut (a red-team find: the page spoke of a top cut the store never ran).
    text = page(client, "event_standings", no_cut.slug)
    assert "Final standings after 3 Swiss rounds." in text
    assert "top cut" not in text.lower()


def test_no_banner_and_swiss_places_during_the_event(client, league):
    scene = scenes.event_open(league=league, name="Tuesday", swiss_rounds=3)
    event = scene.event
    assert "player-finish" not in page(
        client, "event_player", event.slug, event.entries.first().player_id
    )
    round_3 = scenes.round_paired(scenes.rounds_played(2, scene)).round
    rows = standings(event).rows
    # Any player will do; when the random pairings leave every player tied with another
    # (it happens), the place is the shared band the tied players fill: "3rd\u20134th".
    row = rows[len(rows) // 2]
    sharing = sum(1 for r in rows if r.rank == row.rank)
    label = place_label(row.rank)
    if sharing > 1:
        label += f"{EN}{place_label(row.rank + sharing - 1)}"
    before = page(client, "event_player", event.slug, row.player)
    assert f"Now <strong>{label} of 8 after round 2</strong>" in before
    # A result in round 3 moves nobody until the round ends.
    for table in round_3.tables.all():
        table_report(table=table, winner=table.seats.order_by("position").last().entry)
    after = page(client, "event_player", event.slug, row.player)
    assert f"{label} of 8 after round 2" in after
    assert "Winner:" not in page(client, "event_detail", event.slug)


def test_event_without_a_top_cut_crowns_the_undefeated_player(client, no_cut):
    event = no_cut
    # Eight players, three rounds, no draws: exactly one player won all three.
    undefeated = [r.player for r in standings(event).rows if r.wins == 3]
    assert len(undefeated) == 1
    assert f"Winner: {name_of(event, undefeated[0])}" in page(client, "event_detail", event.slug)
    text = page(client, "event_player", event.slug, undefeated[0])
    assert "Finished <strong>1st of 8</strong>" in text


@pytest.fixture
def pods17(league):
    """17 players at pods, 3 Swiss rounds, a top 4 (one final pod)."""
    pilots = (f"Pilot {n:02}" for n in range(1, 18))
    build = {"name": "Commander Night", "format": "pods", "swiss_rounds": 3, "top_cut": 4}
    event = scenes.swiss_played(league=league, players=pilots, **build).event
    seeds = standings(event).ranking
    final = top_cut_start(tournament=event)
    return event, seeds, final.tables.get()


def test_seventeen_player_pod_night_final_order(client, pods17):
    event, seeds, table = pods17
    entries = {s.entry.player_id: s.entry for s in table.seats.select_related("entry")}
    assert set(entries) == set(seeds[:4])
    # The final pod: seed 3 wins, then seed 1, seed 4, seed 2.
    order = {seeds[2]: 1, seeds[0]: 2, seeds[3]: 3, seeds[1]: 4}
    table_report(table=table, places={entries[p].pk: q for p, q in order.items()})
    round_end(round_=table.round)
    assert f"Winner: {name_of(event, seeds[2])}" in page(client, "event_detail", event.slug)
    expected = {seeds[2]: "1st", seeds[0]: "2nd", seeds[3]: "3rd", seeds[1]: "4th"}
    for player, place in expected.items():
        text = page(client, "event_player", event.slug, player)
        assert f"Finished <strong>{place} of 17</strong>" in text


def test_a_drawn_final_pod_is_said_honestly(client, pods17):
    event, seeds, table = pods17
    table_report(table=table, draw=True)
    round_end(round_=table.round)
    text = page(client, "event_detail", event.slug)
    assert "Winner:" not in text
    assert "Drawn final:" in text and "share first place" in text
    for player in seeds[:4]:
        assert name_of(event, player) in text
    # The cut's rule sends the best seed on (MTRA 2.1): said as such, not as a plain win.
    assert f"{name_of(event, seeds[0])} takes the title as the best Swiss seed" in text
    finalist = page(client, "event_player", event.slug, seeds[3])
    assert f"Finished <strong>1st{EN}4th of 17</strong>" in finalist


def test_a_tie_for_first_without_a_cut_is_said_as_shared(client, league):
    # Four players, one round: both winners beat a 0-1 player 2-0, so they are equal on
    # points, OMW% (0.33, the floor), GW% and OGW%: they share first, 1st-2nd.
    scene = scenes.rounds_played(1, league=league, name="Quick", players=4, swiss_rounds=1)
    event, round_ = scene.event, scene.round
    winners = sorted(
        t.seats.order_by("position").first().entry.player.name for t in round_.tables.all()
    )
    text = page(client, "event_detail", event.slug)
    assert "Winner:" not in text
    assert f"Shared first place:</strong> {winners[0]} and {winners[1]}, tied on" in text
    for table in round_.tables.all():
        first = table.seats.order_by("position").first().entry.player_id
        mine = page(client, "event_player", event.slug, first)
        assert f"Finished <strong>1st{EN}2nd of 4</strong>" in mine


def test_late_entries_are_not_counted_before_they_have_played(client, league):
    """Issue 43: after round 1 a player read "13th of 18": the 18 counted the late entries
    who join in round 2 and had played nothing. The field after round N is who was in by
    then; a late entry counts once they have played."""
    # Ivy and Jo enter during round 1: they join in round 2.
    scene = scenes.round_paired(league=league, name="Late", swiss_rounds=3, late=["Ivy", "Jo"])
    event = scene.event
    late = [scene.entry("Ivy"), scene.entry("Jo")]
    assert {e.joined_round for e in late} == {2}
    scenes.rounds_played(1, scene)  # round 1 reported (the first seat wins) and ended
    ann = Entry.objects.select_related("player").get(tournament=event, player__name="Ann")
    shown = page(client, "event_player", event.slug, ann.player_id)
    assert " of 8 after round 1</strong>" in shown, shown
    assert " of 10 " not in shown
    ann.player.user = UserFactory(username="ann")
    ann.player.save(update_fields=["user"])
    client.force_login(ann.player.user)
    mine = page(client, "my_event", event.slug)
    assert " of 8</strong>" in mine and " of 10</strong>" not in mine
    client.logout()
    # The late entry has no place yet: they have not played.
    assert "after round 1</strong>" not in page(
        client, "event_player", event.slug, late[0].player_id
    )
    # Once round 2 is played, they are in the field.
    play_round(event)
    event_changed(event.pk)
    shown = page(client, "event_player", event.slug, late[0].player_id)
    assert " of 10 after round 2</strong>" in shown, shown


def banner_line(winner, *, top_cut: int, lang: str) -> str:
    """The banner's first line for `winner`, in `lang`, its markup kept and spaces folded."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string
    from django.utils import translation

    from tournaments.templatetags.placings import BANNER, winner_context

    event = SimpleNamespace(top_cut=top_cut, slug="friday")
    with translation.override(lang):
        html = render_to_string(BANNER, winner_context(event, winner))
    line = html.split('<p class="winner-line">', 1)[1].split("</p>", 1)[0]
    return " ".join(line.split())


def test_a_shared_first_place_is_one_sentence_with_its_list_of_names_in_each_language():
    """Issue 45: the banner was glued from "Drawn final:", the names, "and" and "share first
    place." translated apart; each case is one sentence now, the names one list in it."""
    from tournaments.selectors.placings import Winner

    three = Winner([("Ann", "Mono-Red Burn"), ("Bob", ""), ("Cy", "")])
    two = Winner([("Ann", ""), ("Bob", "")])
    burn = '<span class="deck">Mono-Red Burn</span>'
    assert banner_line(three, top_cut=4, lang="en") == (
        f"<strong>Drawn final:</strong> Ann {burn}, Bob and Cy share first place."
    )
    assert banner_line(three, top_cut=4, lang="de") == (
        f"<strong>Unentschiedenes Finale:</strong> Ann {burn}, Bob und Cy teilen sich den "
        "ersten Platz."
    )
    assert banner_line(two, top_cut=0, lang="de") == (
        "<strong>Geteilter erster Platz:</strong> Ann und Bob, gleichauf nach Punkten und "
        "jeder Feinwertung."
    )
    # Japanese puts the names before the verb and lists them with 、 and と.
    assert banner_line(three, top_cut=4, lang="ja") == (
        f"<strong>引き分けの決勝：</strong>Ann {burn}、BobとCyが同率1位です。"  # noqa: RUF001
    )
    assert banner_line(two, top_cut=0, lang="ja") == (
        "<strong>同率1位：</strong>AnnとBob（ポイントとすべてのタイブレーカーで同点）。"  # noqa: RUF001
    )


def test_a_name_in_the_banner_is_escaped():
    from tournaments.selectors.placings import Winner

    winner = Winner([("<b>Ann</b>", ""), ("Bob & Co", "")])
    assert "&lt;b&gt;Ann&lt;/b&gt; and Bob &amp; Co share" in banner_line(
        winner, top_cut=4, lang="en"
    )
