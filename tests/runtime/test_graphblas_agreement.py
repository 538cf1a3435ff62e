"""python-graphblas agrees with spf on a real matrix (issue 29's acceptance, a fixed slice of
benchmarks/graphblas_agreement.py, which runs every combination on several matrices): mxv, vxm,
mxm, element-wise add and multiply and reductions, under the semirings of issue 29, masked and
complemented-masked, with and without accumulation, over CSR, CSC, DCSR, COO and BCSR, in
float64, float32 and int64; and what spf refuses is refused for the documented reason."""

from __future__ import annotations

import pytest

from conftest import REPOSITORY, matrix_path

MATRIX = "494_bus"  # 494 x 494, 1666 real values
BLOCK = 200  # the leading block the dense matrix outputs are computed on

CASES = [  # operation, semiring, layout, mask, accumulate, value type
    ("mxv", "plus_times", "CSR", "none", False, "float64"),
    ("mxv", "min_plus", "CSC", "~M:SV", True, "float64"),
    ("mxv", "max_times", "DCSR", "M:Dense1", True, "float64"),
    ("mxv", "lor_land", "COO", "~M:Dense1", True, "float64"),
    ("mxv", "any_pair", "CSR", "M:SV", False, "float64"),
    ("mxv", "lor_land", "BCSR", "M:Dense1", True, "float64"),
    ("vxm", "max_plus", "CSR", "M:SV", True, "float64"),
    ("vxm", "plus_pair", "CSC", "~M:Dense1", False, "float64"),
    ("vxm", "min_first", "COO", "none", True, "float64"),
    ("vxm", "plus_second", "DCSR", "~M:SV", True, "float64"),
    ("reduce_rows", "plus_times", "BCSR", "~M:SV", True, "float64"),
    ("reduce_rows", "any_pair", "CSC", "M:Dense1", False, "float64"),
    ("reduce_rows", "min_times", "DCSR", "~M:Dense1", True, "float64"),
    ("reduce_scalar", "max_second", "COO", "none", False, "float64"),
    ("reduce_scalar", "any_pair", "CSR", "none", False, "float64"),
    ("mxm", "min_plus", "CSR", "M:CSR", True, "float64"),
    ("mxm", "plus_times", "CSC", "~M:Dense2", True, "float64"),
    ("mxm", "lor_land", "BCSR", "~M:CSR", False, "float64"),
    ("mxm", "plus_second", "COO", "M:Dense2", False, "float64"),
    ("ewise_add", "max_plus", "DCSR", "~M:CSR", True, "float64"),
    ("ewise_add", "any_pair", "CSR", "none", False, "float64"),
    ("ewise_add", "plus_times", "BCSR", "M:Dense2", True, "float64"),
    ("ewise_mult", "min_times", "COO", "M:CSR", True, "float64"),
    ("ewise_mult", "plus_pair", "CSC", "~M:Dense2", False, "float64"),
    ("mxm_csr", "plus_times", "CSR", "~M:CSR", False, "float64"),
    # semirings into CSR: an entry where a product reaches, whatever its value
    ("mxm_csr", "min_plus", "CSR", "none", False, "float64"),
    ("mxm_csr", "plus_pair", "DCSR", "~M:CSR", False, "float64"),
    ("mxm_csr", "max_second", "COO", "M:CSR", False, "float32"),
    ("mxm_csr", "lor_land", "CSC", "none", False, "int64"),
    ("ewise_add_csr", "any_pair", "COO", "none", False, "float64"),
    ("ewise_add_csr", "lor_land", "BCSR", "M:CSR", False, "float64"),
    ("ewise_add_csr", "max_plus", "CSR", "~M:CSR", False, "int64"),
    ("ewise_mult_csr", "min_times", "DCSR", "none", False, "float64"),
    ("ewise_mult_csr", "plus_second", "CSC", "M:CSR", False, "float64"),
    # accumulating into CSR: the union of the output passed and the result, ⊕ where both have an entry
    ("mxm_csr", "min_plus", "DCSR", "M:CSR", True, "float64"),
    ("mxm_csr", "plus_times", "CSR", "none", True, "float64"),
    ("ewise_add_csr", "max_plus", "COO", "~M:CSR", True, "int64"),
    ("ewise_mult_csr", "lor_land", "CSR", "none", True, "float64"),
    ("mxm_csr", "any_pair", "COO", "M:CSR", True, "float64"),  # any keeps the output's value or a product's
    ("ewise_add_csr", "plus_times", "DCSR", "M:CSR", False, "float64"),
    ("ewise_mult_csr", "plus_times", "COO", "none", False, "float64"),
    ("mxv", "plus_times", "BCSR", "~M:Dense1", True, "float32"),
    ("vxm", "min_plus", "CSR", "M:SV", True, "float32"),
    ("mxm", "plus_first", "DCSR", "none", True, "float32"),
    ("mxv", "max_times", "DCSR", "~M:Dense1", True, "int64"),
    ("reduce_rows", "min_plus", "CSR", "M:SV", False, "int64"),
    ("ewise_add", "lor_land", "BCSR", "~M:Dense2", True, "int64"),
    ("mxm", "plus_times", "CSR", "M:CSR", True, "int64"),
    # a sparse mask's own type does not join the operands' (it did before 836a923)
    ("vxm", "min_plus", "CSR", "M:SV(float64)", True, "int64"),
    ("mxv", "plus_times", "DCSR", "M:SV(float64)", False, "float32"),
    # padding reduced as it is (one factor, no ⊗), which plus, lor and any leave unchanged (53c8ebf, 0fe8b31)
    ("reduce_rows", "plus_pair", "BCSR", "none", False, "float64"),
    ("reduce_rows", "lor_land", "BCSR", "M:SV", False, "float64"),
]

REFUSED = [  # ..., the reason
    ("mxv", "min_plus", "BCSR", "none", False, "stores padding"),
    ("mxv", "plus_first", "BCSR", "none", False, "stores padding"),  # first(x, 0) = x: padding of x's would count
    ("reduce_rows", "min_plus", "BCSR", "none", False, "stores padding"),  # min(y, 0) changes y
    ("reduce_rows", "any_pair", "CSR", "none", True, "any"),
    ("ewise_add_csr", "min_plus", "BCSR", "none", False, "stores padding"),  # min(y, 0) changes y
    ("reduce_scalar", "plus_times", "CSR", "none", True, "scalar output"),
]


@pytest.fixture(scope="module")
def agreement(request):
    gb = pytest.importorskip("graphblas", reason="python-graphblas (the bench extra) is not installed")
    path = matrix_path(MATRIX)  # skips with the reason when ../shared/data is absent
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.syspath_prepend(str(REPOSITORY / "benchmarks"))
    request.addfinalizer(monkeypatch.undo)
    import graphblas_agreement as module
    A, _ = module.load(path)
    problems = {dtype: module.Problem(MATRIX, A, dtype, BLOCK) for dtype in ("float64", "float32", "int64")}
    helpers = {dtype: module.GraphBLAS(gb, problem) for dtype, problem in problems.items()}
    return module, problems, helpers


def run(agreement, operation, ring, layout, mask, accumulate, dtype):
    module, problems, helpers = agreement
    problem, helper = problems[dtype], helpers[dtype]
    operation = next(op for op in module.OPERATIONS if op.name == operation)
    mask_layout = mask.split(":")[-1]
    case = module.NO_MASK if mask == "none" else \
        module.MaskCase(mask_layout.removesuffix("(float64)"), complemented=mask.startswith("~"),
                        foreign=mask_layout.endswith("(float64)"))
    start = None
    if accumulate and operation.kind != "scalar":
        start = problem.start(operation, ring.split("_")[0] in ("lor", "land"))
    expected = helper.result(operation, ring, case, start is not None, start) \
        if operation.kind == "scalar" or not accumulate or start is not None else None
    return module.run_case(problem, helper, operation, ring, layout, case, accumulate, expected, start)


@pytest.mark.parametrize("operation, ring, layout, mask, accumulate, dtype", CASES)
def test_spf_agrees_with_graphblas_on_a_real_matrix(agreement, operation, ring, layout, mask, accumulate, dtype):
    outcome = run(agreement, operation, ring, layout, mask, accumulate, dtype)
    assert outcome.status == "agreed", outcome.detail


@pytest.mark.parametrize("operation, ring, layout, mask, accumulate, reason", REFUSED)
def test_what_spf_cannot_compute_yet_is_refused_with_its_reason(agreement, operation, ring, layout, mask,
                                                                 accumulate, reason):
    outcome = run(agreement, operation, ring, layout, mask, accumulate, "float64")
    assert outcome.status == "refused" and reason in outcome.detail, outcome
