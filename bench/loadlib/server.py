"""The site as deployed, on loopback: its environment (DEBUG off, the bench as the TLS proxy)
and gunicorn with `gthread` workers, whose access log records each request's own time in the
server apart from the time spent queueing for a worker."""

import hashlib
import http.client
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def site_environment(database_url: str) -> dict[str, str]:
    """Deployed settings (DEBUG off), served on loopback: the bench is the TLS proxy."""
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "PROXY_COUNT": "0",  # no proxy in front: the login limit counts REMOTE_ADDR
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "CRITICAL",  # the outage's tracebacks would flood the table
    }


def site_setup(database_url: str, **overrides: str) -> dict[str, str]:
    """This process as the deployed site on `database_url` (with `overrides`): Django set
    up, the schema migrated and the static files collected, as a deploy does
    (`static_collected`). Returns the
    environment for gunicorn and the worker (its LOG_LEVEL keeps them quiet; this process
    keeps its own logging)."""
    env = {**site_environment(database_url), **overrides}
    os.environ.update({k: v for k, v in env.items() if k != "LOG_LEVEL"})
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    static_collected()
    return env


def _sources_digest() -> str:
    """A digest of what `collectstatic` would collect (every file the finders list, by name,
    size and modification time) and of how it stores them (the storage, whitenoise's version,
    the settings file)."""
    from importlib.metadata import version

    from django.apps import apps
    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256(repr(settings.STORAGES["staticfiles"]).encode())
    digest.update(version("whitenoise").encode())
    digest.update((Path(settings.BASE_DIR) / "config" / "settings.py").read_bytes())
    ignore = apps.get_app_config("staticfiles").ignore_patterns
    for finder in get_finders():
        for path, storage in sorted(finder.list(ignore), key=lambda found: found[0]):
            stat = os.stat(storage.path(path))
            prefix = getattr(storage, "prefix", None) or ""
            digest.update(f"{prefix}/{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def static_collected() -> None:
    """`collectstatic`, as a deploy runs it, unless STATIC_ROOT already holds the collection
    of these same files: a collection with nothing to copy still hashes and compresses every
    file again (553 files, about 7 s of CPU), once per bench of a test run. The stamp, in the
    temporary directory, names the sources' digest and the manifest collectstatic wrote; a
    changed, new or removed file, or a STATIC_ROOT collected or emptied since, collects again."""
    from django.conf import settings
    from django.core.management import call_command

    root = Path(settings.STATIC_ROOT).resolve()
    manifest = root / "staticfiles.json"
    stamp = Path(tempfile.gettempdir()) / (
        f"guildhall-collected-{hashlib.sha256(str(root).encode()).hexdigest()[:12]}"
    )

    def mark(sources: str) -> str:
        written = manifest.stat().st_mtime_ns if manifest.exists() else 0
        return f"{sources} {written}"

    sources = _sources_digest()
    if manifest.exists() and stamp.exists() and stamp.read_text() == mark(sources):
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(mark(sources))


def start_gunicorn(
    env,
    port: int,
    workers: int,
    threads: int | None,
    log: Path,
    *,
    ready_path: str,
    profile: Path | None = None,
) -> subprocess.Popen:
    """gunicorn with `threads` gthread threads per worker (keep-alive), or with `threads=None`
    exactly as docs/operations.md deploys it (`gunicorn config.wsgi --workers N`, the rest from the
    project's gunicorn.conf.py), once `ready_path` answers 200. With `profile`, every request is
    profiled into that directory (`profiled`)."""
    app = "config.wsgi"
    if profile is not None:
        env = {**env, "GUILDHALL_PROFILE_DIR": str(profile)}
        app = "bench.loadlib.profiled:application"
    if threads is None:
        worker = []
    else:
        worker = ["--threads", str(threads), "--worker-class", "gthread", "--keep-alive", "30"]
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", app,
            "--bind", f"127.0.0.1:{port}",
            "--workers", str(workers), *worker, "--timeout", "60",
            "--log-level", "warning",
            "--access-logfile", str(log), "--access-logformat", "%(m)s %(U)s %(s)s %(D)s",
        ],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", ready_path, headers={"X-Forwarded-Proto": "https"})
            if conn.getresponse().status == 200:
                return server
        except OSError:
            pass
        if server.poll() is not None:
            sys.exit("gunicorn did not start.")
        time.sleep(0.3)
    server.kill()
    sys.exit("gunicorn did not answer within a minute.")


def stop_gunicorn(server: subprocess.Popen) -> None:
    """SIGTERM: gunicorn finishes the requests under way (up to its graceful timeout)."""
    server.terminate()
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def shutdown(server: subprocess.Popen | None, cluster) -> None:
    """A bench's last step, whatever happened: gunicorn stopped, this process's database
    connections closed (Django may not be set up yet), the private cluster stopped."""
    if server is not None:
        stop_gunicorn(server)
    try:
        from django.db import connections

        connections.close_all()
    except Exception:  # Django may not be set up yet
        pass
    cluster.stop()
