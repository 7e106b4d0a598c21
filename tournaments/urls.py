"""The tournaments app's addresses, by audience: each room (public, console, registration)
keeps its own urls.py, with the same names and paths as before the split; the players'
reports follow.

No address matches the paths of two rooms, so the rooms' order here changes nothing; inside
a room, order can matter (reports: me/drop/ before me/<token>/).
"""

from django.urls import path

from . import report_views
from .console import urls as console
from .public import urls as public
from .registration import urls as registration

urlpatterns = [
    *public.urlpatterns,
    *console.urlpatterns,
    *registration.urlpatterns,
    # Players' own results (report_views): their seat, their reports and confirmations.
    path("events/<slug:slug>/me/", report_views.my_event, name="my_event"),
    # Before me/<token>/: "drop" is no registration's code (those are long random strings).
    path("events/<slug:slug>/me/drop/", report_views.my_event_drop, name="my_event_drop"),
    path("events/<slug:slug>/me/<str:token>/", report_views.my_event_link, name="my_event_link"),
    path(
        "events/<slug:slug>/reports/<int:report_id>/accept/",
        report_views.report_accept,
        name="report_accept",
    ),
]
