"""Which language a page, a mail or a message is in (issue 45).

A page: the person's own choice first (a logged-in account's language, kept in its session
when it logs in or chooses; the language cookie the footer's switch sets, for anyone), else,
on a store's pages, the store's language (`store_activate`, called where a page reads its
store, as the store's time zone is), else the browser's Accept-Language, else English
(`LanguageMiddleware`). A mail or message: its **recipient's** language
(`recipient_language`): the account's choice, else the store's, else English; never the
language of whoever's request sent it.

The shared page cache keys a page by the request's language and by whether it was chosen
(core.pagecache): a store's anonymous visitors all read the store's language, and a German
page is never served to a visitor who asked for French.
"""

from contextvars import ContextVar

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import translation
from django.utils.cache import patch_vary_headers

#: The session key holding an account's own language while it is logged in.
SESSION_KEY = "gh_language"

# True while the request's language is the visitor's own choice (account or cookie), which
# a store's language must not override.
_chosen: ContextVar[bool] = ContextVar("gh_language_chosen", default=False)


def supported(code: str | None) -> str | None:
    """`code` if the site speaks it ('pt-br', 'de'), else None."""
    code = (code or "").strip().lower().replace("_", "-")
    return code if any(code == known for known, _name in settings.LANGUAGES) else None


def chosen() -> bool:
    """Whether this request's language is the visitor's own choice."""
    return _chosen.get()


API_PREFIX = "/api/"


class LanguageMiddleware:
    """The request's language: a logged-in account's own (kept in its session at log-in, so
    no query), else the language cookie (the footer's switch), else the browser's
    Accept-Language, else English; the first two count as a choice (see `store_activate`).

    Django's LocaleMiddleware, without what only `i18n_patterns` URLs need (Guildhall has
    none): it looked for a language in every path twice, which was a third of a cached
    page's added time (about 0.1 ms of 0.3)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        # The key is written only for a logged-in account (at log-in, or by `choose`) and
        # goes with the session at log-out.
        code = supported(session.get(SESSION_KEY)) if session is not None else None
        if request.path_info.startswith(API_PREFIX):
            # The API answers in English whatever the caller's browser or the store speaks:
            # its messages are for the developer of an integration, beside the `code` a
            # program reads (docs/translation.md); counted as chosen, so no store overrides it.
            code, chosen_now = settings.LANGUAGE_CODE, True
        elif code:
            chosen_now = True
        else:
            chosen_now = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)) is not None
            code = translation.get_language_from_request(request)
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()
        token = _chosen.set(chosen_now)
        try:
            response = self.get_response(request)
        finally:
            _chosen.reset(token)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


def store_activate(code: str | None) -> None:
    """On a store's page: read it in the store's language, unless the visitor chose one."""
    code = supported(code)
    if code and not _chosen.get():
        translation.activate(code)


def account_language(user) -> str | None:
    """The language `user` chose, or None (no account, or none chosen)."""
    if user is None or not getattr(user, "pk", None):
        return None
    from .models import AccountLanguage

    row = AccountLanguage.objects.filter(user_id=user.pk).values_list("language", flat=True)
    return supported(next(iter(row), None))


def recipient_language(user=None, store_language: str | None = None) -> str:
    """The language a mail or message to `user` is written in (see the module's text)."""
    return account_language(user) or supported(store_language) or settings.LANGUAGE_CODE


def choose(request, code: str) -> str | None:
    """The visitor chose `code` (the footer's switch): kept on the account when logged in."""
    code = supported(code)
    if code is None:
        return None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        from .models import AccountLanguage

        AccountLanguage.objects.update_or_create(user_id=user.pk, defaults={"language": code})
        request.session[SESSION_KEY] = code
    return code


@receiver(user_logged_in, dispatch_uid="core.languages.remember")
def remember_on_login(sender, request, user, **kwargs) -> None:
    """At log-in, the account's language goes into its session (no query per page)."""
    if request is None or not hasattr(request, "session"):
        return
    code = account_language(user)
    if code:
        request.session[SESSION_KEY] = code
    else:
        request.session.pop(SESSION_KEY, None)
