from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Guildhall administration"
admin.site.site_title = "Guildhall"
admin.site.index_title = "Your store's data"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("leagues.urls")),
]
