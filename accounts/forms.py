"""The log-in and sign-up forms: allauth's, with two changes.

Log-in: allauth's, except for accounts the store made itself.

Where the site sends mail, an account must have verified its address before it logs in
(ACCOUNT_EMAIL_VERIFICATION). Not the store's own people: staff, superusers and members of a
store (owners, organizers, judges) were made by someone who knows them, in the admin or by
`createsuperuser`, often with no address at all, and asking them for a verification mail
would lock the store out of its own site. Nor an account with no address on record with
allauth (made outside it): there is nothing to verify.

Sign-up: allauth's, saved in one transaction, and a save refused by the database's one account
per username and per address (accounts/migrations; a sign-up at the same moment won the name)
raised as SignupConflict, for the view to answer as it answers a later sign-up.
"""

from allauth.account.app_settings import EmailVerificationMethod
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.models import EmailAddress
from django.db import IntegrityError, transaction


class LoginForm(AllauthLoginForm):
    def clean(self):
        cleaned = super().clean()
        login = getattr(self, "_login", None)
        user = getattr(login, "user", None)
        if user is not None and (
            user.is_staff
            or user.is_superuser
            or user.memberships.exists()
            or not EmailAddress.objects.filter(user_id=user.pk).exists()
        ):
            login.email_verification = EmailVerificationMethod.NONE
        return cleaned


class SignupConflict(Exception):
    """Another sign-up took this username or address between the form's check and the save."""


class SignupForm(AllauthSignupForm):
    def try_save(self, request):
        try:
            with transaction.atomic():
                return super().try_save(request)
        except IntegrityError as error:
            raise SignupConflict from error
