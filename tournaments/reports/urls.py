"""The players' own results: their seat and reports (signed in, or by their link), their own
drop, and the TO's tap that accepts one report of a disputed table."""

from django.urls import path

from . import views

urlpatterns = [
    path("events/<slug:slug>/me/", views.my_event, name="my_event"),
    # Before me/<token>/: "drop" is no registration's code (those are long random strings).
    path("events/<slug:slug>/me/drop/", views.my_event_drop, name="my_event_drop"),
    path("events/<slug:slug>/me/<str:token>/", views.my_event_link, name="my_event_link"),
    path(
        "events/<slug:slug>/reports/<int:report_id>/accept/",
        views.report_accept,
        name="report_accept",
    ),
]
