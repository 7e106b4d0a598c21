"""`bench/load.py --profile`: each request is profiled under its page's name, the pages'
profiles are merged across workers, and the access-log table names each page's share."""

import io
import os
from contextlib import redirect_stdout

from bench.loadlib import report
from bench.loadlib.profiled import Profiled, print_profiles


def busy(n: int) -> int:
    return sum(i * i for i in range(n))


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    busy(200_000 if environ["PATH_INFO"].endswith("/run/") else 1_000)
    return [b"ok"]


def test_requests_are_profiled_by_page_and_merged(tmp_path):
    site = Profiled(app, tmp_path)
    for path in ["/events/friday/run/", "/events/friday/run/", "/events/friday/standings/"]:
        body = site({"REQUEST_METHOD": "GET", "PATH_INFO": path}, lambda *a: None)
        assert body == [b"ok"]
    site.dump()
    names = sorted(p.name.rsplit(".", 2)[0] for p in tmp_path.glob("*.prof"))
    assert names == ["judge-console", "visitor-standings"]
    # Two workers' files for the same page (this one's, renamed as another's, and this
    # one's again) are merged into one profile.
    os.rename(next(tmp_path.glob("judge-console.*")), tmp_path / "judge-console.1.prof")
    site.dump()
    out = io.StringIO()
    with redirect_stdout(out):
        print_profiles(tmp_path, top=5)
    text = out.getvalue()
    rows = [line for line in text.splitlines() if line.startswith("| judge") or "| visitor" in line]
    assert rows[0].startswith("| judge-console |")  # the heaviest page first
    assert "busy" in text.split("judge-console:")[1]
    assert text.count("function calls") == 2  # one merged profile per page


def test_the_server_table_gives_each_pages_share(tmp_path):
    log = tmp_path / "access.log"
    log.write_text(
        "GET /events/friday/ 200 30000\n"
        "GET /events/friday/ 200 10000\n"
        "POST /events/friday/tables/7/report/ 200 60000\n"
        "GET /static/x.css 200 1000\n"
    )
    assert report.page_label("GET", "/events/friday/run/") == "judge: console"
    assert report.page_label("GET", "/nowhere") == "other"
    out = io.StringIO()
    with redirect_stdout(out):
        report.print_server_times(log)
    lines = {line.split(" | ")[0]: line for line in out.getvalue().splitlines()}
    assert lines["| visitor: pairings"].endswith("| 2 | 30 | 30 | 30 | 0.0 | 40% |")
    assert lines["| judge: report (every kind)"].endswith("| 1 | 60 | 60 | 60 | 0.1 | 59% |")
