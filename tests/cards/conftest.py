import pytest
from django.core.management import call_command

from .sample import SAMPLE


@pytest.fixture
def sample_cards_loaded(db):
    """The shipped sample of real cards, loaded as `load_cards` loads a bulk file."""
    call_command("load_cards", str(SAMPLE), stdout=open("/dev/null", "w"))  # noqa: SIM115
