"""The TO's pages, one module per part of the console (its urls.py maps them)."""
