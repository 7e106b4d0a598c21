"""django-allauth's adapters, as Guildhall needs them.

- Sign-up is open unless GUILDHALL_SIGNUP_OPEN=0 (a store running without player accounts).
- The Discord log-in exists only while the site has a Discord application
  (SOCIALACCOUNT_PROVIDERS["discord"]["APPS"], from DISCORD_CLIENT_ID and
  DISCORD_CLIENT_SECRET); without one its addresses answer 404 (config/urls_accounts.py).
- allauth's rate limits (sign-up, password reset, confirmation mails) count each visitor by
  the address the rest of the site uses (core.clientip, PROXY_COUNT), not the proxy's.
- A sign-up that loses a race for an address (two taps, two phones) sends the winner's
  verification mail where allauth would send "you already have an account": both mails share
  one slot of allauth's limit per address, so when the loser's went first the new account's
  owner got the note and never the link.
"""

import datetime

from allauth.account.adapter import DefaultAccountAdapter
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from core.clientip import client_ip


def signup_open() -> bool:
    return getattr(settings, "GUILDHALL_SIGNUP_OPEN", True)


def discord_configured() -> bool:
    providers = getattr(settings, "SOCIALACCOUNT_PROVIDERS", {})
    return bool(providers.get("discord", {}).get("APPS"))


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request) -> bool:
        return signup_open()

    def get_client_ip(self, request) -> str:
        # allauth's own reading of X-Forwarded-For (ALLAUTH_TRUSTED_PROXY_COUNT) would be a
        # second rule to keep in step with the lockout's; one helper answers for both.
        ip = client_ip(request)
        if not ip:
            raise PermissionDenied(_("Unable to determine client IP address"))
        return ip

    # An account this young, its address not yet verified, is a sign-up still waiting for its
    # verification mail (allauth's limit is one mail per address every 3 minutes).
    JUST_SIGNED_UP = datetime.timedelta(minutes=3)

    def send_account_already_exists_mail(self, email: str) -> None:
        from allauth.account.models import EmailAddress

        address = (
            EmailAddress.objects.filter(
                email__iexact=email,
                verified=False,
                user__date_joined__gte=timezone.now() - self.JUST_SIGNED_UP,
            )
            .select_related("user")
            .first()
        )
        if address is None:
            super().send_account_already_exists_mail(email)
        else:
            address.send_confirmation(self.request, signup=True)


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin) -> bool:
        return signup_open()
