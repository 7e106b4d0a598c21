"""When a delivery that failed is tried again, and when it is given up.

Five attempts in all: the first at once, then after 30 s, 2 min, 10 min and 1 h, so a
receiver that is down for a restart or a short outage still gets its message, and one that is
gone for good stops being tried within about 75 minutes. What an HTTP answer means:

- 2xx: delivered.
- 429 (too many requests): tried again after the wait the receiver asks for (Discord's JSON
  `retry_after` in seconds, else the `Retry-After` header), at least 1 s and at most an hour.
- other 4xx: final. The address or the message is wrong (Discord answers 404 for a deleted
  webhook, 401 for a wrong token); asking again would get the same answer.
- 5xx, a time-out, a refused connection: tried again on the schedule above.
"""

from dataclasses import dataclass

DELAYS = (30, 120, 600, 3600)  # seconds before attempts 2, 3, 4 and 5
MAX_ATTEMPTS = len(DELAYS) + 1
MAX_RETRY_AFTER = 3600.0


@dataclass(frozen=True)
class Outcome:
    sent: bool
    retry_in: float | None  # seconds until the next attempt; None: no more attempts
    error: str  # what went wrong, for the store's delivery list ("" when sent)


def after_failure(attempts: int, error: str, *, final: bool = False, wait: float | None = None):
    """The outcome of a failed attempt number `attempts` (1 for the first)."""
    if final or attempts >= MAX_ATTEMPTS:
        return Outcome(False, None, error)
    delay = DELAYS[attempts - 1] if wait is None else min(max(wait, 1.0), MAX_RETRY_AFTER)
    return Outcome(False, delay, error)


def http_outcome(attempts: int, status: int, body: str = "", retry_after: float | None = None):
    """What an HTTP answer `status` to attempt number `attempts` means (see the module text)."""
    if 200 <= status < 300:
        return Outcome(True, None, "")
    snippet = " ".join(body.split())[:200]
    error = f"HTTP {status}" + (f": {snippet}" if snippet else "")
    if status == 429:
        return after_failure(attempts, error, wait=retry_after if retry_after else 1.0)
    if 300 <= status < 500:
        return after_failure(attempts, error, final=True)
    return after_failure(attempts, error)


def retry_after_seconds(json_body, header: str | None) -> float | None:
    """The wait a 429 asks for: Discord's JSON `retry_after` (seconds, may be fractional),
    else the standard `Retry-After` header in seconds; None when neither is readable."""
    if isinstance(json_body, dict):
        value = json_body.get("retry_after")
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            return float(value)
    if header:
        try:
            value = float(header.strip())
        except ValueError:
            return None
        return value if value >= 0 else None
    return None
