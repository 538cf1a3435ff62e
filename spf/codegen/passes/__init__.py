"""Stage 6, transformations of the loop nests: parallel loops, register sums, tiling,
unroll-and-jam, zeroing."""
