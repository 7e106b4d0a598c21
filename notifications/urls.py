from django.urls import path

from . import views

urlpatterns = [
    path("me/notifications/", views.my_notifications, name="my_notifications"),
    path(
        "organizations/<slug:org>/notifications/",
        views.store_notifications,
        name="store_notifications",
    ),
    path(
        "organizations/<slug:org>/notifications/test/",
        views.store_webhook_test,
        name="store_webhook_test",
    ),
    path(
        "organizations/<slug:org>/notifications/<int:pk>/retry/",
        views.store_delivery_retry,
        name="store_delivery_retry",
    ),
]
