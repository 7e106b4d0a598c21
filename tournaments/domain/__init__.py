"""Pure tournament logic: Swiss pairing, standings and tiebreakers, top cut (no Django)."""
