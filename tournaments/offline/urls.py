"""The offline room's addresses: the web app's manifest and its service worker (public: they
hold no data) and, for whoever runs an event, the event's state as the phone keeps it."""

from django.urls import path

from . import views

urlpatterns = [
    path("offline/sw.js", views.service_worker, name="offline_service_worker"),
    path("offline/manifest.webmanifest", views.manifest, name="offline_manifest"),
    path("events/<slug:slug>/run/offline/state/", views.event_state, name="offline_event_state"),
]
