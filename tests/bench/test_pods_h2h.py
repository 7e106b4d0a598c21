"""`bench/pods_h2h.py`: the 95% interval of Guildhall's lead over a reference, on the same
events, resampled in pairs."""

import pytest

from bench.pods_h2h import described, lead_interval


def event(badness: int, spread_sum: float, pods: int = 16) -> dict:
    return {
        "finished": True,
        "badness": badness,
        "spread_sum": spread_sum,
        "pods": pods,
        "worst": 0,
        "first_seat": 1,
    }


def test_a_constant_lead_has_no_width():
    # Every event: the reference has 4 more badness and 8 more points of spread over 16 pods.
    ours = [event(10, 32), event(20, 40), event(0, 16)]
    theirs = [event(14, 40), event(24, 48), event(4, 24)]
    gap = lead_interval(ours, theirs)
    assert gap["badness"] == pytest.approx((4.0, 4.0, 4.0))
    assert gap["spread"] == pytest.approx((0.5, 0.5, 0.5))


def test_events_are_resampled_in_pairs():
    # Both pairers vary a lot between events, by the same amount: resampling each side on its
    # own would give a wide interval; in pairs the lead is always 2.
    ours = [event(b, 0) for b in (0, 50, 100, 150)]
    theirs = [event(b + 2, 0) for b in (0, 50, 100, 150)]
    assert lead_interval(ours, theirs)["badness"] == pytest.approx((2.0, 2.0, 2.0))


def test_a_lead_that_changes_sign_spans_zero_and_a_clear_one_does_not():
    ours = [event(10, 0) for _ in range(20)]
    mixed = [event(10 + d, 0) for d in (5, -5) * 10]
    lead, low, high = lead_interval(ours, mixed)["badness"]
    assert lead == 0.0
    assert low < 0 < high
    behind = [event(10 - d, 0) for d in (1, 3) * 10]
    lead, low, high = lead_interval(ours, behind)["badness"]
    assert lead == -2.0
    assert -3 <= low <= high <= -1


def test_spread_is_pooled_over_pods():
    # 3 events of 16 pods and one of 12 (a drop): pooled, not the mean of the events' averages.
    ours = [event(0, 32), event(0, 32), event(0, 32), event(0, 0, pods=12)]
    theirs = [event(0, 32), event(0, 32), event(0, 32), event(0, 60, pods=12)]
    assert lead_interval(ours, theirs)["spread"][0] == pytest.approx(60 / 60)


def test_the_interval_is_the_same_on_every_run_and_needs_events():
    ours = [event(b, b) for b in range(12)]
    theirs = [event(2 * b % 7, b + 3) for b in range(12)]
    assert lead_interval(ours, theirs) == lead_interval(ours, theirs)
    with pytest.raises(ValueError):
        lead_interval([], [])


def test_described():
    gap = {"badness": (1.25, -0.5, 3.0), "spread": (0.054, 0.01, 0.093)}
    assert described(gap) == (
        "lead per event (95%): badness 1.2 (-0.5 to 3.0), spread 0.05 (0.01 to 0.09)"
    )
