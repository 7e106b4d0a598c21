"""django-allauth's adapters, as Guildhall needs them.

- Sign-up is open unless GUILDHALL_SIGNUP_OPEN=0 (a store running without player accounts).
- The Discord log-in exists only while the site has a Discord application
  (SOCIALACCOUNT_PROVIDERS["discord"]["APPS"], from DISCORD_CLIENT_ID and
  DISCORD_CLIENT_SECRET); without one its addresses answer 404 (config/urls_accounts.py).
- allauth's rate limits (sign-up, password reset, confirmation mails) count each visitor by
  the address the rest of the site uses (core.clientip, PROXY_COUNT), not the proxy's.
"""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.core.exceptions import PermissionDenied

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
            raise PermissionDenied("Unable to determine client IP address")
        return ip


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin) -> bool:
        return signup_open()
