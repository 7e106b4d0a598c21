"""Accounts, by django-allauth: sign-up, log-in, log-out, e-mail addresses and their
verification, password change and reset, and the optional Discord log-in.

Two guards in front of allauth's own addresses:
- the password reset pages answer 404 when the site cannot send mail
  (settings.GUILDHALL_MAIL_DELIVERS, from config/mail.py): a reset that says "we've e-mailed
  you" when no mail can arrive is worse than none;
- the Discord log-in and its callback answer 404 unless the site has a Discord application
  (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET; accounts.adapter.discord_configured).
"""

import functools

from allauth.account import views as account_views
from allauth.socialaccount.providers.discord.views import oauth2_callback, oauth2_login
from django.conf import settings
from django.http import Http404
from django.urls import include, path, re_path
from django.utils.translation import gettext as _

from accounts.adapter import discord_configured
from accounts.views import SignupView


def needs_mail(view):
    """The view, or a 404 while the site has no way to deliver mail."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not settings.GUILDHALL_MAIL_DELIVERS:
            raise Http404(_("Password reset by mail is not available on this site."))
        return view(request, *args, **kwargs)

    return wrapper


def needs_discord(view):
    """The view, or a 404 while the site has no Discord application."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not discord_configured():
            raise Http404(_("Logging in with Discord is not set up on this site."))
        return view(request, *args, **kwargs)

    return wrapper


# Matched before allauth's own patterns of the same addresses (same names, so every
# {% url %} and redirect of allauth's lands on the guarded view).
urlpatterns = [
    # allauth's, answering a sign-up that lost a race for its username or address (no 500).
    path("signup/", SignupView.as_view(), name="account_signup"),
    path(
        "password/reset/",
        needs_mail(account_views.password_reset),
        name="account_reset_password",
    ),
    path(
        "password/reset/done/",
        needs_mail(account_views.password_reset_done),
        name="account_reset_password_done",
    ),
    re_path(
        r"^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
        needs_mail(account_views.password_reset_from_key),
        name="account_reset_password_from_key",
    ),
    path(
        "password/reset/key/done/",
        needs_mail(account_views.password_reset_from_key_done),
        name="account_reset_password_from_key_done",
    ),
    path("discord/login/", needs_discord(oauth2_login), name="discord_login"),
    path("discord/login/callback/", needs_discord(oauth2_callback), name="discord_callback"),
    path("", include("allauth.urls")),
]
