"""Moving a whole store between sites: one JSON document with its players, leagues, games,
rating settings and events (`exchange.services`), and the commands that write and read it.

It sits on top of the game apps because it knows all of them (leagues, ratings, tournaments).
"""
