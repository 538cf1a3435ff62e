"""Stage 7, assembly: how a sparse output's arrays are built, its rows, merges and fusion."""
