"""The tables the load bench prints: each page's requests, requests per second, p50/p95/p99 in
ms and errors as the clients saw them (with timeouts, and failures during an outage, counted
apart), then each page's time inside gunicorn from its access log (the rest is queueing)."""

import re
from collections import defaultdict
from pathlib import Path

from .client import Sample


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))]


def in_window(sample: Sample, window: tuple[float, float]) -> bool:
    """The request was under way at some moment of the window."""
    return sample.at <= window[1] and sample.at + sample.ms / 1000 >= window[0]


def print_table(samples: list[Sample], seconds: float, outage: tuple[float, float] | None):
    by_label: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_label[s.label].append(s)
    header = "| page | requests | rps | p50 ms | p95 ms | p99 ms | errors | of which timeouts |"
    if outage:
        header += " of which in the outage |"
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    rows = sorted(by_label.items(), key=lambda kv: (not kv[0].startswith("visitor"), kv[0]))
    for label, group in [*rows, ("all", samples)]:
        ms = [s.ms for s in group if s.ok]
        errors = [s for s in group if not s.ok]
        line = (
            f"| {label} | {len(group):,} | {len(group) / seconds:.1f} | "
            f"{percentile(ms, 50):.0f} | {percentile(ms, 95):.0f} | {percentile(ms, 99):.0f} | "
            f"{len(errors)} | {sum(1 for s in errors if s.error == 'TimeoutError')} |"
        )
        if outage:
            line += f" {sum(1 for s in errors if in_window(s, outage))} |"
        print(line)


SERVER_PAGES = [  # (method, path pattern, label) for the access log
    ("GET", r"/events/[^/]+/", "visitor: pairings"),
    ("GET", r"/events/[^/]+/standings/", "visitor: standings"),
    ("GET", r"/events/[^/]+/projector/", "visitor: projector"),
    ("GET", r"/leagues/[^/]+/", "visitor: league standings"),
    ("GET", r"/events/[^/]+/run/", "judge: console"),
    ("GET", r"/events/[^/]+/rounds/\d+/", "judge: round"),
    ("POST", r"/events/[^/]+/tables/\d+/report/", "judge: report (every kind)"),
    ("POST", r"/events/[^/]+/rounds/\d+/end/", "judge: end round"),
    ("POST", r"/events/[^/]+/pair/", "judge: pair round"),
    ("GET", r"/accounts/login/", "judge: login"),
    ("POST", r"/accounts/login/", "judge: login"),
]


_PATTERNS = [(m, re.compile(p + "$"), label) for m, p, label in SERVER_PAGES]


def page_label(method: str, path: str) -> str:
    """The page a request is for, in the tables' words ("other" for anything else)."""
    return next((lb for m, p, lb in _PATTERNS if m == method and p.match(path)), "other")


def print_server_times(log: Path) -> None:
    """Each page's time inside gunicorn (its access log's %(D)s), without the queueing: its
    requests, p50/p95/p99, and its share of all the time the workers spent serving, which
    says which pages a saturated site is busy with."""
    times: dict[str, list[float]] = defaultdict(list)
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) != 4 or not parts[3].isdigit():
            continue
        method, path, _, micros = parts
        times[page_label(method, path)].append(int(micros) / 1000)
    total = sum(sum(ms) for ms in times.values()) or 1.0
    print(
        "| page | requests | server p50 ms | server p95 ms | server p99 ms "
        "| server s | share of server time |"
    )
    print("|---|---|---|---|---|---|---|")
    for label in sorted(times, key=lambda lb: (not lb.startswith("visitor"), lb)):
        ms = times[label]
        print(
            f"| {label} | {len(ms):,} | {percentile(ms, 50):.0f} | {percentile(ms, 95):.0f} | "
            f"{percentile(ms, 99):.0f} | {sum(ms) / 1000:.1f} | {100 * sum(ms) / total:.0f}% |"
        )


def show_errors(errors: list[Sample], what: str) -> None:
    for s in errors[:5]:
        answer = f"HTTP {s.status}" if s.status else f"no answer ({s.error})"
        print(f"       {what}: {s.label} at {s.at:.1f} s after {s.ms:.0f} ms, {answer}")
