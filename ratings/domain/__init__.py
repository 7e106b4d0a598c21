"""Pure rating math: rating systems, their registry, and the rating lab's metrics (no Django)."""
