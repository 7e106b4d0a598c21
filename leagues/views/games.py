"""Organizer game entry: add, correct and delete games (being written)."""

from django.http import HttpResponse


def game_create(request, slug):
    return HttpResponse(status=501)


def game_form_row(request, slug):
    return HttpResponse(status=501)


def game_edit(request, pk):
    return HttpResponse(status=501)


def game_delete(request, pk):
    return HttpResponse(status=501)
