"""Pure season rules: point tables, best-finish limits and the season table (no Django)."""
