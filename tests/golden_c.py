"""The golden C corpus: kernels whose generated C is checked in (tests/golden/*.c).

``tests/test_golden_c.py`` compiles each kernel below (code generation only, no C
compiler) and fails on any difference from its file, so a change to what spf emits is
always seen.  When a change is intended, regenerate the files and commit the diff with
the change that made it:

    .venv/bin/python tests/golden_c.py            # rewrite tests/golden/ (every kernel)
    .venv/bin/python tests/golden_c.py spmv-CSR   # only the kernels whose names match

The corpus covers every built-in layout as an input, every find template, sparse
outputs in every layout the assembly builds, outputs that share an input's arrays, loop
orders, recipes, parallel kernels, user layout files (64-bit indices, float32 values),
and fused schedules written out in explain()'s notation.  A kernel spf refuses is kept
as its error message, so a refusal that changes is seen too.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
USER = REPOSITORY / "examples" / "layouts"

if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))

import spf  # noqa: E402
import fused_trees  # noqa: E402  (tests/ is on the path: pytest's rootdir, or this script's folder)


@dataclass(frozen=True)
class GoldenKernel:
    """One kernel: ``spf.compile(expression, layouts, **options)``, with ``schedule`` a tree in
    explain()'s notation (read by spf.schedule) or ``recipe`` a list of recipe steps."""

    name: str
    expression: str
    layouts: dict
    options: dict = field(default_factory=dict)
    schedule: str | None = None
    recipe: tuple = ()

    def source(self) -> str:
        """The kernel's C, or the refusal's message."""
        options = dict(self.options)
        try:
            if self.schedule is not None:
                options["schedule"] = spf.schedule(self.schedule, self.expression, self.layouts,
                                                   share=options.get("share"))
            elif self.recipe:
                recipe = spf.recipe(self.expression, self.layouts, share=options.pop("share", None))
                for step, *arguments in self.recipe:
                    recipe = getattr(recipe, step)(*arguments)
                options["schedule"] = recipe
            return spf.compile(self.expression, self.layouts, **options).c_source
        except spf.SpfError as error:
            return f"/* refused: {type(error).__name__}: {error} */\n"


def _user(name: str) -> str:
    """A user layout file in examples/layouts (the C does not depend on where it is)."""
    return str(USER / f"{name}.layout")


MATRICES = ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR(R=2, C=3)", "LOWER_TRI", "DIA", "ELL",
            "WARP24", "CSR_UNSORTED", "Dense"]
ASSEMBLED = ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR(R=2, C=2)", "DIA", "LOWER_TRI",
             "CSR_UNSORTED"]
K1 = "A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)"
K5 = "A(l,m,n) = B(i,j,k) * C(i,l) * D(j,m) * E(k,n)"
K6 = "A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)"
K8 = "A(i,m) = B(i,k,l) * C(l,j) * D(k,j) * E(j,m)"
MTTKRP = "A(i,a) = B(i,j,k) * C(j,a) * D(k,a)"
CHAIN = "R(i,j,k) = A(i,p,q) * B(j,p,r) * C(k,q,r) * D(j,k,r)"
TTTC = "Z(e,n) = T(i,j,k,l,m,n) * A(i,a) * B(a,j,b) * C(b,k,c) * D(c,l,d) * E(d,m,e)"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "", text.split("/")[-1].removesuffix(".layout"))


def corpus() -> list[GoldenKernel]:
    kernels: list[GoldenKernel] = []

    def add(name, expression, layouts, **options):
        schedule = options.pop("schedule", None)
        recipe = options.pop("recipe", ())
        kernels.append(GoldenKernel(name, expression, layouts, options, schedule, recipe))

    spmv = "y(i) = A(i,j) * x(j)"
    for layout in MATRICES:
        add(f"spmv-{_slug(layout)}", spmv, {"A": layout, "x": "Dense", "y": "Dense"})
    for layout in ("CSR", "DCSR", "COO", "CSC"):
        add(f"spmv-{_slug(layout)}-parallel", spmv, {"A": layout, "x": "Dense", "y": "Dense"}, parallel=True)
    for layout in ("CSR", "DCSR", "CSC"):
        for find in ("auto", "seqiter", "binary", "hashmap", "bitmap", "linear", "direct"):
            add(f"spmspv-{layout}-{find}", spmv, {"A": layout, "x": "SV", "y": "Dense"}, find=find)
    for vector in ("SV_DEC", "SV_UNSORTED"):
        add(f"spmspv-CSR-{_slug(vector)}", spmv, {"A": "CSR", "x": vector, "y": "Dense"})
    add("spmspv-CSC-x-driven", spmv, {"A": "CSC", "x": "SV", "y": "Dense"},
        order=["px", "j", "pAj", "pAi", "i", "py0"])
    add("spmv-transposed-CSR", "y(j) = A(i,j) * x(i)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    for x, y in (("SV", "SV"), ("SV", "Dense"), ("SV_UNSORTED", "SV"), ("SV_DEC", "SV_DEC")):
        add(f"dot-{_slug(x)}-{_slug(y)}", "a = x(i) * y(i)", {"x": x, "y": y})
    add("dot3-SV", "a = x(i) * y(i) * z(i)", {"x": "SV", "y": "SV", "z": "SV"})
    add("diagonal-CSR", "a = A(i,i)", {"A": "CSR"})
    add("diagonal-scale-DIA", "y(i) = A(i,i) * x(i)", {"A": "DIA", "x": "Dense", "y": "Dense"})
    add("inner-CSR-CSC", "a = A(i,j) * B(i,j)", {"A": "CSR", "B": "CSC"})
    for a, b in (("CSR", "CSR"), ("CSR", "CSC"), ("DCSR", "DCSC"), ("COO", "CSR"), ("CSR", "Dense")):
        add(f"spmspm-dense-{_slug(a)}-{_slug(b)}", "C(i,j) = A(i,k) * B(k,j)", {"A": a, "B": b, "C": "Dense"})
    add("spmm-CSR", "C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "Dense", "C": "Dense"})
    add("spmm-CSR-parallel", "C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "Dense", "C": "Dense"}, parallel=True)
    add("sum-spmv", "y(i) = A(i,j) * x(j) - 2 * B(i,j) * z(j)",
        {"A": "CSR", "B": "CSC", "x": "Dense", "z": "SV", "y": "Dense"})
    add("accumulate-spmv", "y(i) += 2.5 * A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    # semirings (spf.notation.semirings): min-plus SpMV in parallel, a max-times reduction to a
    # scalar (OpenMP's max), an or-and union of two matrices, and a refused padded input
    add("semiring-min-plus-spmv", "y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"},
        semiring="min_plus", parallel=True)
    add("semiring-max-times-scalar", "s = A(i,j) * B(i,j)", {"A": "CSR", "B": "DCSR"}, semiring="max_times",
        recipe=(("parallelize", "pAi", "atomic"),))
    add("semiring-lor-land-union", "C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "COO", "C": "Dense2"},
        semiring="lor_land")
    add("semiring-min-plus-ELL-refused", "y(i) = A(i,j) * x(j)", {"A": "ELL", "x": "Dense", "y": "Dense"},
        semiring="min_plus")
    # outputs sharing an input's index arrays
    sddmm = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
    for layout in ("CSR", "COO", "BCSR(R=2, C=2)"):
        add(f"sddmm-{_slug(layout)}", sddmm, {"A": layout, "B": layout, "C": "Dense", "D": "Dense"},
            share={"A": "B"})
    add("sddmm-CSR-parallel", sddmm, {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"},
        share={"A": "B"}, parallel=True)
    add("masked-spgemm", "C(i,j) = M(i,j) * A(i,k) * B(k,j)", {"M": "CSR", "A": "CSR", "B": "CSR", "C": "CSR"},
        share={"C": "M"})
    # assembled outputs
    spgemm = "C(i,j) = A(i,k) * B(k,j)"
    for layout in ASSEMBLED:
        add(f"spgemm-into-{_slug(layout)}", spgemm, {"A": "CSR", "B": "CSR", "C": layout})
    add("spgemm-CSR-parallel", spgemm, {"A": "CSR", "B": "CSR", "C": "CSR"}, parallel=True)
    add("spgemm-abt-DCSR", "C(i,j) = A(i,k) * B(j,k)", {"A": "CSR", "B": "CSR", "C": "DCSR"})
    add("spgemm-into-ELL", spgemm, {"A": "CSR", "B": "CSR", "C": "ELL"})
    for layout in ("CSR", "DCSR", "COO"):
        add(f"add-into-{layout}", "C(i,j) = A(i,j) - 2 * B(i,j)", {"A": "CSR", "B": "CSR", "C": layout})
    add("add-CSR-parallel", "C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, parallel=True)
    add("add-mixed-DCSR", "C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSC", "C": "DCSR"})
    add("spgemm-plus-D", "C(i,j) = A(i,k) * B(k,j) + D(i,j)", {"A": "CSR", "B": "CSR", "D": "CSR", "C": "CSR"})
    add("elementwise-CSR", "C(i,j) = A(i,j) * B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    add("axpy-into-SV", "y(i) = A(i,j) * x(j) + z(i)", {"A": "DCSR", "x": "SV", "z": "SV", "y": "SV"})
    add("sum-into-SV", "z(i) = x(i) + y(i)", {"x": "SV", "y": "SV_UNSORTED", "z": "SV"})
    for source, target in (("CSR", "CSR"), ("CSR", "CSC"), ("COO_UNSORTED", "CSR")):  # assembled
        add(f"transpose-{source}-{target}", "B(j,i) = A(i,j)", {"A": source, "B": target}, share={})
    add("transpose-CSR-parallel", "B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"}, parallel=True)
    add("copy-COO3-CSF3", "B(i,j,k) = A(i,j,k)", {"A": "COO3", "B": "CSF3"})
    add("permute-CSF3", "B(k,i,j) = A(i,j,k)", {"A": "CSF3", "B": "CSF3"})
    add("copy-CSF4-COO4", "B(l,j,i,k) = A(i,j,k,l)", {"A": "CSF4", "B": "COO4"})
    add("ttv-into-DCSR", "A(i,j) = B(i,j,k) * c(k)", {"B": "CSF3", "c": "Dense", "A": "DCSR"}, share={})
    add("ttm-into-CSF3_DENSE_LAST", "A(i,j,l) = B(i,j,k) * C(k,l)",
        {"B": "CSF3", "C": "Dense", "A": "CSF3_DENSE_LAST"}, share={})
    # output patterns inferred by proof (spf.space.patterns): a prefix of the input's levels
    add("ttv-inferred-DCSR", "A(i,j) = B(i,j,k) * c(k)", {"B": "CSF3", "c": "Dense", "A": "DCSR"})
    add("ttm-inferred-CSF3_DENSE_LAST", "A(i,j,l) = B(i,j,k) * C(k,l)",
        {"B": "CSF3", "C": "Dense", "A": "CSF3_DENSE_LAST"})
    add("transpose-inferred-CSR-CSC", "B(j,i) = A(i,j)", {"A": "CSR", "B": "CSC"})
    add("rowsum-inferred-DCSR-SV", "y(i) = A(i,j)", {"A": "DCSR", "y": "SV"})
    add("scale-inferred-BCSR", "B(i,j) = A(i,j) * D(i,j)", {"A": "BCSR(R=2, C=2)", "D": "Dense", "B": "BCSR(R=2, C=2)"})
    # order 3 and 4 with dense outputs
    for layout in ("CSF3", "CSF3_DENSE_LAST", "COO3", "Dense"):
        add(f"ttv-{_slug(layout)}", "A(i,j) = B(i,j,k) * c(k)", {"B": layout, "c": "Dense", "A": "Dense"})
        add(f"mttkrp-{_slug(layout)}", MTTKRP, {"B": layout, "C": "Dense", "D": "Dense", "A": "Dense"})
    add("mttkrp-CSF3-parallel", MTTKRP, {"B": "CSF3", "C": "Dense", "D": "Dense", "A": "Dense"}, parallel=True)
    add("ttm-CSF3", "A(i,j,l) = B(i,j,k) * C(k,l)", {"B": "CSF3", "C": "Dense", "A": "Dense"})
    add("inner3-CSF3-COO3", "a = B(i,j,k) * C(i,j,k)", {"B": "CSF3", "C": "COO3"})
    add("tttp-CSF3", "S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)",
        {"T": "CSF3", "U": "Dense", "V": "Dense", "W": "Dense", "S": "CSF3"}, share={"S": "T"})
    for layout in ("CSF4", "COO4"):
        add(f"ttv4-{layout}", "A(i,j,k) = B(i,j,k,l) * c(l)", {"B": layout, "c": "Dense", "A": "Dense"})
    # user layout files
    add("spmv-CSR64", spmv, {"A": _user("CSR64"), "x": "Dense", "y": "Dense"})
    add("spmv-CSR_F32", spmv, {"A": _user("CSR_F32"), "x": "Dense", "y": "Dense"})
    add("spgemm-into-DCSR64_F32", spgemm, {"A": "CSR", "B": "CSR", "C": _user("DCSR64_F32")})
    add("ttv-COO3_UNSORTED", "A(i,j) = B(i,j,k) * c(k)", {"B": _user("COO3_UNSORTED"), "c": "SV", "A": "Dense"})
    # loop orders and recipes
    add("recipe-tile-parallel", spmv, {"A": "CSR", "x": "SV", "y": "Dense"},
        recipe=(("find", "x", "hashmap"), ("tile", "pAi", 64), ("parallelize", "pAi_tile")))
    add("recipe-binary", spmv, {"A": "CSR", "x": "SV", "y": "Dense"}, recipe=(("find", "x", "binary"),))
    add("recipe-permute-spmspm", "C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "Dense"},
        recipe=(("permute", "pBi", "k", "pBj", "j", "pC1", "pAi", "i", "pC0", "pAj"),))
    add("recipe-parallel-privatize", "y(j) = A(i,j) * x(i)", {"A": "CSR", "x": "Dense", "y": "Dense"},
        recipe=(("parallelize", "pAi", "privatize"),))
    add("recipe-parallel-atomic", "y(j) = A(i,j) * x(i)", {"A": "CSR", "x": "Dense", "y": "Dense"},
        recipe=(("parallelize", "pAi", "atomic"),))
    # fused schedules, written out
    dense = {"A": "Dense", "C": "Dense", "D": "Dense", "E": "Dense"}
    add("fused-K1-scalar", K1, {**dense, "B": "CSR"},
        schedule="i, j < T_BCD() ; k : T_BCD() += B(i,j) * C(i,k) * D(j,k) , l : A(i,l) += T_BCD() * E(j,l) >")
    add("fused-K1-scalar-parallel", K1, {**dense, "B": "CSR"}, parallel=True,
        schedule="i, j < T_BCD() ; k : T_BCD() += B(i,j) * C(i,k) * D(j,k) , l : A(i,l) += T_BCD() * E(j,l) >")
    add("fused-K1-vector", K1, {**dense, "B": "CSR"},
        schedule="i < T_BCD(j) ; j, k : T_BCD(j) += B(i,j) * C(i,k) * D(j,k) , j, l : A(i,l) += T_BCD(j) * E(j,l) >")
    add("fused-K5", K5, {**dense, "B": "CSF3"},
        schedule="i, j, n < T_BE() ; k : T_BE() += B(i,j,k) * E(k,n) , l, m : A(l,m,n) += T_BE() * C(i,l) * D(j,m) >")
    add("fused-K6-vector", K6, {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"},
        schedule="i, j < T_BD(m) ; k, m : T_BD(m) += B(i,j,k) * D(k,m) , l, m : A(i,l,m) += T_BD(m) * C(j,l) >")
    add("fused-K6-scalar", K6, {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"},
        schedule="i, j, m < T_BD() ; k : T_BD() += B(i,j,k) * D(k,m) , l : A(i,l,m) += T_BD() * C(j,l) >")
    add("fused-K8", K8, {**dense, "B": "CSF3"},
        schedule="i, j < T_BCD() ; k, l : T_BCD() += B(i,k,l) * C(l,j) * D(k,j) , m : A(i,m) += T_BCD() * E(j,m) >")
    add("fused-MTTKRP", MTTKRP, {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"},
        schedule="i, j < T_BC(a) ; k, a : T_BC(a) += B(i,j,k) * D(k,a) , a : A(i,a) += T_BC(a) * C(j,a) >")
    add("fused-TTTP", "S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)",
        {"T": "CSF3", "U": "Dense", "V": "Dense", "W": "Dense", "S": "CSF3"}, share={"S": "T"},
        schedule="i, j < T_UV(r) ; r : T_UV(r) += U(i,r) * V(j,r) , k, r : S(i,j,k) += T_UV(r) * T(i,j,k) * W(k,r) >")
    chain = {"A": "CSF3", "B": "CSF3", "C": "CSF3", "D": "CSF3", "R": "Dense"}
    for number, tree in enumerate(CHAIN_TREES):
        add(f"fused-CHAIN-{number}", CHAIN, chain, schedule=tree)
    add("fused-CHAIN-0-parallel", CHAIN, chain, schedule=CHAIN_TREES[0], parallel=True)
    # the outer loop over B's fibres, whose coordinate j no leaf reads (its layout's relation names it)
    add("fused-CHAIN-j-outer-parallel", CHAIN, chain, parallel=True,
        schedule="j, i < T_AB(q,r) ; p, q, r : T_AB(q,r) += A(i,p,q) * B(j,p,r) , k, q, r : R(i,j,k) += "
                 "T_AB(q,r) * C(k,q,r) * D(j,k,r) >")
    # a root temporary: its producer and its consumer each run in parallel
    add("fused-K7-phases-parallel", "A(i,j,m) = B(i,j,k) * C(k,l) * D(l,m)",
        {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense", "D": "Dense"}, share={"A": "B"}, parallel=True,
        schedule="< T_CD(k,m) ; k, l, m : T_CD(k,m) += C(k,l) * D(l,m) , i, j, k, m : A(i,j,m) += T_CD(k,m) * B(i,j,k) >")
    tttc = {"Z": "Dense", "T": _user("CSF6"), "A": "Dense", "B": "Dense", "C": "Dense", "D": "Dense", "E": "Dense"}
    for number, tree in enumerate(TTTC_TREES):
        add(f"fused-TTTc-{number}", TTTC, tttc, schedule=tree)
    add("fused-under-SeqIter", "Z(i) = A(i,j) * u(k) * v(k)", {"A": "CSR", "u": "SV", "v": "SV", "Z": "Dense"},
        schedule="i < T_uv() ; k : T_uv() += u(k) * v(k) , j : Z(i) += T_uv() * A(i,j) >")
    names = [k.name for k in kernels]
    assert len(names) == len(set(names)), "golden kernel names must be unique"
    return kernels


# the trees of issue 25 that once computed wrong results (tests/codegen/fused_trees.py): one of each shape
CHAIN_TREES = [fused_trees.CHAIN_TREES[n] for n in (0, 2, 6)]
TTTC_TREES = fused_trees.TTTC_TREES


def path_of(kernel: GoldenKernel) -> Path:
    return GOLDEN / f"{kernel.name}.c"


def differing(kernels: list[GoldenKernel]) -> list[str]:
    """The names of the kernels (compiled in the order given) whose C is not their file's."""
    return [k.name for k in kernels if k.source() != path_of(k).read_text()]


def main(patterns: list[str]) -> None:
    if patterns == ["--check-reversed"]:
        # The whole corpus compiled last to first: the C must not depend on what this
        # process compiled before (tests/test_golden_c.py runs this with an empty cache).
        wrong = differing(corpus()[::-1])
        print("differ: " + " ".join(wrong) if wrong else "every kernel as its file")
        sys.exit(1 if wrong else 0)
    GOLDEN.mkdir(exist_ok=True)
    chosen = [k for k in corpus() if not patterns or any(re.search(p, k.name) for p in patterns)]
    if not patterns:
        for stale in set(GOLDEN.glob("*.c")) - {path_of(k) for k in chosen}:
            stale.unlink()
    changed = 0
    for kernel in chosen:
        text = kernel.source()
        path = path_of(kernel)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            changed += 1
            print(f"wrote {path.relative_to(REPOSITORY)}")
    print(f"{len(chosen)} kernels, {changed} files changed")


if __name__ == "__main__":
    main(sys.argv[1:])
