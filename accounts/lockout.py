"""The name django-axes counts a failed log-in against: the account, however it was typed.

A person logs in with the account's username or any of its addresses, in any letter case:
allauth's backend matches both ignoring case, on the site and in the admin (whose form passes
the box as `username=`). Counting the text as typed gave each spelling its own five tries, so
after five wrong passwords for `pa2` the right one typed as `PA2` or `PA2@EXAMPLE.COM` walked
in. Here every spelling of one account maps to one key, the account's username in lower case;
a name that is no account's counts in lower case, so `Ghost` and `ghost` share their tries too.
"""

from django.contrib.auth import get_user_model
from django.db.models import Q

# axes keeps the name in AccessAttempt.username, a CharField of this length.
KEY_LENGTH = 255


def typed_login(request, credentials) -> str:
    """What the person typed in the log-in box. allauth's form posts it as `login` and
    authenticates with `email=` and `username=` (both the same text) or `username=` alone;
    the admin posts and authenticates with `username`."""
    credentials = credentials or {}
    for key in ("username", "email"):
        if credentials.get(key):
            return str(credentials[key])
    if request is None:
        return ""
    data = getattr(request, "POST", {})
    return str(data.get("login") or data.get("username") or "")


def account_key(typed: str) -> str:
    """The lock's key for a typed name: the username (lower case) of the account it names, by
    username or by any of its addresses, ignoring case; else the typed name in lower case. Were
    one text to name two accounts (one's username is the other's address), the older account
    is the one counted."""
    typed = typed.strip()
    if not typed:
        return ""
    username = (
        get_user_model()
        .objects.filter(
            Q(username__iexact=typed)
            | Q(email__iexact=typed)
            | Q(emailaddress__email__iexact=typed)
        )
        .order_by("pk")
        .values_list("username", flat=True)
        .first()
    )
    return (username if username is not None else typed).lower()[:KEY_LENGTH]


def login_key(request, credentials=None) -> str | None:
    """AXES_USERNAME_CALLABLE: the key failed log-ins of this request count against."""
    return account_key(typed_login(request, credentials)) or None
