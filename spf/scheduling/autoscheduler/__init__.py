"""Autoscheduling of products of several tensors (SparseAuto, SpTTN, CoNST)."""
