"""A pod event (Commander / cEDH) through the services: pods, results, byes, edits, top cut."""

from fractions import Fraction

import pytest

from leagues.models import Game
from ratings.models import RatingChange
from tests.factories import TournamentFactory
from tests.tournaments.play import play_round, register
from tournaments.domain.podcut import SEMI_FINAL_SEEDS as SEMIS
from tournaments.domain.pods import pod_sizes
from tournaments.errors import ResultConflict, TournamentError
from tournaments.models import Entry, Round, Seat, Table, Tournament
from tournaments.selectors import (
    omw_floor,
    points_scheme,
    standings,
    suggested_structure,
    tiebreakers,
    top_cut_bracket,
)
from tournaments.services.entries import entry_drop
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import (
    round_edit,
    round_end,
    round_give_bye,
    round_pair,
    round_swap,
)
from tournaments.services.topcut import top_cut_start

pytestmark = pytest.mark.django_db

NAMES = [f"P{n:02}" for n in range(1, 17)]


@pytest.fixture
def event(league):
    return tournament_create(league=league, name="cEDH Night", format="pods")


def sizes(round_):
    return sorted((t.seats.count() for t in round_.tables.all()), reverse=True)


def pod(round_, number=1):
    """A pod's table and its entries in seat order."""
    table = round_.tables.get(number=number)
    return table, [s.entry for s in table.seats.order_by("position")]


def places(table):
    return list(table.seats.order_by("position").values_list("place", flat=True))


def game_places(table):
    game = Table.objects.get(pk=table.pk).game
    return {r.player_id: (r.placement, r.seat) for r in game.results.all()}


def test_a_pod_event_scores_cedh_points_by_default_and_magic_on_request(league):
    pods = tournament_create(league=league, name="cEDH", format="pods")
    assert pods.format == Tournament.Format.PODS and pods.pod_layout == "threes"
    scheme = points_scheme(pods)
    assert (scheme.win, scheme.draw, scheme.loss, scheme.bye) == (5, 1, 0, 5)
    assert omw_floor(pods) == Fraction(1, 4)
    magic = tournament_create(league=league, name="Casual", format="pods", points="magic")
    assert float(magic.points_win) == 3 and float(magic.points_bye) == 3
    one_v_one = tournament_create(league=league, name="Modern")
    # MTR Appendix C floors at 0.33, not 1/3.
    assert float(one_v_one.points_win) == 3 and omw_floor(one_v_one) == Fraction(33, 100)


def test_pod_events_default_to_the_pod_tiebreakers(league):
    from tournaments.domain.standings import PRESETS

    event = tournament_create(league=league, name="cEDH", format="pods")
    assert event.tiebreakers == list(PRESETS["pods"])
    chosen = tournament_create(league=league, name="Classic", format="pods", tiebreakers="magic")
    assert chosen.tiebreakers == list(PRESETS["magic"])


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"format": "pods", "top_cut": 8}, "top_cut"),
        ({"format": "pods", "pod_layout": "sixes"}, "pod_layout"),
        ({"format": "triples"}, "format"),
        ({"format": "pods", "points": "go"}, "points"),
    ],
)
def test_bad_event_settings_are_refused(league, kwargs, field):
    with pytest.raises(TournamentError) as refused:
        tournament_create(league=league, name="Bad", **kwargs)
    assert refused.value.field == field
    assert not Tournament.objects.exists()


def test_thirteen_players_are_seated_in_pods_of_4_3_3_3(event):
    register(event, *NAMES[:13])
    round_ = round_pair(tournament=event)
    assert tuple(sizes(round_)) == pod_sizes(13, "threes")[0] == (4, 3, 3, 3)
    assert [t.number for t in round_.tables.all()] == [1, 2, 3, 4]
    seats = Seat.objects.filter(round=round_)
    assert seats.count() == 13 and seats.values("entry").distinct().count() == 13
    for table in round_.tables.all():
        positions = list(table.seats.values_list("position", flat=True))
        assert positions == list(range(1, len(positions) + 1))  # seat 1 goes first
    assert not round_.tables.filter(reported=True).exists()  # no byes with "threes"
    event.refresh_from_db()
    expected = suggested_structure(event, 13)[0]
    assert event.swiss_rounds == expected and event.status == Tournament.Status.SWISS


def test_a_winner_takes_five_points_and_the_league_game_has_them_first(
    event, django_capture_on_commit_callbacks
):
    register(event, *NAMES[:4])
    round_ = round_pair(tournament=event)
    table, seated = pod(round_)
    winner = seated[2]
    with django_capture_on_commit_callbacks(execute=True):
        table = table_report(table=table, winner=winner)
    assert table.reported and table.winner == winner and not table.is_draw
    assert places(table) == [2, 2, 1, 2]
    game = table.game
    assert game.source == Game.Source.TOURNAMENT and "pod 1" in game.notes
    assert game_places(table) == {
        e.player_id: (1 if e == winner else 2, position) for position, e in enumerate(seated, 1)
    }
    points = standings(event).points
    assert points == {e.player_id: (5 if e == winner else 0) for e in seated}
    # Guildmaster Elo: the winner beats three players at 1500: 3 x 40 x ½ = 60.
    assert RatingChange.objects.get(game=game, player=winner.player).delta == 60


def test_a_draw_gives_everyone_first_place_and_a_point(event):
    register(event, *NAMES[:4])
    table, seated = pod(round_pair(tournament=event))
    table = table_report(table=table, draw=True)
    assert table.is_draw and table.winner is None and places(table) == [1, 1, 1, 1]
    assert {p for p, _ in game_places(table).values()} == {1}
    assert standings(event).points == {e.player_id: 1 for e in seated}


def test_a_full_finishing_order(event):
    register(event, *NAMES[:4])
    table, seated = pod(round_pair(tournament=event))
    order = {seated[0].pk: 3, seated[1].pk: 1, seated[2].pk: 4, seated[3].pk: 2}
    table = table_report(table=table, places=order)
    assert table.winner == seated[1] and not table.is_draw
    assert places(table) == [3, 1, 4, 2]
    assert {p: place for p, (place, _) in game_places(table).items()} == {
        e.player_id: order[e.pk] for e in seated
    }
    assert standings(event).points[seated[1].player_id] == 5


def test_a_full_order_with_a_shared_first_place_is_a_draw(event):
    register(event, *NAMES[:4])
    table, seated = pod(round_pair(tournament=event))
    order = dict(zip([e.pk for e in seated], [1, 3, 1, 4], strict=True))
    table = table_report(table=table, places=order)
    assert table.is_draw and table.winner is None and places(table) == [1, 3, 1, 4]
    assert sorted(p for p, _ in game_places(table).values()) == [1, 1, 3, 4]
    assert set(standings(event).points.values()) == {1}


def test_a_stale_form_conflicts_and_the_same_result_twice_is_a_no_op(event):
    register(event, *NAMES[:4])
    table, seated = pod(round_pair(tournament=event))
    order = {e.pk: n for n, e in enumerate(seated, 1)}
    table = table_report(table=table, places=order, expected_version=0)
    assert table.version == 1
    again = table_report(table=table, places=order, expected_version=0)  # double tap
    assert again.version == 1
    # Tapping the same winner on a form showing the full order keeps the order.
    same = table_report(table=table, winner=seated[0], expected_version=1)
    assert same.version == 1 and places(same) == [1, 2, 3, 4]
    with pytest.raises(ResultConflict, match="already has a different result"):
        table_report(table=table, winner=seated[1], expected_version=0)
    with pytest.raises(ResultConflict):
        table_report(table=table, draw=True, expected_version=0)
    table.refresh_from_db()
    assert table.winner == seated[0] and table.version == 1 and places(table) == [1, 2, 3, 4]
    assert Game.objects.count() == 1
    # A current form may change it; the same league game follows.
    game_id = table.game_id
    table = table_report(table=table, draw=True, expected_version=1)
    assert table.version == 2 and table.game_id == game_id and places(table) == [1, 1, 1, 1]


@pytest.mark.parametrize(
    ("call", "field", "message"),
    [
        ({"places": [1, 2, 3]}, "places", "every player at the pod a place"),
        ({"places": [1, 2, 3, 4, "outsider"]}, "places", "every player at the pod a place"),
        ({"places": [1, 3, 3, 4]}, "places", "must be a finishing order"),
        ({"places": [2, 2, 3, 4]}, "places", "must be a finishing order"),
        ({"places": [1, 2, 3, 5]}, "places", "must be a finishing order"),
        ({"places": [0, 1, 2, 3]}, "places", "must be a finishing order"),
        ({"places": [1, 2, 3, 4], "draw": True}, "places", "shared first place"),
        ({"places": [2, 1, 3, 4], "winner": 0}, "winner", "only player in first place"),
        ({}, "winner", "Tap the winner"),
        ({"winner": 0, "draw": True}, "winner", "Tap the winner"),
        ({"winner": "outsider"}, "winner", "is not at this table"),
        ({"winner": 0, "game_wins": [1, 0, 0, 0]}, "game_wins", "no game wins"),
    ],
)
def test_bad_pod_results_are_refused_and_change_nothing(event, call, field, message):
    register(event, *NAMES[:8])
    round_ = round_pair(tournament=event)
    table, seated = pod(round_, 1)
    _, others = pod(round_, 2)
    entries = [*seated, others[0]]  # "outsider": a player at the other pod

    def entry(key):
        return others[0] if key == "outsider" else seated[key]

    kwargs = {}
    if "places" in call:
        kwargs["places"] = {
            (others[0] if p == "outsider" else entries[i]).pk: (5 if p == "outsider" else p)
            for i, p in enumerate(call["places"])
        }
    if "winner" in call:
        kwargs["winner"] = entry(call["winner"])
    if "game_wins" in call:
        kwargs["game_wins"] = {e.pk: w for e, w in zip(seated, call["game_wins"], strict=True)}
    kwargs["draw"] = call.get("draw", False)
    with pytest.raises(TournamentError, match=message) as refused:
        table_report(table=table, **kwargs)
    assert refused.value.field == field
    table.refresh_from_db()
    assert not table.reported and table.version == 0 and table.game is None
    assert set(places(table)) == {None} and not Game.objects.exists()


def test_layout_byes_gives_byes_that_score_at_once_and_go_round(league):
    event = tournament_create(
        league=league, name="Byes", format="pods", pod_layout="byes", swiss_rounds=2
    )
    register(event, *NAMES[:6])
    first = round_pair(tournament=event)
    assert sizes(first) == [4, 1, 1]
    byes = [t for t in first.tables.all() if t.seats.count() == 1]
    assert [t.number for t in byes] == [2, 3]  # after the pods
    assert all(t.reported and t.winner == t.seats.get().entry and t.game is None for t in byes)
    had_bye = {t.winner.player_id for t in byes}
    assert all(standings(event).points[p] == 5 for p in had_bye)
    with pytest.raises(TournamentError, match="bye has no result"):
        table_report(table=byes[0], winner=byes[0].winner)
    table_report(table=first.tables.get(number=1), draw=True)
    round_end(round_=first)
    second = round_pair(tournament=event)
    again = {t.seats.get().entry.player_id for t in second.tables.all() if t.seats.count() == 1}
    assert len(again) == 2 and not again & had_bye  # the fewest byes get the next ones


@pytest.mark.parametrize(("layout", "expected"), [("fives", [5]), ("threes", [4, 1])])
def test_five_players(league, layout, expected):
    event = tournament_create(league=league, name="Five", format="pods", pod_layout=layout)
    register(event, *NAMES[:5])
    round_ = round_pair(tournament=event)
    assert sizes(round_) == expected == [*pod_sizes(5, layout)[0], *[1] * pod_sizes(5, layout)[1]]
    table, seated = pod(round_)
    order = {e.pk: n for n, e in enumerate(seated, 1)}
    table = table_report(table=table, places=order)
    assert places(table) == list(range(1, len(seated) + 1))


def test_the_round_says_which_pods_seat_players_who_met_before(event):
    register(event, *NAMES[:8])
    play_round(event)  # two pods of four: round 2 cannot avoid every repeat
    second = round_pair(tournament=event)
    met = [line for line in second.notes_text.splitlines() if line.startswith("Pod ")]
    assert met, second.notes_text
    number = int(met[0].split()[1])
    names = {s.entry.player.name for s in second.tables.get(number=number).seats.all()}
    pair = met[0].split(": ", 1)[1].split("; ")[0].rstrip(".").split(" and ")
    assert set(pair) <= names


def test_the_rounds_warnings_are_read_in_the_readers_language(event):
    """Issue 45: the pairing's warnings (pure English in the domain) are stored on the round
    as notes, names and numbers kept apart, and each reader reads them in their language,
    whichever language the TO who paired it had."""
    from django.utils import translation

    register(event, *NAMES[:8])
    play_round(event)
    with translation.override("ja"):
        second = round_pair(tournament=event)
    second.refresh_from_db()
    assert all("msgid" in note for note in second.notes), second.notes
    with translation.override("de"):
        german = [line for line in second.notes_text.splitlines() if line.startswith("Pod ")]
    assert german and "setzt Spieler zusammen" in german[0], second.notes_text
    assert " und " in german[0] and " and " not in german[0]
    with translation.override("ja"):
        japanese = second.notes_text
    assert "ポッド" in japanese and " and " not in japanese, japanese


def test_three_players_are_the_fewest_for_a_pod(league):
    event = tournament_create(league=league, name="Two", format="pods")
    register(event, "Ann", "Bob")
    with pytest.raises(TournamentError, match="At least three players"):
        round_pair(tournament=event)


def test_dropped_players_are_not_seated_again(event):
    entries = register(event, *NAMES[:8])
    first = play_round(event)
    assert sizes(first) == [4, 4]
    entry_drop(entry=Entry.objects.get(pk=entries[0].pk))
    second = round_pair(tournament=event)
    assert sizes(second) == [4, 3]
    assert not second.seats.filter(entry=entries[0]).exists()
    assert entries[0].player_id in standings(event).ranking


def test_the_pod_omw_floor_is_a_quarter_unless_the_event_sets_one(league):
    event = TournamentFactory(league=league, pods=True)
    assert tiebreakers(event)[:2] == ["points", "omw"]  # the pod preset
    register(event, *NAMES[:4])
    table, seated = pod(round_pair(tournament=event))
    table_report(table=table, winner=seated[0])
    loser = seated[1].player_id

    def omw():
        return next(r for r in standings(event).rows if r.player == loser).metrics["omw"]

    # The winner's 100%, two floored opponents: (1 + ¼ + ¼) / 3.
    assert omw() == pytest.approx(0.5)
    event.omw_floor = "0.400"
    event.save()
    assert omw() == pytest.approx((1 + 0.4 + 0.4) / 3)


def test_a_swap_says_which_pods_waiting_report_it_set_aside(event, organizer):
    """A red-team find: a pod's report, agreed by two of four, vanished with a swap, unsaid.
    The swap re-seats the pod, so the report goes; the TO is told, and it is on the round."""
    from tests.tournaments.play import report_posted
    from tournaments.models import ResultReport

    register(event, *NAMES[:8])
    round_ = round_pair(tournament=event)
    table_one, one = pod(round_, 1)
    _, two = pod(round_, 2)
    report_posted(table=table_one, entry=one[0], data={"winner": str(one[0].pk)})
    assert ResultReport.objects.filter(table=table_one).count() == 1
    warnings = round_swap(round_=round_, a=one[1], b=two[3], by=organizer)
    said = "Pod 1's report waiting for confirmation was set aside: the pod changed, its players"
    assert any(w.startswith(said) for w in warnings), warnings
    assert not any(w.startswith("Pod 2's report") for w in warnings)
    round_.refresh_from_db()
    assert said in round_.notes_text


def test_swapping_players_between_pods_keeps_the_pod_numbers(event, organizer):
    register(event, *NAMES[:8])
    round_ = round_pair(tournament=event)
    _, one = pod(round_, 1)
    _, two = pod(round_, 2)
    round_swap(round_=round_, a=one[1], b=two[3], by=organizer)
    _, now_one = pod(round_, 1)
    _, now_two = pod(round_, 2)
    assert now_one == [one[0], two[3], one[2], one[3]]  # into the other's seat
    assert now_two == [two[0], two[1], two[2], one[1]]
    round_.refresh_from_db()
    assert f"olive swapped {one[1].player} and {two[3].player}" in round_.notes_text
    # Inside one pod a swap changes the turn order.
    round_swap(round_=round_, a=now_one[0], b=now_one[3])
    assert pod(round_, 1)[1] == [now_one[3], now_one[1], now_one[2], now_one[0]]


def test_pod_edits_that_make_no_sense_are_refused(event):
    register(event, *NAMES[:7])  # a pod of 4 and a pod of 3
    round_ = round_pair(tournament=event)
    four = next(t for t in round_.tables.all() if t.seats.count() == 4)
    three = next(t for t in round_.tables.all() if t.seats.count() == 3)
    a, b = four.seats.first().entry, three.seats.first().entry
    with pytest.raises(TournamentError, match="1v1 matches"):
        round_edit(round_=round_, edit="pair", a=a, b=b)
    with pytest.raises(TournamentError, match="left with 2 players"):
        round_give_bye(round_=round_, entry=b)
    table_report(table=four, winner=a)
    with pytest.raises(TournamentError, match="already has a result"):
        round_swap(round_=round_, a=four.seats.last().entry, b=b)
    assert pod(round_, four.number)[1] == [s.entry for s in four.seats.order_by("position")]


def test_giving_a_bye_takes_a_player_out_of_a_pod_of_four(event):
    register(event, *NAMES[:8])
    round_ = round_pair(tournament=event)
    _, seated = pod(round_, 2)
    assert round_give_bye(round_=round_, entry=seated[1]) == []
    assert sizes(round_) == [4, 3, 1]
    bye = round_.tables.get(number=3)
    assert bye.reported and bye.winner == seated[1]
    assert pod(round_, 2)[1] == [seated[0], seated[2], seated[3]]
    with pytest.raises(TournamentError, match="already has the bye"):
        round_give_bye(round_=round_, entry=seated[1])
    # A swap with the player on the bye puts them back into a pod, in that seat.
    round_swap(round_=round_, a=seated[1], b=seated[2])
    assert pod(round_, 2)[1] == [seated[0], seated[1], seated[3]]
    assert round_.tables.get(number=3).seats.get().entry == seated[2]


def test_a_swap_that_seats_players_together_again_is_allowed_with_a_warning(event):
    register(event, *NAMES[:8])
    first = play_round(event)
    met = {
        frozenset((a.entry_id, b.entry_id))
        for t in first.tables.all()
        for a in t.seats.all()
        for b in t.seats.all()
        if a.pk != b.pk
    }
    round_ = round_pair(tournament=event)
    _, one = pod(round_, 1)
    _, two = pod(round_, 2)
    # Move someone from pod 2 into pod 1 next to a player they met in round 1.
    mover, target = next(
        (m, t)
        for m in two
        for t in one
        if any(frozenset((m.pk, o.pk)) in met for o in one if o != t)
    )
    warnings = round_swap(round_=round_, a=mover, b=target)
    assert any("met before" in w for w in warnings), warnings


@pytest.mark.parametrize("cut", [4, 16])
def test_top_cut_pods_to_a_champion(league, cut):
    players = 16 if cut == 4 else 24
    event = tournament_create(
        league=league, name=f"Top {cut}", format="pods", swiss_rounds=2, top_cut=cut
    )
    register(event, *(f"Q{n:02}" for n in range(players)))
    for _ in range(2):
        play_round(event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.SWISS  # not finished: the cut is next
    seeds = standings(event).ranking[:cut]
    first = top_cut_start(tournament=event)
    assert first.kind == Round.Kind.TOP_CUT and first.number == 3
    seated = [[s.entry.player_id for s in t.seats.order_by("position")] for t in first.tables.all()]
    if cut == 4:
        assert first.stage == "Final" and seated == [seeds]  # seed 1 in seat 1
        final = first
    else:
        assert first.stage == "Semi-finals"
        assert seated == [[seeds[n - 1] for n in pod] for pod in SEMIS]
        # A drawn pod sends its best seed on; the others' last seats win.
        tables = list(first.tables.order_by("number"))
        table_report(table=tables[0], draw=True)
        for table in tables[1:]:
            table_report(table=table, winner=table.seats.order_by("position").last().entry)
        a, b = (t.seats.first().entry for t in tables[:2])
        with pytest.raises(TournamentError, match="Only a Swiss round"):
            round_swap(round_=first, a=a, b=b)
        round_end(round_=first)
        final = event.rounds.get(number=4)
        assert final.kind == Round.Kind.TOP_CUT and final.stage == "Final"
        advanced = [seeds[0], *(pod[-1] for pod in seated[1:])]
        finalists = [s.entry.player_id for s in final.tables.get().seats.order_by("position")]
        assert finalists == sorted(advanced, key=seeds.index)  # seated by seed
    table = final.tables.get()
    champion = table.seats.order_by("position").last().entry
    table_report(table=table, winner=champion)
    round_end(round_=final)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert top_cut_bracket(event).champion == champion.player_id
    with pytest.raises(TournamentError):
        round_pair(tournament=event)


def test_a_drawn_final_pod_crowns_its_best_seed(league):
    event = tournament_create(league=league, name="Drawn", format="pods", swiss_rounds=1, top_cut=4)
    register(event, *NAMES[:8])
    play_round(event)
    seeds = standings(event).ranking
    final = top_cut_start(tournament=event)
    table_report(table=final.tables.get(), draw=True)
    round_end(round_=final)
    assert top_cut_bracket(event).champion == seeds[0]


def test_a_top_16_needs_sixteen_players(league):
    event = tournament_create(
        league=league, name="Small", format="pods", swiss_rounds=1, top_cut=16
    )
    register(event, *NAMES[:12])
    play_round(event)
    with pytest.raises(TournamentError, match="needs 16 players"):
        top_cut_start(tournament=event)


def test_the_pod_pairer_is_told_the_events_planned_rounds(league, monkeypatch):
    """The pod pairer weighs a repeat by the rounds left (domain.pods `rounds`): it looks one
    round ahead, but not past the last, and the last rounds weigh repeats differently. The
    real pairer runs; the test only notes what it was asked."""
    from tournaments.formats import pods as pod_format

    asked = []
    real = pod_format.pair_pods

    def noting(**kwargs):
        asked.append((kwargs["round_number"], kwargs["rounds"]))
        return real(**kwargs)

    monkeypatch.setattr(pod_format, "pair_pods", noting)
    event = tournament_create(league=league, name="Three rounds", format="pods", swiss_rounds=3)
    register(event, *NAMES[:8])
    for _ in range(3):
        play_round(event)
    assert asked == [(1, 3), (2, 3), (3, 3)]


def test_an_event_without_set_rounds_tells_the_pod_pairer_the_rounds_it_plans(league, monkeypatch):
    """With no Swiss rounds set, the event plans the suggested number when its first round is
    paired and stores it; the pairer is told that number, not nothing."""
    from tournaments.formats import pods as pod_format

    asked = []
    real = pod_format.pair_pods

    def noting(**kwargs):
        asked.append(kwargs["rounds"])
        return real(**kwargs)

    monkeypatch.setattr(pod_format, "pair_pods", noting)
    event = tournament_create(league=league, name="Unset", format="pods")
    assert event.swiss_rounds is None
    register(event, *NAMES[:9])
    play_round(event)
    event.refresh_from_db()
    assert event.swiss_rounds >= 2 and asked == [event.swiss_rounds]
