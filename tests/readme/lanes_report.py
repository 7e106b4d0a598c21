"""A pytest plugin for tests/readme/test_fast_lane.py (`-p tests.readme.lanes_report`): the
markers of every test collected, into the JSON file LANES_REPORT names. Loaded before Django
is set up, so it imports nothing of the project."""

import json
import os
from pathlib import Path


def pytest_collection_finish(session):
    report = os.environ.get("LANES_REPORT")
    if report:
        marks = {
            item.nodeid: sorted({m.name for m in item.iter_markers()}) for item in session.items
        }
        Path(report).write_text(json.dumps(marks))
