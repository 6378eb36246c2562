"""Resolution: the generic resolver, movement, retreats, adjustments, and outcome records."""
