"""The site's WSGI application with each request profiled (`bench/load.py --profile DIR`).

gunicorn loads `bench.loadlib.profiled:application` instead of `config.wsgi:application`.
Each request runs under its own `cProfile.Profile` (a profile follows one thread, and a
gthread worker serves requests on several), and its statistics are added to its page's
(`report.page_label`, the access log's labels) for this worker; when the worker exits they are
written to `DIR/<page>.<pid>.prof`, which `print_profiles` merges across workers. A profile
measures wall time, so a thread waiting for the GIL or the database counts too, and profiling
slows every request: a profiled run shows where the time goes, not how long a page takes.
"""

import atexit
import cProfile
import os
import pstats
import re
import threading
from pathlib import Path

from .report import page_label

PROFILE_DIR = "GUILDHALL_PROFILE_DIR"


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


class Profiled:
    """WSGI middleware: profile each request, add it to its page's statistics."""

    def __init__(self, app, directory: Path):
        self.app = app
        self.directory = directory
        self.stats: dict[str, pstats.Stats] = {}
        self.lock = threading.Lock()
        atexit.register(self.dump)

    def __call__(self, environ, start_response):
        label = page_label(environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
        profile = cProfile.Profile()
        profile.enable()
        try:
            # Rendered inside the profile: Django's response is built before it is returned.
            return list(self.app(environ, start_response))
        finally:
            profile.disable()
            with self.lock:
                if label in self.stats:
                    self.stats[label].add(profile)
                else:
                    self.stats[label] = pstats.Stats(profile)

    def dump(self) -> None:
        with self.lock:
            for label, stats in self.stats.items():
                stats.dump_stats(self.directory / f"{_slug(label)}.{os.getpid()}.prof")


def print_profiles(directory: Path, *, top: int = 15) -> None:
    """Each page's merged profile (every worker's), heaviest pages first: its functions by
    time spent in them (tottime), the first `top`."""
    files: dict[str, list[Path]] = {}
    for path in sorted(directory.glob("*.prof")):
        files.setdefault(path.name.rsplit(".", 2)[0], []).append(path)
    merged = []
    for page, paths in files.items():
        stats = pstats.Stats(str(paths[0]))
        for path in paths[1:]:
            stats.add(str(path))
        merged.append((stats.total_tt, page, stats))
    total = sum(t for t, _, _ in merged) or 1.0
    print("| page (profiled) | seconds in the workers | share |")
    print("|---|---|---|")
    for seconds, page, _ in sorted(merged, reverse=True):
        print(f"| {page} | {seconds:.1f} | {100 * seconds / total:.0f}% |")
    for seconds, page, stats in sorted(merged, reverse=True):
        print(f"\n{page}: {seconds:.1f} s profiled; functions by own time")
        stats.sort_stats("tottime").print_stats(top)


directory = os.environ.get(PROFILE_DIR)
if directory:  # imported by gunicorn as the application
    from config.wsgi import application as site

    application = Profiled(site, Path(directory))
