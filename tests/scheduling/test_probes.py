"""The probe table (spf.scheduling.autoscheduler.probes): a work's values at the probes
are its value at each probe's sizes, and do not depend on what was priced before it
(the search's comparisons, ties included, must not depend on the order it prices trees)."""

from __future__ import annotations

import numpy as np

import spf
from spf.scheduling.autoscheduler.machine_cost import DEFAULT_CONSTANTS, seconds
from spf.scheduling.autoscheduler.probes import REFERENCE_CACHE_BYTES, ProbeTable, size_probes

K1 = "A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)"
K1_LAYOUTS = {"A": "Dense", "B": "CSR", "C": "Dense", "D": "Dense", "E": "Dense"}


def test_a_work_at_the_probes_is_its_value_at_each_probe_whatever_was_priced_before():
    result = spf.autoschedule(K1, K1_LAYOUTS)
    works = [c.work for c in result.generated]
    probes = size_probes(result.problem)
    alone = [ProbeTable(probes, DEFAULT_CONSTANTS).evaluate(work) for work in works]
    shared = ProbeTable(probes, DEFAULT_CONSTANTS)
    in_reverse = [shared.evaluate(work) for work in reversed(works)][::-1]
    for work, one, other in zip(works, alone, in_reverse):
        assert np.array_equal(one, other)  # bit for bit
        expected = [seconds(work, probe, DEFAULT_CONSTANTS, REFERENCE_CACHE_BYTES) for probe in probes]
        np.testing.assert_allclose(one, expected, rtol=1e-12)
