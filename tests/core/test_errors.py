"""The one application error: a code, a message and a field; every league and rating refusal
is one, keeps its name and its old base (ValueError), and says what HTTP status it means."""

import pytest

from core.errors import ConflictError, DomainError
from exchange.services import ExchangeError
from jobs.errors import JobRefused
from leagues.domain.csvformat import UndecodableFile, decode_upload
from leagues.domain.ranking import RankingError, validate_places
from leagues.services import (
    GameConflict,
    ImportRefused,
    LeagueError,
    UndoRefused,
    UnknownPlayers,
)
from ratings.api import BadInput
from ratings.domain.base import ParamError
from ratings.domain.registry import make_system


def test_a_domain_error_is_made_with_keywords_and_reads_as_its_message():
    error = DomainError(message="Seats are numbered from 1.", code="seat_below_one", field="seats")
    assert (error.message, error.code, error.field) == (
        "Seats are numbered from 1.",
        "seat_below_one",
        "seats",
    )
    assert str(error) == "Seats are numbered from 1."
    assert error.status == 400
    with pytest.raises(TypeError):
        DomainError("positional")  # type: ignore[misc]


def test_defaults_and_conflicts():
    error = DomainError(message="No.")
    assert (error.code, error.field) == ("invalid", None)
    conflict = ConflictError(message="Changed meanwhile.")
    assert (conflict.status, conflict.code) == (409, "conflict")


@pytest.mark.parametrize(
    "cls",
    [
        LeagueError,
        GameConflict,
        UndoRefused,
        UnknownPlayers,
        ImportRefused,
        RankingError,
        UndecodableFile,
        ParamError,
        BadInput,
        ExchangeError,
        JobRefused,
    ],
)
def test_every_league_rating_and_job_error_is_a_domain_error(cls):
    assert issubclass(cls, DomainError)


@pytest.mark.parametrize("cls", [LeagueError, RankingError, UndecodableFile, ParamError])
def test_those_that_were_value_errors_still_are(cls):
    assert issubclass(cls, ValueError)  # callers that catch ValueError keep working


def test_raised_errors_carry_code_message_and_field():
    with pytest.raises(RankingError) as ranking:
        validate_places([1, 3])
    assert ranking.value.code == "invalid_ranking" and str(ranking.value).startswith("Places 1, 3")
    with pytest.raises(UndecodableFile) as undecodable:
        decode_upload(b"a,b\x00")
    assert undecodable.value.code == "undecodable" and "NUL" in str(undecodable.value)
    with pytest.raises(ParamError) as param:
        make_system("elo", {"k": "x"})
    assert (param.value.field, param.value.message) == ("k", "must be a number")
    assert str(param.value) == "k: must be a number"  # its message reads after the field


def test_league_errors_take_the_message_first_and_say_their_status():
    error = LeagueError("A player needs a name.", field="name", code="empty_name")
    assert (str(error), error.field, error.code, error.status) == (
        "A player needs a name.",
        "name",
        "empty_name",
        400,
    )
    assert LeagueError(message="Keyword too.").code == "invalid"
    stale = GameConflict(game=None, message="This game was deleted meanwhile.")
    assert (stale.status, stale.code, stale.game) == (409, "stale", None)
    refused = UndoRefused("Already undone.", code="already_undone")
    assert (refused.status, refused.code) == (409, "already_undone")
