"""The judges' rules as plain Python: the infractions and their penalties (ipg), and which
tables a deck check picks (deckcheck). No Django here."""
