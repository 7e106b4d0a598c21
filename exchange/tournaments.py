"""The document's events (tournaments.models): each event of a league with its entries, the
players' registrations, its rounds, tables, seats, the players' reports of their results with
the others' confirmations, and its tie to a weekly series; the judges' penalties are
exchange/judging.py's. Written by `tournament_export`, read by `tournament_import`.
"""

from collections.abc import Callable
from decimal import Decimal

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from exchange.document import Importer, Node, build, check_row_rules, fields
from exchange.judging import penalties_export, penalties_import
from leagues.models import Game, League
from tournaments.models import (
    Entry,
    Registration,
    ReportConfirmation,
    RequestedBye,
    ResultReport,
    Round,
    Seat,
    Table,
    Tournament,
)

TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "date",
    "format",
    "status",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "swiss_rounds",
    "tiebreakers",
    "top_cut",
    "first_round",
    "pod_layout",
    "omw_floor",
    "gw_floor",
    "bye_pairing",
    "bye_rule",
    "cut_seats",
    "seed",
    "round_minutes",
    "registration_open",
    "registration_cap",
    "registration_deadline",
    "registration_note",
    "check_in",
    "deck_deadline",
    "deck_visibility",
    "decklist_format",
    "decklist_required",
    "self_report",
    "start_time",
    "place",
    "entry_fee",
    "fee_currency",
    "created_at",
)
# A player's own registration; its check-in link (token) is the site's secret: a new one on
# import. A registration holding a seat ("seated") is tied to the entry of the same player.
REGISTRATION_FIELDS = ("status", "queued_at", "paid", "checked_in_at")
ENTRY_FIELDS = (
    "joined_round",
    "dropped_after",
    "extra_seat",
    "deck_name",
    "decklist_url",
    "decklist_text",
    "deck_updated_at",
    "deck_commander_ids",
    "deck_identity",
    "deck_cards",
    "deck_problems",
    "deck_legal",
    "created_at",
)
# A round's `notes` are a list of notes as JSON keeps them (`Note.data()`, or `{"text": ...}`)
# and a top-cut round's `stage` its bracket's name ("Final"); a document written before kept
# both in `notes`, one text a line, the stage first (`_notes_of_before`).
ROUND_FIELDS = ("number", "kind", "status", "ends_at", "notes", "stage", "created_at")
TABLE_FIELDS = (
    "number",
    "reported",
    "is_draw",
    "game_draws",
    "requested_bye",
    "version",
    "reported_at",
    "extra_minutes",
)
SEAT_FIELDS = ("position", "game_wins", "place")
# A player's report of their table's result and the others' confirmations (after the table's
# seats). A report's `result` (the result value) names entries by their player's name, as
# everything here.
REPORT_FIELDS = (
    "number",
    "via_link",
    "summary",
    "table_version",
    "status",
    "created_at",
    "decided_at",
)
CONFIRMATION_FIELDS = ("via_link", "created_at", "withdrawn_at")
THIRD_AS_STORED = Decimal("0.333")  # as migration tournaments 0005 keeps 1/3


def tournament_export(tournament: Tournament, game_keys: dict[int, int]) -> dict:
    entries = (
        tournament.entries.select_related("player")
        .prefetch_related("requested_byes")
        .order_by("player__name", "id")
    )
    seats = Seat.objects.select_related("entry__player").order_by("position")
    tables = Table.objects.select_related("winner__player").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    confirmations = ReportConfirmation.objects.select_related("entry__player")
    reports = ResultReport.objects.select_related("entry__player").prefetch_related(
        Prefetch("confirmations", queryset=confirmations.order_by("created_at", "id"))
    )
    rounds = tournament.rounds.order_by("number").prefetch_related(
        Prefetch("tables", queryset=tables.order_by("number")),
        Prefetch("tables__reports", queryset=reports.order_by("number")),
    )
    names = {e.pk: e.player.name for e in entries}
    return {
        **fields(tournament, TOURNAMENT_FIELDS),
        "series": tournament.series.slug if tournament.series_id else None,
        "entries": [
            {
                "player": e.player.name,
                **fields(e, ENTRY_FIELDS),
                "requested_byes": [b.round_number for b in e.requested_byes.all()],
            }
            for e in entries
        ],
        "registrations": [
            {"player": r.player.name, **fields(r, REGISTRATION_FIELDS)}
            for r in tournament.registrations.select_related("player").order_by("queued_at", "id")
        ],
        "rounds": [
            {
                **fields(round_, ROUND_FIELDS),
                "tables": [
                    {
                        **fields(table, TABLE_FIELDS),
                        "winner": table.winner.player.name if table.winner else None,
                        "game": game_keys.get(table.game_id) if table.game_id else None,
                        "seats": [
                            {"player": s.entry.player.name, **fields(s, SEAT_FIELDS)}
                            for s in table.seats.all()
                        ],
                        "reports": [_report_export(r, names) for r in table.reports.all()],
                    }
                    for table in round_.tables.all()
                ],
            }
            for round_ in rounds
        ],
        "penalties": penalties_export(tournament),
    }


def _report_export(report: ResultReport, names: dict[int, str]) -> dict:
    return {
        "player": report.entry.player.name,
        **fields(report, REPORT_FIELDS),
        "result": _entries_swapped(report.result, lambda id_: names[int(id_)]),
        "confirmations": [
            {"player": c.entry.player.name, **fields(c, CONFIRMATION_FIELDS)}
            for c in report.confirmations.all()
        ],
    }


def _entries_swapped(data: dict, swap: Callable[[str | int], object]) -> dict:
    """A report's `result` (the value's JSON, `tournaments.domain.result.Result.as_json`) with
    each entry it names swapped by `swap`: the `winner`'s value and the keys of its maps (the
    places and game wins). On export `swap` gives the player's name; on import the entry."""
    swapped = {}
    for key, value in data.items():
        if key == "winner" and value not in (None, ""):
            value = swap(value)
        elif isinstance(value, dict):
            value = {str(swap(k)): v for k, v in value.items()}
        swapped[key] = value
    return swapped


def _round_numbers(node: Node, key: str) -> list[int]:
    """An optional list of distinct round numbers from 1 (an entry's requested byes)."""
    values = node.get(key, [])
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 32767 for v in values
    ):
        raise node.error(_("must be a list of round numbers from 1"), key)
    if len(set(values)) != len(values):
        raise node.error(_("names a round twice"), key)
    return values


def _check_deck_cards(entry: Entry, node: Node) -> None:
    """A deck's cards: a list of {"oracle_id": text, "count": 1 or more, "section": text}."""
    cards = entry.deck_cards
    if not isinstance(cards, list):
        raise node.error(_("must be a list, not %(cards)s") % {"cards": repr(cards)}, "deck_cards")
    for card in cards:
        count = card.get("count") if isinstance(card, dict) else None
        if (
            not isinstance(card, dict)
            or not isinstance(card.get("oracle_id"), str)
            or not isinstance(card.get("section"), str)
            or not isinstance(count, int)
            or isinstance(count, bool)
            or count < 1
        ):
            raise node.error(
                'each card must be {"oracle_id": text, "count": 1 or more, "section": text}, '
                f"not {card!r}",
                "deck_cards",
            )
    for name in ("deck_commander_ids", "deck_problems"):
        if not isinstance(getattr(entry, name), list):
            raise node.error(_("must be a list"), name)


def before_rules(tournament: Tournament) -> None:
    """An event from a document older than its floors and bye rule, as the site ran it then
    (migration tournaments 0005 does the same to the events already stored): both floors 1/3
    (0.333: the same ranks below 333 rounds) where none was set, the bye moved up to avoid a
    rematch."""
    if tournament.omw_floor is None and tournament.format == Tournament.Format.ONE_V_ONE:
        tournament.omw_floor = THIRD_AS_STORED
    tournament.gw_floor = THIRD_AS_STORED
    tournament.bye_pairing = Tournament.ByePairing.AVOID_REMATCH


# --- import ---------------------------------------------------------------------------------


def tournament_import(state: Importer, node: Node, league: League, games) -> Tournament:
    tournament = build(Tournament, node, TOURNAMENT_FIELDS, league=league)
    if node.get("bye_pairing", None) is None:  # written before the bye rule was kept
        before_rules(tournament)
    state.unique_slug(tournament, node)
    check_row_rules(tournament, node)
    tournament.save()
    entries: dict[str, Entry] = {}
    for entry_node in node.items("entries"):
        player = state.player(entry_node)
        if player.name in entries:
            raise entry_node.error(
                _('"%(name)s" is already registered') % {"name": player.name}, "player"
            )
        entries[player.name] = build(
            Entry, entry_node, ENTRY_FIELDS, tournament=tournament, player=player
        )
        _check_deck_cards(entries[player.name], entry_node)
    Entry.objects.bulk_create(entries.values())
    RequestedBye.objects.bulk_create(
        RequestedBye(entry=entries[state.player(entry_node).name], round_number=number)
        for entry_node in node.items("entries")
        for number in _round_numbers(entry_node, "requested_byes")
    )
    _registrations(state, node, tournament, entries)
    used_games: dict[int, str] = {}
    numbers: dict[int, str] = {}
    for round_node in node.items("rounds"):
        round_ = build(Round, round_node, ROUND_FIELDS, tournament=tournament)
        _notes_of_before(round_node, round_)
        if round_.number in numbers:
            raise round_node.error(
                f"round {round_.number} is already {numbers[round_.number]}", "number"
            )
        numbers[round_.number] = round_node.path
        round_.save()
        _tables(state, round_node, round_, entries, games, used_games)
    penalties_import(state, node, tournament, entries)
    state.tournaments += 1
    return tournament


def _notes_of_before(node: Node, round_: Round) -> None:
    """A round's notes as a document written before notes were kept as data has them (one
    text, a note a line, a top-cut round's stage first) read into today's; today's checked
    to be a list of notes."""
    notes = round_.notes
    if isinstance(notes, str):
        lines = [line.strip() for line in notes.splitlines() if line.strip()]
        if round_.kind == Round.Kind.TOP_CUT and not round_.stage and lines:
            round_.stage = lines.pop(0)[:40]
        round_.notes = [{"text": line} for line in lines]
        return
    if not isinstance(notes, list) or not all(
        isinstance(item, dict) and isinstance(item.get("msgid", item.get("text")), str)
        for item in notes
    ):
        raise node.error(_("must be a list of notes"), "notes")


def series_import(league_node: Node, events: dict[str, Tournament]) -> None:
    """Each copied event's tie to its weekly series' first event, named by its slug in
    the same league (documents written before series have none)."""
    by_slug = {event.slug: event for event in events.values()}
    for node in league_node.items("tournaments"):
        slug = node.get("series", None)
        if slug is None:
            continue
        first = by_slug.get(slug) if isinstance(slug, str) else None
        if first is None or first.series_id is not None or first is events[node.path]:
            raise node.error(
                _("no first event %(slug)s of a series in this league") % {"slug": repr(slug)},
                "series",
            )
        event = events[node.path]
        event.series = first
        event.save(update_fields=["series"])


def _registrations(state: Importer, node: Node, tournament: Tournament, entries) -> None:
    """Players' own registrations (documents written before them have none)."""
    if "registrations" not in node.value:
        return
    rows, seen = [], {}
    for reg_node in node.items("registrations"):
        player = state.player(reg_node)
        if player.name in seen:
            raise reg_node.error(
                _('"%(name)s" is already %(name2)s')
                % {"name": player.name, "name2": seen[player.name]},
                "player",
            )
        seen[player.name] = reg_node.path
        row = build(
            Registration, reg_node, REGISTRATION_FIELDS, tournament=tournament, player=player
        )
        if row.status == Registration.Status.SEATED:
            if player.name not in entries:
                raise reg_node.error(
                    f'"{player.name}" holds a seat but is not in the tournament\'s entries',
                    "status",
                )
            row.entry = entries[player.name]
        rows.append(row)
    Registration.objects.bulk_create(rows)


def _tables(state: Importer, round_node: Node, round_: Round, entries, games, used_games) -> None:
    tables, seats, numbers, seated = [], [], {}, {}
    for node in round_node.items("tables"):
        table = build(Table, node, TABLE_FIELDS, round=round_)
        if table.number in numbers:
            raise node.error(
                _("table %(number)s is already %(number2)s")
                % {"number": table.number, "number2": numbers[table.number]}
            )
        numbers[table.number] = node.path
        here = {}
        for seat_node in node.items("seats"):
            entry = state.entry(seat_node, entries)
            if entry.player.name in seated:
                raise seat_node.error(
                    f'"{entry.player.name}" already sits at {seated[entry.player.name]} '
                    "in this round",
                    "player",
                )
            seated[entry.player.name] = seat_node.path
            seat = build(Seat, seat_node, SEAT_FIELDS, round=round_, entry=entry)
            if seat.position in here:
                raise seat_node.error(
                    f"position {seat.position} is already {here[seat.position]}", "position"
                )
            here[seat.position] = seat_node.path
            seats.append((table, seat))
        if not here:
            raise node.error(_("a table has at least one seat"), "seats")
        table.winner = _winner(state, node, entries, seated, here)
        table.game = _game(node, games, used_games)
        if table.is_draw and table.winner:
            raise node.error(_("a drawn table has no winner"), "winner")
        if not table.reported and (table.is_draw or table.winner or table.game_draws):
            raise node.error(_("a table has a result only when it is reported"), "reported")
        tables.append(table)
    Table.objects.bulk_create(tables)
    for table, seat in seats:
        seat.table = table
    Seat.objects.bulk_create([seat for _, seat in seats])
    _reports(state, round_node, tables, entries)


def _reports(state: Importer, round_node: Node, tables: list[Table], entries) -> None:
    """Players' reports of each table's result and their confirmations (documents
    written before reports have none)."""
    reports, confirmations = [], []
    for node, table in zip(round_node.items("tables"), tables, strict=True):
        if "reports" not in node.value:
            continue
        for report_node in node.items("reports"):
            report = build(
                ResultReport,
                report_node,
                REPORT_FIELDS,
                table=table,
                entry=state.entry(report_node, entries),
                result=_by_entries(state, report_node, "result", entries, int),
            )
            reports.append(report)
            confirmations += [
                (
                    report,
                    build(
                        ReportConfirmation, c, CONFIRMATION_FIELDS, entry=state.entry(c, entries)
                    ),
                )
                for c in report_node.items("confirmations")
            ]
    ResultReport.objects.bulk_create(reports)
    for report, confirmation in confirmations:
        confirmation.report = report
    ReportConfirmation.objects.bulk_create([c for _, c in confirmations])


def _by_entries(state: Importer, node: Node, key: str, entries, kind: type) -> dict:
    """A report's `result` with the players it names as their entries' ids (`kind`: as the
    site stores them there)."""
    value = node.get(key)
    if not isinstance(value, dict):
        raise node.error(_("must be an object"), key)

    def entry_id(name):
        if not isinstance(name, str) or name.lower() not in state.players:
            raise node.error(
                _("names no player of the tournament's entries: %(name)s") % {"name": repr(name)},
                key,
            )
        player = state.players[name.lower()]
        if player.name not in entries:
            raise node.error(
                _('"%(name)s" is not in the tournament\'s entries') % {"name": player.name}, key
            )
        return kind(entries[player.name].pk)

    return _entries_swapped(value, entry_id)


def _winner(state: Importer, node: Node, entries, seated, here) -> Entry | None:
    if node.get("winner") is None:
        return None
    entry = state.entry(node, entries, "winner")
    if seated.get(entry.player.name) not in here.values():
        raise node.error(
            _('"%(name)s" does not sit at this table') % {"name": entry.player.name}, "winner"
        )
    return entry


def _game(node: Node, games, used_games: dict[int, str]) -> Game | None:
    key = node.integer("game", null=True)
    if key is None:
        return None
    if key not in games:
        raise node.error(
            _("no game with the key %(key)s in this league's games") % {"key": key}, "game"
        )
    if key in used_games:
        raise node.error(
            _("game %(key)s is already the game of %(used_games)s")
            % {"key": key, "used_games": used_games[key]},
            "game",
        )
    used_games[key] = node.path
    return games[key][0]
