"""django-allauth's adapters, as Guildhall needs them.

- Sign-up is open unless GUILDHALL_SIGNUP_OPEN=0 (a store running without player accounts).
- The Discord log-in exists only while the site has a Discord application
  (SOCIALACCOUNT_PROVIDERS["discord"]["APPS"], from DISCORD_CLIENT_ID and
  DISCORD_CLIENT_SECRET); without one its addresses answer 404 (config/urls_accounts.py).
"""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings


def signup_open() -> bool:
    return getattr(settings, "GUILDHALL_SIGNUP_OPEN", True)


def discord_configured() -> bool:
    providers = getattr(settings, "SOCIALACCOUNT_PROVIDERS", {})
    return bool(providers.get("discord", {}).get("APPS"))


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request) -> bool:
        return signup_open()


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin) -> bool:
        return signup_open()
