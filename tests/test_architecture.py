"""The shape of the house: the apps' migrations depend one way, as their imports do.

The imports are checked by import-linter (`make lint`); migrations are not Python imports of
each other, so this test reads their dependency graph and refuses a cycle between apps.
"""

from django.db.migrations.loader import MigrationLoader

OURS = {"audit", "jobs", "leagues", "notifications", "ratings", "seasons", "tournaments"}


def app_dependencies() -> dict[str, set[str]]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    edges: dict[str, set[str]] = {app: set() for app in OURS}
    for (app, _name), migration in loader.disk_migrations.items():
        if app not in OURS:
            continue
        for dep_app, _dep in migration.dependencies:
            if dep_app in OURS and dep_app != app:
                edges[app].add(dep_app)
    return edges


def test_no_migration_cycle_between_apps():
    edges = app_dependencies()
    done: set[str] = set()

    def visit(app: str, path: tuple[str, ...]) -> None:
        assert app not in path, f"migration cycle: {' -> '.join((*path, app))}"
        if app in done:
            return
        for dep in sorted(edges[app]):
            visit(dep, (*path, app))
        done.add(app)

    for app in sorted(OURS):
        visit(app, ())


def test_audit_sits_below_the_game_apps():
    edges = app_dependencies()
    assert edges["audit"] <= {"leagues"}  # its entries belong to an organization (a string FK)
    assert "audit" not in edges["leagues"] | edges["tournaments"]
    assert "tournaments" not in edges["leagues"] | edges["ratings"]
