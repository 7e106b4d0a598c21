"""The database of a process started without DATABASE_URL: none, said plainly when used.

Settings no longer refuse to load without DATABASE_URL, so a command that needs no database
(`pair_pods`: JSON in, JSON out) runs anywhere. Whatever does touch the database (a query, a
migration, a page) stops with what to set, instead of Django's "supply the ENGINE value".
"""

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.dummy import base as dummy

NO_DATABASE = (
    "This needs the database and DATABASE_URL is not set. Set DATABASE_URL to a PostgreSQL "
    "database, e.g. DATABASE_URL=postgres://user:password@127.0.0.1:5432/guildhall. `make run` "
    "starts an embedded PostgreSQL and sets it for you (and prints it, for manage.py "
    "commands); `make test` finds one by itself."
)


def complain(*args, **kwargs):
    raise ImproperlyConfigured(NO_DATABASE)


class DatabaseOperations(dummy.DatabaseOperations):
    quote_name = complain


class DatabaseClient(dummy.DatabaseClient):
    runshell = complain


class DatabaseIntrospection(dummy.DatabaseIntrospection):
    get_table_list = complain
    get_table_description = complain
    get_relations = complain
    get_indexes = complain


class DatabaseWrapper(dummy.DatabaseWrapper):
    vendor = "none"
    display_name = "no database (DATABASE_URL is not set)"
    _cursor = complain
    ensure_connection = complain
    _commit = complain
    _savepoint_commit = complain
    _set_autocommit = complain
    client_class = DatabaseClient
    introspection_class = DatabaseIntrospection
    ops_class = DatabaseOperations
