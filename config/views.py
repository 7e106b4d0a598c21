"""Site-wide error views: JSON under /api/, the usual pages elsewhere."""

from django.http import JsonResponse
from django.views import defaults


def server_error(request, *args, **kwargs):
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "error": {
                    "field": None,
                    "message": "Server error; nothing was stored.",
                    "code": "server_error",
                }
            },
            status=500,
        )
    return defaults.server_error(request, *args, **kwargs)
