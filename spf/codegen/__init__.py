"""Code generation, stages 4 to 9: an iteration space (spf.space) and a schedule
(spf.scheduling) become C and a loaded library.

``pipeline`` runs the passes in order over the loop-nest IR (``loops``), verified after
each (``verify``); ``fused`` lowers an autoscheduled tree as the first pass; ``compiled``
is the output, the kernel's description the run time (spf.runtime) wraps.  The folders
are the stages: ``scanning``, ``finds``, ``passes``, ``assembly``, ``c``, ``toolchain``.
"""
