"""The registry: building systems from stored settings, and the messages for bad ones."""

import json

import pytest

from ratings.domain.base import ParamError, RatingState
from ratings.domain.elo import Elo, EloDynamic, GuildmasterElo
from ratings.domain.openskill_system import OpenSkill
from ratings.domain.registry import DEFAULT_SYSTEM, SYSTEMS, make_system


def test_the_four_systems_and_the_default():
    expected = {
        "guildmaster": GuildmasterElo,
        "elo": Elo,
        "elo-dynamic": EloDynamic,
        "openskill": OpenSkill,
    }
    assert dict(SYSTEMS) == expected
    assert DEFAULT_SYSTEM == "guildmaster"
    assert isinstance(make_system(DEFAULT_SYSTEM), GuildmasterElo)


def test_defaults_filled_in():
    assert make_system("guildmaster").params() == {}
    assert make_system("elo").params() == {
        "initial": 1500,
        "k": 40,
        "d": 800,
        "scale_by_pod_size": False,
        "tied_below_first": "draw",
    }
    assert make_system("elo-dynamic", None).params() == {
        "initial": 1500,
        "d": 400,
        "k_bands": [[1200, 40], [1800, 32], [2200, 24], [None, 16]],
    }
    assert make_system("openskill", {}).params() == {
        "mu": 25.0,
        "sigma": 25 / 3,
        "beta": 25 / 6,
        "tau": 25 / 300,
        "provisional_games": 5,
    }


def test_given_params_are_kept():
    system = make_system("elo", {"k": 32, "d": 400, "tied_below_first": "skip"})
    assert system.params()["k"] == 32
    assert system.params()["tied_below_first"] == "skip"
    assert system.initial() == RatingState(1500.0)


@pytest.mark.parametrize("name", list(SYSTEMS))
def test_params_round_trip_through_json(name):
    system = make_system(name)
    stored = json.loads(json.dumps(system.params()))
    assert make_system(name, stored) == system
    assert hash(make_system(name, stored)) == hash(system)


@pytest.mark.parametrize("name", list(SYSTEMS))
def test_params_are_described_for_a_form(name):
    cls = SYSTEMS[name]
    assert cls.name == name and cls.label and isinstance(cls.integer, bool)
    described = cls.describe_params()
    json.dumps(described)
    assert [d["name"] for d in described] == list(make_system(name).params())
    for d in described:
        assert d["label"] and d["help"]
        assert d["kind"] in {"int", "float", "bool", "choice", "bands"}


def test_params_copy_cannot_change_the_system():
    system = make_system("elo-dynamic")
    params = system.params()
    params["k_bands"][0][1] = 999
    params["d"] = 1
    assert system.params()["k_bands"][0][1] == 40
    assert system.params()["d"] == 400


@pytest.mark.parametrize("name", list(SYSTEMS))
def test_systems_are_immutable(name):
    system = make_system(name)
    with pytest.raises(AttributeError):
        system.k = 3
    with pytest.raises(AttributeError):
        system._p = {}


@pytest.mark.parametrize(
    ("name", "params", "field", "message"),
    [
        ("chess", None, "rating_system", "unknown rating system 'chess'"),
        (None, None, "rating_system", "unknown rating system None"),
        ("elo", ["k", 3], "rating_system", "must be a mapping"),
        ("elo", {"kk": 30}, "kk", "not a parameter of elo"),
        ("guildmaster", {"k": 30}, "k", "not a parameter of guildmaster (its parameters: none)"),
        ("elo", {"k": 0}, "k", "must be greater than 0"),
        ("elo", {"k": -5}, "k", "must be greater than 0"),
        ("elo", {"k": 1001}, "k", "must be at most 1000"),
        ("elo", {"k": "40"}, "k", "must be a number"),
        ("elo", {"k": True}, "k", "must be a number"),
        ("elo", {"k": float("nan")}, "k", "must be a finite number"),
        ("elo", {"d": 0.5}, "d", "must be at least 1"),
        ("elo", {"scale_by_pod_size": 1}, "scale_by_pod_size", "must be true or false"),
        (
            "elo",
            {"tied_below_first": "ignore"},
            "tied_below_first",
            "must be one of 'draw', 'skip'",
        ),
        ("elo-dynamic", {"initial": 1500.5}, "initial", "must be a whole number"),
        ("elo-dynamic", {"k_bands": []}, "k_bands", "must be a list"),
        ("elo-dynamic", {"k_bands": [[None]]}, "k_bands", "each band must be [upper bound, K]"),
        ("elo-dynamic", {"k_bands": [[1200, 40]]}, "k_bands", "last band must have no upper"),
        (
            "elo-dynamic",
            {"k_bands": [[None, 40], [None, 16]]},
            "k_bands",
            "only the last band may have no upper bound",
        ),
        (
            "elo-dynamic",
            {"k_bands": [[1800, 32], [1200, 40], [None, 16]]},
            "k_bands",
            "ascending",
        ),
        ("elo-dynamic", {"k_bands": [[1200, 40], [1200, 32], [None, 16]]}, "k_bands", "ascending"),
        ("elo-dynamic", {"k_bands": [[1200, 0], [None, 16]]}, "k_bands", "K 0 must be"),
        ("elo-dynamic", {"k_bands": [["1200", 40], [None, 16]]}, "k_bands", "bound '1200'"),
        ("openskill", {"sigma": 0}, "sigma", "must be greater than 0"),
        ("openskill", {"provisional_games": 2.5}, "provisional_games", "whole number"),
        ("openskill", {"tau": -1}, "tau", "must be at least 0"),
    ],
)
def test_bad_settings_name_the_field(name, params, field, message):
    with pytest.raises(ParamError) as err:
        make_system(name, params)
    assert err.value.field == field
    assert message in err.value.message
    assert str(err.value).startswith(f"{field}: ")


def test_whole_floats_from_json_are_whole_numbers():
    assert make_system("openskill", {"provisional_games": 7.0}).params()["provisional_games"] == 7
    assert make_system("elo-dynamic", {"initial": 1000.0}).initial() == RatingState(1000.0)


def test_keyword_construction_equals_registry():
    assert Elo(k=32) == make_system("elo", {"k": 32})
    assert Elo(k=32) != make_system("elo", {"k": 24})
    assert Elo() != EloDynamic()
