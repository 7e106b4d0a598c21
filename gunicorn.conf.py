"""gunicorn's settings for Guildhall: `gunicorn config.wsgi` reads this file from the project
root (gunicorn's default `./gunicorn.conf.py`); options on the command line override it.

Threaded workers (`gthread`), because the pages a store's visitors refresh are a few
milliseconds from the shared cache while a judge's console, a pairing or a login (the password
hash) takes a few hundred: with one request per process (gunicorn's sync workers), every
visitor who arrives behind such a request waits for it, which at a round release on a 2-core
machine made the visitors' p95 2-3 times the cached pages' own time (bench/burst.py, figures
in bench/README.md). With threads, a short request runs beside the long one. Keep-alive lets a
phone or the proxy reuse its connection. Django gives each thread its own database connection:
workers x threads connections (12 by default) plus the job workers'.
"""

import os

workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
keepalive = 30
