"""Stage 9, build (the C toolchain): compiling generated C into shared libraries, their cache folder and limits,
and the whole-kernel cache."""
