from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/lab/", views.rating_lab, name="rating_lab"),
    path("leagues/<slug:slug>/rating-settings/", views.rating_settings, name="rating_settings"),
]
