"""Log in, log out, change a password and reset a forgotten one: Django's views, as
`django.contrib.auth.urls` maps them, except that the reset pages answer 404 when the site
cannot send mail (settings.GUILDHALL_MAIL_DELIVERS, from config/mail.py): a reset that says
"we've emailed you" when no mail can arrive is worse than none.
"""

import functools

from django.conf import settings
from django.contrib.auth import views
from django.http import Http404
from django.urls import path


def needs_mail(view):
    """The view, or a 404 while the site has no way to deliver mail."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not settings.GUILDHALL_MAIL_DELIVERS:
            raise Http404("Password reset by mail is not available on this site.")
        return view(request, *args, **kwargs)

    return wrapper


urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("password_change/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password_reset/", needs_mail(views.PasswordResetView.as_view()), name="password_reset"),
    path(
        "password_reset/done/",
        needs_mail(views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        needs_mail(views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        needs_mail(views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
]
