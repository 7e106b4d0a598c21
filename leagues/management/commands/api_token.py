"""`api_token create|list|revoke`: API tokens that let programs post games to a store's leagues.

    api_token create --organization SLUG --name NAME [--user USERNAME]
    api_token list --organization SLUG
    api_token revoke PREFIX_OR_ID

`create` prints the token once; only its hash is stored, so it cannot be shown again. With
--user the token acts for that user, who must be an owner or organizer of the organization
(or a superuser) and stay one for the token to keep working; without it the token is the
organization's own. `revoke` takes the id or the prefix shown by `list`.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from leagues.models import MANAGER_ROLES, ApiToken, Organization


class Command(BaseCommand):
    help = "Create, list and revoke API tokens of an organization."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        create = actions.add_parser("create", help="make a token and print it (once)")
        create.add_argument("--organization", required=True, metavar="SLUG")
        create.add_argument("--name", required=True, help="what the token is for")
        create.add_argument(
            "--user", metavar="USERNAME", help="act as this owner/organizer (default: nobody)"
        )
        listing = actions.add_parser("list", help="the organization's tokens")
        listing.add_argument("--organization", required=True, metavar="SLUG")
        revoke = actions.add_parser("revoke", help="stop a token from working")
        revoke.add_argument("token", metavar="PREFIX_OR_ID")

    def handle(self, *args, **options):
        getattr(self, f"handle_{options['action']}")(options)

    # --- actions ----------------------------------------------------------------------------

    def handle_create(self, options) -> None:
        organization = self.organization(options["organization"])
        name = " ".join(options["name"].split())
        if not name:
            raise CommandError("Give the token a --name saying what it is for.")
        if len(name) > ApiToken._meta.get_field("name").max_length:
            raise CommandError("The --name is too long (at most 100 characters).")
        user = self.user(options["user"], organization) if options["user"] else None
        token, plaintext = ApiToken.issue(organization=organization, name=name, by=user)
        self.stderr.write(
            f"Created API token #{token.pk} ({token.prefix}…) “{token.name}” for {organization}"
            + (f", acting as {user.get_username()}" if user else "")
            + ". It is shown only now; store it safely:"
        )
        self.stdout.write(plaintext)

    def handle_list(self, options) -> None:
        organization = self.organization(options["organization"])
        tokens = organization.api_tokens.select_related("created_by")
        if not tokens:
            self.stdout.write(f"{organization} has no API tokens.")
            return
        for t in tokens:
            user = t.created_by.get_username() if t.created_by else "-"
            used = f"{t.last_used_at:%Y-%m-%d %H:%M}" if t.last_used_at else "never"
            state = f"revoked {t.revoked_at:%Y-%m-%d %H:%M}" if t.revoked_at else "active"
            self.stdout.write(
                f"#{t.pk}\t{t.prefix}…\t{t.name}\tuser {user}\t"
                f"created {t.created_at:%Y-%m-%d %H:%M}\tlast used {used}\t{state}"
            )

    @transaction.atomic
    def handle_revoke(self, options) -> None:
        given = options["token"].strip().rstrip("…")
        if given.isdigit():
            tokens = list(ApiToken.objects.filter(pk=int(given)))
        elif given.startswith(ApiToken.PREFIX) and len(given) >= ApiToken.PREFIX_LENGTH:
            # A whole token works too: its first characters are the prefix.
            tokens = list(ApiToken.objects.filter(prefix=given[: ApiToken.PREFIX_LENGTH]))
            if len(given) > ApiToken.PREFIX_LENGTH:
                tokens = [t for t in tokens if t.key_hash == ApiToken.hash_key(given)]
        else:
            raise CommandError(
                f'"{given}" is neither a token id nor a prefix like {ApiToken.PREFIX}AbCd1.'
            )
        if not tokens:
            raise CommandError(f'No API token "{given}".')
        if len(tokens) > 1:
            ids = ", ".join(f"#{t.pk}" for t in tokens)
            raise CommandError(f'Several tokens start with "{given}" ({ids}); revoke one by id.')
        token = tokens[0]
        if token.revoke():
            self.stdout.write(f"Revoked API token #{token.pk} ({token.prefix}…) “{token.name}”.")
        else:
            self.stdout.write(f"API token #{token.pk} ({token.prefix}…) was already revoked.")

    # --- lookups ----------------------------------------------------------------------------

    def organization(self, slug: str) -> Organization:
        try:
            return Organization.objects.get(slug=slug)
        except Organization.DoesNotExist:
            raise CommandError(f'No organization with the slug "{slug}".') from None

    def user(self, username: str, organization: Organization):
        User = get_user_model()
        try:
            user = User.objects.get(**{User.USERNAME_FIELD: username})
        except User.DoesNotExist:
            raise CommandError(f'No user "{username}".') from None
        if not user.is_active:
            raise CommandError(f"{username} is not active.")
        manages = user.memberships.filter(
            organization=organization, role__in=MANAGER_ROLES
        ).exists()
        if not (user.is_superuser or manages):
            raise CommandError(f"{username} is not an owner or organizer of {organization}.")
        return user
