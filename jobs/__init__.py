"""Background jobs: heavy work (large imports, re-rating, the rating lab) out of the request."""
