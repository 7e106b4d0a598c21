"""The judges' desk (for whoever runs the event), a player's call from their own page (signed
in, or by their link), and the TO's call from a table's card on the console."""

from django.urls import path

from . import views

urlpatterns = [
    path("events/<slug:slug>/judge/", views.desk, name="judge_desk"),
    path("events/<slug:slug>/judge/calls/", views.desk_calls, name="judge_calls"),
    path("events/<slug:slug>/judge/penalties/", views.penalties, name="judge_penalties"),
    path("events/<slug:slug>/judge/deck-checks/", views.deck_checks, name="judge_deck_checks"),
    path("events/<slug:slug>/judge/call/", views.player_call, name="judge_call"),
    path(
        "events/<slug:slug>/judge/call/<str:token>/", views.player_call_link, name="judge_call_link"
    ),
    path(
        "events/<slug:slug>/tables/<int:table_id>/judge-call/",
        views.table_call,
        name="judge_table_call",
    ),
]
