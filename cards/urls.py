"""The card data's addresses: the commander picker's suggestions."""

from django.urls import path

from . import views

urlpatterns = [
    path("cards/commanders/", views.commander_suggestions, name="commander_suggestions"),
]
