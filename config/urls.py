from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Guildhall administration"
admin.site.site_title = "Guildhall"
admin.site.index_title = "Your store's data"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("config.urls_accounts")),
    path("api/", include("ratings.urls_api")),
    path("", include("accounts.urls")),
    path("", include("notifications.urls")),
    path("", include("jobs.urls")),
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("", include("leagues.urls")),
]

handler500 = "config.views.server_error"
