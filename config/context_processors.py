"""Template variables every page may need: whether the site can mail a password reset."""

from django.conf import settings


def mail(request) -> dict:
    return {"password_reset_offered": settings.GUILDHALL_MAIL_DELIVERS}
