"""Stage 10, the run time: Tensors, packing and checking inputs, assembly of outputs, scipy and
pydata arrays, and calling compiled kernels."""
