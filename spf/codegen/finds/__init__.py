"""Stage 5, finds: which search may replace a loop plus a guard, proven with Z3, and its state."""
