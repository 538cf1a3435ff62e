"""Code generation: scanning iteration spaces, find synthesis, C emission, build and load.

Filled by the code-generation work (DESIGN.md decisions 2-4); the iteration spaces it
scans come from :mod:`spf.iteration_space`.
"""
