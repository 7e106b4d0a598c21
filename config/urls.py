from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from config.robots import robots_txt
from config.style_guide import style_guide
from core import views as core_views

admin.site.site_header = _("Guildhall administration")
admin.site.site_title = "Guildhall"
admin.site.index_title = _("Your store's data")

urlpatterns = [
    path("robots.txt", robots_txt, name="robots_txt"),
    path("admin/", admin.site.urls),
    # The footer's language switch, and each language's catalogue of the scripts' strings.
    path("i18n/setlang/", core_views.set_language, name="set_language"),
    path("jsi18n/<str:lang>.js", core_views.js_catalog, name="js_catalog"),
    path("accounts/", include("config.urls_accounts")),
    path("api/", include("ratings.urls_api")),
    path("", include("accounts.urls")),
    path("", include("notifications.urls")),
    path("", include("jobs.urls")),
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("", include("judging.urls")),
    path("", include("seasons.urls")),
    path("", include("achievements.urls")),
    path("", include("cards.urls")),
    path("", include("leagues.urls")),
]
# Every component of the design system on one page, in development only (config/style_guide.py).
if settings.STYLE_GUIDE:
    urlpatterns.append(path("style-guide/", style_guide, name="style_guide"))

# The site's own error pages (config/views.py): header, reason, a way on; JSON under /api/.
handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
