"""Stage 8, C: the printer from loop nests to C, the kernels' structs and checks, and the fixed
run-time C they include."""
