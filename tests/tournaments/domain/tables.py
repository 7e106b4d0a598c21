"""Shorthand for 1v1 rounds in the domain tests: results, byes and the points they give."""

from tournaments.domain.records import MAGIC, PointsScheme, Table


def W(a, b, winner):
    """A 1v1 result: W(1, 2, 1) is 1 beating 2, W(1, 2, None) a draw."""
    return Table((a, b), winner)


def bye(p):
    return Table((p,), p)


def points_of(history, scheme: PointsScheme = MAGIC):
    points = {}
    for round_ in history:
        for table in round_:
            for p in table.players:
                points[p] = points.get(p, 0.0) + scheme.points(table, p)
    return points
