"""The verifier between passes (codegen.verify): every check catches a hand-built malformed
nest and names the pass and the node; every kernel of the golden corpus passes it after
every pass (and with its find states placed); a broken pass in the pipeline or the fused
path is reported as a bug in spf, not as a refusal; the verifier is off unless enabled."""

from __future__ import annotations

import re

import pytest

import spf
import spf.codegen.pipeline as pipeline
import spf.codegen.verify as verify
from golden_c import corpus
from spf.codegen.finds.find import FindChoice
from spf.codegen.loops import (Assign, Block, Bound, Chunks, Compute, Find, Guard, Loop, Merge, MergeArm, StateInit,
                               Temporary, TileGuard, ZeroEntry, walk)
from spf.errors import SpfInternalError
from spf.layout_library.model import Name
from spf.space.expressions import Affine, Constraint, UFCall

PARAMETERS = {"n", "A_pos", "A_crd", "A_vals", "x_idx", "x_vals", "y_vals"}


def bound(expression) -> list[Bound]:
    return [Bound(Affine.of(expression))]


def read(variable: str, array: str, at) -> Assign:
    return Assign(variable, UFCall(array, (Affine.of(at),)))


def compute(position: str = "i", factor: str = "p") -> Compute:
    return Compute(("y_vals", (Name(position),), (Name("n"),)), [("A_vals", (Name(factor),), (Name("n"),))])


def row_loop(body: list, variable: str = "i", **fields) -> Loop:
    return Loop(variable, bound(0), [Bound(Affine.of("n") - 1)], body, **fields)


def segment(body: list) -> list:
    """``u0 = A_pos(i); u1 = A_pos(i + 1); for p in u0 .. u1 - 1: body``."""
    return [read("u0", "A_pos", "i"), Assign("u1", UFCall("A_pos", (Affine.of("i") + 1,))),
            Loop("p", bound("u0"), [Bound(Affine.of("u1") - 1)], body)]


def search(template: FindChoice, body: list | None = None, key: str = "j") -> Find:
    return Find("q", "v", UFCall("x_idx", (Affine.of("q"),)), Affine.of(key), bound(0), [Bound(Affine.of("n") - 1)],
                template, body if body is not None else [compute("i", "q")])


HASHMAP = FindChoice("hashmap")
SEQITER_PER_ROW = FindChoice("seqiter", state=("i",))


def well_formed() -> list:
    """SpMSpV-like: rows, their segments, a hashmap find of each column in x."""
    find = search(HASHMAP)
    return [StateInit(find), row_loop(segment([read("j", "A_crd", "p"), find]))]


def test_a_well_formed_nest_passes():
    verify.verify_nest(well_formed(), PARAMETERS, "a_pass")


def test_well_formed_scopes_pass():
    """Chunk bounds, a temporary before its statement, a guard's else branch, merges, tile guards."""
    temporary = Compute(("t_vals", (Name("i"),), (Name("n"),)), [("A_vals", (Name("p"),), (Name("n"),))])
    arms = []
    for name in ("a", "b"):
        loop = Loop(f"p{name}", bound(0), [Bound(Affine.of("n") - 1)],
                    [read("j", "A_crd", f"p{name}"), compute("i", f"p{name}")])
        arms.append(MergeArm([Block([loop])], loop))
    tiled = Loop("p", bound("u0"), [Bound(Affine.of("u1") - 1)], [compute()])
    nodes = [Chunks(bound(0), [Bound(Affine.of("n") - 1)], [
        Loop("i", bound("spf_first"), bound("spf_last"), [
            Temporary("t_vals", Affine.of("n")), *segment([temporary]),
            Guard([Constraint(Affine.of("i"), "<=", Affine.of(3))], [compute("i", "i")], [ZeroEntry(compute().output)]),
            Merge("j", arms),
            read("u0", "A_pos", "i"), Assign("u1", UFCall("A_pos", (Affine.of("i") + 1,))),
            TileGuard("p", UFCall("A_crd", (Affine.of("p"),)), Affine.of("i"), bound("u0"),
                      [Bound(Affine.of("u1") - 1)], True, [tiled])])])]
    verify.verify_nest(nodes, PARAMETERS, "a_pass")


def _parallel(**fields) -> list:
    return [row_loop(segment([compute()]), parallel=True, **fields)]


def _state_after_find() -> list:
    find = search(HASHMAP)
    return [row_loop(segment([read("j", "A_crd", "p"), find])), StateInit(find)]


def _start_before_its_bounds() -> list:
    find = Find("q", "v", UFCall("x_idx", (Affine.of("q"),)), Affine.of("j"), bound(0), bound("m"), HASHMAP, [])
    return [StateInit(find), Assign("m", Affine.of("n")), Assign("j", Affine.of(0)), find]


def _two_starts() -> list:
    find = search(HASHMAP)
    return [StateInit(find), StateInit(find), row_loop(segment([read("j", "A_crd", "p"), find]))]


def _missing_start() -> list:
    placed, unplaced = search(HASHMAP), search(HASHMAP, key="u0")
    return [StateInit(placed), row_loop(segment([read("j", "A_crd", "p"), placed, unplaced]))]


def _thread_state_outside() -> list:
    find = search(HASHMAP)
    loop = row_loop([Loop("k", bound(0), bound(3), [])], parallel=True, parallel_proof="no dependence",
                    thread_state=[StateInit(find)])
    return [loop, Block([Assign("j", Affine.of(0)), Assign("i", Affine.of(0)), find])]


def _shared_node() -> list:
    statement = compute()
    return [row_loop(segment([statement, statement]))]


def _merge(path_holds_loop: bool = True, binds: bool = True) -> list:
    arms = []
    for name in ("a", "b"):
        loop = Loop(f"p{name}", bound(0), [Bound(Affine.of("n") - 1)],
                    [read("j" if binds else "k", "A_crd", f"p{name}"), compute("i", f"p{name}")])
        path = [Block([loop] if path_holds_loop else [])]
        arms.append(MergeArm(path, loop))
    return [row_loop([Merge("j", arms)])]


MALFORMED = {
    # name: (nest, what the message must say)
    "loop bound reads an unbound name": (
        [Loop("i", bound(0), [Bound(Affine.of("m") - 1)], [])], r"m is read but not bound"),
    "read before its assignment": (
        [row_loop([compute("i", "u0"), read("u0", "A_pos", "i")])], r"u0 is read but not bound"),
    "an assignment does not outlive its guard": (
        [row_loop([Guard([Constraint(Affine.of("i"), "<=", Affine.of(3))], [read("u0", "A_pos", "i")]),
                   compute("i", "u0")])], r"u0 is read but not bound"),
    "a guard reads an unbound name": (
        [row_loop([Guard([Constraint(Affine.of("k"), "<=", Affine.of(3))], [compute()])])], r"k is read"),
    "an unknown array": (
        [row_loop([Assign("u0", UFCall("B_pos", (Affine.of("i"),)))])], r"B_pos is read but not bound"),
    "an output array nobody declared": (
        [row_loop([Compute(("z_vals", (Name("i"),), (Name("n"),)), [])])], r"z_vals is read but not bound"),
    "a temporary read before its declaration": (
        [row_loop([Compute(("y_vals", (Name("i"),), (Name("n"),)), [("t", (Name("i"),), (Name("n"),))]),
                   Temporary("t")])], r"t is read but not bound"),
    "a statement position reads an unbound name": (
        [row_loop([compute("i", "p")])], r"p is read but not bound"),
    "a loop rebinds its enclosing loop's variable": (
        [row_loop([row_loop([])])], r"i is bound again inside the loop"),
    "an assignment overwrites a loop variable": (
        [row_loop([Assign("i", Affine.of(0))])], r"assigns i, which an enclosing loop binds"),
    "a loop without an upper bound": ([Loop("i", bound(0), [], [])], r"no upper bound"),
    "a bound with divisor 0": ([Loop("i", bound(0), [Bound(Affine.of("n"), 0)], [])], r"positive divisor"),
    "an assignment with divisor 0": ([Assign("u", Affine.of("n"), 0)], r"divisor 0"),
    "a guard without a condition": ([Guard([], [])], r"a guard without a condition"),
    "a find key reads an unbound name": (
        [row_loop(segment([search(HASHMAP)]))], r"j is read but not bound"),
    "a find with a plain-loop template": (
        [row_loop(segment([read("j", "A_crd", "p"), search(FindChoice("linear"))]))], r"template .*linear"),
    "a find whose call does not read its variable": (
        [row_loop(segment([read("j", "A_crd", "p"),
                           Find("q", "v", UFCall("x_idx", (Affine.of("p"),)), Affine.of("j"), bound(0), bound("n"),
                                HASHMAP, [])]))], r"does not read the find's variable q"),
    "a find whose state index is not bound": (
        [Block([Assign("j", Affine.of(0)), search(SEQITER_PER_ROW, [])])], r"i is read but not bound"),
    "a find keyed by an unbound name": (
        [Block([Assign("j", Affine.of(0)), search(FindChoice("seqiter", state=("k",), keyed=("k",)), [])])],
        r"k is read but not bound"),
    "a parallel loop with no proof": (_parallel(), r"parallel, but the dependence pass recorded no proof"),
    "a parallel loop inside a parallel loop": (
        [row_loop([Loop("k", bound(0), bound(3), [], parallel=True, parallel_proof="no dependence")],
                  parallel=True, parallel_proof="no dependence")], r"parallel inside a parallel loop"),
    "a parallel loop that is jammed": (
        _parallel(parallel_proof="no dependence", jam=4), r"parallel and jammed"),
    "a serial loop with a reduction": (
        [row_loop(segment([compute()]), reduction="atomic")], r"serial loop i has a reduction"),
    "an unknown reduction": (
        _parallel(parallel_proof="no dependence", reduction="lock"), r"unknown reduction 'lock'"),
    "chunks inside a parallel loop": (
        [row_loop([Chunks(bound(0), bound(3), [])], parallel=True, parallel_proof="no dependence")],
        r"chunks of a parallel loop inside another parallel loop"),
    "a chunk bound outside its chunks": (
        [Loop("i", bound("spf_first"), bound("spf_last"), [])], r"spf_first, spf_last are read but not bound"),
    "a state start after its find": (_state_after_find(), r"starts where the find does not follow"),
    "a state started twice": (_two_starts(), r"hashmap find over q has 2 state starts"),
    "a stateful find without a start": (_missing_start(), r"hashmap find over q has 0 state starts"),
    "a state start that reads an unbound name": (_start_before_its_bounds(), r"m is read but not bound there \(at StateInit"),
    "a thread's state start for a find outside the loop": (
        _thread_state_outside(), r"thread's state start of loop i for a find outside it"),
    "a statement with two destinations": (
        [row_loop(segment([Compute(compute().output, [], stream=("i",))]))], r"2 destinations"),
    "a statement that stores without an output": (
        [Compute(None, [], scalar_output="n", stores=True)], r"stores \(=\) but has no output array"),
    "something that is no node": ([row_loop(["i = 0"])], r"a str where a loop-nest node belongs"),
    "a body that is no list": ([row_loop((compute("i", "i"),))], r"a body that is a tuple"),
    "the same node twice": (_shared_node(), r"same node object is in the nests twice"),
    "a tile guard without its loop": (
        [TileGuard("p", UFCall("A_crd", (Affine.of("p"),)), Affine.of(0), bound(0), bound("n"), True, [])],
        r"holds no loop over p"),
    "a merge arm whose loop is not on its path": (_merge(path_holds_loop=False), r"term 1's loop is not on its path"),
    "a merge arm that does not bind the coordinate": (
        _merge(binds=False), r"term 1's loop does not bind the merged coordinate j"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_each_check_catches_its_malformed_nest_naming_the_pass_and_the_node(name):
    nodes, problem = MALFORMED[name]
    with pytest.raises(SpfInternalError) as caught:
        verify.verify_nest(nodes, PARAMETERS, "the_broken_pass", "statement 0")
    message = str(caught.value)
    assert message.startswith("this is a bug in spf: after pass the_broken_pass, statement 0: "), message
    assert re.search(problem, message), message
    assert re.search(r"\(at [A-Za-z]+ `.+`\)$|\(at .+\)$", message), message  # the node, as explain() shows it
    assert not isinstance(caught.value, spf.SpfError)


def test_the_node_is_named_as_explain_shows_it():
    with pytest.raises(SpfInternalError, match=r"\(at Loop `for i in 0 \.\. m - 1:`\)$"):
        verify.verify_nest([Loop("i", bound(0), [Bound(Affine.of("m") - 1)], [])], PARAMETERS, "p")


# ----------------------------------------------------------------------------- the pipeline and the fused path


def _uncached(monkeypatch) -> None:
    monkeypatch.setattr(pipeline, "lookup", lambda key: None)
    monkeypatch.setattr(pipeline, "store", lambda key, kernel: None)


def _unproven_parallel(compilation):
    """A broken pass: marks the outermost loop parallel without the dependence test."""
    for group in compilation.variant_scans:
        for scanned in group:
            next(n for n in walk(scanned.nodes) if isinstance(n, Loop)).parallel = True
    return compilation


def _pipeline_with_broken_pass(monkeypatch) -> None:
    _uncached(monkeypatch)
    passes = list(pipeline.PASSES)
    passes.insert(passes.index(pipeline.parallelize) + 1, _unproven_parallel)
    monkeypatch.setattr(pipeline, "PASSES", tuple(passes))


def test_a_broken_pass_is_reported_as_a_bug_naming_it(monkeypatch):
    _pipeline_with_broken_pass(monkeypatch)
    monkeypatch.setattr(verify, "ENABLED", True)
    with pytest.raises(SpfInternalError, match=r"^this is a bug in spf: after pass _unproven_parallel, variant 0, "
                                               r"statement 0: loop pAi is parallel, but the dependence pass "
                                               r"recorded no proof .*\(at Loop `for pAi in .*\(parallel\):`\)$"):
        spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})


def test_the_verifier_is_off_unless_enabled(monkeypatch):
    _pipeline_with_broken_pass(monkeypatch)
    monkeypatch.setattr(verify, "ENABLED", False)
    monkeypatch.delenv("SPF_VERIFY", raising=False)
    assert not verify.enabled()
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    assert "#pragma omp parallel" in kernel.c_source  # the broken mark went through unchecked
    monkeypatch.setenv("SPF_VERIFY", "1")
    assert verify.enabled()


def test_the_tests_run_with_the_verifier_on():
    assert verify.enabled()


def test_a_broken_fused_lowering_is_reported_as_a_bug(monkeypatch):
    def unproven(nodes, spaces, output_array):
        next(n for n in walk(nodes) if isinstance(n, Loop)).parallel = True
        return []

    monkeypatch.setattr(pipeline, "parallelize_fused", unproven)
    monkeypatch.setattr(verify, "ENABLED", True)
    expression, layouts = "y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}
    candidate = spf.schedule("i, j : y(i) += A(i,j) * x(j)", expression, layouts)
    with pytest.raises(SpfInternalError, match=r"after pass parallelize: loop .* no proof"):
        spf.compile(expression, layouts, schedule=candidate, parallel=True)


def test_find_states_are_placed_by_a_pass_the_verifier_sees(monkeypatch):
    """Where a SeqIter position or a hash table starts is decided by the pass
    place_find_states (spf.codegen.finds.find_state), so the verifier checks the nests with their
    StateInit nodes, and the kernel keeps them."""
    _uncached(monkeypatch)
    monkeypatch.setattr(verify, "ENABLED", True)
    for find in ("seqiter", "hashmap"):
        kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"}, find=find)
        assert any(isinstance(node, StateInit) for scanned in kernel.scans for node in walk(scanned.nodes))


# ----------------------------------------------------------------------------- the golden corpus

KERNELS = corpus()


@pytest.mark.parametrize("kernel", KERNELS, ids=[k.name for k in KERNELS])
def test_every_golden_kernel_passes_the_verifier_after_every_pass(kernel, monkeypatch):
    _uncached(monkeypatch)
    checked: list[str] = []

    def after_pass(compilation, after):
        verify.verify_compilation(compilation, after)
        checked.append(after)

    def after_lowering(nodes, spaces, scans, temporaries, after):
        verify.verify_nest(nodes, verify.schedule_parameters(nodes, spaces, scans, temporaries), after)
        checked.append(after)

    monkeypatch.setattr(pipeline, "check_after_pass", after_pass)
    monkeypatch.setattr(pipeline, "check_lowered_schedule", after_lowering)
    source = kernel.source()
    passes = [p.__name__ for p in pipeline.PASSES]
    if kernel.schedule is not None:
        passes = ["lower_schedule", *passes]  # the schedule tree lowered first, then the same passes
    if source.startswith("/* refused"):
        assert checked == passes[:len(checked)]  # up to the refusing pass
    else:
        assert checked == passes
