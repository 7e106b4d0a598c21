"""One account per username and per e-mail address, ignoring case, kept by the database.

allauth's sign-up checks both (ignoring case) before it saves, but ten sign-ups at one moment
all pass the check before any account exists: one address made nine accounts, and one
username answered 500 (Django's own unique index on auth_user.username only refuses the exact
same spelling). Two unique indexes on Django's auth_user table make the rule true:
lower(username), and lower(email) where there is an address (accounts made in the admin often
have none). accounts/views.py turns the loser's IntegrityError into what a later sign-up gets.

Accounts that already break the rule are not changed here (which of two accounts keeps a name
is a person's decision): the migration stops, names them, and changes nothing, so the store's
owner renames or merges them in the admin and runs migrate again.
"""

from django.db import migrations

USERNAME_INDEX = "accounts_user_username_lower_uniq"
EMAIL_INDEX = "accounts_user_email_lower_uniq"


def duplicate_accounts_message(connection) -> str | None:
    """A sentence naming every group of accounts that share a username or an address ignoring
    case (each account by username and id), or None when there are none."""
    groups = []
    with connection.cursor() as cursor:
        for what, column, where in [
            ("username", "username", ""),
            ("address", "email", "WHERE email <> ''"),
        ]:
            cursor.execute(
                f"SELECT lower({column}), array_agg(username || ' (#' || id || ')' ORDER BY id) "
                f"FROM auth_user {where} GROUP BY lower({column}) HAVING count(*) > 1 "
                f"ORDER BY lower({column})"
            )
            groups += [f"{what} {key!r}: {', '.join(names)}" for key, names in cursor.fetchall()]
    if not groups:
        return None
    return (
        "Some accounts share a username or an e-mail address when letter case is ignored, "
        "which Guildhall no longer allows (one account per username and per address): "
        + "; ".join(groups)
        + ". Nothing was changed. In the admin (Users), give all but one of each group another "
        "username or address (or delete the accounts nobody uses), then run migrate again."
    )


def refuse_duplicates(apps, schema_editor):
    message = duplicate_accounts_message(schema_editor.connection)
    if message:
        raise RuntimeError(message)


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        migrations.RunPython(refuse_duplicates, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {USERNAME_INDEX} ON auth_user (lower(username))",
            f"DROP INDEX IF EXISTS {USERNAME_INDEX}",
        ),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {EMAIL_INDEX} ON auth_user (lower(email)) WHERE email <> ''",
            f"DROP INDEX IF EXISTS {EMAIL_INDEX}",
        ),
    ]
