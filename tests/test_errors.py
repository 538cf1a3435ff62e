"""The exception classes: every one is in spf/errors.py; refusals are SpfErrors, bugs are not."""

from __future__ import annotations

import ast
import builtins

import numpy as np
import pytest

import spf
from conftest import REPOSITORY
from spf import errors

PACKAGE = [REPOSITORY / "spf", REPOSITORY / "codegen", REPOSITORY / "layouts"]
BUILTIN_EXCEPTIONS = {name for name, value in vars(builtins).items()
                      if isinstance(value, type) and issubclass(value, BaseException)}
SPF_EXCEPTIONS = {name for name, value in vars(errors).items()
                  if isinstance(value, type) and issubclass(value, BaseException)}


def _base_name(base: ast.expr) -> str:
    return base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")


def test_every_exception_class_of_the_package_is_in_spf_errors():
    misplaced = []
    for folder in PACKAGE:
        for path in sorted(folder.rglob("*.py")):
            if path == REPOSITORY / "spf" / "errors.py":
                continue
            exceptions = BUILTIN_EXCEPTIONS | SPF_EXCEPTIONS
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef) and any(_base_name(b) in exceptions for b in node.bases):
                    misplaced.append(f"{path.relative_to(REPOSITORY)}:{node.lineno}: class {node.name}")
    assert not misplaced, misplaced


@pytest.mark.parametrize("name", ["ScanError", "FindRefused", "AssemblyRefused", "RecipeError", "AutoscheduleError",
                                  "ScheduleError", "DistributionError", "RankError", "UsageError"])
def test_the_refusals_moved_here_are_spf_errors(name):
    assert issubclass(getattr(errors, name), spf.SpfError)


def test_an_internal_error_is_no_refusal_and_says_it_is_a_bug():
    assert not issubclass(spf.SpfInternalError, spf.SpfError)
    with pytest.raises(spf.SpfInternalError, match="^this is a bug in spf: after pass x, y$"):
        raise spf.SpfInternalError("after pass x, y")


# ----------------------------------------------------------------------------- "cannot happen" is a bug, not a refusal


def test_find_synthesis_of_an_unknown_template_is_a_bug():
    from spf.codegen.finds.find import synthesize
    from spf.codegen.pipeline import Compilation, Options, build_space, synthesize_finds
    compilation = synthesize_finds(build_space(Compilation("y(i) = A(i,j) * x(j)",
                                                           {"A": "CSR", "x": "SV", "y": "Dense"}, Options())))
    (site, calls), = compilation.sites
    with pytest.raises(spf.SpfInternalError, match="unknown template 'galloping'"):
        synthesize(site, calls, compilation.statements[0].properties, allowed=("galloping",))


def test_scanning_with_the_fused_variables_not_first_is_a_bug():
    from spf.codegen.scanning.scan import scan
    space = spf.iteration_space("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}).statements[0]
    order = list(space.set.variables)
    with pytest.raises(spf.SpfInternalError, match="bound variables"):
        scan(space, order, bound=[order[-1]])


def test_a_property_kind_the_layout_reader_let_through_is_a_bug():
    from spf.layout_library.model import PropertySpec
    from spf.space.properties import from_spec
    with pytest.raises(spf.SpfInternalError, match="unknown kind 'sorted'"):
        from_spec(PropertySpec("sorted", ("rowPtr",)))


def test_a_node_the_c_printer_has_no_case_for_is_a_bug():
    from spf.codegen.c.c_expressions import Names
    from spf.codegen.c.emit_statements import Emitter
    with pytest.raises(spf.SpfInternalError, match="no case for the node"):
        Emitter(Names({}, {}, {}), None, {}).node("not a node")


def test_layout_arithmetic_the_c_checks_have_no_case_for_is_a_bug():
    from spf.codegen.c.checks import _Arith, _Tensor
    tensor = _Tensor("A", spf.load_layout("CSR"), "input")
    with pytest.raises(spf.SpfInternalError, match="no case for the layout arithmetic 'i'"):
        _Arith(tensor)("i")


def test_an_error_code_no_generated_c_returns_is_a_bug():
    from spf.runtime.kernel import BoundKernel
    BoundKernel._check(0)
    with pytest.raises(spf.SpfInternalError, match="error code 12345, which no generated C returns"):
        BoundKernel._check(12345)


@pytest.mark.parametrize("refused", [
    lambda: spf.pack("LOWER_TRI", np.ones((3, 4))),
    lambda: spf.pack("CSR", {"rowPtr": np.array([0, 1]), "colIdx": np.array([5]), "data": np.ones(1)}, shape=(1, 2)),
    lambda: spf.Tensor("CSR", (1, 2), {"rowPtr": np.array([0, 1]), "colIdx": np.array([0]), "data": np.ones(2)}),
])
def test_a_tensor_its_user_did_not_name_is_called_unnamed(refused):
    """Messages say "tensor NAME: ..."; without a name that was "tensor tensor: ..."."""
    with pytest.raises(spf.SpfError) as caught:
        refused()
    assert str(caught.value).startswith(f"tensor {errors.UNNAMED}: ") and "tensor tensor" not in str(caught.value)
