"""Stage 4, scanning: iteration spaces become loop nests (the core paper's Algorithm 1)."""
