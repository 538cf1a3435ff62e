"""The autoscheduler (spf.autoschedule): SparseAuto's schedule space, its pruning and the
run-time choice, checked against the kernels of the SparseAuto digest (section 10).

Every candidate is compiled and compared with numpy on small random data (and the
run-time choice on real data from ../shared/data); the candidate sets are compared with
the schedules the digest derives; the search is compared with the exhaustive reference;
the directives, the constraints, the run-time selection and the errors are exercised.
"""

from __future__ import annotations

import dataclasses
import re
from typing import NamedTuple

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse
import sympy

import spf
from spf.codegen.loops import Loop, walk
from spf.errors import AutoscheduleError, FindRefused, ScheduleError
from spf.runtime.autoschedule import AutoSchedule, Candidate, operand_sizes
from spf.scheduling.autoscheduler.problem import make_problem
from spf.scheduling.autoscheduler.cost import Cost
from spf.scheduling.autoscheduler.machine_cost import DEFAULT_CONSTANTS, runs_in_parallel
from spf.scheduling.autoscheduler.probes import ProbeTable, size_probes
from spf.scheduling.autoscheduler.prune import Context, last_level_cache_bytes, pareto_buckets
from spf.scheduling.autoscheduler.search import default_schedule
from spf.scheduling.autoscheduler.tree import (Branch, Leaf, check, loop_depth, loopfuse, memory_cost, memory_depth,
                                               reorder, time_cost)

from conftest import load_matrix, load_tensor

# ----------------------------------------------------------------------------- the kernels


class Kernel(NamedTuple):
    expression: str
    sparse: dict  # tensor -> layout; every other tensor is Dense
    share: dict | None = None

    @property
    def accesses(self) -> list[tuple[str, str]]:
        """(tensor, indices) of the output, then of each factor."""
        return re.findall(r"([A-Za-z]\w*)\(([a-z,]*)\)", self.expression)

    @property
    def output(self) -> tuple[str, str]:
        name, indices = self.accesses[0]
        return name, indices.replace(",", "")

    @property
    def factors(self) -> list[tuple[str, str]]:
        return [(name, indices.replace(",", "")) for name, indices in self.accesses[1:]]

    @property
    def layouts(self) -> dict:
        return {name: self.sparse.get(name, "Dense") for name, _ in self.accesses}


KERNELS = {
    "K1": Kernel("A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)", {"B": "CSR"}),
    "K2": Kernel("A(i,m) = B(i,j) * C(i,k) * D(j,k) * E(j,l) * F(l,m)", {"B": "CSR"}),
    "K3": Kernel("A(i,l) = B(i,j) * C(j,k) * D(j,k) * E(j,l)", {"B": "CSR"}),
    "K4": Kernel("A(i,l) = B(i,j) * C(j,k) * D(k,l)", {"B": "CSR"}),
    "K5": Kernel("A(l,m,n) = B(i,j,k) * C(i,l) * D(j,m) * E(k,n)", {"B": "CSF3"}),
    "K6": Kernel("A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)", {"B": "CSF3"}),
    "K7": Kernel("A(i,j,m) = B(i,j,k) * C(k,l) * D(l,m)", {"B": "CSF3"}),
    "K8": Kernel("A(i,m) = B(i,k,l) * C(l,j) * D(k,j) * E(j,m)", {"B": "CSF3"}),
    "MTTKRP": Kernel("A(i,a) = B(i,j,k) * C(j,a) * D(k,a)", {"B": "CSF3"}),
    "TTMc3": Kernel("S(i,r,s) = T(i,j,k) * U(j,r) * V(k,s)", {"T": "CSF3"}),
    "TTMc4": Kernel("S(i,r,s,t) = T(i,j,k,l) * U(j,r) * V(k,s) * W(l,t)", {"T": "CSF4"}),
    "TTTP": Kernel("S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)", {"S": "CSF3", "T": "CSF3"}, {"S": "T"}),
    "CHAIN": Kernel("R(i,j,k) = A(i,p,q) * B(j,p,r) * C(k,q,r) * D(j,k,r)",
                    {"A": "CSF3", "B": "CSF3", "C": "CSF3", "D": "CSF3"}),
}

# ----------------------------------------------------------------------------- shared, computed once

_searches: dict = {}
_compiled: dict = {}


def search(name: str, exhaustive: bool = False) -> AutoSchedule:
    """The kernel's autoschedule result, computed once per session (do not select() on it
    in tests that inspect ``last_selection``)."""
    key = (name, exhaustive)
    if key not in _searches:
        kernel = KERNELS[name]
        _searches[key] = spf.autoschedule(kernel.expression, kernel.layouts, share=kernel.share,
                                          exhaustive_search=exhaustive, progress=lambda line: None)
    return _searches[key]


def compiled(name: str, candidate: Candidate, parallel: bool = False):
    """The compiled kernel of one candidate, built once per session."""
    key = (name, id(candidate), parallel)
    if key not in _compiled:
        kernel = KERNELS[name]
        _compiled[key] = (candidate, spf.compile(kernel.expression, kernel.layouts, schedule=candidate,
                                                 share=kernel.share, parallel=parallel))
    return _compiled[key][1]


def symbols(names: str):
    """Positive sympy symbols, as the cost expressions use (``I`` is an extent, not sqrt(-1))."""
    return [sympy.Symbol(name, positive=True) for name in names.split()]


def same(expression, expected) -> bool:
    return sympy.simplify(expression - expected) == 0


def with_cost(result: AutoSchedule, time, memory=None) -> list[Candidate]:
    """The candidates whose time (and memory, if given) equal the expressions."""
    return [c for c in result.candidates
            if same(c.time_cost, time) and (memory is None or same(c.memory_cost, memory))]


def as_candidate(tree, problem) -> Candidate:
    """A hand-built tree, checked and costed, in the form spf.compile accepts."""
    check(tree, problem)
    order = [f.name for f in problem.factors]
    return Candidate(tree, time_cost(tree, order), memory_cost(tree), loop_depth(tree), memory_depth(tree), problem)


def shape(node):
    """A tree's structure without loop orders or temporary names: a leaf is
    ("leaf", loops, inputs read); a branch is ("branch", fused loops, temporary indices,
    producer, consumer)."""
    if isinstance(node, Leaf):
        inputs = frozenset(f.name for f in node.statement.factors if not f.temporary)
        return ("leaf", frozenset(node.loops), inputs)
    return ("branch", frozenset(node.fused), frozenset(node.temporary.indices), shape(node.producer),
            shape(node.consumer))


def leaf(loops: str, inputs: str):
    return ("leaf", frozenset(loops), frozenset(inputs.split()))


def branch(fused: str, temporary: str, producer, consumer):
    return ("branch", frozenset(fused), frozenset(temporary), producer, consumer)


# ----------------------------------------------------------------------------- data

EXTENTS = [5, 6, 7, 8, 9, 4, 10]  # one per index, in order of first appearance: all distinct
WIDE = 70  # the extent of sparse operands' first levels in wide data: several chunks of 32 rows
CASES = ["random", "empty_rows", "empty"]


def extents_of(kernel: Kernel, wide: bool = False) -> dict[str, int]:
    order = []
    for _, indices in [kernel.output] + kernel.factors:
        order += [i for i in indices if i not in order]
    extents = {index: EXTENTS[position] for position, index in enumerate(order)}
    if wide:
        for tensor, indices in kernel.factors:
            if tensor in kernel.sparse:
                extents[indices[0]] = WIDE
    return extents


def as_input(array: np.ndarray):
    """A sparse operand as users pass it: scipy CSR in 2-D, (coords, values, shape) above."""
    if array.ndim == 2:
        return scipy.sparse.csr_matrix(array)
    coords = np.argwhere(array != 0)
    return coords, array[tuple(coords.T)], array.shape


def random_data(name: str, case: str, seed: int = 0, wide: bool = False):
    """Inputs for the kernel (as passed to it) and their dense arrays.

    Sparse operands keep about 30% of their entries; ``empty_rows`` also empties the
    first and last slices of each sparse operand's first storage level and one fiber
    below a non-empty slice; ``empty`` stores nothing in the first sparse operand.
    ``wide`` makes the sparse operands' first levels long enough for several threads.
    """
    kernel = KERNELS[name]
    rng = np.random.default_rng(seed)
    extents = extents_of(kernel, wide)
    inputs, dense = {}, {}
    first_sparse = True
    for tensor, indices in kernel.factors:
        array = rng.standard_normal(tuple(extents[i] for i in indices))
        if tensor in kernel.sparse:
            array *= rng.random(array.shape) < 0.3
            if case == "empty_rows":
                array[0] = array[-1] = 0
                array[1, 0] = 0
            elif case == "empty" and first_sparse:
                array[...] = 0
            first_sparse = False
            inputs[tensor] = as_input(array)
        else:
            inputs[tensor] = array
        dense[tensor] = array
    return inputs, dense


def einsum_reference(name: str, dense: dict) -> np.ndarray:
    kernel = KERNELS[name]
    subscripts = ",".join(indices for _, indices in kernel.factors) + "->" + kernel.output[1]
    return np.einsum(subscripts, *(dense[tensor] for tensor, _ in kernel.factors), optimize=True)


def coo_reference(name: str, coords: np.ndarray, values: np.ndarray, dense: dict, extents: dict) -> np.ndarray:
    """The kernel's result computed from the stored entries of its one sparse operand:
    the dense factors are gathered at each entry's coordinates, contracted per entry
    (an axis Z over the entries) and scattered into the output with np.add.at."""
    kernel = KERNELS[name]
    (sparse_name, sparse_indices), = [(t, i) for t, i in kernel.factors if t in kernel.sparse]
    operands, subscripts = [values], ["Z"]
    for tensor, indices in kernel.factors:
        if tensor == sparse_name:
            continue
        array = dense[tensor]
        gathered = [x for x in indices if x in sparse_indices]
        rest = [x for x in indices if x not in sparse_indices]
        array = np.transpose(array, [indices.index(x) for x in gathered + rest])
        if gathered:
            array = array[tuple(coords[:, sparse_indices.index(x)] for x in gathered)]
            subscripts.append("Z" + "".join(rest))
        else:
            subscripts.append("".join(rest))
        operands.append(array)
    output = kernel.output[1]
    scattered = [x for x in output if x in sparse_indices]
    free = [x for x in output if x not in sparse_indices]
    per_entry = "".join(free) if not scattered else "Z" + "".join(free)
    contributions = np.einsum(",".join(subscripts) + "->" + per_entry, *operands, optimize=True)
    result = np.zeros([extents[x] for x in scattered + free])
    if scattered:
        np.add.at(result, tuple(coords[:, sparse_indices.index(x)] for x in scattered), contributions)
    else:
        result += contributions
    return np.transpose(result, [(scattered + free).index(x) for x in output])


def run(kernel, inputs: dict) -> np.ndarray:
    out = kernel(**inputs)
    return out.to_dense() if isinstance(out, spf.Tensor) else np.asarray(out)


def assert_close(got, expected, what: str) -> None:
    assert got.shape == expected.shape, f"{what}: shape {got.shape}, expected {expected.shape}"
    assert np.allclose(got, expected, rtol=1e-10, atol=1e-12), \
        f"{what}: largest difference {np.max(np.abs(got - expected))}"


# ----------------------------------------------------------------------------- 1. correctness


def test_coo_reference_agrees_with_einsum():
    """The sparse-aware reference used on real data is itself right (on small data)."""
    for name in ["K1", "K4", "K5", "K6", "K8", "MTTKRP", "TTMc3"]:
        inputs, dense = random_data(name, "random", seed=3)
        kernel = KERNELS[name]
        sparse_name, = kernel.sparse
        array = dense[sparse_name]
        coords = np.argwhere(array != 0)
        expected = einsum_reference(name, dense)
        assert_close(coo_reference(name, coords, array[tuple(coords.T)], dense, extents_of(kernel)), expected, name)


EVERY_CANDIDATE_UP_TO = 8  # kernels with more candidates: one per tree structure and the model's top five


def candidates_to_test(result: AutoSchedule, inputs: dict) -> list[Candidate]:
    """Every candidate, or for kernels with many (that differ in loop orders and temporary
    index orders), one per tree structure plus the five the model ranks first for these
    operands: what the compiler lowers differently.  The fuzz profile draws from all."""
    if len(result.candidates) <= EVERY_CANDIDATE_UP_TO:
        return list(result.candidates)
    chosen: dict[int, Candidate] = {id(c): c for c, _ in result.rank(**inputs)[:5]}
    structures: set = set()
    for candidate in result.candidates:
        structure = shape(candidate.schedule)
        if structure not in structures:
            structures.add(structure)
            chosen.setdefault(id(candidate), candidate)
    return [c for c in result.candidates if id(c) in chosen]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", list(KERNELS))
def test_every_candidate_computes_the_product(name, case):
    """Each candidate's compiled kernel equals np.einsum (the candidates candidates_to_test
    lists are checked and every mismatch reported)."""
    inputs, dense = random_data(name, case, seed=len(name) + CASES.index(case))
    expected = einsum_reference(name, dense)
    if case != "empty":
        assert np.abs(expected).max() > 0  # the data exercise the kernel
    result = search(name)
    assert result.select(**inputs) in result.candidates  # sizes of these operands are usable
    failures = []
    for candidate in candidates_to_test(result, inputs):
        got = run(compiled(name, candidate), inputs)
        if got.shape != expected.shape or not np.allclose(got, expected, rtol=1e-10, atol=1e-12):
            difference = np.max(np.abs(got - expected)) if got.shape == expected.shape else got.shape
            failures.append(f"{candidate.schedule}: largest difference {difference}")
    assert not failures, f"{name} ({case}): " + "; ".join(failures)


@pytest.mark.parametrize("name", list(KERNELS))
def test_selected_candidate_in_parallel(name):
    """The run-time choice for the operands, compiled with parallel=True, equals np.einsum
    (on data whose outer loop spans several OpenMP chunks)."""
    inputs, dense = random_data(name, "empty_rows", seed=11, wide=True)
    result = search(name)
    choice = result.select(**inputs)
    assert choice in result.candidates
    assert_close(run(compiled(name, choice, parallel=True), inputs), einsum_reference(name, dense), name)


def test_fused_kernels_use_the_requested_find_or_refuse_it():
    """find= means for fused kernels what it means for the others: the template where
    proven, else FindRefused with the failed assumption (not a silent linear search)."""
    expression = "A(i,l) = B(i,j) * C(i,j) * E(j,l)"  # C's positions found at B's stored (i, j)
    layouts = {"A": "Dense", "B": "CSR", "C": "CSR", "E": "Dense"}
    candidate = spf.autoschedule(expression, layouts).default()
    B = scipy.sparse.random(12, 10, density=0.3, format="csr", random_state=41)
    C = scipy.sparse.random(12, 10, density=0.3, format="csr", random_state=42)
    E = np.random.default_rng(43).normal(size=(10, 4))
    for find in ["seqiter", "hashmap", "binary", "linear"]:
        kernel = spf.compile(expression, layouts, schedule=candidate, find=find)
        assert [report.chosen.kind for report in kernel.reports] == [find]
        assert_close(kernel(B=B, C=C, E=E), B.multiply(C) @ E, find)
    with pytest.raises(FindRefused, match=r"find='direct' is not valid for C_colIdx\(pCj\) == B_colIdx\(pBj\) "
                       r"\(find over pCj\): direct: the key is not the same index array at a known position"):
        spf.compile(expression, layouts, schedule=candidate, find="direct")


@pytest.mark.parametrize("name", ["K1", "K2", "K3", "K4", "K6", "K8", "MTTKRP", "TTMc3", "TTTP"])
def test_parallel_runs_the_row_loop_in_parallel(name):
    """The best-ranked tree whose outermost loop is B's (or T's) first level, indexing the
    output: parallel=True puts OpenMP on that loop (else the test above proves little),
    and the ranking for two threads halves its predicted time."""
    inputs, _ = random_data(name, "random", seed=11, wide=True)
    result = search(name)
    serial = dict((id(c), t) for c, t in result.rank(**inputs))
    ranked = result.rank(threads=2, **inputs)
    choice = next(c for c, _ in ranked if runs_in_parallel(c.schedule, c.problem.output_indices))
    assert dict((id(c), t) for c, t in ranked)[id(choice)] == pytest.approx(serial[id(choice)] / 2)
    kernel = compiled(name, choice, parallel=True)
    assert "#pragma omp parallel" in kernel.c_source
    loops = [node for scanned in kernel.scans for node in walk(scanned.nodes) if isinstance(node, Loop) and node.parallel]
    # split as a kernel's parallel loop is: pieces of equal work where a pointer weighs it, else static parts
    assert loops and all(loop.pieces is not None or loop.schedule == "static" for loop in loops)
    assert "#pragma omp" not in compiled(name, choice).c_source


@pytest.mark.parametrize("name", ["K4", "K7"])
def test_each_phase_of_a_tree_predicted_parallel_runs_in_parallel(name):
    """A root temporary's trees (the dense product C*D first, then the sparse product): the
    ranking predicts them parallel when each phase's outer loop indexes what it writes, and
    the compiler puts OpenMP on both phases' loops."""
    result = search(name)
    roots = [c for c in result.generated if isinstance(c.schedule, Branch) and not c.schedule.fused
             and runs_in_parallel(c.schedule, c.problem.output_indices)]
    assert roots
    for candidate in roots:
        kernel = compiled(name, candidate, parallel=True)
        phases = [node for scanned in kernel.scans for node in walk(scanned.nodes)
                  if isinstance(node, Loop) and node.parallel]
        assert len(phases) == 2, candidate.schedule


# ----------------------------------------------------------------------------- 2. the digest's schedules


def test_k1_contains_the_scalar_temporary_schedule():
    """K1 <SDDMM, SpMM>: the digest's schedule, time nnz_B*(K+L), a scalar temporary in i, j."""
    K, L, nnz_B = symbols("K L nnz_B")
    result = search("K1")
    found = [c for c in with_cost(result, nnz_B * (K + L), 0) if isinstance(c.schedule, Branch)
             and c.schedule.fused == ("i", "j")]
    assert found
    candidate = found[0]
    assert same(candidate.time_cost, nnz_B * (K + L))
    assert candidate.memory_cost == 0
    assert candidate.memory_depth == 0
    tree = candidate.schedule
    assert isinstance(tree, Branch)
    assert tree.fused == ("i", "j")
    assert tree.temporary.indices == ()


def test_k2_contains_the_three_digest_schedules():
    """K2: the schedules (a) two-level with T(l), (b) and (c) with scalars survive."""
    I, K, L, M, nnz_B = symbols("I K L M nnz_B")
    result = search("K2")
    assert with_cost(result, nnz_B * (K + L) + I * M * L, L)
    assert with_cost(result, nnz_B * (K + M * L), 0)
    assert with_cost(result, L * K * nnz_B + I * L * M, 0)


def test_k4_contains_the_scalar_temporary_schedule():
    I, K, L, nnz_B = symbols("I K L nnz_B")
    found = with_cost(search("K4"), K * nnz_B + I * K * L, 0)
    assert found
    assert shape(found[0].schedule) == branch("ik", "", leaf("j", "B C"), leaf("l", "D"))


def test_k8_contains_the_digest_schedule():
    """K8 <MTTKRP, GEMM>: J*nnz_B + I*J*M in the digest.  B is CSF3, whose first level is
    compressed, so walking its first level costs nnz_B_i (stored slices), not I."""
    I, J, M, nnz_B, nnz_B_i = symbols("I J M nnz_B nnz_B_i")
    found = with_cost(search("K8"), J * nnz_B + nnz_B_i * J * M, 0)
    assert found
    assert same(found[0].time_cost.subs(nnz_B_i, I), J * nnz_B + I * J * M)
    assert shape(found[0].schedule) == branch("ij", "", leaf("kl", "B C D"), leaf("m", "E"))


def test_k5_contains_the_digest_scalar_schedules():
    """K5 <3D TTMc>: the digest's (a) and (c) with its tree shapes (CSF3: the digest's I, a
    walk of B's first level, is nnz_B_i here).  Its (b), holding T(m), is never among the
    cheapest in work at a probe (rank-2 and vector temporaries beat it), so the search
    leaves it; written by hand it still checks and costs as the digest says."""
    L, M, N, nnz_B, nnz_B_i, nnz_B_ij = symbols("L M N nnz_B nnz_B_i nnz_B_ij")
    result = search("K5")
    a = with_cost(result, N * nnz_B + N * M * L * nnz_B_ij, 0)
    c = with_cost(result, M * N * nnz_B + nnz_B_i * M * N * L, 0)
    assert a and c
    # (a) i, j', n < t ; k' : t += B*E , m,l : A += t*C*D >
    assert shape(a[0].schedule) == branch("ijn", "", leaf("k", "B E"), leaf("lm", "C D"))
    # (c) i, m, n < t ; j',k' : t += B*D*E , l : A += t*C >
    assert shape(c[0].schedule) == branch("imn", "", leaf("jk", "B D E"), leaf("l", "C"))
    for candidate in a + c:
        assert candidate.memory_depth == 0
    kernel = KERNELS["K5"]
    # (b) i, n < T(m) ; j' < t ; k' : t += B*E , m : T(m) += t*D > , m,l : A += T(m)*C >
    b = spf.schedule("i, n < T_BDE(m) ; j < T_BE() ; k : T_BE() += B(i,j,k) * E(k,n) , m : T_BDE(m) += T_BE() * D(j,m) > "
                     ", l, m : A(l,m,n) += T_BDE(m) * C(i,l) >", kernel.expression, kernel.layouts)
    assert same(b.time_cost, N * nnz_B + N * M * nnz_B_ij + nnz_B_i * N * M * L) and same(b.memory_cost, M)
    assert (b.loop_depth, b.memory_depth) == (4, 1)


@pytest.mark.parametrize("name, time", [
    ("K3", "nnz_B*(K + L)"),
    ("K6", "M*nnz_B + M*L*nnz_B_ij"),
    ("K7", "L*nnz_B + L*M*nnz_B_ij"),
])
def test_single_scalar_schedules(name, time):
    """K3, K6, K7: the digest's scalar-temporary schedule (SparseAuto's only candidate,
    after its depth poset) is among the candidates."""
    expected = sympy.sympify(time, locals={s: sympy.Symbol(s, positive=True)
                                           for s in re.findall(r"[A-Za-z_]\w*", time)})
    assert with_cost(search(name), expected, 0)


# ----------------------------------------------------------------------------- 3. fast path vs exhaustive


@pytest.mark.parametrize("name", ["K1", "K3", "K4", "K6", "K7", "K8", "MTTKRP", "TTMc3", "TTTP", "CHAIN", "K5"])
def test_search_finds_what_the_exhaustive_enumeration_finds(name):
    """At every probe of sizes, the dynamic program keeps a tree whose work is the least
    the full enumeration reaches (every loop order included), from fewer schedules."""
    fast, full = search(name), search(name, exhaustive=True)
    table = ProbeTable(size_probes(fast.problem), DEFAULT_CONSTANTS)
    kept = np.min([table.evaluate(c.work) for c in fast.generated], axis=0)
    everything = np.min([table.evaluate(c.work) for c in full.generated], axis=0)
    np.testing.assert_allclose(kept, everything, rtol=1e-9)
    assert full.counts["generated (stage 1 applied)"] > fast.counts["non-dominated (stage 1 applied)"]


# ----------------------------------------------------------------------------- 4. transformations


def problem_of(name: str):
    kernel = KERNELS[name]
    return make_problem(kernel.expression, kernel.layouts, kernel.share)


def check_tree_computes(name: str, tree) -> None:
    """Compile a hand-built tree and compare it with np.einsum."""
    kernel = KERNELS[name]
    candidate = as_candidate(tree, problem_of(name))
    inputs, dense = random_data(name, "empty_rows", seed=17)
    got = run(spf.compile(kernel.expression, kernel.layouts, schedule=candidate, share=kernel.share), inputs)
    assert_close(got, einsum_reference(name, dense), f"{name} {tree}")


def test_loopfuse_reproduces_the_k1_schedule():
    """Splitting TACO's default nest i,j,k,l after B*C*D fuses i, j with a scalar."""
    problem = problem_of("K1")
    tree = default_schedule(problem)
    assert isinstance(tree, Leaf) and tree.loops == ("i", "j", "k", "l")
    fused = loopfuse(tree, [], 3, True)
    assert shape(fused) == branch("ij", "", leaf("k", "B C D"), leaf("l", "E"))
    assert fused.fused == ("i", "j")
    assert any(isinstance(c.schedule, Branch) and c.schedule.fused == ("i", "j") and c.memory.is_zero()
               and c.time == as_candidate(fused, problem).time for c in search("K1").candidates)
    assert memory_cost(fused).is_zero()
    check_tree_computes("K1", fused)


def test_reorder_changes_what_loopfuse_fuses():
    """With k between i and j the common prefix is i only: the temporary becomes T(j)."""
    problem = problem_of("K1")
    tree = loopfuse(reorder(default_schedule(problem), [], ("i", "k", "j", "l")), [], 3, True)
    assert shape(tree) == branch("i", "j", leaf("kj", "B C D"), leaf("jl", "E"))
    J, = symbols("J")
    assert same(memory_cost(tree).to_sympy(), J)
    check_tree_computes("K1", tree)


def test_loopfuse_needs_a_linear_section():
    tree = loopfuse(default_schedule(problem_of("K1")), [], 3, True)
    with pytest.raises(ScheduleError, match="not a linear section"):
        loopfuse(tree, [], 1, True)
    with pytest.raises(ScheduleError):
        loopfuse(tree, [0, 1], 1, True)  # below a leaf


def test_reorder_against_the_csr_level_order_is_rejected():
    problem = problem_of("K1")
    tree = reorder(default_schedule(problem), [], ("j", "i", "k", "l"))
    with pytest.raises(ScheduleError, match="B"):
        check(tree, problem)


def test_sparseauto_ttmc_transformation_sequence():
    """Digest section 4.3 (K5, default order l,m,n,i,j,k): the splits of Figure 5."""
    problem = problem_of("K5")
    L, M, N, K, J, nnz_B = symbols("L M N K J nnz_B")
    start = default_schedule(problem, ("l", "m", "n", "i", "j", "k"))
    # 5(a) -> 5(b): producer B*C*D, consumer E: fused l, m and a temporary over k
    b = loopfuse(start, [], 3, True)
    assert isinstance(b, Branch) and b.fused == ("l", "m") and b.temporary.indices == ("k",)
    assert shape(b) == branch("lm", "k", leaf("ijk", "B C D"), leaf("nk", "E"))
    b = as_candidate(b, problem)
    assert same(b.time_cost, L * M * (nnz_B + N * K)) and same(b.memory_cost, K)
    assert (b.loop_depth, b.memory_depth) == (5, 1)
    # 5(a) -> 5(c): producer B*C: fused l, temporary t1(j,k)
    c = loopfuse(start, [], 2, True)
    assert c.fused == ("l",) and set(c.temporary.indices) == {"j", "k"}
    # 5(c) -> 5(d) -> 5(e): reorder the consumer to m,k,n,j and split t1*D | E: fused m,k, scalar
    e = loopfuse(reorder(c, [1], ("m", "k", "n", "j")), [1], 2, True)
    inner = e.consumer
    assert isinstance(inner, Branch) and inner.fused == ("m", "k") and inner.temporary.indices == ()
    e = as_candidate(e, problem)
    assert same(e.time_cost, L * (nnz_B + M * K * (J + N))) and same(e.memory_cost, J * K)
    assert (e.loop_depth, e.memory_depth) == (4, 2)
    check_tree_computes("K5", b.schedule)
    check_tree_computes("K5", e.schedule)


# ----------------------------------------------------------------------------- 5. pruning


def constrained(name: str, constraints) -> AutoSchedule:
    kernel = KERNELS[name]
    return spf.autoschedule(kernel.expression, kernel.layouts, constraints=constraints, share=kernel.share,
                            progress=lambda line: None)


def test_constraints_let_the_solver_prune_what_coefficients_cannot():
    """Stage 3: ``X + L*X`` and ``3*X`` do not compare coefficient by coefficient, but with
    L <= 1 the first is always cheaper, so the solver drops the second; without the
    constraint both stay.  Coefficients that compare need no query."""
    problem = search("K5").problem
    cheap, dear = Cost.of(["nnz_B"]) + Cost.of(["L", "nnz_B"]), Cost.of(["nnz_B"]) + Cost.of(["nnz_B"]) + Cost.of(["nnz_B"])
    buckets = [(dear, Cost.zero()), (cheap, Cost.zero())]
    kept, queries = pareto_buckets(buckets, Context(problem, ["L <= 1"]))
    assert kept == [1] and queries >= 2
    kept, _ = pareto_buckets(buckets, Context(problem))
    assert kept == [0, 1]
    kept, queries = pareto_buckets([(dear, Cost.zero()), (Cost.of(["nnz_B"]), Cost.zero())], Context(problem))
    assert kept == [1] and queries == 0
    kept, queries = pareto_buckets(buckets, Context(problem, ["L <= 1"]), most_queries=0)
    assert kept == [0, 1] and queries == 0  # out of queries: nothing goes
    assert constrained("K5", ["L <= 1"]).constraints == ["L <= 1"]


def test_size_ranges_leave_the_digest_schedules_of_k2():
    """Large J with small L: stage 3 under these ranges keeps the digest's three
    schedules for K2 (what it drops is beaten for every admitted size)."""
    I, J, K, L, M, nnz_B = symbols("I J K L M nnz_B")
    bounded = constrained("K2", ["1000 <= J", "L <= 64"])
    assert with_cost(bounded, nnz_B * (K + L) + I * M * L, L)
    assert with_cost(bounded, nnz_B * (K + M * L), 0)
    assert with_cost(bounded, L * K * nnz_B + I * L * M, 0)


@pytest.mark.parametrize("constraints", [["J <= 2", "J >= 3"], ["nnz_B > I*J"]])
def test_contradictory_constraints_are_refused(constraints):
    """Constraints that contradict each other, or the sizes the CSR layout implies."""
    with pytest.raises(AutoscheduleError, match="contradict"):
        constrained("K4", constraints)


@pytest.mark.parametrize("text", ["K <<= 3", "16 <= K <=", "K", "sqrt(K) <= 3"])
def test_malformed_constraint_is_named(text):
    with pytest.raises(AutoscheduleError) as error:
        constrained("K4", ["K >= 1", text])
    assert repr(text) in str(error.value)


def k5_sizes(**overrides) -> dict:
    """Sizes for K5 under which the T(m) schedule (b) is fastest while M is small: B has
    few stored (i,j) fibres, so J*nnz_B_i and K*nnz_B_i exceed L*nnz_B_ij."""
    sizes = dict(I=10, J=1000, K=1000, L=8, M=8, N=8, nnz_B_i=10, nnz_B_ij=200, nnz_B=10000)
    sizes.update(overrides)
    return sizes


def test_selection_weighs_memory_against_the_cache():
    """Small sizes: the choice holds a temporary and is the fastest predicted.  M so large
    that every temporary over m takes more than half the last-level cache: the choice
    fits, though a candidate that does not fit is predicted faster."""
    result = dataclasses.replace(search("K5"))
    small = result.select(sizes=k5_sizes())
    assert not small.memory.is_zero()
    fastest = min(result.last_selection.rows, key=lambda row: row[1])
    assert fastest[0] is small
    cache, _ = last_level_cache_bytes()
    huge = result.select(sizes=k5_sizes(M=cache))  # 8-byte elements: 8x the cache
    rows = {id(candidate): (predicted, fits) for candidate, predicted, _, fits in result.last_selection.rows}
    assert rows[id(huge)][1] is True
    assert any(not fits and predicted < rows[id(huge)][0] for predicted, fits in rows.values())


def test_selection_falls_back_to_the_least_memory():
    """When no candidate's temporaries fit, the one with the least memory is chosen (here
    T(j), although T(m)'s schedule needs fewer iterations)."""
    J, = symbols("J")
    full = search("K5")
    holding = [c for c in full.candidates if not c.memory.is_zero()]
    assert len(holding) >= 2
    result = dataclasses.replace(full, candidates=holding, last_selection=None)
    cache, _ = last_level_cache_bytes()
    chosen = result.select(sizes=k5_sizes(J=cache, K=2 * cache, L=cache, M=3 * cache, N=cache))
    assert not any(fits for _, _, _, fits in result.last_selection.rows)
    least = min(memory for _, _, memory, _ in result.last_selection.rows)
    assert [memory for c, _, memory, _ in result.last_selection.rows if c is chosen] == [least]


def test_last_level_cache_size_is_positive():
    size, source = last_level_cache_bytes()
    assert isinstance(size, int) and size > 0
    assert source


def test_operand_sizes_count_stored_prefixes():
    """Stage 4's inputs: extents from the shapes, nnz_B_i / nnz_B_ij / nnz_B from the stored
    (i), (i,j), (i,j,k) prefixes, whatever form the operand is given in."""
    inputs, dense = random_data("K5", "empty_rows", seed=1)
    coords = np.argwhere(dense["B"] != 0)
    expected = {"I": 8, "J": 9, "K": 4, "L": 5, "M": 6, "N": 7, "nnz_B": len(coords),
                "nnz_B_i": len(np.unique(coords[:, 0])), "nnz_B_ij": len(np.unique(coords[:, :2], axis=0))}
    assert expected["nnz_B_i"] < 8 and expected["nnz_B_ij"] < expected["nnz_B"]  # the data tell them apart
    result = search("K5")
    for B in [inputs["B"], dense["B"], spf.pack("CSF3", inputs["B"])]:
        sizes = operand_sizes(result.problem, dict(inputs, B=B))
        assert {k: sizes[k] for k in expected} == expected
    with pytest.raises(AutoscheduleError, match="index i"):
        operand_sizes(result.problem, dict(inputs, C=np.ones((3, 5))))


def test_default_choice_needs_no_sizes():
    """Without sizes: the least memory depth, then the least loop depth."""
    result = search("K5")
    choice = result.default()
    assert choice in result.candidates
    assert (choice.memory_depth, choice.loop_depth) == min((c.memory_depth, c.loop_depth) for c in result.candidates)


def test_select_needs_every_size():
    result = dataclasses.replace(search("K5"))
    with pytest.raises(AutoscheduleError, match="nnz_B"):
        result.select(sizes={"I": 3, "J": 4, "K": 5, "L": 6, "M": 7, "N": 8})


# ----------------------------------------------------------------------------- 6. errors


@pytest.mark.parametrize("layout", ["COO", "BCSR"])
def test_unsupported_layout_is_refused(layout):
    layouts = dict(KERNELS["K1"].layouts, B=layout)
    with pytest.raises(AutoscheduleError, match=r"tensor B\b"):
        spf.autoschedule(KERNELS["K1"].expression, layouts)


def test_sum_of_products_is_refused():
    with pytest.raises(AutoscheduleError, match="one product"):
        spf.autoschedule("A(i,l) = B(i,j) * C(j,l) + D(i,l)", {"A": "Dense", "B": "CSR", "C": "Dense", "D": "Dense"})


def test_a_sparse_output_in_a_prefix_of_the_sparse_inputs_levels_needs_no_share():
    # S in CSF3 is T's own pattern (spf.space.patterns): inferred, as spf.compile infers it
    kernel = KERNELS["TTTP"]
    schedules = spf.autoschedule(kernel.expression, kernel.layouts)
    assert schedules.problem.share == {"S": "T"}
    rng = np.random.default_rng(3)
    coords = np.unique(np.stack([rng.integers(0, n, 900) for n in (15, 20, 25)], axis=1), axis=0)
    values = rng.random(len(coords))
    T = spf.pack("CSF3", (coords, values, (15, 20, 25)))
    U, V, W = rng.random((15, 6)), rng.random((20, 6)), rng.random((25, 6))
    pick = schedules.select(T=T, U=U, V=V, W=W)
    S = spf.compile(kernel.expression, kernel.layouts, schedule=pick)(T=T, U=U, V=V, W=W)
    dense = np.zeros((15, 20, 25))
    dense[tuple(coords.T)] = values
    np.testing.assert_allclose(S.to_dense(), np.einsum("ijk,ir,jr,kr->ijk", dense, U, V, W), rtol=1e-12)


def test_sparse_output_needs_share():
    # S in CSF3 from T in CSF3_DENSE_LAST: S's last level is no level of T's, so share= must say it
    kernel = KERNELS["TTTP"]
    with pytest.raises(AutoscheduleError, match="output S is sparse"):
        spf.autoschedule(kernel.expression, dict(kernel.layouts, T="CSF3_DENSE_LAST"))


def test_compile_needs_one_candidate():
    kernel = KERNELS["K4"]
    with pytest.raises(spf.SpfError, match="select"):
        spf.compile(kernel.expression, kernel.layouts, schedule=search("K4"))


def test_candidate_with_other_layouts_is_refused():
    kernel = KERNELS["K4"]
    candidate = search("K4").candidates[0]
    with pytest.raises(spf.SpfError, match="another expression, layouts or share"):
        spf.compile(kernel.expression, dict(kernel.layouts, B="CSC"), schedule=candidate)


# ----------------------------------------------------------------------------- 7. explain


def test_explain_lists_candidates_and_the_choice():
    kernel = KERNELS["K5"]
    result = spf.autoschedule(kernel.expression, kernel.layouts, progress=lambda line: None)
    text = result.explain()
    assert len(result.candidates) > 1
    for candidate in result.candidates:
        assert str(candidate.schedule) in text
    assert "run-time choice" not in text
    inputs, _ = random_data("K5", "random")
    chosen = result.select(**inputs)
    text = result.explain()
    assert "run-time choice" in text
    choice_part = text.split("run-time choice")[1]
    marked = [line for line in choice_part.splitlines() if line.strip().startswith("->")]
    assert len(marked) == 1 and str(chosen.schedule) in marked[0]


# ----------------------------------------------------------------------------- TTTc (order 6)

CSF6 = str(Path(__file__).resolve().parents[2] / "examples" / "layouts" / "CSF6.layout")
TTTC = "Z(e,n) = T(i,j,k,l,m,n) * A(i,a) * B(a,j,b) * C(b,k,c) * D(c,l,d) * E(d,m,e)"
TTTC_LAYOUTS = {"Z": "Dense", "T": CSF6, "A": "Dense", "B": "Dense", "C": "Dense", "D": "Dense", "E": "Dense"}


def test_tttc_search_finds_the_chain_of_vector_buffers():
    """spttn-digest 8.5: per (i,j) a vector over b, per k one over c, per l one over d
    (six operands, eleven indices; the search's time is reported by
    benchmarks/autoschedule.py, not tested)."""
    result = spf.autoschedule(TTTC, TTTC_LAYOUTS, progress=lambda line: None)
    chain = [c for c in result.candidates
             if shape(c.schedule)[:2] == ("branch", frozenset("ij")) and c.memory_depth == 1 and c.loop_depth == 7]
    assert chain, result.explain()
    I, J, K, L, M, A, B, C, D, E = symbols("I J K L M A B C D E")
    nnz = symbols("nnz_T nnz_T_ij nnz_T_ijk nnz_T_ijkl nnz_T_ijklm")
    expected = A * B * nnz[1] + B * C * nnz[2] + C * D * nnz[3] + D * E * nnz[4] + E * nnz[0]
    assert any(same(c.time_cost, expected) for c in chain)


@pytest.mark.parametrize("parallel", [False, True])
def test_tttc_candidates_compute_the_contraction(parallel):
    rng = np.random.default_rng(5)
    shape_t = (4, 5, 3, 4, 3, 5)
    dense_t = rng.random(shape_t) * (rng.random(shape_t) < 0.2)
    coords = np.argwhere(dense_t != 0)
    operand = (coords, dense_t[dense_t != 0], shape_t)
    rank = 3
    factors = {"A": rng.random((4, rank)), "B": rng.random((rank, 5, rank)), "C": rng.random((rank, 3, rank)),
               "D": rng.random((rank, 4, rank)), "E": rng.random((rank, 3, rank))}
    expected = np.einsum("ijklmn,ia,ajb,bkc,cld,dme->en", dense_t, *factors.values())
    result = spf.autoschedule(TTTC, TTTC_LAYOUTS, progress=lambda line: None)
    chosen = result.select(T=operand, **factors)
    for candidate in ([chosen] if parallel else result.candidates[:4] + [chosen]):
        kernel = spf.compile(TTTC, TTTC_LAYOUTS, schedule=candidate, parallel=parallel)
        assert_close(kernel(T=operand, **factors), expected, str(candidate.schedule))


# ----------------------------------------------------------------------------- more real data


def _dense(coords, values, shape) -> np.ndarray:
    array = np.zeros(shape)
    np.add.at(array, tuple(np.asarray(coords).T), values)
    return array


def test_tttp_and_the_const_chain_on_a_real_tensor():
    """TTTP (output sharing T's arrays) and the CoNST chain (four sparse operands) on
    nations, 14x55x14: A, B, D are nations and C is nations with its first two modes swapped."""
    coords, values, shape = load_tensor("nations")
    rng = np.random.default_rng(17)
    dense_t = _dense(coords, values, shape)
    swapped = (np.asarray(coords)[:, [1, 0, 2]], values, (shape[1], shape[0], shape[2]))
    cases = {
        "TTTP": ({"T": (coords, values, shape), "U": rng.random((shape[0], 8)), "V": rng.random((shape[1], 8)),
                  "W": rng.random((shape[2], 8))}, "ijk,ir,jr,kr->ijk"),
        "CHAIN": ({"A": (coords, values, shape), "B": (coords, values, shape), "C": swapped,
                   "D": (coords, values, shape)}, "ipq,jpr,kqr,jkr->ijk"),
    }
    for name, (inputs, spec) in cases.items():
        operands = [_dense(*v) if isinstance(v, tuple) else v for v in inputs.values()]
        expected = np.einsum(spec, *operands)
        choice = search(name).select(**inputs)
        assert_close(run(compiled(name, choice), inputs), expected, f"{name} on nations")
        assert_close(run(compiled(name, choice, parallel=True), inputs), expected, f"{name} on nations, parallel")


def test_ttmc4_on_a_real_four_way_tensor():
    """TTMc of order 4 on jf17k (arity 3 facts: a 4-way tensor), against a COO reference."""
    coords, values, shape = load_tensor("jf17k-arity3")
    coords = np.asarray(coords)
    rng = np.random.default_rng(19)
    U, V, W = (rng.random((shape[m], 4)) for m in (1, 2, 3))
    inputs = {"T": (coords, values, shape), "U": U, "V": V, "W": W}
    expected = np.zeros((shape[0], 4, 4, 4))
    contributions = values[:, None, None, None] * np.einsum("nr,ns,nt->nrst", U[coords[:, 1]], V[coords[:, 2]],
                                                            W[coords[:, 3]])
    np.add.at(expected, coords[:, 0], contributions)
    choice = search("TTMc4").select(**inputs)
    assert_close(run(compiled("TTMc4", choice), inputs), expected, "TTMc4 on jf17k")


# ----------------------------------------------------------------------------- trees written by hand


@pytest.mark.parametrize("name", ["K1", "K5", "CHAIN"])
def test_every_generated_tree_reads_back_from_its_text(name):
    """spf.schedule parses explain()'s notation: each tree the search generates (the
    candidates among them) comes back equal, with the same costs."""
    kernel = KERNELS[name]
    result = search(name)
    assert {id(c) for c in result.candidates} <= {id(c) for c in result.generated}
    for candidate in result.generated:
        written = spf.schedule(str(candidate.schedule), kernel.expression, kernel.layouts, share=kernel.share)
        assert written.schedule == candidate.schedule
        assert (written.time, written.memory) == (candidate.time, candidate.memory)


@pytest.mark.parametrize("text, message", [
    ("i, j <", "expected a name at column 7"),
    ("i, j < T(k) ; k : T(k) += C(i,k) * D(j,k) , l : A(i,l) += T(k) * X(j,l) >",
     "X is no input of the expression"),
    ("i, j < T(k) ; k : T(k) += C(i,k) * D(j,k) , l : A(i,l) += T(k) * E(l,j) >", "E is read by the expression as"),
    ("i, j < B(k) ; k : B(k) += C(i,k) , l : A(i,l) += B(k) >", "the temporary B must be a new name"),
    ("i, j, k, l : A(i,l) += B(i,j) * C(i,k) * D(j,k) * E(j,l) >", "unexpected text after the tree"),
    ("j, i, k, l : A(i,l) += B(i,j) * C(i,k) * D(j,k) * E(j,l)", "B"),
])
def test_a_tree_written_by_hand_is_checked(text, message):
    kernel = KERNELS["K1"]
    with pytest.raises(ScheduleError, match=re.escape(message)):
        spf.schedule(text, kernel.expression, kernel.layouts)


def test_a_tree_written_by_hand_compiles():
    """SparseAuto's K1 schedule, written out: fused i, j with a scalar temporary."""
    kernel = KERNELS["K1"]
    text = "i, j < T_BCD() ; k : T_BCD() += B(i,j) * C(i,k) * D(j,k) , l : A(i,l) += T_BCD() * E(j,l) >"
    candidate = spf.schedule(text, kernel.expression, kernel.layouts)
    assert str(candidate.schedule) == text and candidate.memory_cost == 0
    inputs, dense = random_data("K1", "empty_rows", seed=3)
    assert_close(run(spf.compile(kernel.expression, kernel.layouts, schedule=candidate), inputs),
                 einsum_reference("K1", dense), text)


def test_operands_storing_indices_in_opposite_orders_have_no_schedule():
    """As stored, no nest walks both; a copy of one in the other's mode order makes one."""
    expression, layouts = "Z(j) = A(k,i,j) * B(j,i,k)", {"A": "CSF3", "B": "CSF3", "Z": "Dense"}
    with pytest.raises(AutoscheduleError, match="A stores k before i, B i before k"):
        spf.autoschedule(expression, layouts, progress=lambda line: None, mode_orders=False)
    candidates = spf.autoschedule(expression, layouts, progress=lambda line: None).candidates
    assert candidates and all(c.mode_orders for c in candidates)
    coords = np.array([[0, 1, 2], [1, 0, 2], [2, 2, 1], [1, 1, 0]])
    tensor = (coords, np.array([1.0, 2.0, 3.0, 4.0]), (3, 3, 3))
    dense = np.zeros((3, 3, 3))
    dense[tuple(coords.T)] = tensor[1]
    expected = np.einsum("kij,jik->j", dense, dense)
    for candidate in candidates:
        np.testing.assert_allclose(spf.compile(expression, layouts, schedule=candidate)(A=tensor, B=tensor), expected)
