"""The ``spf`` command line, its demo and its benchmark report."""
