"""The names of the ratings app's kinds of background job (registered in `RatingsConfig.ready()`).

A module of its own so that the services that start these jobs and the handlers that run them
(`ratings.jobs`, which import the services) both name them without importing each other.
"""

RERATE = "rerate"  # the league's rating settings changed: every game re-rated
CATCH_UP = "catch_up"  # a big import or history change re-rated after the fact
LAB = "lab"  # the rating lab's comparison of every system on the league
