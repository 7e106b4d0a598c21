"""The tournaments app's addresses, by audience: each room (public, console, registration,
reports, offline) keeps its own urls.py, with the same names and paths as before the split.

No address matches the paths of two rooms, so the rooms' order here changes nothing; inside
a room, order can matter (reports: me/drop/ before me/<token>/).
"""

from .console import urls as console
from .offline import urls as offline
from .public import urls as public
from .registration import urls as registration
from .reports import urls as reports

urlpatterns = [
    *public.urlpatterns,
    *console.urlpatterns,
    *registration.urlpatterns,
    *reports.urlpatterns,
    *offline.urlpatterns,
]
