"""An organization exported to JSON and imported into an empty site is the same organization.

The round trip: a store with two leagues (one rated with Elo and its own constants, one with
the dynamic Elo that reads per-player stats), league games with draws, seats, stats and notes,
a finished 1v1 Swiss event with a bye, a drop, a late entry and a top cut, and a finished pod
event with its final pod, next week's event with its listing, registrations and a weekly
copy, and a pod event being played, its players reporting and confirming their results
(one pod completed, one disputed, one confirmation withdrawn) and a table's time extension;
the store's profile and a player not vouched for. After export, wiping the site and
importing, the leaderboards, the rating ledgers, the event standings and the players' reports
equal the originals. Bad files change nothing and say where they are wrong.
"""

import copy
import datetime
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from achievements.models import Achievement, Claim, Scoring
from achievements.selectors import leaderboard as achievement_board
from achievements.services import (
    achievement_save,
    award,
    claim_confirm,
    claim_decline,
    claim_settle,
    claim_submit,
    scoring_set,
)
from exchange.services import FORMAT, VERSION, ExchangeError, organization_import
from judging.services.penalties import penalty_give
from leagues.models import ApiToken, Game, League, Organization, Player
from leagues.services.store import LogoUpload, organization_profile_update
from ratings import selectors as rating_selectors
from ratings.models import RatingChange
from ratings.services import rating_system_set, ratings_recalculate
from seasons.domain.rules import PlacingRow, PointTable
from seasons.models import SeasonStanding
from seasons.services import event_type_save, season_create, season_events_set
from tests.cards.sample import SAMPLE as SAMPLE_CARDS
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    organizer_of,
)
from tests.leagues.domain.test_images import png
from tests.leagues.test_delete import all_rows
from tests.tournaments.play import play_round, register, report_posted
from tournaments import selectors as event_selectors
from tournaments.models import (
    Entry,
    ReportConfirmation,
    RequestedBye,
    ResultReport,
    Table,
    Tournament,
)
from tournaments.services.clock import table_extension_set
from tournaments.services.decks import deck_settings_set, entry_deck_set
from tournaments.services.entries import entry_drop, requested_bye_add
from tournaments.services.events import tournament_create
from tournaments.services.registration import (
    check_in,
    check_in_open,
    registration_join,
    registration_leave,
    registration_paid_set,
    registration_settings_set,
)
from tournaments.services.reports import report_confirm
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair
from tournaments.services.series import tournament_copy_weekly
from tournaments.services.topcut import top_cut_start

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def build_store() -> Organization:
    store = OrganizationFactory(name="Dragon's Den", slug="dragons-den")
    organization_profile_update(
        organization=store,
        name=store.name,
        address="12 Quay St",
        time_zone="Europe/Dublin",
        logo=LogoUpload(data=png(3, 2)),
        accent="#1f5f7a",
        short_name="The Den",
        language="de",
    )
    organizer_of(store, username="olive")
    ApiToken.issue(organization=store, name="scorebot")
    duels = LeagueFactory(organization=store, name="Modern", slug="modern", game_label="Modern")
    pods = LeagueFactory(
        organization=store,
        name="Commander",
        slug="commander",
        is_public=False,
        starts_on=datetime.date(2024, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    rating_system_set(league=duels, system="elo", params={"k": 24, "d": 400})
    rating_system_set(league=pods, system="elo-dynamic")
    people = {n: PlayerFactory(organization=store, name=n) for n in NAMES}
    PlayerFactory(organization=store, name="Zoë Never-Played", sees_private_leagues=False)

    # League games: a draw, seats and stats, notes, two games on one day (entry order counts).
    day = datetime.date(2024, 3, 1)
    GameFactory(league=duels, players=[people["Ann"], people["Bob"]], played_on=day)
    GameFactory(league=duels, players=[people["Bob"], people["Cy"]], played_on=day)
    GameFactory(
        league=duels,
        players=[people["Cy"], people["Ann"]],
        players__places=[1, 1],
        played_on=day + datetime.timedelta(days=1),
        notes="Went to time",
    )
    pod = GameFactory(
        league=pods,
        players=[people[n] for n in ("Dee", "Eve", "Fay", "Gus")],
        players__places=[1, 2, 2, 4],
        played_on=day,
    )
    for seat, result in enumerate(pod.results.order_by("player__name"), start=1):
        result.seat = 5 - seat
        result.stats = {"won_by_16": 1} if result.placement == 1 else {}
        result.save()

    # A 1v1 Swiss event: nine players (a bye each round), a drop, a late entry, a top 4.
    swiss = tournament_create(
        league=duels,
        name="Friday Swiss",
        date=datetime.date(2024, 4, 5),
        swiss_rounds=3,
        top_cut=4,
    )
    register(swiss, *NAMES)
    play_round(swiss)
    entry_drop(entry=swiss.entries.get(player__name="Ivy"))
    register(swiss, "Late Larry")
    play_round(swiss, decide=lambda table, seats: seats[-1].entry)
    round_three = round_pair(tournament=swiss)
    tables = list(round_three.tables.filter(reported=False))
    table_report(table=tables[0], draw=True)
    # The last table's result comes from a judge: a Match Loss (Outside Assistance).
    penalized = tables[-1].seats.order_by("position").last().entry
    penalty_give(entry=penalized, infraction="TE-OA", note="Asked a friend")
    for number, table in enumerate(tables[1:-1]):
        seats = list(table.seats.order_by("position"))
        table_report(
            table=table,
            winner=seats[0].entry,
            game_wins={s.entry_id: 2 - i for i, s in enumerate(seats)},
            game_draws=1 if number == 0 else 0,  # 2-1-1: one drawn game
        )
    round_end(round_=round_three)
    while (event := Tournament.objects.get(pk=swiss.pk)).status != Tournament.Status.FINISHED:
        top = top_cut_start(tournament=event) if event.status == "swiss" else None
        round_ = top or event.rounds.order_by("-number").first()
        for table in round_.tables.filter(reported=False):
            table_report(table=table, winner=table.seats.order_by("position")[0].entry)
        round_end(round_=round_)

    # A points season of the Modern league counting the Swiss event: a point table using every
    # column (a kicker, a best-finish limit, each count), and a tie-break rule.
    spring = season_create(
        league=duels,
        name="Spring 2024",
        starts_on=datetime.date(2024, 1, 1),
        ends_on=datetime.date(2024, 6, 30),
        tiebreaks=["most_match_wins"],
    )
    friday = event_type_save(
        season=spring,
        table=PointTable(
            event_type="Friday",
            placings=(PlacingRow(1, 10), PlacingRow(2, 7), PlacingRow(4, 5), PlacingRow(8, 3, 8)),
            best_finishes=3,
            entering=1,
            per_round=1,
            per_win=2,
            per_draw=1,
            per_bye=1,
        ),
    )
    season_events_set(season=spring, choices={swiss.pk: friday.pk})

    # A pod event of nine (a pod of 4 and a pod of 5... or 3s), two rounds and a final pod.
    commander = tournament_create(
        league=pods,
        name="cEDH Night",
        date=datetime.date(2024, 4, 6),
        format="pods",
        swiss_rounds=2,
        top_cut=4,
        cut_seats="random",
        bye_rule="mtra_phantoms_033",
    )
    *_, larry = register(commander, *NAMES[:8], "Late Larry")
    requested_bye_add(entry=larry, round_number=2)  # a half-point bye, asked ahead
    play_round(commander)
    round_two = round_pair(tournament=commander)
    first, *rest = round_two.tables.filter(reported=False).order_by("number")
    seats = list(first.seats.order_by("position"))
    table_report(
        table=first, places={s.entry_id: p for s, p in zip(seats, [2, 1, 3, 3, 5], strict=False)}
    )
    for table in rest:
        table_report(table=table, winner=table.seats.order_by("position").last().entry)
    round_end(round_=round_two)
    final = top_cut_start(tournament=commander)
    table_report(table=final.tables.get(), draw=True)
    round_end(round_=final)

    # Next week's event, players registering themselves: a cap, a waitlist, the check-in open.
    upcoming = tournament_create(
        league=pods,
        name="Next Friday",
        format="pods",
        date=datetime.date(2030, 1, 4),
        confirm_date=True,
        start_time=datetime.time(18, 30),
        place="Back room",
        entry_fee=Decimal("10.00"),
        fee_currency="EUR",
        first_round="rating",
        pod_layout="fives",
        round_minutes=75,
        self_report="majority",
    )
    # What only the admin sets (the floors; a 1v1 bye setting, which a pod event keeps).
    Tournament.objects.filter(pk=upcoming.pk).update(
        omw_floor=Decimal("0.25"), gw_floor=Decimal("0.4"), bye_pairing="avoid_rematch"
    )
    registration_settings_set(
        tournament=upcoming,
        open=True,
        cap=4,
        deadline=datetime.datetime(2030, 1, 1, 18, tzinfo=datetime.UTC),
        note="Fee 10",
    )
    joined = [registration_join(tournament=upcoming, player=people[n]) for n in NAMES[:6]]
    registration_leave(registration=joined[1])  # Bob leaves, Eve moves up
    registration_paid_set(registration=joined[0], paid=True)
    check_in_open(tournament=upcoming)
    check_in(registration=joined[5])  # Fay, still waiting, is here
    register(upcoming, "Gus")  # a walk-in past the cap: an extra seat, Fay's claim stands
    # Card data (the shipped sample): the deck is checked, its cards exported as ids.
    call_command("load_cards", str(SAMPLE_CARDS), stdout=io.StringIO())
    deck_settings_set(
        tournament=upcoming,
        deadline=datetime.datetime(2030, 1, 4, 17, tzinfo=datetime.UTC),
        visibility="after_event",
        decklist_format="commander",
        decklist_required=True,
    )
    entry_deck_set(
        entry=joined[0].entry,
        name="Tymna the Weaver / Kraum, Ludevic's Opus",
        url="https://moxfield.com/decks/abc",
        text="Commander\n1 Tymna the Weaver\n1 Kraum, Ludevic's Opus\nDeck\n1 Sol Ring\n1 Island",
    )

    tournament_copy_weekly(tournament=upcoming)  # the week after: a series of two

    # A pod event being played, its players reporting: pod 1 completes by everyone's
    # agreement; at pod 2 the first seat's report is confirmed by the second, who then
    # reports the full order the third sent (which confirms that one and withdraws their
    # confirmation of the first): disputed.
    sunday = tournament_create(
        league=pods, name="Sunday Pods", format="pods", date=datetime.date(2024, 4, 7)
    )
    register(sunday, *NAMES[:8])
    playing = round_pair(tournament=sunday)
    done, disputed = playing.tables.order_by("number")
    seats = list(done.seats.select_related("entry").order_by("position"))
    report = report_posted(
        table=done, entry=seats[0].entry, data={"winner": str(seats[0].entry_id)}
    )
    for seat in seats[1:]:
        report_confirm(report=report.report, entry=seat.entry, via_link=True)
    seats = list(disputed.seats.select_related("entry").order_by("position"))
    opener, second, third = (s.entry for s in seats[:3])
    openers = report_posted(table=disputed, entry=opener, data={"winner": str(opener.pk)})
    report_confirm(report=openers.report, entry=second)
    order = {"result": "order", **{f"place-{s.entry_id}": str(p) for p, s in enumerate(seats, 1)}}
    report_posted(table=disputed, entry=third, data=order, via_link=True)
    report_posted(table=disputed, entry=second, data=order)
    table_extension_set(round_=playing, number=disputed.number, minutes=7)
    # The judges' penalties at the pods: a Slow Play upgraded on its second Warning, and a
    # Regular REL deviation with its reason.
    slow = seats[3].entry
    penalty_give(entry=slow, infraction="TE-SP")
    penalty_give(entry=slow, infraction="TE-SP")
    penalty_give(
        entry=opener, infraction="R-USC", penalty="game_loss", deviation_reason="Second time"
    )

    # The Commander league scores achievements: points per game and by placing; a claim
    # confirmed by a podmate, one declined and refused by the organizer, an award for a
    # night; an achievement retired.
    scoring_set(league=pods, per_game=1, placings=[3, 1])
    knockout = achievement_save(league=pods, name="Knockout", points=2, per="game")
    first_blood = achievement_save(
        league=pods,
        name="First blood",
        description="The first to deal combat damage to another player.",
        points=1,
        per="night",
    )
    alt_win = achievement_save(league=pods, name="Alt-win", points=-1, per="season")
    claim = claim_submit(game=pod, player=people["Dee"], achievement=knockout)
    claim_confirm(claim=claim, podmate=people["Eve"])
    doubted = claim_submit(game=pod, player=people["Fay"], achievement=first_blood)
    claim_decline(claim=doubted, podmate=people["Gus"])
    claim_settle(claim=doubted, accept=False)
    award(
        league=pods, player=people["Gus"], achievement=first_blood, night=datetime.date(2024, 4, 6)
    )
    achievement_save(
        league=pods, name="Alt-win", points=-1, per="season", active=False, achievement=alt_win
    )

    for league in (duels, pods):
        ratings_recalculate(league=league)
    return store


def _by_names(data: dict, names: dict[int, str]) -> dict:
    """A report's result with its entries' ids as player names."""
    named = {}
    for key, value in data.items():
        if key == "winner" and value:
            value = names[int(value)]
        elif isinstance(value, dict):
            value = {names[int(k)]: v for k, v in value.items()}
        named[key] = value
    return named


def reports_of(event: Tournament) -> list:
    names = dict(event.entries.values_list("pk", "player__name"))
    rows = []
    for report in ResultReport.objects.filter(table__round__tournament=event).order_by(
        "table__round__number", "table__number", "number"
    ):
        confirmations = ReportConfirmation.objects.filter(report=report).order_by("created_at")
        rows.append(
            (
                report.table.round.number,
                report.table.number,
                report.number,
                names[report.entry_id],
                report.via_link,
                _by_names(report.result, names),
                report.summary,
                report.table_version,
                report.status,
                report.created_at,
                report.decided_at,
                [
                    (names[c.entry_id], c.via_link, c.created_at, c.withdrawn_at)
                    for c in confirmations
                ],
            )
        )
    return rows


def snapshot(slug: str) -> dict:
    """Everything a visitor reads, by names and values (ids differ after an import)."""
    store = Organization.objects.get(slug=slug)
    leagues = {}
    for league in store.leagues.order_by("slug"):
        board = [
            (r.rank, r.tied, r.name, r.rating, r.change, r.games, r.wins, r.last_played)
            for r in rating_selectors.league_ratings(league=league)
        ]
        ledger = list(
            RatingChange.objects.filter(league=league)
            .order_by("played_on", "game_id", "player__name")
            .values_list(
                "player__name", "played_on", "before", "after", "delta", "rating", "games", "wins"
            )
        )
        tournaments = {}
        for event in league.tournaments.order_by("slug"):
            labels, lines = event_selectors.standing_lines(event)
            tournaments[event.slug] = {
                "status": event.status,
                "bye_rule": event.bye_rule,
                "cut_seats": event.cut_seats,
                "requested_byes": sorted(
                    RequestedBye.objects.filter(entry__tournament=event).values_list(
                        "entry__player__name", "round_number"
                    )
                ),
                "labels": labels,
                "standings": [
                    (s.rank, s.tied, s.name, s.points, s.record, s.metrics, s.dropped)
                    for s in lines
                ],
                "bracket": event_selectors.bracket_get(event),  # by names and seeds
                "listing": (event.start_time, event.place, event.entry_fee, event.fee_currency),
                "series": event.series.slug if event.series else None,
                "reports": reports_of(event),
                "extensions": sorted(
                    Table.objects.filter(round__tournament=event, extra_minutes__gt=0).values_list(
                        "round__number", "number", "extra_minutes"
                    )
                ),
                "decks": (
                    event.deck_deadline,
                    event.deck_visibility,
                    event.decklist_format,
                    event.decklist_required,
                    sorted(
                        event.entries.values_list(
                            "player__name",
                            "deck_name",
                            "decklist_url",
                            "decklist_text",
                            "deck_updated_at",
                            "deck_commander_ids",
                            "deck_identity",
                            "deck_cards",
                            "deck_problems",
                            "deck_legal",
                            "extra_seat",
                        )
                    ),
                ),
                "registration": (
                    event.registration_open,
                    event.registration_cap,
                    event.registration_deadline,
                    event.registration_note,
                    event.check_in,
                    list(
                        event.registrations.order_by("queued_at", "id").values_list(
                            "player__name", "status", "paid", "checked_in_at", "entry__player__name"
                        )
                    ),
                ),
            }
        leagues[league.slug] = {
            "system": (league.rating_settings.system, league.rating_settings.params),
            "leaderboard": board,
            "ledger": ledger,
            "games": league.games.count(),
            "tournaments": tournaments,
            "seasons": seasons_of(league),
            "achievements": achievements_of(league),
        }
    return {
        "name": store.name,
        "profile": (
            store.address,
            store.time_zone,
            store.accent,
            store.short_name,
            store.logo_type,
            bytes(store.logo),
        ),
        "players": sorted(store.players.values_list("name", "sees_private_leagues")),
        "leagues": leagues,
    }


def seasons_of(league) -> list:
    """Each season's settings, point tables, events and table, by names."""
    out = []
    for season in league.seasons.order_by("name"):
        out.append(
            (
                season.name,
                season.starts_on,
                season.ends_on,
                season.tiebreaks,
                sorted(
                    season.event_types.values_list(
                        "name",
                        "placings",
                        "best_finishes",
                        "entering",
                        "per_round",
                        "per_win",
                        "per_draw",
                        "per_bye",
                    )
                ),
                sorted(season.events.values_list("tournament__slug", "event_type__name")),
                list(
                    SeasonStanding.objects.filter(season=season).values_list(
                        "player__name", "rank", "tied", "points", "events_counted", "events_played"
                    )
                ),
            )
        )
    return out


def achievements_of(league) -> tuple:
    """The league's achievement scoring, definitions, claims (their games by day and
    players) and leaderboard, by names."""
    scoring = Scoring.objects.filter(league=league).values_list("per_game", "placings").first()
    definitions = sorted(
        Achievement.objects.filter(league=league).values_list(
            "name", "description", "points", "per", "active", "created_at"
        )
    )
    claims = []
    for c in Claim.objects.filter(achievement__league=league).select_related(
        "achievement", "player", "answered_by", "game"
    ):
        game = None
        if c.game is not None:
            game = (c.game.played_on, sorted(c.game.results.values_list("player__name", flat=True)))
        claims.append(
            (
                c.achievement.name,
                c.player.name,
                game,
                c.night,
                c.source,
                c.status,
                c.created_at,
                c.answered_by.name if c.answered_by else None,
                c.answered_at,
                c.decided_at,
            )
        )
    board = [
        (b.rank, b.tied, b.name, b.points, b.achievement_points, b.game_points, b.achievements)
        for b in achievement_board(league, None)
    ]
    return scoring, definitions, sorted(claims, key=repr), board


def wipe_site():
    """An empty site: every league (with its games and events), player and organization."""
    League.objects.all().delete()
    Player.objects.all().delete()
    Organization.objects.all().delete()
    assert all_rows() == set()


_built: dict[str, tuple[dict, str]] = {}


@pytest.fixture
def exported(tmp_path):
    """The store's snapshot and its exported JSON file, on a site wiped empty after export.

    The store is built and exported once per run (each test's database is rolled back, so
    every test starts from the empty site with the same file)."""
    path = tmp_path / "dragons-den.json"
    if "store" not in _built:
        build_store()
        before = snapshot("dragons-den")
        call_command("export_organization", organization="dragons-den", output=str(path))
        wipe_site()
        _built["store"] = (before, path.read_text(encoding="utf-8"))
    before, text = _built["store"]
    path.write_text(text, encoding="utf-8")
    return before, path


def test_the_store_has_what_the_round_trip_must_carry():
    store = build_store()
    duels, pods = League.objects.get(slug="modern"), League.objects.get(slug="commander")
    swiss = duels.tournaments.get()
    commander = pods.tournaments.get(name="cEDH Night")
    assert swiss.status == commander.status == Tournament.Status.FINISHED
    assert swiss.rounds.filter(kind="top_cut").exists() and commander.rounds.filter(kind="top_cut")
    assert Entry.objects.filter(tournament=swiss, dropped_after=1).exists()
    assert Entry.objects.filter(tournament=swiss, joined_round=2).exists()
    assert swiss.rounds.get(number=1).tables.count() == 5  # four matches and a bye
    assert commander.bye_rule == "mtra_phantoms_033"
    assert commander.rounds.get(number=2).tables.filter(requested_bye=True).count() == 1
    assert Game.objects.filter(league=duels, source=Game.Source.TOURNAMENT).exists()
    assert snapshot(store.slug)["leagues"]["commander"]["leaderboard"]
    upcoming = pods.tournaments.get(name="Next Friday", series=None)
    assert upcoming.repeats.get().date == datetime.date(2030, 1, 11)
    assert dict(upcoming.registrations.values_list("player__name", "status")) == {
        "Ann": "seated",
        "Bob": "cancelled",
        "Cy": "seated",
        "Dee": "seated",
        "Eve": "seated",
        "Fay": "waitlisted",
    }
    assert upcoming.entries.get(extra_seat=True).player.name == "Gus"
    assert upcoming.registrations.filter(paid=True, checked_in_at=None).count() == 1
    assert upcoming.registrations.filter(checked_in_at__isnull=False).count() == 1
    sunday = pods.tournaments.get(name="Sunday Pods")
    reports = ResultReport.objects.filter(table__round__tournament=sunday)
    assert sorted(reports.values_list("table__number", "status")) == [
        (1, "confirmed"),
        (2, "submitted"),
        (2, "submitted"),
    ]
    confirmations = ReportConfirmation.objects.filter(report__in=reports)
    assert confirmations.count() == 5  # 3 at pod 1; Bob's withdrawn and his to Cy at pod 2
    assert confirmations.filter(withdrawn_at__isnull=False).count() == 1
    assert sunday.rounds.get().tables.get(number=2).extra_minutes == 7


def test_export_wipe_import_reproduces_standings_and_ratings(exported):
    before, path = exported
    assert Organization.objects.count() == 0
    call_command("import_organization", str(path))
    assert snapshot("dragons-den") == before


def test_the_file_holds_no_secrets_and_no_ledger(exported):
    _, path = exported
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert "scorebot" not in text and "key_hash" not in text and "password" not in text
    # The ledger's keys (a round's notes may say "players who met before" in words).
    assert "rating_changes" not in text and '"before":' not in text
    assert data["members"] == [{"username": "olive", "role": "organizer"}]


def test_a_second_export_equals_the_first(exported, tmp_path):
    _, path = exported
    call_command("import_organization", str(path))
    again = tmp_path / "again.json"
    call_command("export_organization", organization="dragons-den", output=str(again))
    first, second = json.loads(path.read_text()), json.loads(again.read_text())
    for data in (first, second):
        data.pop("exported_at")
        data.pop("members")  # memberships are not imported
    assert first == second


def test_import_refuses_an_organization_the_site_has(exported):
    _, path = exported
    call_command("import_organization", str(path))
    rows = all_rows()
    with pytest.raises(CommandError, match=r"\$\.organization\.slug: this site already has"):
        call_command("import_organization", str(path))
    assert all_rows() == rows


# --- bad input: a message naming the place, and nothing written ---------------------------


@pytest.fixture
def document(exported) -> dict:
    return json.loads(exported[1].read_text())


def refused(data) -> ExchangeError:
    before = all_rows()
    with pytest.raises(ExchangeError) as caught:
        organization_import(data=data)
    assert all_rows() == before
    return caught.value


def first_game(data) -> dict:
    return next(league for league in data["leagues"] if league["slug"] == "modern")["games"][0]


def test_a_wrong_version_is_refused(document):
    document["version"] = 2
    assert str(refused(document)) == "$.version: this site reads version 1, not 2"


def test_another_format_is_refused(document):
    document["format"] = "dumpdata"
    assert refused(document).path == "$.format"


def test_a_missing_key_is_named(document):
    del first_game(document)["played_on"]
    index = next(i for i, lg in enumerate(document["leagues"]) if lg["slug"] == "modern")
    error = refused(document)
    assert str(error) == f'$.leagues[{index}].games[0]: the key "played_on" is missing'


def test_duplicate_player_names_are_refused(document):
    document["players"].append({"name": "ANN"})
    error = refused(document)
    assert error.path == f"$.players[{len(document['players']) - 1}].name"
    assert "is already $.players[0]" in error.message


def test_a_result_naming_an_unknown_player_is_refused(document):
    first_game(document)["results"][1]["player"] = "Nobody"
    error = refused(document)
    assert error.path.endswith(".games[0].results[1].player")
    assert error.message == 'no player "Nobody" in $.players'


def test_a_bad_ranking_and_a_bad_choice_are_refused(document):
    bad = copy.deepcopy(document)
    first_game(bad)["results"][1]["placement"] = 3
    assert "are not a ranking" in refused(bad).message
    document["leagues"][0]["tournaments"][0]["format"] = "3v3"
    error = refused(document)
    assert error.path == "$.leagues[0].tournaments[0].format"
    assert "not a valid choice" in error.message


def test_a_registration_holding_a_seat_needs_the_entry(document):
    commander = next(lg for lg in document["leagues"] if lg["slug"] == "commander")
    upcoming = next(t for t in commander["tournaments"] if t["name"] == "Next Friday")
    index = next(i for i, e in enumerate(upcoming["entries"]) if e["player"] == "Ann")
    del upcoming["entries"][index]
    error = refused(document)
    assert "holds a seat but is not in the tournament's entries" in str(error)
    assert "registrations[0].status" in str(error)


def test_a_seat_of_someone_not_registered_is_refused(document):
    event = document["leagues"][0]["tournaments"][0]
    event["rounds"][0]["tables"][0]["seats"][0]["player"] = "Zoë Never-Played"
    error = refused(document)
    assert error.path == "$.leagues[0].tournaments[0].rounds[0].tables[0].seats[0].player"


def test_the_command_says_where_and_exits_non_zero(document, tmp_path):
    document["version"] = "one"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match=r"Nothing imported\. \$\.version: this site reads"):
        call_command("import_organization", str(path))
    path.write_text("{not json")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_organization", str(path))
    assert all_rows() == set()


def test_names_match_players_ignoring_case(document):
    result = first_game(document)["results"][0]
    result["player"] = result["player"].upper()
    report = organization_import(data=document)
    assert report.games == Game.objects.count()


def test_stats_must_be_an_object_and_a_winner_must_sit_at_the_table(document):
    bad = copy.deepcopy(document)
    first_game(bad)["results"][0]["stats"] = [1, 2]
    assert refused(bad).path.endswith(".games[0].results[0].stats")
    table = next(
        t
        for r in document["leagues"][0]["tournaments"][0]["rounds"]
        for t in r["tables"]
        if t["winner"] and len(t["seats"]) > 1
    )
    seated = {s["player"] for s in table["seats"]}
    table["winner"] = next(
        e["player"]
        for e in document["leagues"][0]["tournaments"][0]["entries"]
        if e["player"] not in seated
    )
    error = refused(document)
    assert error.path.endswith(".winner") and "does not sit at this table" in error.message


def test_numbers_counted_from_one_are_checked_where_they_are(document):
    seat = document["leagues"][0]["tournaments"][0]["rounds"][0]["tables"][0]["seats"][0]
    seat["position"] = 0
    error = refused(document)
    assert error.path == "$.leagues[0].tournaments[0].rounds[0].tables[0].seats[0].position"
    assert error.message == "must be 1 or more, not 0"


def _set(path: str, value):
    """A change to the document at a JSONPath-like `path` ("players[0].name")."""

    def change(document):
        node, *keys = [document], *path.replace("[", ".").replace("]", "").split(".")
        target = node[0]
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        last = keys[-1]
        target[int(last) if last.isdigit() else last] = value

    return change


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("players.0.name", "Ann\ud800", "not valid Unicode"),
        ("players.0.name", "Ann\x00", "NUL character"),
        ("organization.name", "\udfffDen", "not valid Unicode"),
        ("leagues.0.games.0.notes", "x\x00y", "NUL character"),
        ("leagues.0.games.0.results.0.stats", {"a\ud83d": 1}, "a key is not valid Unicode"),
        ("leagues.0.games.0.results.0.stats", {"a": float("nan")}, "too large to store"),
    ],
)
def test_text_the_database_cannot_store_is_refused_with_its_path(document, path, value, message):
    # Each reached PostgreSQL and crashed the import with UnicodeEncodeError or DataError.
    _set(path, value)(document)
    error = refused(document)
    where = "$." + path.replace(".0", "[0]")
    assert error.path.startswith(where), (error.path, where)
    assert message in error.message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"version": ' + "9" * 5000 + "}", "not JSON that can be read"),
    ],
)
def test_json_that_python_cannot_read_is_a_command_error(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CommandError, match=message):
        call_command("import_organization", str(path))
    assert all_rows() == set()


# --- points seasons -------------------------------------------------------------------------


def modern_season(data) -> dict:
    return next(league for league in data["leagues"] if league["slug"] == "modern")["seasons"][0]


def test_the_season_and_its_table_come_back(exported):
    before, path = exported
    assert before["leagues"]["modern"]["seasons"][0][-1], "the store's season has a table"
    call_command("import_organization", str(path))
    assert (
        snapshot("dragons-den")["leagues"]["modern"]["seasons"]
        == (before["leagues"]["modern"]["seasons"])
    )


def test_a_point_table_paying_more_for_a_worse_place_is_refused(document):
    modern_season(document)["event_types"][0]["placings"] = [[1, 5, None], [2, 9, None]]
    message = str(refused(document))
    assert message.startswith("$.leagues[1].seasons[0].event_types[0].placings: ")
    assert "more than the better places above" in message


def test_a_season_counting_an_unknown_event_or_type_is_refused(document):
    season = modern_season(document)
    slug = season["events"][0]["event"]
    season["events"][0]["event"] = "no-such-event"
    assert str(refused(document)) == (
        "$.leagues[1].seasons[0].events[0].event: no event 'no-such-event' in this league"
    )
    season["events"][0]["event"] = slug
    season["events"][0]["event_type"] = "Tuesday"
    assert str(refused(document)) == (
        "$.leagues[1].seasons[0].events[0].event_type: not one of the season's event types"
    )
    season["events"][0]["event_type"] = "Friday"
    season["tiebreaks"] = ["coin_flip"]
    assert str(refused(document)).startswith("$.leagues[1].seasons[0].tiebreaks: ")


def test_a_document_without_seasons_still_reads(document):
    for league in document["leagues"]:
        league.pop("seasons")
    organization_import(data=document)
    assert not League.objects.get(slug="modern").seasons.exists()


# --- achievements ---------------------------------------------------------------------------


def commander(data) -> dict:
    return next(league for league in data["leagues"] if league["slug"] == "commander")


def achievement(data, name: str) -> dict:
    return next(a for a in commander(data)["achievements"] if a["name"] == name)


def refused_whole(data) -> str:
    """The refusal's text; no achievement, scoring or claim row was written either."""
    message = str(refused(data))
    assert not (Achievement.objects.exists() or Claim.objects.exists() or Scoring.objects.exists())
    return message


def test_the_achievements_and_their_leaderboard_come_back(exported):
    before, path = exported
    scoring, definitions, claims, board = before["leagues"]["commander"]["achievements"]
    assert scoring == (1, [3, 1]) and len(definitions) == 3 and len(claims) == 3
    assert ("Knockout", 2) in {(name, points) for line in board for name, _, points in line[-1]}
    call_command("import_organization", str(path))
    after = snapshot("dragons-den")["leagues"]
    assert after["commander"]["achievements"] == before["leagues"]["commander"]["achievements"]
    assert after["modern"]["achievements"][:3] == (None, [], [])  # none: none made up


def test_a_claim_of_a_game_its_player_did_not_play_is_refused(document):
    knockout = achievement(document, "Knockout")
    key = knockout["claims"][0]["game"]
    knockout["claims"][0]["player"] = "Ann"
    assert refused_whole(document) == (
        f'$.leagues[0].achievements[0].claims[0].player: "Ann" did not play the game {key}'
    )
    knockout["claims"][0]["player"] = "Dee"
    knockout["claims"][0]["game"] = 999
    assert refused_whole(document) == (
        "$.leagues[0].achievements[0].claims[0].game: no game with the key 999 in this league"
    )


def test_a_claim_answered_by_its_own_player_is_refused(document):
    achievement(document, "Knockout")["claims"][0]["answered_by"] = "Dee"
    assert refused_whole(document) == (
        "$.leagues[0].achievements[0].claims[0].answered_by: a claim is confirmed or declined "
        "by a podmate, not by its own player"
    )


def test_an_achievement_held_more_often_than_its_rule_is_refused(document):
    first_blood = achievement(document, "First blood")
    again = dict(first_blood["claims"][-1])  # Gus's award for a night, once more that night
    first_blood["claims"].append(again)
    assert refused_whole(document) == (
        "$.leagues[0].achievements[1].claims[2].night: First blood is earned once per night: "
        "Gus already holds it at $.leagues[0].achievements[1].claims[1]"
    )
    again["status"] = "rejected"  # a refused one holds nothing: the document reads
    organization_import(data=document)
    assert Claim.objects.filter(achievement__name="First blood", player__name="Gus").count() == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: achievement(d, "Knockout").update(points=500),
            "$.leagues[0].achievements[0].points: Points are a whole number from -100 to 100.",
        ),
        (
            lambda d: achievement(d, "Knockout").update(per="hourly"),
            "$.leagues[0].achievements[0].per: Value 'hourly' is not a valid choice.",
        ),
        (
            lambda d: achievement(d, "Alt-win").update(name="knockout"),
            '$.leagues[0].achievements[2].name: "knockout" is already $.leagues[0].achievements[0]',
        ),
        (
            lambda d: commander(d)["achievement_scoring"].update(placings=[1, 3]),
            "$.leagues[0].achievement_scoring.placings: Place 2 pays 3, more than place 1 (1): "
            "a better place never pays less.",
        ),
        (
            lambda d: commander(d)["achievement_scoring"].update(placings="3, 1"),
            "$.leagues[0].achievement_scoring.placings: must be a list of whole numbers",
        ),
    ],
)
def test_a_bad_achievement_or_scoring_is_refused_where_it_is(document, change, message):
    change(document)
    assert refused_whole(document) == message


def test_a_document_without_achievements_still_reads(document):
    for league in document["leagues"]:
        del league["achievements"], league["achievement_scoring"]
    organization_import(data=document)
    assert not (Achievement.objects.exists() or Scoring.objects.exists())
