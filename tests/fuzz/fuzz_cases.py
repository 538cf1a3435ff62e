"""Cases of the differential fuzzer (tests/fuzz/fuzz.py, tests/fuzz/test_fuzz.py): what users write.

A case is a kernel (:class:`KernelSpec`: expression, layouts, share, find, loop order,
recipe or autoscheduled candidate, parallel) and a data set (:class:`DataSpec`: the
extent of each index, a density, a pattern per tensor and a seed).  Hypothesis
strategies draw them and :func:`generate` runs the strategies under a fixed seed, so a
seed names the same cases on every run.  Specs are plain frozen data: they cross to
worker processes and print as reproducers.

A loop order, recipe or candidate is drawn as a seed; :func:`plan_schedule` turns it
into a concrete plan against the iteration space's variables (in the worker, where a
refusal or an exception is classified like any other).  :func:`make_data` builds the
dense arrays and the packed inputs of a data set, and :func:`oracle` the expected
result with ``numpy.einsum`` (masked by the shared tensor's stored positions when the
output shares its sparsity).  A sparse output without ``share`` is assembled by spf
(:func:`assembled_output`); a ``convert`` case calls ``spf.convert`` instead of compiling,
and its data set also gives the entries the result must store (explicit zeros included).
One case in :data:`DAMAGED_CACHE_ONE_IN` also damages the kernel cache (``damage``):
its kernel is compiled into a cache of its own, whose libraries or metadata are then
truncated, emptied or overwritten, and checked by a new process on that cache.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

import spf
from spf.errors import AutoscheduleError
from spf.scheduling.autoscheduler.problem import make_problem
from spf.scheduling.autoscheduler.search import exhaustive

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the semiring reference, as pytest has it
import semiring_reference  # noqa: E402
from semiring_reference import IDENTITIES, reference  # noqa: E402


def define_user_semirings() -> None:
    """A monoid and an operator of the user's own C (spf.monoid, spf.operator), drawn like the
    built-in ones, and the same operations in Python for the reference."""
    def absmax(a, b):
        return np.where((np.abs(a) > np.abs(b)) | ((np.abs(a) == np.abs(b)) & (a > b)), a, b)
    spf.monoid("absmax", "fabs(a) > fabs(b) || (fabs(a) == fabs(b) && a > b) ? a : b",  # a tie to the larger
               identity=0.0, numpy=absmax)
    spf.operator("absdiff", "fabs(a - b)", numpy=lambda a, b: np.abs(a - b))
    semiring_reference.MONOIDS["absmax"] = lambda a, b: float(absmax(a, b))
    semiring_reference.OPERATORS["absdiff"] = lambda a, b: abs(a - b)
    IDENTITIES["absmax"] = 0.0


try:
    define_user_semirings()
    USER_SEMIRINGS = ("absmax_times", "min_absdiff", "absmax_absdiff")
except spf.SpfError:  # no working C compiler (the test of compile failures): none of the user's drawn
    USER_SEMIRINGS = ()

REPOSITORY = Path(__file__).resolve().parents[2]
USER_LAYOUTS = {  # user layout files (examples/layouts): the compiler must treat them as built-ins
    "CSR64": str(REPOSITORY / "examples" / "layouts" / "CSR64.layout"),
    "COO3_UNSORTED": str(REPOSITORY / "examples" / "layouts" / "COO3_UNSORTED.layout"),
    # float32 values (and int64 index arrays and counts): packed, converted, read and assembled into
    "CSR_F32": str(REPOSITORY / "examples" / "layouts" / "CSR_F32.layout"),
    "DCSR64_F32": str(REPOSITORY / "examples" / "layouts" / "DCSR64_F32.layout"),
    "CSF3_F32": str(REPOSITORY / "examples" / "layouts" / "CSF3_F32.layout"),
    "SV64_F32": str(REPOSITORY / "examples" / "layouts" / "SV64_F32.layout"),
    "Dense2_F32": str(REPOSITORY / "examples" / "layouts" / "Dense2_F32.layout"),
}

VECTORS = ("Dense", "SV", "SV_DEC", "SV_UNSORTED", "SV64_F32")
SPARSE_VECTORS = VECTORS[1:]
SPARSE_MATRICES = ("CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR", "LOWER_TRI", "DIA", "ELL",
                   "WARP24", "CSR64", "CSR_UNSORTED", "CSR_F32", "DCSR64_F32")
MATRICES = ("Dense", "Dense2_F32") + SPARSE_MATRICES
TENSORS3 = ("CSF3", "CSF3_DENSE_LAST", "COO3", "COO3_UNSORTED", "CSF3_F32", "Dense")
TENSORS4 = ("CSF4", "COO4", "Dense")
DENSE = ("Dense",)
# outputs whose pattern the kernel computes (assembled): every matrix layout the assembly
# builds, and ELL and WARP24 (padded fixed-width levels), which it must refuse with an SpfError
MATRIX_OUTPUTS = ("CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR", "DIA", "CSR64", "ELL", "WARP24",
                  "CSR_UNSORTED", "CSR_F32", "DCSR64_F32")
LOWER_OUTPUTS = MATRIX_OUTPUTS + ("LOWER_TRI",)  # where inputs restricted to their lower triangles give one
TENSOR3_OUTPUTS = ("CSF3", "COO3", "CSF3_DENSE_LAST", "COO3_UNSORTED", "CSF3_F32")
TENSOR4_OUTPUTS = ("CSF4", "COO4")

FINDS = ("auto", "auto", "auto", "seqiter", "binary", "hashmap", "bitmap", "linear", "direct")
RECIPE_TEMPLATES = ("seqiter", "binary", "hashmap", "bitmap", "linear")
COEFFICIENTS = (2, -1, 0.5, 2.5, -3)
# semirings drawn for a kernel with a dense or scalar output, one sharing an input's pattern, or an
# assembled output in a layout without padding
# (any_ with an operator other than pair keeps whichever product comes first, and so does any_pair
# with a term of one factor, whose values ⊗ never makes 1: no one result when a parallel assembly
# combines an entry's values in an order that varies between calls)
SEMIRINGS = ("min_plus", "max_plus", "max_times", "min_times", "lor_land", "any_pair", "plus_pair", "plus_first",
             "plus_second", "min_first", "max_second", "max_min", "min_max", "land_lor", "times_plus", "plus_minus",
             "lor_times", "plus_land") + USER_SEMIRINGS
SEMIRING_ONE_IN = 4  # of the kernels that may take one
# value types drawn for a kernel whose layouts are all generic (spf.notation.value_types): the data
# is of the type, so the kernel computes in it; integers without fractions, booleans without
# coefficients (numpy would compute 2 * True in int64)
VALUE_TYPES = ("float32", "int64", "int32", "bool", "complex128", "complex64")
VALUE_TYPE_ONE_IN = 4
# masks drawn for a kernel with a dense output of order 1 or 2 and the default schedule
# (spf.notation.masks): the mask tensor's name, its layouts per order, whether its values count
MASK_TENSOR = "Mk"
MASK_LAYOUTS = {1: ("Dense1", "SV", "SV_UNSORTED"), 2: ("Dense2", "CSR", "CSC", "DCSR", "COO", "COO_UNSORTED")}
MASK_VALUES = (None, True, False)
MASK_ONE_IN = 2
CACHE_DAMAGE = ("truncate", "empty", "garbage")  # what is done to each file (fuzz_harness.damage_cache)
CACHE_ENTRIES = ("libraries", "metadata")  # *.so; the kernels' pickles and the libraries' records
DAMAGED_CACHE_ONE_IN = 60  # cases whose kernel cache is damaged between two compiles


@dataclass(frozen=True)
class Family:
    """An expression users write, with the layouts each tensor may take.

    ``small``: indices that stay short in large data sets (the rank of a dense factor).
    ``share``: output -> input whose sparsity it uses (the output takes that input's layout).
    ``autoschedule``: compile a tree the autoscheduler generates (a candidate or one its
    later stages prune) instead of orders and recipes.
    ``convert``: no kernel: ``spf.convert`` of the input into the output's layout.
    ``product``: no fixed expression: a random product of 3 to 6 tensors (:func:`random_products`).
    ``same_layout``: output -> input whose layout it takes, without ``share``: spf infers the
    output's pattern from the input's levels (spf.space.patterns) where it can prove it.
    """

    name: str
    expression: str
    pools: dict
    share: tuple = ()
    small: tuple = ()
    autoschedule: bool = False
    convert: bool = False
    product: bool = False
    same_layout: tuple = ()


FAMILIES = (
    # SpMV / SpMSpV, and transposed accesses
    Family("spmv", "y(i) = A(i,j) * x(j)", {"A": MATRICES, "x": VECTORS, "y": DENSE}),
    Family("spmv", "y(i) = A(i,j) * x(j)", {"A": SPARSE_MATRICES, "x": VECTORS[1:], "y": DENSE}),
    Family("spmv-transposed", "y(j) = A(i,j) * x(i)", {"A": MATRICES, "x": VECTORS, "y": DENSE}),
    Family("spmv-transposed", "y(i) = A(j,i) * x(j)", {"A": MATRICES, "x": VECTORS, "y": DENSE}),
    # SpMSpM with a dense output, over layout pairs
    Family("spmspm", "C(i,j) = A(i,k) * B(k,j)", {"A": MATRICES, "B": MATRICES, "C": DENSE}),
    Family("spmspm", "C(i,j) = A(i,k) * B(k,j)", {"A": SPARSE_MATRICES, "B": SPARSE_MATRICES, "C": DENSE}),
    Family("spmspm-transposed", "C(i,j) = A(k,i) * B(k,j)", {"A": MATRICES, "B": MATRICES, "C": DENSE}),
    Family("spmspm-transposed", "C(i,j) = A(i,k) * B(j,k)", {"A": MATRICES, "B": MATRICES, "C": DENSE}),
    Family("spmm", "C(i,k) = A(i,j) * B(j,k)", {"A": SPARSE_MATRICES, "B": DENSE, "C": DENSE}, small=("k",)),
    # element-wise products and dot products
    Family("dot", "a = x(i) * y(i)", {"x": VECTORS, "y": VECTORS}),
    Family("dot3", "a = x(i) * y(i) * z(i)", {"x": VECTORS, "y": VECTORS, "z": VECTORS}),
    Family("dot3", "a = x(i) * y(i) * z(i)", {"x": ("SV",), "y": ("SV",), "z": ("SV",)}),
    Family("inner", "a = A(i,j) * B(i,j)", {"A": MATRICES, "B": MATRICES}),
    Family("inner-transposed", "a = A(i,j) * B(j,i)", {"A": MATRICES, "B": MATRICES}),
    Family("elementwise", "z(i) = x(i) * y(i)", {"x": VECTORS, "y": VECTORS, "z": DENSE}),
    Family("elementwise", "C(i,j) = A(i,j) * B(i,j)", {"A": MATRICES, "B": MATRICES, "C": DENSE}),
    Family("outer", "C(i,j) = x(i) * y(j)", {"x": VECTORS, "y": VECTORS, "C": DENSE}),
    # diagonals
    Family("diagonal", "a = A(i,i)", {"A": MATRICES}),
    Family("diagonal", "y(i) = A(i,i) * x(i)", {"A": MATRICES, "x": VECTORS, "y": DENSE}),
    Family("diagonal", "a = A(i,i) * x(i)", {"A": MATRICES, "x": VECTORS}),
    # sums of terms
    Family("sum", "y(i) = A(i,j) * x(j) + B(i,j) * x(j)", {"A": MATRICES, "B": MATRICES, "x": VECTORS, "y": DENSE}),
    Family("sum", "y(i) = A(i,j) * x(j) - 2 * B(i,j) * z(j)",
           {"A": MATRICES, "B": MATRICES, "x": VECTORS, "z": VECTORS, "y": DENSE}),
    Family("sum", "y(i) = A(i,j) * x(j) + z(i)", {"A": MATRICES, "x": VECTORS, "z": VECTORS, "y": DENSE}),
    Family("sum", "C(i,j) = A(i,j) + B(i,j)", {"A": MATRICES, "B": MATRICES, "C": DENSE}),
    Family("sum", "a = x(i) * y(i) + x(i) * z(i)", {"x": VECTORS, "y": VECTORS, "z": VECTORS}),
    # outputs that share an input's sparsity (SDDMM, masked products)
    Family("sddmm", "A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"B": SPARSE_MATRICES, "C": DENSE, "D": DENSE},
           share=(("A", "B"),), small=("k",)),
    Family("sddmm", "A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"B": SPARSE_MATRICES, "C": MATRICES, "D": MATRICES},
           share=(("A", "B"),)),
    Family("masked", "C(i,j) = M(i,j) * A(i,k) * B(k,j)", {"M": SPARSE_MATRICES, "A": MATRICES, "B": MATRICES},
           share=(("C", "M"),)),
    Family("masked", "A(i,j) = B(i,j) * C(i,j)", {"B": SPARSE_MATRICES, "C": MATRICES}, share=(("A", "B"),)),
    Family("masked", "A(i,j) = B(i,j) * x(j)", {"B": SPARSE_MATRICES, "x": VECTORS}, share=(("A", "B"),)),
    # outputs whose pattern spf infers (no share): a prefix of the one sparse input's levels
    Family("inferred-sddmm", "A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"B": SPARSE_MATRICES, "C": DENSE, "D": DENSE},
           small=("k",), same_layout=(("A", "B"),)),
    Family("inferred-scale", "A(i,j) = B(i,j) * C(i,j)", {"B": SPARSE_MATRICES, "C": DENSE},
           same_layout=(("A", "B"),)),
    Family("inferred-scale", "A(i,j) = B(i,j) * x(j) + B(i,j)", {"B": SPARSE_MATRICES, "x": DENSE},
           same_layout=(("A", "B"),)),
    Family("inferred-transpose", "B(j,i) = A(i,j)", {"A": ("CSR", "CSC"), "B": ("CSC", "CSR")}),
    Family("inferred-rowsum", "y(i) = A(i,j) * x(j)", {"A": ("DCSR",), "x": DENSE, "y": ("SV",)}),
    Family("inferred-ttv", "A(i,j) = B(i,j,k) * c(k)", {"B": ("CSF3", "CSF3_DENSE_LAST"), "c": DENSE,
                                                          "A": ("DCSR",)}),
    Family("inferred-ttv", "A(i,j,k) = B(i,j,k,l) * c(l)", {"B": ("CSF4",), "c": DENSE, "A": ("CSF3",)}),
    Family("inferred-ttm", "A(i,j,l) = B(i,j,k) * C(k,l)", {"B": ("CSF3",), "C": DENSE,
                                                              "A": ("CSF3_DENSE_LAST",)}, small=("l",)),
    # order-3 and order-4 tensors: TTV, TTM, MTTKRP, inner products, TTTP
    Family("ttv", "A(i,j) = B(i,j,k) * c(k)", {"B": TENSORS3, "c": VECTORS, "A": DENSE}),
    Family("ttv", "A(i,k) = B(i,j,k) * c(j)", {"B": TENSORS3, "c": VECTORS, "A": DENSE}),
    Family("ttm", "A(i,j,l) = B(i,j,k) * C(k,l)", {"B": TENSORS3, "C": MATRICES, "A": DENSE}, small=("l",)),
    Family("mttkrp", "A(i,a) = B(i,j,k) * C(j,a) * D(k,a)", {"B": TENSORS3, "C": DENSE, "D": DENSE, "A": DENSE},
           small=("a",)),
    Family("inner3", "a = B(i,j,k) * C(i,j,k)", {"B": TENSORS3, "C": TENSORS3}),
    Family("tttp", "S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)", {"T": ("CSF3", "CSF3_DENSE_LAST", "COO3",
           "COO3_UNSORTED"), "U": DENSE, "V": DENSE, "W": DENSE}, share=(("S", "T"),), small=("r",)),
    Family("ttv4", "A(i,j,k) = B(i,j,k,l) * c(l)", {"B": TENSORS4, "c": VECTORS, "A": DENSE}),
    Family("inner4", "a = B(i,j,k,l) * C(i,j,k,l)", {"B": TENSORS4, "C": TENSORS4}),
    # outputs whose pattern the kernel computes (no share): the loop nests append the entries, the
    # output layout's builder assembles them (products, unions, transposes, copies, mode permutations)
    Family("assembled-spgemm", "C(i,j) = A(i,k) * B(k,j)", {"A": MATRICES, "B": MATRICES, "C": LOWER_OUTPUTS}),
    Family("assembled-spgemm", "C(i,j) = A(i,k) * B(k,j)",
           {"A": ("CSR", "CSC", "DCSR", "COO"), "B": ("CSR", "CSC", "DCSC", "COO_UNSORTED"), "C": MATRIX_OUTPUTS}),
    Family("assembled-spgemm-abt", "C(i,j) = A(i,k) * B(j,k)", {"A": MATRICES, "B": MATRICES, "C": MATRIX_OUTPUTS}),
    Family("assembled-sum", "C(i,j) = A(i,j) + B(i,j)", {"A": MATRICES, "B": MATRICES, "C": LOWER_OUTPUTS}),
    Family("assembled-sum", "C(i,j) = A(i,j) - 2 * B(i,j) + D(i,j)",
           {"A": MATRICES, "B": MATRICES, "D": MATRICES, "C": LOWER_OUTPUTS}),
    Family("assembled-sum", "C(i,j) = A(i,k) * B(k,j) + D(i,j)",
           {"A": MATRICES, "B": MATRICES, "D": MATRICES, "C": LOWER_OUTPUTS}),
    Family("assembled-sum", "z(i) = x(i) + y(i)", {"x": VECTORS, "y": VECTORS, "z": SPARSE_VECTORS}),
    Family("assembled-sum", "C(i,j,k) = A(i,j,k) + B(i,j,k)", {"A": TENSORS3, "B": TENSORS3, "C": TENSOR3_OUTPUTS}),
    Family("assembled-elementwise", "C(i,j) = A(i,j) * B(i,j)", {"A": MATRICES, "B": MATRICES, "C": LOWER_OUTPUTS}),
    Family("assembled-elementwise", "z(i) = x(i) * y(i)", {"x": VECTORS, "y": VECTORS, "z": SPARSE_VECTORS}),
    Family("assembled-spmv", "y(i) = A(i,j) * x(j)", {"A": MATRICES, "x": VECTORS, "y": SPARSE_VECTORS}),
    Family("assembled-spmv", "y(i) = A(i,j) * x(j) + z(i)",
           {"A": MATRICES, "x": VECTORS, "z": VECTORS, "y": SPARSE_VECTORS}),
    Family("assembled-transpose", "B(j,i) = A(i,j)", {"A": MATRICES, "B": MATRIX_OUTPUTS}),
    Family("assembled-copy", "B(i,j) = A(i,j)", {"A": MATRICES, "B": LOWER_OUTPUTS}),
    Family("assembled-copy3", "B(i,j,k) = A(i,j,k)", {"A": TENSORS3, "B": TENSOR3_OUTPUTS}),
    Family("assembled-copy3", "B(k,i,j) = A(i,j,k)", {"A": TENSORS3, "B": TENSOR3_OUTPUTS}),
    Family("assembled-copy3", "B(j,i,k) = A(i,j,k)", {"A": TENSORS3, "B": TENSOR3_OUTPUTS}),
    Family("assembled-copy4", "B(i,j,k,l) = A(i,j,k,l)", {"A": TENSORS4, "B": TENSOR4_OUTPUTS}),
    Family("assembled-copy4", "B(l,j,i,k) = A(i,j,k,l)", {"A": TENSORS4, "B": TENSOR4_OUTPUTS}),
    Family("assembled-ttv", "A(i,j) = B(i,j,k) * c(k)", {"B": TENSORS3, "c": VECTORS, "A": MATRIX_OUTPUTS}),
    Family("assembled-ttm", "A(i,j,l) = B(i,j,k) * C(k,l)",
           {"B": TENSORS3, "C": MATRICES, "A": ("CSF3_DENSE_LAST", "CSF3_DENSE_LAST", "CSF3", "COO3", "CSF3_F32")}, small=("l",)),
    # spf.convert between layouts (explicit zeros kept where neither layout is padded)
    Family("convert", "B(i,j) = A(i,j)", {"A": MATRICES, "B": LOWER_OUTPUTS + DENSE},
           convert=True),
    Family("convert", "B(i,j) = A(i,j)", {"A": MATRICES, "B": LOWER_OUTPUTS}, convert=True),
    Family("convert", "y(i) = x(i)", {"x": VECTORS, "y": VECTORS}, convert=True),
    Family("convert", "B(i,j,k) = A(i,j,k)", {"A": TENSORS3, "B": TENSORS3}, convert=True),
    Family("convert", "B(i,j,k,l) = A(i,j,k,l)", {"A": TENSORS4, "B": TENSORS4}, convert=True),
    # autoscheduled fused kernels (SparseAuto's kernels; several sparse operands co-iterated by finds)
    Family("fused-K1", "A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)",
           {"B": ("CSR", "DCSR", "COO", "CSC", "CSR_F32"), "C": DENSE, "D": DENSE, "E": DENSE, "A": DENSE},
           small=("k", "l"), autoschedule=True),
    Family("fused-K3", "A(i,l) = B(i,j) * C(j,k) * D(j,k) * E(j,l)",
           {"B": ("CSR", "DCSR"), "C": DENSE, "D": DENSE, "E": DENSE, "A": DENSE}, small=("k", "l"),
           autoschedule=True),
    Family("fused-K4", "A(i,l) = B(i,j) * C(j,k) * D(k,l)",
           {"B": ("CSR", "DCSR", "CSC"), "C": ("Dense", "CSR", "DCSR"), "D": DENSE, "A": DENSE}, small=("l",),
           autoschedule=True),
    Family("fused-MTTKRP", "A(i,a) = B(i,j,k) * C(j,a) * D(k,a)",
           {"B": ("CSF3", "CSF3_DENSE_LAST"), "C": DENSE, "D": DENSE, "A": DENSE}, small=("a",),
           autoschedule=True),
    Family("fused-TTMc", "S(i,r,s) = T(i,j,k) * U(j,r) * V(k,s)",
           {"T": ("CSF3",), "U": DENSE, "V": DENSE, "S": DENSE}, small=("r", "s"), autoschedule=True),
    Family("fused-TTMc4", "S(i,r,s,t) = T(i,j,k,l) * U(j,r) * V(k,s) * W(l,t)",
           {"T": ("CSF4",), "U": DENSE, "V": DENSE, "W": DENSE, "S": DENSE}, small=("r", "s", "t"),
           autoschedule=True),
    Family("fused-TTTP", "S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)",
           {"T": ("CSF3",), "U": DENSE, "V": DENSE, "W": DENSE}, share=(("S", "T"),), small=("r",),
           autoschedule=True),
    Family("fused-TTTP", "S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)",  # S's pattern inferred
           {"T": ("CSF3",), "U": DENSE, "V": DENSE, "W": DENSE}, small=("r",), autoschedule=True,
           same_layout=(("S", "T"),)),
    Family("fused-SpMSpV-chain", "y(i) = A(i,j) * B(j,k) * x(k)",
           {"A": ("CSR", "DCSR"), "B": ("CSR", "CSC", "Dense"), "x": ("Dense",), "y": DENSE}, autoschedule=True),
    # several sparse operands (CoNST's chain), a sparse tensor through a chain of dense factors
    # (SpTTN's TTTc, order 4 here: the order-6 search takes half a minute), and random products: fused loops over the levels of several sparse
    # operands, dense fused indices outside sparse ones, unfused branches under fused loops
    Family("fused-CHAIN", "R(i,j,k) = A(i,p,q) * B(j,p,r) * C(k,q,r) * D(j,k,r)",
           {"A": ("CSF3", "CSF3_DENSE_LAST"), "B": ("CSF3",), "C": ("CSF3", "CSF3_DENSE_LAST", "Dense"),
            "D": ("CSF3", "Dense"), "R": DENSE}, small=("p", "q", "r"), autoschedule=True),
    Family("fused-TTTc", "Z(c,l) = T(i,j,k,l) * A(i,a) * B(a,j,b) * C(b,k,c)",
           {"T": ("CSF4",), "A": DENSE, "B": DENSE, "C": DENSE, "Z": DENSE}, small=("a", "b", "c"),
           autoschedule=True),
    Family("fused-product", "", {}, autoschedule=True, product=True),
    Family("fused-product", "", {}, autoschedule=True, product=True),
)
FAMILY = {f.name: f for f in FAMILIES}


@dataclass(frozen=True)
class KernelSpec:
    """Everything ``spf.compile`` is given, with the schedule as a kind and a seed.

    ``schedule``: "default", "order" (a permutation of the variables), "recipe" or
    "autoschedule" (one candidate).  ``plan``: the concrete order, recipe steps or
    candidate index once known (:func:`plan_schedule`); a minimized case sets it.
    ``convert``: no kernel is compiled: ``spf.convert`` stores the input in the output's layout.
    ``damage``: ``(how, entries)`` (:data:`CACHE_DAMAGE`, :data:`CACHE_ENTRIES`): the kernel is
    compiled in a new process into a cache of its own, that cache damaged, and the case
    checked in another new process on it (``fuzz_harness.check_damaged_cache``).
    ``semiring``: what + and * mean (:data:`SEMIRINGS`; the oracle is then
    tests/semiring_reference.py over the packed inputs' stored entries).
    ``value_type``: the inputs' values' type (:data:`VALUE_TYPES`), hence the kernel's.
    ``mask``: ``(mask=, mask_values=)`` of ``spf.compile`` (the mask tensor :data:`MASK_TENSOR`,
    its layout among ``layouts``), or ().
    """

    family: str
    expression: str
    layouts: tuple
    share: tuple = ()
    find: str = "auto"
    parallel: bool = False
    schedule: str = "default"
    schedule_seed: int = 0
    plan: tuple | None = None
    small: tuple = ()
    convert: bool = False
    damage: tuple = ()
    semiring: str = "plus_times"
    value_type: str = "float64"
    mask: tuple = ()

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(self.value_type)

    @property
    def layout_map(self) -> dict:
        return dict(self.layouts)

    @property
    def share_map(self) -> dict | None:
        return dict(self.share) or None


@dataclass(frozen=True)
class DataSpec:
    """One data set: ``extents`` index -> extent; ``patterns`` tensor -> "zero", "one",
    "full", "holes" (random with empty rows and columns), "zeros" (random, a third of the
    stored entries explicit zeros) or "cancel" (:func:`cancellable`: at random positions,
    the values that make the terms before it sum to zero), else random at ``density``."""

    extents: tuple
    density: float
    seed: int
    patterns: tuple = ()
    integers: bool = False

    @property
    def extent_map(self) -> dict:
        return dict(self.extents)


@dataclass(frozen=True)
class Case:
    kernel: KernelSpec
    data: tuple  # of DataSpec


# ----------------------------------------------------------------------------- strategies


def is_dense(layout: str) -> bool:
    """Whether a layout spec names the Dense family or one of its members (a kernel's dense output is an array)."""
    return layout == "Dense" or (layout.startswith("Dense") and layout[5:].isdigit())


def inferred_source(kernel: KernelSpec) -> str | None:
    """The input whose leading levels spf proves hold the output's pattern (spf.space.patterns),
    when a kernel without ``share`` compiled through spf.compile has one: its output is then
    that input's pattern, as with ``share``, not assembled (not under a semiring: its entries
    are where products reach, which the pattern may exceed)."""
    if kernel.convert or kernel.share or kernel.semiring != "plus_times":
        return None
    try:
        if kernel.schedule == "autoschedule":  # the autoscheduler infers it too
            problem = make_problem(kernel.expression, kernel.layout_map)
            return problem.share.get(problem.output)
        space = spf.iteration_space(kernel.expression, kernel.layout_map, infer_pattern=True)
    except spf.SpfError:
        return None
    placement = space.statements[0].placements.get(space.expression.output.tensor)
    return placement.shared_with if placement is not None and placement.inferred else None


def assembled_output(kernel: KernelSpec) -> tuple[str, str] | None:
    """(output, layout spec) when the result is a Tensor whose pattern spf computes: a sparse
    output without ``share`` (assembled by the kernel, unless its pattern is inferred), or any
    target of ``spf.convert``."""
    statement = spf.parse_statement(kernel.expression)
    output = statement.output.tensor
    layout = kernel.layout_map.get(output)
    if kernel.convert:
        return output, layout
    if layout is None or is_dense(layout) or output in dict(kernel.share) or inferred_source(kernel):
        return None
    return output, layout


def cancellable(kernel: KernelSpec) -> list[str]:
    """Inputs whose values can cancel the terms before theirs (B in ``C = A + B``, D in
    ``C = A*B + D``): the single factor of a term after the first, read once, over a
    permutation of the output's indices; every tensor of the earlier terms is drawn first."""
    if kernel.convert:
        return []
    statement, _ = accesses(kernel.expression)
    indices = statement.output.indices
    reads = [f.tensor for term in statement.terms for f in term.factors]
    found = []
    for term in statement.terms[1:]:
        if len(term.factors) == 1:
            factor = term.factors[0]
            if reads.count(factor.tensor) == 1 and sorted(factor.indices) == sorted(indices) \
                    and len(set(indices)) == len(indices):
                found.append(factor.tensor)
    return found


def layout_spec(name: str, rows: int = 2, columns: int = 2) -> str:
    """The spec of a pool entry: parameters bound, user layouts as paths."""
    if name == "BCSR":
        return f"BCSR(R={rows}, C={columns})"
    return USER_LAYOUTS.get(name, name)


def accesses(expression: str) -> tuple[spf.Statement, dict]:
    """The parsed statement and, per input tensor, its first access's indices."""
    statement = spf.parse_statement(expression)
    inputs: dict[str, tuple[str, ...]] = {}
    for term in statement.terms:
        for factor in term.factors:
            inputs.setdefault(factor.tensor, factor.indices)
    return statement, inputs


PRODUCT_LAYOUTS = {1: ("SV", "SV_UNSORTED", "SV_DEC", "SV64_F32"),
                   2: ("CSR", "CSC", "DCSR", "DCSC", "CSR_UNSORTED", "CSR64", "CSR_F32", "DCSR64_F32"),
                   3: ("CSF3", "CSF3_DENSE_LAST", "CSF3_F32")}  # one coordinate per level: what the autoscheduler takes


@st.composite
def random_products(draw) -> Family:
    """``Z(...) = A(...) * B(...) * ...``: 3 to 6 tensors of order 1 to 3 over 3 to 6
    indices, the first 1 to 3 sparse, into a dense output over 1 to 3 of the indices."""
    names = "ABCDEF"[:draw(st.integers(3, 6))]
    sparse = draw(st.integers(1, min(3, len(names))))
    pool = draw(st.permutations("ijklmn"))[:draw(st.integers(3, 6))]
    accesses_, layouts = [], {}
    for position, name in enumerate(names):
        indices = draw(st.permutations(pool))[:draw(st.integers(1, 3))]
        accesses_.append(f"{name}({','.join(indices)})")
        layouts[name] = (draw(st.sampled_from(PRODUCT_LAYOUTS[len(indices)])),) if position < sparse else DENSE
    used = list(dict.fromkeys(i for a in accesses_ for i in a[2:-1].split(",")))
    output = draw(st.permutations(used))[:draw(st.integers(1, min(3, len(used))))]
    layouts["Z"] = DENSE
    return Family("fused-product", f"Z({','.join(output)}) = {' * '.join(accesses_)}", layouts,
                  small=tuple(used), autoschedule=True)


@st.composite
def kernel_specs(draw) -> KernelSpec:
    family = draw(st.sampled_from(FAMILIES))
    if family.product:
        family = draw(random_products())
    statement, inputs = accesses(family.expression)
    orders = {**{tensor: len(indices) for tensor, indices in inputs.items()},
              statement.output.tensor: len(statement.output.indices)}
    layouts = {}
    for tensor, pool in family.pools.items():
        name = draw(st.sampled_from(pool))
        if name == "Dense" and draw(st.booleans()):
            name = f"Dense{orders[tensor]}"  # the family's member, named
        block = (draw(st.integers(1, 4)), draw(st.integers(1, 4))) if name == "BCSR" else (2, 2)
        layouts[tensor] = layout_spec(name, *block)
    for output, source in family.share + family.same_layout:
        layouts[output] = layouts[source]
    expression = family.expression
    if family.convert:
        return KernelSpec(family=family.name, expression=expression, layouts=tuple(layouts.items()), convert=True)
    if not family.autoschedule:
        if draw(st.integers(0, 6)) == 0:
            coefficient = draw(st.sampled_from(COEFFICIENTS))
            left, right = expression.split(" = ", 1)
            expression = f"{left} = -{right}" if coefficient == -1 else f"{left} = {coefficient} * {right}"
        if draw(st.integers(0, 9)) == 0:
            expression = expression.replace(" = ", " += ", 1)
    parsed = spf.parse_statement(expression)
    single_term = len(parsed.terms) == 1
    semiring = "plus_times"
    output_layout = layouts.get(parsed.output.tensor)
    if not family.autoschedule and all(term.coefficient == 1 for term in parsed.terms) \
            and (output_layout is None or output_layout.startswith("Dense") or family.share
                 or not is_padded(output_layout, len(parsed.output.indices))) \
            and draw(st.integers(1, SEMIRING_ONE_IN)) == 1:
        semiring = draw(st.sampled_from(SEMIRINGS))
        if semiring.startswith("any_") and any(len(term.factors) == 1 for term in parsed.terms):
            semiring = "plus_pair"  # a term of one factor reduces its own values under any: no one result
    if family.autoschedule:
        schedule = "autoschedule"
    elif single_term:
        schedule = draw(st.sampled_from(("default", "default", "order", "recipe", "recipe")))
    else:
        schedule = "default"
    kernel = KernelSpec(family=family.name, expression=expression, layouts=tuple(layouts.items()),
                        share=family.share, find=draw(st.sampled_from(FINDS)), parallel=draw(st.booleans()),
                        schedule=schedule, schedule_seed=draw(st.integers(0, 2**31 - 1)), small=family.small,
                        semiring=semiring)
    types = value_types_for(kernel, parsed)
    if types and draw(st.integers(1, VALUE_TYPE_ONE_IN)) == 1:  # drawn last: the draws before it are as they were
        kernel = replace(kernel, value_type=draw(st.sampled_from(types)))
    order = len(parsed.output.indices)
    if schedule == "default" and not family.share and order in MASK_LAYOUTS and is_dense(output_layout or "Dense") \
            and draw(st.integers(1, MASK_ONE_IN)) == 1:  # after the value type: earlier draws are as they were
        text = ("~" if draw(st.booleans()) else "") + MASK_TENSOR
        layout = draw(st.sampled_from(MASK_LAYOUTS[order]))
        kernel = replace(kernel, layouts=kernel.layouts + ((MASK_TENSOR, layout),),
                         mask=(text, draw(st.sampled_from(MASK_VALUES))))
    return kernel


def result_value_type(kernel: KernelSpec) -> str:
    """The type of the result's values: numpy's result type of the inputs' (a generic layout's
    are the drawn value type, a declared one's its own), which a generic output takes."""
    _, inputs = accesses(kernel.expression)
    types = []
    for tensor, indices in inputs.items():
        loaded = spf.load_layout(kernel.layout_map[tensor])
        loaded = loaded.resolve(len(indices)) if hasattr(loaded, "resolve") else loaded
        types.append(kernel.dtype if loaded.unspecialised else loaded.value_type.dtype)
    return np.result_type(*types).name


def value_types_for(kernel: KernelSpec, parsed) -> tuple[str, ...]:
    """The value types other than float64 the kernel may compute in: none unless every layout
    is generic (a layout declaring float64 or float32 would refuse or widen the data)."""
    if kernel.schedule != "default" or kernel.convert:  # a schedule names its layouts: refused with a value type
        return ()
    for layout in kernel.layout_map.values():
        loaded = spf.load_layout(layout)
        if not (hasattr(loaded, "resolve") or loaded.generic):
            return ()
    coefficients = [term.coefficient for term in parsed.terms]
    types = ["float32"]
    if all(c == int(c) for c in coefficients):
        types += ["int64", "int32"]
    if all(c == 1 for c in coefficients) and not kernel.semiring.endswith("_minus"):
        types.append("bool")
    if kernel.semiring == "plus_times" and assembled_output(kernel) is None:  # no ordered ⊕, no builder (real)
        types += ["complex128", "complex64"]
    return tuple(types)


def index_classes(kernel: KernelSpec) -> list[list[str]]:
    """Indices that must have equal extents: LOWER_TRI is square, a shared output has its source's shape."""
    statement, inputs = accesses(kernel.expression)
    indices = list(dict.fromkeys([i for ind in inputs.values() for i in ind] + list(statement.output.indices)))
    parent = {i: i for i in indices}

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i

    layouts = kernel.layout_map
    output = statement.output
    for tensor, ind in list(inputs.items()) + [(output.tensor, output.indices)]:
        if layouts.get(tensor) == "LOWER_TRI" and len(set(ind)) == 2 and root(ind[0]) != root(ind[1]):
            parent[root(ind[1])] = root(ind[0])
    for output, source in kernel.share:
        for a, b in zip(statement.output.indices, inputs[source]):
            if root(a) != root(b):
                parent[root(b)] = root(a)
    classes: dict[str, list[str]] = {}
    for i in indices:
        classes.setdefault(root(i), []).append(i)
    return list(classes.values())


SIZES = {"tiny": (0, 3), "small": (1, 12), "medium": (13, 40)}
DENSITIES = {"tiny": (0.0, 0.2, 0.5, 1.0), "small": (0.0, 0.1, 0.3, 0.6, 1.0), "medium": (0.02, 0.1, 0.3)}


def _large_ranges(kernel: KernelSpec) -> tuple[dict, tuple]:
    """Extent ranges of a data set spanning several OpenMP chunks (schedule(dynamic,32) needs
    more than 64 outer iterations), kept small enough for dense operands and the oracle."""
    statement, inputs = accesses(kernel.expression)
    order = max(len(ind) for ind in inputs.values())
    # a loop nest over every index (a kernel that searches linearly inside it) stays near 4e6 iterations
    wide_indices = len({i for ind in inputs.values() for i in ind} - set(kernel.small))
    wide = (96, 320) if wide_indices <= 2 else (96, 160)
    big, other, densities = {2: (wide, wide, (0.01, 0.04, 0.12)),
                             1: (wide, wide, (0.01, 0.04, 0.12)),
                             3: ((72, 160), (6, 24), (0.02, 0.08)),
                             4: ((64, 100), (4, 10), (0.02, 0.08))}[order]
    ranges = {}
    for tensor, ind in inputs.items():
        for position, index in enumerate(ind):
            wide = order <= 2 or (len(ind) == order and position == 0)
            ranges.setdefault(index, big if wide else other)
    for index in kernel.small:
        ranges[index] = (2, 16) if order <= 2 else (2, 8)
    return ranges, densities


HUGE = (1_100_000, 1_400_000)  # beyond the builders' counting sort (a key range over 2**20 + the entries)


def _huge_ranges(kernel: KernelSpec, draw) -> tuple[dict, tuple]:
    """Extent ranges with one index class (drawn) of a million and more, so a builder whose
    first key runs over it merge-sorts; every other index 1 to 3 (1 beside tensors of order
    3 or more) so no dense array grows past a few million elements.  ({}, ()) where no
    class fits: one a tensor reads twice (LOWER_TRI, A(i,i)), a DIA tensor (a diagonal
    per entry, each as long as the rows), or a random loop order (a dense loop over the
    index around another that grows with it, such as WARP24's groups, runs for hours at
    a quarter of the extent too: a hang that is only the data's)."""
    statement, inputs = accesses(kernel.expression)
    tensors = list(inputs.values()) + [statement.output.indices]
    classes = [c for c in index_classes(kernel) if all(sum(i in c for i in ind) <= 1 for ind in tensors)]
    if not classes or kernel.schedule == "order" or any(layout == "DIA" for _, layout in kernel.layouts):
        return {}, ()
    huge = draw(st.sampled_from(classes))
    other = (1, 3) if max(len(ind) for ind in tensors) <= 2 else (1, 1)
    ranges = {i: HUGE if i in huge else other for members in index_classes(kernel) for i in members}
    return ranges, (2e-5, 1e-4, 1e-3)


@st.composite
def data_specs(draw, kernel: KernelSpec) -> DataSpec:
    parallel = kernel.parallel or (kernel.schedule in ("recipe", "autoschedule"))
    size = draw(st.sampled_from(("large", "large", "large", "small", "tiny", "medium") if parallel
                                else ("tiny", "small", "small", "small", "medium", "large", "huge")))
    if size == "huge":
        ranges, densities = _huge_ranges(kernel, draw)
        size = size if ranges else "small"
    if size == "large":
        ranges, densities = _large_ranges(kernel)
    elif size != "huge":
        ranges, densities = {}, DENSITIES[size]
    extents = {}
    for members in index_classes(kernel):
        low, high = ranges.get(members[0], SIZES.get(size, (1, 12)))
        if size != "large" and members[0] in kernel.small:
            low, high = min(low, 2), min(high, 6)
        extent = draw(st.integers(low, high))
        extents.update((i, extent) for i in members)
    _, inputs = accesses(kernel.expression)
    patterns = []
    cancelling = cancellable(kernel)
    for tensor in inputs:
        pattern = draw(st.sampled_from(("random",) * 6 + ("holes", "holes", "zero", "one", "full", "zeros", "zeros")
                                       + ("cancel",) * (3 if tensor in cancelling else 0)))
        if size in ("large", "huge") and pattern == "full":  # keep large data sparse
            pattern = "holes"
        if pattern != "random":
            patterns.append((tensor, pattern))
    return DataSpec(extents=tuple(sorted(extents.items())), density=draw(st.sampled_from(densities)),
                    seed=draw(st.integers(0, 2**31 - 1)), patterns=tuple(patterns),
                    integers=draw(st.integers(0, 4)) == 0)


@st.composite
def cases(draw, data_per_kernel: int) -> Case:
    kernel = draw(kernel_specs())
    data = tuple(draw(data_specs(kernel)) for _ in range(data_per_kernel))
    if draw(st.integers(1, DAMAGED_CACHE_ONE_IN)) == 1:  # drawn last: the draws before it are as they were
        kernel = replace(kernel, damage=(draw(st.sampled_from(CACHE_DAMAGE)), draw(st.sampled_from(CACHE_ENTRIES))))
    return Case(kernel, data)


def generate(count: int, seed_value: int, data_per_kernel: int) -> list[Case]:
    """``count`` cases: case n is drawn by the strategies from ``Random((seed_value, n))``,
    so a seed names the same list on every run and a case does not depend on the others.

    Hypothesis's own runner (``@given``) mutates earlier examples and returned a few
    families and kernels many times over; a fresh seeded source per case keeps the draws
    independent.  ``ConjectureData`` is Hypothesis's internal draw API (the one ``@given``
    uses underneath).
    """
    from hypothesis.internal.conjecture import providers
    from hypothesis.internal.conjecture.data import ConjectureData
    strategy = cases(data_per_kernel)
    # Hypothesis also draws literals of the local modules loaded (spf's, the tests'): an
    # edit of spf would change the cases a seed names.  Without them it names the same.
    local_constants = providers._get_local_constants
    providers._get_local_constants = providers.Constants
    try:
        return [ConjectureData(random=random.Random(f"{seed_value}:{n}")).draw(strategy) for n in range(count)]
    finally:
        providers._get_local_constants = local_constants


# ----------------------------------------------------------------------------- schedules


def _random_order(rng: random.Random, statement_space) -> tuple[str, ...]:
    """A permutation of the variables; half the time each tensor's positions keep their
    storage order (a level cannot be scanned before the one above it), so more orders scan."""
    order = list(statement_space.variables)
    rng.shuffle(order)
    if rng.random() < 0.5:
        for placement in statement_space.placements.values():
            physical = [p for p in placement.physical if p in order]
            slots = sorted(order.index(p) for p in physical)
            for slot, variable in zip(slots, physical):
                order[slot] = variable
    return tuple(order)


def plan_schedule(kernel: KernelSpec) -> tuple:
    """The concrete schedule of a kernel: ``()`` (default), ``("order", variables)``,
    ``("recipe", steps)`` or ``("candidate", index, text)``.  Deterministic in the spec."""
    if kernel.plan is not None:
        return kernel.plan
    rng = random.Random(kernel.schedule_seed)
    if kernel.schedule == "default":
        return ()
    if kernel.schedule == "autoschedule":
        # half the time a candidate (what select() may pick), else any tree the search
        # generated: a tree its later stages prune today may be picked tomorrow
        result = autoschedule(kernel)
        draw = rng.random()
        if draw < 0.4:
            index = rng.randrange(len(result.candidates))
            return ("candidate", index, str(result.candidates[index].schedule))
        if draw < 0.7:
            # a tree as a user writes it (spf.schedule): any of the whole space, where it is small
            written = written_trees(kernel)
            if written:
                return ("written", str(written[rng.randrange(len(written))]))
        index = rng.randrange(len(result.generated))
        return ("tree", index, str(result.generated[index].schedule))
    space = spf.iteration_space(kernel.expression, kernel.layout_map, share=kernel.share_map,
                               infer_pattern=True)  # as spf.compile builds it
    statement_space = space.statements[0]
    if kernel.schedule == "order":
        return ("order", _random_order(rng, statement_space))
    steps = []
    variables = list(statement_space.variables)
    physical = [p for placement in statement_space.placements.values() for p in placement.physical]
    if rng.random() < 0.5:
        steps.append(("permute", _random_order(rng, statement_space)))
    _, inputs = accesses(kernel.expression)
    for tensor in inputs:
        if rng.random() < 0.3:
            steps.append(("find", tensor, rng.choice(RECIPE_TEMPLATES)))
    if rng.random() < 0.4:
        variable = rng.choice(physical if rng.random() < 0.8 else variables)
        steps.append(("tile", variable, rng.choice((1, 2, 3, 4, 8, 32, 64))))
        variables.insert(variables.index(variable), f"{variable}_tile")
        physical.append(f"{variable}_tile")
    if rng.random() < 0.75:
        order = [v for v in (steps[0][1] if steps and steps[0][0] == "permute" else variables)]
        for tiled in (s[1] for s in steps if s[0] == "tile"):
            order.insert(order.index(tiled), f"{tiled}_tile")
        outer = next(v for v in order if v in physical)  # the outermost loop, usually
        variable = outer if rng.random() < 0.6 else rng.choice(physical if rng.random() < 0.8 else variables)
        reduction = rng.choice((None, None, "privatize", "atomic"))
        if kernel.semiring != "plus_times" and spf.parse_statement(kernel.expression).output.indices:
            reduction = None  # copies and atomics add: a semiring refuses them
        steps.append(("parallelize", variable, reduction, rng.choice(("dynamic,32",) * 4 + ("static", "guided,4"))))
    return ("recipe", tuple(steps))


def apply_recipe(kernel: KernelSpec, steps) -> spf.Recipe:
    recipe = spf.recipe(kernel.expression, kernel.layout_map, share=kernel.share_map)
    for step in steps:
        if step[0] == "permute":
            recipe = recipe.permute(*step[1])
        elif step[0] == "find":
            recipe = recipe.find(step[1], step[2])
        elif step[0] == "tile":
            recipe = recipe.tile(step[1], step[2])
        else:
            recipe = recipe.parallelize(step[1], reduction=step[2], schedule=step[3])
    return recipe


def compile_options(kernel: KernelSpec, plan: tuple) -> dict:
    """The keyword arguments of ``spf.compile`` for this kernel and plan."""
    options = {"find": kernel.find, "parallel": kernel.parallel}
    if kernel.semiring != "plus_times":
        options["semiring"] = kernel.semiring
    if kernel.mask:
        options["mask"], options["mask_values"] = kernel.mask
    if kernel.share:
        options["share"] = kernel.share_map
    if plan and plan[0] == "order":
        options["order"] = list(plan[1])
    elif plan and plan[0] == "recipe":
        options["schedule"] = apply_recipe(kernel, plan[1])
    elif plan and plan[0] in ("candidate", "tree"):
        result = autoschedule(kernel)
        options["schedule"] = (result.candidates if plan[0] == "candidate" else result.generated)[plan[1]]
    elif plan and plan[0] == "written":
        options["schedule"] = spf.schedule(plan[1], kernel.expression, kernel.layout_map, share=kernel.share_map)
    return options


WRITTEN_LIMIT = 3000  # trees: larger spaces are not enumerated for hand-written draws


def written_trees(kernel: KernelSpec) -> list:
    """Every tree of the kernel's space (the exhaustive enumeration), or [] when it passes
    :data:`WRITTEN_LIMIT`."""
    key = ("written", kernel.expression, kernel.layouts, kernel.share)
    if key not in _searches:
        problem = autoschedule(kernel).problem
        try:
            _searches[key] = exhaustive(problem, limit=WRITTEN_LIMIT)
        except AutoscheduleError:
            _searches[key] = []
    return _searches[key]


_searches: dict = {}


def autoschedule(kernel: KernelSpec) -> spf.AutoSchedule:
    """The autoscheduler's result for the kernel, searched once per process."""
    key = (kernel.expression, kernel.layouts, kernel.share)
    if key not in _searches:
        _searches.clear()  # a worker draws one kernel after another: keep the last (and its trees)
        _searches[key] = spf.autoschedule(kernel.expression, kernel.layout_map, share=kernel.share_map,
                                          progress=lambda line: None)
    return _searches[key]


# ----------------------------------------------------------------------------- data


def _values(rng: np.random.Generator, count: int, integers: bool) -> np.ndarray:
    """Non-zero values: integers in +-[1, 3] (exact sums), else magnitudes in [0.5, 2)."""
    signs = rng.choice((-1.0, 1.0), size=count)
    if integers:
        return signs * rng.integers(1, 4, size=count)
    return signs * rng.uniform(0.5, 2.0, size=count)


def _thin_two_of_four(array: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """At most two non-zeros in each aligned group of four columns of each row (WARP24)."""
    rows, columns = array.shape
    for group in range(0, columns, 4):
        block = array[:, group:group + 4]
        for row in np.flatnonzero((block != 0).sum(axis=1) > 2):
            nonzero = np.flatnonzero(block[row])
            block[row, rng.choice(nonzero, size=len(nonzero) - 2, replace=False)] = 0
    return array


def dense_tensor(shape: tuple, layout: str, pattern: str, density: float, integers: bool,
                 rng: np.random.Generator) -> np.ndarray:
    """A random dense array with this pattern that the layout can hold."""
    size = int(np.prod(shape)) if shape else 1
    if pattern == "zero" or size == 0:
        mask = np.zeros(shape, dtype=bool)
    elif pattern == "one":
        mask = np.zeros(size, dtype=bool)
        mask[rng.integers(size)] = True
        mask = mask.reshape(shape)
    elif pattern == "full":
        mask = np.ones(shape, dtype=bool)
    else:
        mask = rng.random(shape) < density
        if pattern == "holes":  # empty rows, columns, fibers
            for axis, extent in enumerate(shape):
                emptied = rng.random(extent) < 0.3
                index = [slice(None)] * len(shape)
                index[axis] = emptied
                mask[tuple(index)] = False
    array = np.zeros(shape)
    array[mask] = _values(rng, int(mask.sum()), integers)
    return restrict(array, layout, rng)


def restrict(array: np.ndarray, layout: str, rng: np.random.Generator) -> np.ndarray:
    """The part of ``array`` the layout can hold: LOWER_TRI's lower triangle, WARP24's two of four."""
    if layout == "LOWER_TRI":
        return np.tril(array)
    if layout == "WARP24":
        return _thin_two_of_four(array, rng)
    return array


UNSORTED = {"SV_UNSORTED": ("idx", "val"), "COO_UNSORTED": ("row", "col", "val"),
            USER_LAYOUTS["COO3_UNSORTED"]: ("idx0", "idx1", "idx2", "val")}


def pack_input(layout: str, array: np.ndarray, name: str, rng: np.random.Generator,
               coords: np.ndarray | None = None) -> spf.Tensor:
    """``array`` packed into ``layout``, storing the entries at ``coords`` (default: its
    nonzeros; zeros there are explicit zeros); unsorted layouts get their entries shuffled
    (packing sorts them)."""
    if coords is None:
        coords = np.argwhere(array != 0)
    values = array[tuple(coords.T)] if len(coords) else np.zeros(0, dtype=array.dtype)
    tensor = spf.pack(layout, (coords, values, array.shape), name=name)
    if layout in UNSORTED:
        fields = dict(tensor.fields)
        permutation = rng.permutation(len(fields["val"]))
        for array_name in UNSORTED[layout]:
            fields[array_name] = fields[array_name][permutation]
        tensor = spf.pack(layout, fields, name=name)
    if layout == "CSR_UNSORTED":  # each row's entries shuffled within the row
        fields = dict(tensor.fields)
        rows = np.repeat(np.arange(array.shape[0]), np.diff(fields["rowPtr"]))
        permutation = np.lexsort((rng.random(len(rows)), rows))
        fields["colIdx"], fields["data"] = fields["colIdx"][permutation], fields["data"][permutation]
        tensor = spf.pack(layout, fields, name=name)
    return tensor


@dataclass
class Data:
    dense: dict  # tensor -> numpy array
    inputs: dict  # tensor -> spf.Tensor
    expected: np.ndarray
    scale: np.ndarray = field(repr=False, default=None)  # sum of |terms|: the tolerance's scale
    coords: dict = field(repr=False, default_factory=dict)  # tensor -> its stored coordinates (explicit zeros too)
    entries: dict | None = field(repr=False, default=None)  # a conversion's expected stored entries
    # under a semiring, an assembled output's entries: where a product reaches (and the mask keeps)
    reached: np.ndarray | None = field(repr=False, default=None)


def is_padded(layout: str, order: int) -> bool:
    """Whether the layout stores positions that are no entries (dense blocks, fibers, padding slots)."""
    loaded = spf.load_layout(layout)
    return bool((loaded.resolve(order) if hasattr(loaded, "resolve") else loaded).padded)


def value_dtype(layout: str, order: int) -> np.dtype:
    """The numpy type of a layout's values: float64 (``double``) or float32 (``float``)."""
    loaded = spf.load_layout(layout)
    loaded = loaded.resolve(order) if hasattr(loaded, "resolve") else loaded
    return loaded.field(loaded.values_field).numpy_dtype


def as_stored(array: np.ndarray, layout: str, order: int | None = None) -> np.ndarray:
    """``array`` as the layout stores its values (rounded to float32 for a ``float``
    layout), in float64."""
    dtype = value_dtype(layout, array.ndim if order is None else order)
    return array if dtype == np.float64 else array.astype(dtype).astype(np.float64)


def make_data(kernel: KernelSpec, data: DataSpec) -> Data:
    """The dense arrays, packed inputs and expected result of a data set.

    When the output is LOWER_TRI (or a conversion's target WARP24), each order-2 input
    keeps only what that layout holds, in its own index order: a product or sum of lower
    triangles is lower triangular.
    """
    statement, inputs = accesses(kernel.expression)
    extents = data.extent_map
    patterns = dict(data.patterns)
    layouts = kernel.layout_map
    output_layout = layouts.get(statement.output.tensor, "Dense")
    dense, packed, stored = {}, {}, {}
    for position, (tensor, indices) in enumerate(inputs.items()):
        rng = np.random.default_rng([data.seed, position])
        shape = tuple(extents[i] for i in indices)
        pattern = patterns.get(tensor, "random")
        array = dense_tensor(shape, layouts[tensor], "random" if pattern in ("zeros", "cancel") else pattern,
                             data.density, data.integers or kernel.dtype.kind in "iub", rng)
        if pattern == "cancel":
            array = _cancelling(statement, tensor, dense, array, rng)
        if len(shape) == 2 and (output_layout == "LOWER_TRI" or (kernel.convert and output_layout == "WARP24")):
            array = restrict(array, output_layout, rng)
        array = restrict(array, layouts[tensor], rng)
        coords = np.argwhere(array != 0)
        if pattern == "zeros" and len(coords):
            array[tuple(coords[rng.random(len(coords)) < 0.35].T)] = 0.0  # stored, with value zero
        array = as_stored(array, layouts[tensor])  # the oracle reads what the kernel reads
        # the kernel's value type (packing keeps it; bool: nonzero), else the layout's own
        typed = array.astype(kernel.dtype if kernel.value_type != "float64" else value_dtype(layouts[tensor], len(shape)))
        if kernel.dtype.kind == "c":  # imaginary parts, and products that turn the phase
            typed = (array * (0.75 + 0.5j * (position + 1))).astype(kernel.dtype)
        dense[tensor], stored[tensor] = typed.astype(np.complex128 if typed.dtype.kind == "c" else np.float64), coords
        packed[tensor] = pack_input(layouts[tensor], typed, tensor, rng, coords)
    expected, scale = oracle(kernel, dense, packed, extents)
    reached = semiring_reached(kernel, packed, expected.shape) \
        if kernel.semiring != "plus_times" and assembled_output(kernel) else None
    if kernel.mask:
        shape = tuple(extents[i] for i in statement.output.indices)
        dense[MASK_TENSOR], stored[MASK_TENSOR], packed[MASK_TENSOR], kept = make_mask(kernel, shape, data.seed)
        expected, scale = apply_mask(kernel, expected, kept), np.where(kept, scale, 0.0)
        reached = None if reached is None else reached & kept
    entries = None
    if kernel.convert:
        (source, indices), = inputs.items()
        coords = stored[source]
        values = dense[source][tuple(coords.T)] if len(coords) else np.zeros(0)
        keep = (values != 0) | (not is_padded(layouts[source], len(indices)) and
                                not is_padded(output_layout, len(indices)))
        values = as_stored(values, output_layout, len(indices))  # rounded once into a float32 layout
        entries = {tuple(int(c) for c in row): float(v) for row, v in zip(coords[keep], values[keep])}
    return Data(dense, packed, expected, scale, stored, entries, reached)


def make_mask(kernel: KernelSpec, shape: tuple, seed: int) -> tuple:
    """The mask's values (dense, float64), stored coordinates, what the kernel is given (a numpy
    array for a dense layout, else a Tensor) and where it keeps the output."""
    rng = np.random.default_rng([seed, 7919])
    layout = kernel.layout_map[MASK_TENSOR]
    values = rng.choice([0.0, 1.0, 2.0], shape) * (rng.random(shape) < 0.7)
    text, by_values = kernel.mask
    if is_dense(layout):
        coords, given = np.argwhere(np.ones(shape, dtype=bool)), values
        present = values != 0 if by_values in (None, True) else np.ones(shape, dtype=bool)
    else:
        stored = rng.random(shape) < rng.choice([0.0, 0.3, 0.8])
        coords = np.argwhere(stored)
        given = spf.pack(layout, (coords, values[stored], shape), name=MASK_TENSOR)
        present = stored & (values != 0) if by_values else stored
    return values, coords, given, ~present if text.startswith("~") else present


def apply_mask(kernel: KernelSpec, expected: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """The expected result where the mask keeps it; ⊕'s identity (in the kernel's type) elsewhere."""
    identity = IDENTITIES[kernel.semiring.split("_")[0]]
    fill, _ = in_value_type(kernel, np.full(expected.shape, identity), expected)
    return np.where(kept, expected, fill)


def _cancelling(statement, tensor: str, dense: dict, array: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``array`` where, at random positions, the tensor's term cancels the terms before it
    (``tensor`` is :func:`cancellable`: those terms' tensors are in ``dense`` already)."""
    terms = einsum_terms(statement)
    index = next(n for n, term in enumerate(statement.terms) if term.factors[0].tensor == tensor
                 and len(term.factors) == 1)
    earlier = sum(coefficient * np.einsum(subscripts, *(dense[t] for t in tensors), optimize=True)
                  for coefficient, subscripts, tensors in terms[:index])
    factor = statement.terms[index].factors[0]
    target = -np.transpose(earlier, [statement.output.indices.index(i) for i in factor.indices]) \
        / terms[index][0]
    chosen = (target != 0) & (rng.random(array.shape) < 0.6)
    return np.where(chosen, target, array)


def einsum_terms(statement) -> list[tuple[float, str, list[str]]]:
    """(coefficient, einsum subscripts, tensors) per term of the statement."""
    letters: dict[str, str] = {}

    def subscript(indices) -> str:
        return "".join(letters.setdefault(i, "abcdefghijklmnopqrstuvwxyz"[len(letters)]) for i in indices)

    output = subscript(statement.output.indices)
    return [(term.coefficient, ",".join(subscript(f.indices) for f in term.factors) + "->" + output,
             [f.tensor for f in term.factors]) for term in statement.terms]


def oracle(kernel: KernelSpec, dense: dict, packed: dict, extents: dict) -> tuple[np.ndarray, np.ndarray]:
    """The expected result (numpy.einsum over the dense arrays) and its scale (the same over
    absolute values).  A shared output holds the result at the shared tensor's stored
    positions only (``share`` computes C<M> = ..., the masked product)."""
    statement, _ = accesses(kernel.expression)
    shape = tuple(extents[i] for i in statement.output.indices)
    if kernel.semiring != "plus_times":
        return in_value_type(kernel, *semiring_oracle(kernel, packed, shape))
    expected, scale = np.zeros(shape), np.zeros(shape)
    for coefficient, subscripts, tensors in einsum_terms(statement):
        expected = expected + coefficient * np.einsum(subscripts, *(dense[t] for t in tensors), optimize=True)
        scale = scale + abs(coefficient) * np.einsum(subscripts, *(np.abs(dense[t]) for t in tensors),
                                                      optimize=True)
    for output, source in kernel.share:
        expected = expected * stored_mask(packed[source], shape)
    return in_value_type(kernel, expected, scale)


def in_value_type(kernel: KernelSpec, expected: np.ndarray, scale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The expected result as the kernel's value type holds it (in float64): an integer
    output's unreached minimum is the type's largest value (not +inf), a boolean is 0 or 1
    (a reduction's unreached maximum is false)."""
    kind = kernel.dtype.kind
    if kind in "iu":
        info = np.iinfo(kernel.dtype)
        expected = np.where(expected == np.inf, float(info.max), np.where(expected == -np.inf, float(info.min),
                                                                           expected))
    elif kind == "b":
        expected = np.where(expected == -np.inf, 0.0, (expected != 0).astype(np.float64))
    return expected, scale


def semiring_oracle(kernel: KernelSpec, packed: dict, shape: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The expected result under the kernel's semiring, entry by entry over each input's stored
    positions (padding included: the kernel is compiled only where Z3 proved padding adds
    nothing), and its scale: |result| plus the sum of the |products| (summation order).  A
    shared output holds the result at the shared tensor's stored positions, 0 elsewhere."""
    operands = {}
    for name, tensor in packed.items():
        coords, values = tensor.stored()
        inside = np.all((coords >= 0) & (coords < np.asarray(tensor.shape)), axis=1)  # not a block's overhang
        operands[name] = {tuple(int(c) for c in row): float(v) for row, v in zip(coords[inside], values[inside])}
    expected = np.asarray(reference(kernel.expression, kernel.semiring, shape, **operands), dtype=float)
    magnitudes = np.asarray(reference(kernel.expression, kernel.semiring, shape, magnitudes=True, **operands),
                            dtype=float)
    scale = np.where(np.isfinite(expected), np.abs(expected), 0.0) + magnitudes
    for output, source in kernel.share:
        mask = stored_mask(packed[source], shape)
        expected, scale = np.where(mask, expected, 0.0), np.where(mask, scale, 0.0)
    return expected, scale


def semiring_reached(kernel: KernelSpec, packed: dict, shape: tuple) -> np.ndarray:
    """Where a product reaches the output (an entry of an assembled output under a semiring,
    whatever its value: GraphBLAS's pattern): the reference under lor_pair over the inputs'
    entries (the stored zeros of a padded layout with index arrays, BCSR's, are none: their
    products are not appended; a dense layout's zeros are entries)."""
    operands = {}
    for name, tensor in packed.items():
        coords, values = tensor.stored()
        inside = np.all((coords >= 0) & (coords < np.asarray(tensor.shape)), axis=1)
        if tensor.layout.padded and tensor.layout.index_arrays:
            inside &= values != 0
        operands[name] = {tuple(int(c) for c in row): 1.0 for row in coords[inside]}
    return np.asarray(reference(kernel.expression, "lor_pair", shape, **operands)) != 0


def stored_mask(tensor: spf.Tensor, shape: tuple) -> np.ndarray:
    """True at the coordinates of the tensor's stored positions (padding included) inside ``shape``."""
    coords, _ = tensor.stored()
    mask = np.zeros(shape, dtype=bool)
    if len(coords):
        inside = np.all((coords >= 0) & (coords < np.asarray(shape)), axis=1)
        mask[tuple(coords[inside].T)] = True
    return mask
