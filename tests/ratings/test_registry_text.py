"""What the API's document and the commands say about the rating systems is read from their
registry (ratings.domain.registry): the names, the labels, which give whole numbers."""

from django.core.management import get_commands, load_command_class

from ratings.domain.registry import SYSTEMS
from ratings.openapi import SCHEMA

# The registry as this test was written: a system added there shows in the texts below.
NAMES = ["guildmaster", "elo", "elo-dynamic", "openskill"]
WHOLE_NUMBERS = "guildmaster, elo-dynamic"


def test_the_document_names_the_systems_and_those_giving_whole_numbers():
    schemas = SCHEMA["components"]["schemas"]
    system = schemas["Leaderboard"]["properties"]["system"]
    assert system["enum"] == NAMES == list(SYSTEMS)
    assert "guildmaster, Guildmaster Elo (K 40, D 800)" in system["description"]
    assert "openskill, OpenSkill (Plackett-Luce)" in system["description"]
    assert system["description"].endswith("New leagues: guildmaster.")
    rating = schemas["Leaderboard"]["properties"]["ratings"]["items"]["properties"]["rating"]
    assert f"integer systems ({WHOLE_NUMBERS})" in rating["description"]


def test_the_import_command_lists_every_system_and_the_default():
    command = load_command_class(get_commands()["import_games"], "import_games")
    parser = command.create_parser("manage.py", "import_games")
    option = next(a for a in parser._actions if "--rating-system" in a.option_strings)
    assert f"({', '.join(NAMES)}; default guildmaster)" in " ".join(option.help.split())
