"""What the tests that walk the migrations share, in the database the `empty_database`
fixture (tests/conftest.py) gives them."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrated(targets: list[tuple[str, str]]):
    """The database migrated to `targets` (forward, or back); the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def friday_league(apps):
    """A store and its league, written with the models of `apps` (an old migration's)."""
    store = apps.get_model("leagues", "Organization").objects.create(name="Den", slug="den")
    return apps.get_model("leagues", "League").objects.create(
        organization=store, name="Friday", slug="friday"
    )
