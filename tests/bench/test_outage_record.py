"""`bench/outage.py --record` / `--from`: runs measured by several benches side by side (or
by one that was stopped) add up to one table, and a file that is not a record says where."""

import argparse
import io
from contextlib import redirect_stdout

import pytest

from bench.outage import Run, print_table, record, recorded

SIZE = argparse.Namespace(players=64, rounds=4, outage=(5.0, 90.0), seed=7)


def test_runs_recorded_in_two_files_make_one_table(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    ran = [
        Run(kind="wifi", round=2, queued=7, pair_s=20.5, paper_s=1.9, sync_s=4.0, adopted=True,
            standings_equal=True),
        Run(kind="server", round=1, queued=12, pair_s=31.0, paper_s=2.2, sync_s=18.5,
            adopted=True, standings_equal=True),
        Run(kind="wifi", round=3, queued=3, pair_s=25.0, paper_s=1.5, sync_s=3.0, adopted=True,
            standings_equal=True, duplicated=1),
    ]  # fmt: skip
    record(first, ran[0], SIZE, 1)
    record(first, ran[1], SIZE, 2)
    record(second, ran[2], SIZE, 1)

    runs, size = recorded([first, second])
    assert runs == ran
    assert (size.players, size.rounds, size.outage) == (64, 4, (5.0, 90.0))
    out = io.StringIO()
    with redirect_stdout(out):
        print_table(runs, size)
    table = out.getvalue()
    assert "3 run(s) of a 64-player pod event, 4 rounds, outages of 5-90 s" in table
    assert "| 3 | 0 | 1 | 0 | 7 / 12 |" in table  # runs, lost, duplicated, differ, queued
    assert "standings and History right: NO" in table  # the duplicate fails the goal


def test_files_of_two_sizes_or_not_records_are_refused(tmp_path):
    small = tmp_path / "small.jsonl"
    record(small, Run(), argparse.Namespace(players=9, rounds=2, outage=(1.0, 2.0), seed=1), 1)
    big = tmp_path / "big.jsonl"
    record(big, Run(), SIZE, 1)
    with pytest.raises(SystemExit, match="mix event sizes"):
        recorded([small, big])
    broken = tmp_path / "broken.jsonl"
    broken.write_text(small.read_text() + "{not json\n")
    with pytest.raises(SystemExit, match=r"broken.jsonl, line 2: not a recorded run"):
        recorded([broken])
