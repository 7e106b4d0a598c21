"""CSV import (upload, preview, confirm) and export (being written)."""

from django.http import HttpResponse


def league_export(request, slug):
    return HttpResponse(status=501)


def import_upload(request, slug):
    return HttpResponse(status=501)


def import_preview(request, pk):
    return HttpResponse(status=501)
