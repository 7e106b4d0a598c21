"""Pure card and decklist logic: no Django imports (checked by import-linter)."""
