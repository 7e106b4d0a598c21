"""The Guildmaster game-log CSV: reading it forgivingly, reporting every bad row, writing it back.

Guildmaster's format (../shared/seeds/guildmaster-readme.txt) is one game per row:
``<ignored>,<date>,<winner>,<second>,<third>,...`` with players in finishing order. Real files
have quirks this reader accepts: a header row, a UTF-8 BOM, CRLF line ends, trailing empty
cells, dates as ``YYYY-MM-DD`` or ``M/D/YYYY``, stray spaces around names, and a free-text note
in a column after an empty cell (kept as the game's note, never read as a player).

Guildhall's extension, which Guildmaster ignores because it lives in the ignored first column:
when a game has shared places, seats or per-player stats, column A holds a JSON object
``{"places": [1, 2, 2, 4], "seats": [3, 1, 2, 4], "stats": [{...}, {}, {}, {}]}`` whose lists
follow the player columns. Free text that a spreadsheet would run as a formula (starting with
``= + - @``, tab or CR) is written with a leading apostrophe, which the reader strips again.

A game can be dated at most a day ahead of today (`latest_game_date`): a date far ahead is a
typo that would top the game log; tomorrow allows for time zones and late nights. The caller
passes that latest date in, from today as the store's clock reads it.

`parse_games_csv` never raises on bad data: it returns every good game and every problem with
its line number and column, so the caller can refuse the file or import only valid rows.

A row that names one player twice ("Caid,Caid,Dylan", line 142 of Guildmaster's own sample) is
a problem by default: a person cannot finish twice. Guildmaster itself rates such a row: every
column is a seat, each seat meets every other seat of the row from the ratings before the game,
and the player keeps the rating computed for their last seat (a map keyed by name is written
once per column). With ``repeated_names=REPEATS_GUILDMASTER`` the row is read as Guildmaster
reads it: one finisher per player, placed at their first column, and every finisher of the row
carries the row's columns under ``stats["guildmaster_order"]`` (1 = the winner's column), which
the `guildmaster` rating system replays seat by seat. The row also gets a warning, so the
preview shows what was read.
"""

import csv
import io
import json
import math
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from core.errors import DomainError
from core.translate import gettext as _
from core.translate import ngettext

from .names import name_normalize
from .ranking import is_valid_ranking

NAME_MAX_LENGTH = 100
NOTE_MAX_LENGTH = 2000
SEAT_MAX = 32767  # the database column is a smallint
MAX_PLAYERS = 64  # a game is one table or pod (as the JSON API); a 10,000-column row is a mistake
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_HEADER_DATE = re.compile(r"^[A-Za-z][A-Za-z _-]*$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ROW_START = re.compile(r"^[^,]*,\s*(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{4})\s*,")


def _place_name(position: int) -> str:
    """A player column's place, as the file's columns mean it: "winner", "2nd place"."""
    if position == 1:
        return _("winner")
    if position == 2:
        return _("2nd place")
    if position == 3:
        return _("3rd place")
    return _("%(n)sth place") % {"n": position}


REPEATS_REFUSE = "refuse"  # a player named twice in one row is a problem of that row
REPEATS_GUILDMASTER = "guildmaster"  # ... or rated as Guildmaster rates it (module docstring)
REPEATED_NAMES = (REPEATS_REFUSE, REPEATS_GUILDMASTER)
GUILDMASTER_ORDER = "guildmaster_order"  # the stats key holding a finisher's columns in the row


@dataclass(frozen=True)
class Finisher:
    name: str
    place: int
    seat: int | None = None
    stats: dict = field(default_factory=dict)


@dataclass(frozen=True)
class CsvGame:
    line: int
    played_on: date
    finishers: tuple[Finisher, ...]
    note: str = ""

    def key(self) -> tuple:
        """What makes two games the same: the date and who finished where (names ignoring case)."""
        return (self.played_on, tuple(sorted((f.place, f.name.lower()) for f in self.finishers)))


@dataclass(frozen=True)
class RowProblem:
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return _("line %(line)s, %(field)s: %(message)s") % {
            "line": self.line,
            "field": self.field,
            "message": self.message,
        }


@dataclass
class ParsedCsv:
    games: list[CsvGame]
    problems: list[RowProblem]
    warnings: list[RowProblem]
    header_line: int | None = None

    @property
    def invalid_lines(self) -> list[int]:
        return sorted({p.line for p in self.problems})


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: how a spreadsheet names the column."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _player_field(index: int) -> str:
    position = index - 1
    return _("column %(column)s (%(place)s)") % {
        "column": column_letter(index),
        "place": _place_name(position),
    }


class UndecodableFile(DomainError, ValueError):
    """Bytes that are not a text file this importer can read."""

    default_code = "undecodable"


def decode_upload(data: bytes) -> tuple[str, str | None]:
    """Bytes of an uploaded file to text, and a warning when it was not UTF-8.

    Spreadsheets on Windows still save "ANSI" (Windows-1252) CSVs; those names are read
    correctly rather than refused, and the preview says how the file was read.
    """
    if b"\x00" in data:
        raise UndecodableFile(message=_("This is not a text CSV file (it contains NUL bytes)."))
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        try:
            return data.decode("cp1252"), _(
                "The file is not UTF-8 (byte %(byte)s); it was read as Windows-1252. Check the "
                "names with accents in the preview."
            ) % {"byte": error.start + 1}
        except UnicodeDecodeError:
            raise UndecodableFile(
                message=_("The file is neither UTF-8 nor Windows-1252 text."),
            ) from None


def _is_escaped(text: str) -> bool:
    # The guard is one apostrophe before a formula prefix; text that itself starts with an
    # apostrophe before one of those (or before another apostrophe) gets the guard too, so
    # reading always takes exactly one apostrophe off what `escape_text` added.
    return len(text) > 1 and text[0] == "'" and (text[1] in FORMULA_PREFIXES or text[1] == "'")


def has_control_characters(text: str) -> bool:
    """NUL, bell, escape and the like: never part of a name (tab and line breaks are spaces)."""
    return bool(_CONTROL.search(text))


def has_lone_surrogates(text: str) -> bool:
    """A lone UTF-16 surrogate (JSON's "\\ud800"): no Unicode text, so nothing can store it."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def clean_text(raw: str) -> str:
    """Undo the formula guard that `escape_text` adds, then normalize the name (NFKC, no
    invisible characters, runs of white space folded: see leagues.domain.names).

    The guard comes off first: "'\t=x" (a name that began with a tab) would otherwise fold to
    "' =x", which no longer looks guarded.
    """
    text = raw.strip()
    if _is_escaped(text):
        text = text[1:]
    return name_normalize(text)


def clean_note(raw: str) -> str:
    """Like `clean_text` but keeps the note's own line breaks and spacing: only trims it."""
    text = raw.strip()
    return text[1:] if _is_escaped(text) else text


def escape_text(text: str) -> str:
    """Keep a spreadsheet from running a cell as a formula (OWASP "CSV injection")."""
    return "'" + text if text.startswith(FORMULA_PREFIXES) or _is_escaped(text) else text


def latest_game_date(today: date) -> date:
    """The latest date a game may be played on: a day ahead of the store's today."""
    return today + timedelta(days=1)


def future_date_problem(played_on: date, latest: date | None) -> str | None:
    """Why `played_on` is refused as a game's date, or None."""
    if latest is None or played_on <= latest:
        return None
    return _("%(date)s is in the future: a game can be dated %(latest)s at the latest") % {
        "date": f"{played_on:%Y-%m-%d}",
        "latest": f"{latest:%Y-%m-%d}",
    }


def parse_date(raw: str) -> date | None:
    text = raw.strip()
    for pattern in ("%Y-%m-%d", "%m/%d/%Y"):
        try:
            parsed = datetime.strptime(text, pattern).date()
        except ValueError:
            continue
        # strptime accepts 1- to 4-digit years; a year like 20 is a typo, not AD 20. Four
        # digits are taken as written (international football results start in 1872).
        if parsed.year >= 1000:
            return parsed
    return None


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def unstorable_in(value, path: str = "$") -> tuple[str, str] | None:
    """(JSONPath, why) of the first thing in a parsed JSON value that PostgreSQL cannot store.

    Text (values and keys) cannot hold NUL or a lone UTF-16 surrogate (JSON's "\\ud800"),
    and jsonb has no infinite or NaN numbers (Python's json reads 1e400 as infinity).
    """
    pending = [(value, path)]
    while pending:
        item, where = pending.pop()
        if isinstance(item, dict):
            for key, sub in reversed(item.items()):
                inner = f"{where}.{key}" if isinstance(key, str) else where
                if isinstance(key, str) and (reason := _unstorable_text(key, "key")):
                    return where, reason
                pending.append((sub, inner))
        elif isinstance(item, list):
            pending.extend((sub, f"{where}[{i}]") for i, sub in reversed(list(enumerate(item))))
        elif isinstance(item, str):
            if reason := _unstorable_text(item, "text"):
                return where, reason
        elif isinstance(item, float) and not math.isfinite(item):
            return where, _("the number is too large to store (or NaN)")
    return None


def _unstorable_text(text: str, what: str) -> str | None:
    """Why jsonb cannot hold `text`, a key or a text value (`what`), or None."""
    if "\x00" in text:
        if what == "key":
            return _("a key contains a NUL character (\\u0000)")
        return _("the text contains a NUL character (\\u0000)")
    if has_lone_surrogates(text):
        if what == "key":
            return _("a key is not valid Unicode (a lone \\uD800-\\uDFFF escape)")
        return _("the text is not valid Unicode (a lone \\uD800-\\uDFFF escape)")
    return None


def _unstorable_json(value) -> str | None:
    """Why PostgreSQL's jsonb would refuse `value` (it has no NUL and no infinite numbers)."""
    found = unstorable_in(value)
    if found is None:
        return None
    return _("%(why)s (at %(where)s)") % {"why": found[1], "where": found[0]}


def _parse_meta(cell: str, count: int, line: int, problems: list[RowProblem]) -> dict | None:
    where = "column A (Guildhall data)"
    try:
        meta = json.loads(cell, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        problems.append(RowProblem(line, where, _("not valid JSON (%(msg)s)") % {"msg": error.msg}))
        return None
    except RecursionError:
        problems.append(RowProblem(line, where, _("not valid JSON (nested too deeply)")))
        return None
    except ValueError as error:  # NaN/Infinity, or a number too long to read
        problems.append(
            RowProblem(line, where, _("not valid JSON (%(error)s)") % {"error": str(error)[:80]})
        )
        return None
    if not isinstance(meta, dict):
        problems.append(RowProblem(line, where, _("must be a JSON object")))
        return None
    unstorable = _unstorable_json(meta)
    if unstorable:
        problems.append(RowProblem(line, where, unstorable))
        return None
    unknown = sorted(set(meta) - {"places", "seats", "stats"})
    if unknown:
        said = ngettext("unknown key: %(keys)s", "unknown keys: %(keys)s", len(unknown))
        problems.append(RowProblem(line, where, said % {"keys": ", ".join(unknown)}))
    checked: dict = {}
    for key, kind in (("places", int), ("seats", int), ("stats", dict)):
        if key not in meta:
            continue
        values = meta[key]
        allowed = (kind, type(None)) if key == "seats" else (kind,)
        if (
            not isinstance(values, list)
            or len(values) != count
            or not all(isinstance(v, allowed) and not isinstance(v, bool) for v in values)
        ):
            problems.append(
                RowProblem(
                    line,
                    where,
                    _('"%(key)s" must be a list of %(count)s %(name)s values')
                    % {"key": key, "count": count, "name": kind.__name__},
                )
            )
            continue
        checked[key] = values
    places = checked.get("places")
    if places is not None and (min(places) < 1 or not is_valid_ranking(places)):
        problems.append(
            RowProblem(
                line,
                where,
                _('"places" %(places)s is not a ranking like 1, 2, 2, 4') % {"places": places},
            )
        )
    seats = [s for s in checked.get("seats", []) if s is not None]
    if any(not 1 <= s <= SEAT_MAX for s in seats) or len(seats) != len(set(seats)):
        problems.append(
            RowProblem(
                line,
                where,
                _('"seats" must be distinct numbers from 1 to %(seat_max)s')
                % {"seat_max": SEAT_MAX},
            )
        )
    return checked


def _parse_row(
    cells: list[str],
    line: int,
    result: ParsedCsv,
    latest: date | None,
    repeated_names: str = REPEATS_REFUSE,
) -> CsvGame | None:
    problems = result.problems
    before = len(problems)
    date_cell = cells[1].strip() if len(cells) > 1 else ""
    played_on = parse_date(date_cell)
    if not date_cell:
        problems.append(RowProblem(line, _("column B (date)"), _("the date is missing")))
    elif played_on is None:
        problems.append(
            RowProblem(
                line,
                _("column B (date)"),
                _('"%(date)s" is not a date (use YYYY-MM-DD or M/D/YYYY)') % {"date": date_cell},
            )
        )
    elif future := future_date_problem(played_on, latest):
        problems.append(RowProblem(line, _("column B (date)"), future))

    names: list[tuple[int, str]] = []
    index = 2
    while index < len(cells) and cells[index].strip():
        names.append((index, clean_text(cells[index])))
        index += 1
    rest = [clean_note(c) for c in cells[index:] if c.strip()]
    if not names and rest:
        problems.append(
            RowProblem(line, _player_field(2), _("the winner's cell is empty but the row goes on"))
        )
        rest = []
    note = ", ".join(rest)

    seen: dict[str, int] = {}
    repeats: list[RowProblem] = []
    for col, name in names:
        where = _player_field(col)
        if not name:  # a cell of invisible characters only (leagues.domain.names)
            problems.append(RowProblem(line, where, _("the name has no visible characters")))
            continue
        if len(name) > NAME_MAX_LENGTH:
            problems.append(
                RowProblem(
                    line,
                    where,
                    _("the name is longer than %(name_max_length)s characters")
                    % {"name_max_length": NAME_MAX_LENGTH},
                )
            )
        if _CONTROL.search(name):
            problems.append(RowProblem(line, where, _("the name contains control characters")))
        folded = name.lower()
        if folded in seen:
            said = f'"{name}" is named twice in this game (also {_player_field(seen[folded])})'
            if repeated_names == REPEATS_GUILDMASTER:
                repeats.append(
                    RowProblem(
                        line,
                        where,
                        _(
                            "%(said)s: rated as Guildmaster does, each column a seat, the player "
                            "keeping the rating of their last seat"
                        )
                        % {"said": said},
                    )
                )
            else:
                problems.append(RowProblem(line, where, said))
        else:
            seen[folded] = col
    if len(names) < 2 and (names or date_cell):
        problems.append(
            RowProblem(
                line,
                _("players"),
                _("a game needs at least 2 players; this row has %(count)s")
                % {"count": len(names)},
            )
        )
    if len(names) > MAX_PLAYERS:
        problems.append(
            RowProblem(
                line,
                _("players"),
                _("a game can have at most %(max_players)s players; this row has %(count)s")
                % {"max_players": MAX_PLAYERS, "count": len(names)},
            )
        )
    if len(note) > NOTE_MAX_LENGTH:
        problems.append(
            RowProblem(
                line,
                _("note"),
                _("the note is longer than %(note_max_length)s characters")
                % {"note_max_length": NOTE_MAX_LENGTH},
            )
        )
    if "\x00" in note:  # PostgreSQL cannot store NUL in text
        problems.append(RowProblem(line, _("note"), _("the note contains a NUL character")))

    meta: dict | None = {}
    first = cells[0].strip() if cells else ""
    if first.startswith("{") and repeats:
        problems.append(
            RowProblem(
                line,
                _("column A (Guildhall data)"),
                _("places, seats and stats cannot be given for a row that names a player twice"),
            )
        )
    elif first.startswith("{"):
        meta = _parse_meta(first, len(names), line, problems)
    if len(problems) > before or played_on is None or meta is None:
        return None
    if repeats:
        result.warnings.extend(repeats)
        return _guildmaster_row(line, played_on, [name for _, name in names], note)
    places = meta.get("places") or list(range(1, len(names) + 1))
    seats = meta.get("seats") or [None] * len(names)
    stats = meta.get("stats") or [{}] * len(names)
    finishers = tuple(
        Finisher(name=name, place=place, seat=seat, stats=stat)
        for (_, name), place, seat, stat in zip(names, places, seats, stats, strict=True)
    )
    return CsvGame(line=line, played_on=played_on, finishers=finishers, note=note)


def _guildmaster_row(line: int, played_on: date, names: list[str], note: str) -> CsvGame:
    """A row naming a player twice, as Guildmaster rates it (see the module docstring).

    Each player finishes once, at the place of their first column; places run 1, 2, 3... by
    first column, so the stored game is a ranking like any other. Every finisher carries the
    columns the row gave them (1 = the winner's), which is all Guildmaster's rating reads.
    """
    columns: dict[str, list[int]] = {}
    spelling: dict[str, str] = {}
    for column, name in enumerate(names, start=1):
        columns.setdefault(name.lower(), []).append(column)
        spelling.setdefault(name.lower(), name)
    finishers = tuple(
        Finisher(name=spelling[folded], place=place, stats={GUILDMASTER_ORDER: order})
        for place, (folded, order) in enumerate(columns.items(), start=1)
    )
    return CsvGame(line=line, played_on=played_on, finishers=finishers, note=note)


RESULTS_HEADER = ["game_id", "date", "player", "placement"]


def parse_games_csv(
    text: str, *, latest: date | None = None, repeated_names: str = REPEATS_REFUSE
) -> ParsedCsv:
    """Read a whole Guildmaster CSV; never raises on bad rows (see the module docstring).

    A file whose first line is the header `game_id,date,player,placement` is read as one
    result per row instead (see `parse_results_csv`). A game dated after `latest` (see
    `latest_game_date`) is a problem of its row. `repeated_names` says what a row naming a
    player twice is: a problem (`REPEATS_REFUSE`) or a game rated as Guildmaster rates it
    (`REPEATS_GUILDMASTER`, with a warning); the results format always refuses it.
    """
    if repeated_names not in REPEATED_NAMES:
        raise ValueError(f"repeated_names must be one of {REPEATED_NAMES}, not {repeated_names!r}")
    if text.startswith("\ufeff"):
        text = text[1:]
    first_line = text.split("\n", 1)[0].strip().lower().replace(" ", "")
    if first_line.split(",") == RESULTS_HEADER:
        return parse_results_csv(text, latest=latest)
    result = ParsedCsv(games=[], problems=[], warnings=[])
    reader = csv.reader(io.StringIO(text, newline=""))
    first_data_row = True
    next_line = 1
    while True:
        line = next_line
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            result.problems.append(
                RowProblem(
                    line, _("row"), _("cannot be read as CSV (%(error)s)") % {"error": error}
                )
            )
            break
        next_line = reader.line_num + 1
        if not any(c.strip() for c in cells):
            continue
        date_cell = cells[1].strip() if len(cells) > 1 else ""
        if first_data_row and _HEADER_DATE.match(date_cell) and parse_date(date_cell) is None:
            result.header_line = line
            first_data_row = False
            continue
        first_data_row = False
        swallowed = _swallowed_rows(cells, line, reader.line_num)
        if swallowed:
            result.problems.append(swallowed)
            continue
        game = _parse_row(cells, line, result, latest, repeated_names)
        if game is not None:
            result.games.append(game)
    _warn_notes_that_look_like_players(result)
    return result


def _swallowed_rows(cells: list[str], line: int, last_line: int) -> RowProblem | None:
    """A cell that runs over several lines and holds what looks like game rows.

    An opening quote that is never closed makes the CSV reader put every following line into
    one cell; without this check those games would vanish into a note.
    """
    if last_line == line:
        return None
    for index, cell in enumerate(cells):
        if any(_ROW_START.match(part) for part in cell.splitlines()[1:]):
            return RowProblem(
                line,
                _("column %(column)s") % {"column": column_letter(index)},
                _(
                    'a quote (") opened in this cell is not closed until line %(last_line)s, '
                    "so the rows in between were read as part of it; close the quote"
                )
                % {"last_line": last_line},
            )
    return None


def _warn_notes_that_look_like_players(result: ParsedCsv) -> None:
    """A note that is one known player's name was probably a player after a stray empty cell."""
    known = {f.name.lower() for g in result.games for f in g.finishers}
    for game in result.games:
        if game.note and game.note.lower() in known:
            result.warnings.append(
                RowProblem(
                    game.line,
                    _("note"),
                    _(
                        '"%(note)s" comes after an empty cell, so it is kept as the note, but it '
                        "is also a player's name: check the row"
                    )
                    % {"note": game.note},
                )
            )


def write_games_csv(games: list[CsvGame]) -> str:
    """Write games in Guildmaster's format, with Guildhall's extension only where needed."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for game in games:
        finishers = list(game.finishers)
        meta: dict = {}
        places = [f.place for f in finishers]
        if places != list(range(1, len(finishers) + 1)):
            meta["places"] = places
        if any(f.seat is not None for f in finishers):
            meta["seats"] = [f.seat for f in finishers]
        if any(f.stats for f in finishers):
            meta["stats"] = [f.stats for f in finishers]
        row = [json.dumps(meta, sort_keys=True) if meta else "", game.played_on.isoformat()]
        row.extend(escape_text(f.name) for f in finishers)
        if game.note:
            row.extend(["", escape_text(game.note)])
        writer.writerow(row)
    return out.getvalue()


def parse_results_csv(text: str, *, latest: date | None = None) -> ParsedCsv:
    """Read one result per row: `game_id,date,player,placement` (a header line first).

    The format of shared/bench-data and of many score-keeping exports. Rows of one game are
    consecutive (a game id seen again later is a new game only if another game came between:
    that is reported). Places follow competition ranking; a game's problems are reported on
    the line of its first row, so skipping a bad game skips all its rows.
    """
    result = ParsedCsv(games=[], problems=[], warnings=[], header_line=1)
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    next(reader, None)
    rows: list[tuple[int, list[str]]] = []
    next_line = 2
    for cells in reader:
        line, next_line = next_line, reader.line_num + 1
        if any(c.strip() for c in cells):
            rows.append((line, cells))
    seen_ids: set[str] = set()
    index = 0
    while index < len(rows):
        first_line, cells = rows[index]
        game_id = cells[0].strip() if cells else ""
        group = []
        while (
            index < len(rows) and (rows[index][1][0].strip() if rows[index][1] else "") == game_id
        ):
            group.append(rows[index])
            index += 1
        game = _results_game(game_id, group, result.problems, latest)
        if game_id in seen_ids:
            result.problems.append(
                RowProblem(
                    first_line,
                    _("column A (game_id)"),
                    _(
                        'game "%(game_id)s" appears twice, separated by other games: keep each '
                        "game's rows together"
                    )
                    % {"game_id": game_id},
                )
            )
            continue
        seen_ids.add(game_id)
        if game is not None:
            result.games.append(game)
    return result


def _results_game(
    game_id: str, group, problems: list[RowProblem], latest: date | None
) -> CsvGame | None:
    line = group[0][0]
    before = len(problems)
    if not game_id:
        problems.append(RowProblem(line, _("column A (game_id)"), _("the game id is missing")))
    elif _CONTROL.search(game_id) or len(game_id) > NOTE_MAX_LENGTH - 5:
        problems.append(
            RowProblem(
                line,
                _("column A (game_id)"),
                _("the game id is too long or has control characters"),
            )
        )
    dates = {cells[1].strip() if len(cells) > 1 else "" for _, cells in group}
    played_on = parse_date(next(iter(dates))) if len(dates) == 1 else None
    if len(dates) != 1:
        problems.append(
            RowProblem(line, _("column B (date)"), _("the game's rows have different dates"))
        )
    elif played_on is None:
        problems.append(
            RowProblem(
                line,
                _("column B (date)"),
                _('"%(date)s" is not a date (use YYYY-MM-DD or M/D/YYYY)')
                % {"date": next(iter(dates))},
            )
        )
    elif future := future_date_problem(played_on, latest):
        problems.append(RowProblem(line, _("column B (date)"), future))
    finishers = []
    seen: set[str] = set()
    for row_line, cells in group:
        name = clean_text(cells[2]) if len(cells) > 2 else ""
        place_text = cells[3].strip() if len(cells) > 3 else ""
        if not name:
            problems.append(
                RowProblem(row_line, _("column C (player)"), _("the player's name is empty"))
            )
        elif len(name) > NAME_MAX_LENGTH:
            problems.append(
                RowProblem(
                    row_line,
                    _("column C (player)"),
                    _("the name is longer than %(name_max_length)s characters")
                    % {"name_max_length": NAME_MAX_LENGTH},
                )
            )
        elif _CONTROL.search(name):
            problems.append(
                RowProblem(
                    row_line, _("column C (player)"), _("the name contains control characters")
                )
            )
        elif name.lower() in seen:
            problems.append(
                RowProblem(
                    line,
                    _("column C (player)"),
                    _('"%(name)s" is named twice in game "%(game_id)s" (line %(row_line)s)')
                    % {"name": name, "game_id": game_id, "row_line": row_line},
                )
            )
        seen.add(name.lower())
        # ASCII digits only: "¹".isdigit() is true, and int() refuses it.
        if not (place_text.isascii() and place_text.isdigit()) or int(place_text) < 1:
            problems.append(
                RowProblem(
                    row_line,
                    _("column D (placement)"),
                    _('"%(place_text)s" is not a place (1 = winner)') % {"place_text": place_text},
                )
            )
            continue
        finishers.append(Finisher(name=name, place=int(place_text)))
    if len(group) < 2:
        problems.append(
            RowProblem(line, _("players"), _("a game needs at least 2 players; this one has 1"))
        )
    elif len(group) > MAX_PLAYERS:
        problems.append(
            RowProblem(
                line,
                _("players"),
                _("a game can have at most %(max_players)s players; this one has %(count)s")
                % {"max_players": MAX_PLAYERS, "count": len(group)},
            )
        )
    elif len(finishers) == len(group) and not is_valid_ranking([f.place for f in finishers]):
        places = ", ".join(str(f.place) for f in sorted(finishers, key=lambda f: f.place))
        problems.append(
            RowProblem(
                line,
                _("column D (placement)"),
                _("places %(places)s are not a ranking like 1, 2, 2, 4") % {"places": places},
            )
        )
    if len(problems) > before or played_on is None:
        return None
    finishers.sort(key=lambda f: f.place)
    return CsvGame(
        line=line, played_on=played_on, finishers=tuple(finishers), note=f"game {game_id}"
    )
