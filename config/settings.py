"""Guildhall settings, read from the environment.

Development (`make run`) needs nothing set: it starts an embedded PostgreSQL and sets
DATABASE_URL, DEBUG on, mails printed on the console. Every process needs DATABASE_URL naming
PostgreSQL. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL (and EMAIL_URL
for password resets); with those, `manage.py check --deploy` is clean (HTTPS, HSTS and secure
cookies are on whenever DEBUG is off). Every response carries a strict Content-Security-Policy
(django-csp; see CONTENT_SECURITY_POLICY). Failed logins, on the site and in the admin, are
counted in the database by django-axes, so every gunicorn worker sees the same count and the
lockout holds across them.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.mail import MailConfigError, mail_settings

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set SECRET_KEY, or DEBUG=1 for development and tests (make run and make test do)."
        )
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# A form refused for its token gets the site's page saying why and how to send it again.
CSRF_FAILURE_VIEW = "config.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    # The organizers' sortable, paginated lists (players, claims, registrations, History).
    "django_tables2",
    "axes",
    "csp",
    # Accounts: sign-up, log-in, e-mail verification, password reset and change, and the
    # optional Discord log-in, by django-allauth (account flows are not hand-written here).
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.discord",
    "core",
    "audit",
    # Achievement leagues: achievements claimed from the table, a leaderboard per season.
    # Before leagues: its `seed_demo` adds an achievement league to the demo store's.
    "achievements",
    "leagues",
    "ratings",
    "tournaments",
    # The judges' desk: calls from the tables, penalties, deck checks (above tournaments).
    "judging",
    "exchange",
    "accounts",
    "notifications",
    "seasons",
    # Card data (Scryfall bulk files) and decklists checked against it.
    "cards",
    # Before django_tasks_db: its `db_worker` command wraps theirs (re-queues dead workers' jobs).
    "jobs",
    "django_tasks",
    "django_tasks_db",
]

# Background jobs (imports, re-rating, the rating lab) go through Django's tasks API, stored in
# PostgreSQL by django-tasks-db; `manage.py db_worker` runs them beside the web server.
# Outgoing messages have a queue and a worker of their own (`db_worker --queue-name
# notifications`), so a slow webhook never holds up imports or re-ratings.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default", "notifications"],
    }
}
# Work up to these sizes stays in the request; above, a job does it. Measured on a laptop-class
# machine: a 2,000-row CSV previews in 0.05 s and imports (with its rating catch-up) in 0.8 s;
# re-rating 5,000 games takes 0.3-0.45 s (guildmaster / openskill).
GUILDHALL_INLINE_IMPORT_ROWS = int(os.environ.get("GUILDHALL_INLINE_IMPORT_ROWS", 2000))
GUILDHALL_INLINE_RERATE_GAMES = int(os.environ.get("GUILDHALL_INLINE_RERATE_GAMES", 5000))


# The site's address as players and chat channels reach it, for the links in notification
# mails and webhook messages (sent by a worker, which has no request to take it from). By
# default the first ALLOWED_HOSTS entry over https (with DEBUG http://127.0.0.1:8000, and the
# port it serves under `make run`, which sets this for its server and worker); empty
# when there is none, and then the store's notifications page says links cannot be made.
def base_url(hosts: list[str], debug: bool) -> str:
    named = [h for h in hosts if h not in {"*", ""} and not h.startswith(".")]
    if debug:
        return "http://127.0.0.1:8000"
    return f"https://{named[0]}" if named else ""


# Webhooks to this machine (over plain http too): only for a local test receiver while
# developing. Otherwise a store's webhook must be https to a public host, checked when it is
# set and again when each message is sent (its host name resolved then).
GUILDHALL_WEBHOOK_LOCAL = env_bool("GUILDHALL_WEBHOOK_LOCAL", DEBUG)

GUILDHALL_BASE_URL = os.environ.get("GUILDHALL_BASE_URL", "").strip().rstrip("/") or base_url(
    ALLOWED_HOSTS, DEBUG
)

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of the request: an account's own choice, else the language cookie (the
    # footer's switch), else the browser's Accept-Language (core.languages).
    "core.languages.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Each request starts and ends in the site's zone; a store's event page sets the store's.
    "core.zones.TimeZoneMiddleware",
    # Before any view reads the query string: no NUL or lone surrogate in request.GET.
    "core.query.QueryCleaningMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, as django-axes asks: it turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

# The rooms of tournaments' web layer that keep templates (see TEMPLATES' DIRS).
TOURNAMENT_ROOMS = ("public", "console", "registration", "reports", "offline")

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The tournaments app's web layer is split by audience, and each room keeps its own
        # templates (tournaments/<room>/templates/tournaments/<room>/), named by their room.
        "DIRS": [
            BASE_DIR / "templates",
            *(BASE_DIR / "tournaments" / room / "templates" for room in TOURNAMENT_ROOMS),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.mail",
                # After Django's own csrf: a page rendered for the shared cache holds a
                # placeholder, and each response gets its own token (core/pagecache.py).
                "core.pagecache.csrf_context",
            ],
        },
    },
    {
        # The hot fragments (rows drawn by the hundred) in `<app>/jinja2/`: see core/jinja.py.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "core.jinja.environment"},
    },
]

# The organizers' django-tables2 tables in the site's look (sort and page links, no script).
DJANGO_TABLES2_TEMPLATE = "tables/table.html"

WSGI_APPLICATION = "config.wsgi.application"

# PostgreSQL only: the rules and the speed rest on it (a deferred constraint trigger, COPY,
# advisory locks, `::jsonb`). There is no default: `make run` starts an embedded server and
# sets DATABASE_URL for its children (config/devserver.py); everything else must say where.
# Without it the settings still load, so a command that needs no database runs (`pair_pods`),
# and the first use of the database stops with what to set (config/nodatabase/base.py).
POSTGRES_SCHEMES = ("postgres", "postgresql", "pgsql")
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
DATABASE_SCHEME = DATABASE_URL.split("://", 1)[0].lower() if "://" in DATABASE_URL else ""
if DATABASE_URL and DATABASE_SCHEME not in POSTGRES_SCHEMES:
    raise ImproperlyConfigured(
        f"DATABASE_URL names the {DATABASE_SCHEME or '(missing)'!r} scheme: Guildhall runs on "
        "PostgreSQL only (its rules use a deferred constraint trigger, COPY and advisory locks). "
        "Use postgres://user:password@host:5432/guildhall."
    )
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
    if DATABASE_URL
    else {"ENGINE": "config.nodatabase"}
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# The shared cache (core/pagecache.py keeps the public pages in it, per version): PostgreSQL's
# own table by default, so no other server is needed (`migrate` creates it); Redis through
# django-redis when REDIS_URL is set (redis://host:6379/0). Every gunicorn worker and every
# server sees the same entries either way; a cache that fails or is emptied only costs renders.
def redis_cache(url: str) -> dict:
    """The cache on Redis: a Redis that is down or slow costs renders (its errors are logged and
    read as misses, within half a second), never a failed page."""
    return {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "guildhall",
        "OPTIONS": {
            "CLIENT_CLASS": "django_redis.client.DefaultClient",
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": 0.5,
            "SOCKET_TIMEOUT": 0.5,
        },
    }


DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {"default": redis_cache(REDIS_URL)}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "guildhall_cache",
            # Each change makes new entries and leaves the old ones dead: past this many, a
            # third are culled, so the table stays near 2,000 pages (~50 KB each at 256 players).
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    }
# "0": every public page is rendered for every request, and every computed value (an event's
# standings) computed again (the benches measure both); "values": computed values are kept
# per version but pages are rendered each time (bench/pages.py's render times).
_PAGE_CACHE = os.environ.get("GUILDHALL_PAGE_CACHE", "1")
GUILDHALL_PAGE_CACHE = "values" if _PAGE_CACHE == "values" else _PAGE_CACHE != "0"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# English and the seven languages of the stores' countries (issue 45), one catalogue each in
# locale/<lang>/LC_MESSAGES/ (django.po: Python and templates; djangojs.po: the scripts),
# drafted by the project; `make messages` extracts the strings again (docs/translation.md).
# Who reads which: a person's own choice (the footer's switch, kept on their account), else
# on a store's pages the store's language, else what the browser asks for (core/languages.py).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
    ("it", "Italiano"),
    ("pt-br", "Português (Brasil)"),
    ("ja", "日本語"),
    ("pl", "Polski"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Guildhall's named date formats per language ("GH_DAY"), beside Django's own; the English
# ones here too, for a language with none (a pseudo-locale) or none active (core.formats).
FORMAT_MODULE_PATH = ["core.formats"]
from core.formats import NAMES as _FORMAT_NAMES  # noqa: E402
from core.formats.en import formats as _english_formats  # noqa: E402

globals().update({_name: getattr(_english_formats, _name) for _name in _FORMAT_NAMES})
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# The design system's style guide at /style-guide/ (config/style_guide.py): development only.
STYLE_GUIDE = DEBUG
# Where collectstatic writes the files whitenoise serves when DEBUG is off; the benches the
# tests run in parallel each collect into their own (tests/readme/conftest.py), so no test
# process reads a folder another is rewriting.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# Uploaded and fetched files (the commanders' art crops, `load_cards --images`): the default
# storage writes them here; cards.views.card_art serves the crops under MEDIA_URL.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "media")
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The axes backend comes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # Log in by username or by e-mail address (allauth's backend; the admin keeps ModelBackend).
    "allauth.account.auth_backends.AuthenticationBackend",
]

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Outgoing mail (config/mail.py): EMAIL_URL or EMAIL_HOST and friends; with DEBUG and nothing
# set, mails are printed on the console. GUILDHALL_MAIL_DELIVERS says whether a mail can reach
# its reader: without it the password reset is not offered and its pages answer 404, rather
# than telling someone a mail was sent when none can arrive.
try:
    globals().update(mail_settings(os.environ, debug=DEBUG))
except MailConfigError as error:
    raise ImproperlyConfigured(str(error)) from None

# django-allauth. A player signs up with an e-mail address, a username and a password, and
# logs in with either the username or the address. Where mail reaches its reader the address
# must be verified before the first log-in (the mail holds a link); where no mail can be sent
# the site cannot verify anything, so the account works at once and the store knows addresses
# are unchecked (README). Logging out is a POST (a link cannot log anyone out). allauth's own
# rate limits (sign-up, password reset mails, confirmation mails) count in the shared cache;
# failed log-ins are counted by django-axes below, as before.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
# Failed log-ins are django-axes's to count (one rule for the site and the admin, below), not
# allauth's: its own login_failed limit would answer before axes and with other numbers. Nor
# does allauth cap log-ins (30 a minute) and sign-ups (20) per address: a store's players share
# its Wi-Fi's one address, and a 64-player event logs in and checks in within minutes.
ACCOUNT_RATE_LIMITS = {"login_failed": None, "login": None, "signup": "120/m/ip"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory" if GUILDHALL_MAIL_DELIVERS else "none"  # noqa: F821
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_SESSION_REMEMBER = None  # the "remember me" box decides
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Guildhall] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm", "signup": "accounts.forms.SignupForm"}
ACCOUNT_SIGNUP_REDIRECT_URL = "my_guildhall"
GUILDHALL_SIGNUP_OPEN = env_bool("GUILDHALL_SIGNUP_OPEN", True)
SOCIALACCOUNT_ADAPTER = "accounts.adapter.SocialAccountAdapter"
# Log in with Discord, only when the site has a Discord application: DISCORD_CLIENT_ID and
# DISCORD_CLIENT_SECRET (from discord.com/developers; its redirect URL is
# https://<site>/accounts/discord/login/callback/). Without them the button is not shown and
# the Discord addresses answer 404. A Discord account's address is taken as verified only
# when Discord says it is.
SOCIALACCOUNT_ONLY = False
SOCIALACCOUNT_LOGIN_ON_GET = False
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_PROVIDERS = {
    "discord": {
        "SCOPE": ["identify", "email"],
        "APPS": (
            [
                {
                    "client_id": os.environ["DISCORD_CLIENT_ID"],
                    "secret": os.environ["DISCORD_CLIENT_SECRET"],
                }
            ]
            if os.environ.get("DISCORD_CLIENT_ID") and os.environ.get("DISCORD_CLIENT_SECRET")
            else []
        ),
    }
}

# Uploads: a Guildmaster CSV of tens of thousands of games stays well below this.
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
GUILDHALL_MAX_IMPORT_BYTES = int(os.environ.get("GUILDHALL_MAX_IMPORT_BYTES", 5 * 1024 * 1024))


# Login rate limit (django-axes, state in the database): 5 failed logins for one username from
# one IP address refuse that username from that address (even with the right password) until
# 15 minutes have passed since the last counted failure. Failures are counted while each comes
# within 15 minutes of the previous one. Username and address together: locking a username
# from every address let anyone keep a store's owner out by typing wrong passwords, and
# locking an address alone would lock everyone on a store's shared network.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Tries refused during a lockout are not counted and do not restart it (axes then skips
# recording them), so the attacker cannot renew it and "wait 15 minutes" stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Not on success: a successful login deletes every failure from that IP address, so anyone
# with an account of their own could wipe the count on someone else's username between guesses.
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_TEMPLATE = "registration/login.html"  # rendered with HTTP 429
AXES_HTTP_RESPONSE_CODE = 429
# Keep failed attempts only, not a log of every successful login.
AXES_DISABLE_ACCESS_LOG = True

# Behind the reverse proxy REMOTE_ADDR is the proxy, the same for everybody: the client is the
# address that the proxies appended to X-Forwarded-For, PROXY_COUNT entries from the right (the
# entries to their left are whatever the client sent, so they are never trusted). Production
# runs behind one proxy; without any, set PROXY_COUNT=0 or clients could pick their own address.
# The login lockout and allauth's limits (accounts.adapter) both count by core.clientip.
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0" if DEBUG else "1"))
AXES_CLIENT_IP_CALLABLE = "core.clientip.client_ip"


# The name a failed log-in counts against is the account, however it was typed: its username or
# any of its addresses, in any case (allauth matches them all ignoring case, the admin too), so
# `PA2` or `PA2@EXAMPLE.COM` shares `pa2`'s five tries (accounts/lockout.py).
AXES_USERNAME_CALLABLE = "accounts.lockout.login_key"

# Content-Security-Policy on every response, in development and tests too, so a page that
# breaks under it breaks where someone sees it (tests/browser/test_csp.py visits each page and
# fails on any violation). Only this site's own scripts, styles and images run: no inline
# <script>, <style> or style="..." (they live in static files), no eval, so htmx runs with
# allowEval off and its indicator styles in guildhall.css (the htmx-config meta in base.html),
# and settles no `style` attribute on a swapped element (attributesToSettle without "style":
# htmx set style="" on the console's extension inputs, a violation).
# The rating chart is inline SVG styled by classes. Django's admin works under it as it is
# (its scripts are static files); the admin's own additions go in guildhall/admin.css.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "object-src": [NONE],
    },
}

# Headers the browser gets from Django itself (these are Django's defaults, written out so a
# change shows up in review): no framing, no MIME sniffing, no Referer to other sites, a
# window of its own, and a session cookie that scripts cannot read.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
