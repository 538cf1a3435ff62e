"""The ``spf`` command line: compile, explain, bench, demo, layouts, show.

Every error a user can cause is printed as one line ``spf: error: ...`` naming the
problem (details such as a caret under an expression follow on indented lines), with
a non-zero exit status and no traceback: 1 for errors of spf, 2 for malformed
command lines.  Any other exception is a bug of spf: it is reported the same way, as
an internal error (``SPF_TRACEBACK=1`` shows its traceback instead).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

import numpy as np

import spf
from spf.codegen.assembly.plan import direct_rows
from spf.codegen.c import runtime
from spf.codegen.c.c_syntax import SHAPE_MISMATCH
from spf.codegen.c.checks import BROKEN_PROPERTY, INCONSISTENT_FIELDS, NULL_ARGUMENT, check_function, fill_checks
from spf.codegen.c.structs import header_text, struct_name
from spf.codegen.finds.find import FIND_POLICIES
from spf.codegen.toolchain.compiler import compile_file, compiler_command
from spf.errors import UsageError
from spf.runtime.kernel import Kernel

EXPRESSION_HELP = "a statement in tensor index notation, e.g. 'y(i) = A(i,j) * x(j)'"
LAYOUT_HELP = ("the layout of one tensor: a built-in name (spf layouts), NAME(k=v, ...) for "
               "parameters, or a path to a .layout file; give one -l per tensor, the output included")


class _Parser(argparse.ArgumentParser):
    """argparse with its errors raised, so that main() prints them as one line."""

    def error(self, message: str):
        raise UsageError(message)


# ----------------------------------------------------------------------------- arguments


def _pairs(items: list[str] | None, option: str, form: str) -> dict[str, str]:
    """``["A=CSR", ...]`` as ``{"A": "CSR"}``, split at the first '=' (layouts may contain '=').

    ``form`` shows the expected shape in messages, e.g. ``TENSOR=LAYOUT``.
    """
    pairs: dict[str, str] = {}
    for item in items or []:
        name, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not name or not value:
            problem = "no '='" if not equals else "nothing before '='" if not name else "nothing after '='"
            raise UsageError(f"{option} {item!r}: {problem}; expected {form}")
        if name in pairs:
            raise UsageError(f"{option} {item!r}: tensor {name} is already given ({name}={pairs[name]})")
        pairs[name] = value
    return pairs


def _read_samples(samples: dict[str, str], search, layouts: dict[str, str]) -> dict:
    """``--sample`` files as the kernel's operands: a Matrix Market (.mtx) or FROSTT (.tns)
    file packed in its tensor's layout, a numpy array (.npy) as it is; every input needs one."""
    from spf.cli.demo import read_matrix  # scipy.io: loaded only when samples are given
    inputs = [factor.name for factor in search.problem.factors]
    missing = [name for name in inputs if name not in samples]
    unknown = [name for name in samples if name not in inputs]
    if unknown:
        raise UsageError(f"--sample {unknown[0]}=...: {unknown[0]} is not an input of the expression "
                         f"(its inputs: {', '.join(inputs)})")
    if missing:
        raise UsageError(f"--sample: no sample for {', '.join(missing)}; the schedule is chosen for "
                         "samples of every input")
    operands = {}
    for name, path in samples.items():
        if not os.path.isfile(path):
            raise spf.SpfError(f"--sample {name}={path}: no such file")
        if path.endswith(".mtx"):
            operands[name] = spf.pack(layouts[name], read_matrix(path), name=name)
        elif path.endswith(".tns"):
            operands[name] = spf.pack(layouts[name], spf.read_tns(path), name=name)
        elif path.endswith(".npy"):
            try:
                operands[name] = np.load(path, allow_pickle=False)
            except (OSError, ValueError) as error:
                raise spf.SpfError(f"--sample {name}={path}: cannot read it as a numpy array: {error}") from None
        else:
            raise spf.SpfError(f"--sample {name}={path}: expected a .mtx, .tns or .npy file")
    return operands


def _order(text: str | None) -> list[str] | None:
    """``"pAi,i,pAj"`` as a list of loop variables."""
    if text is None:
        return None
    variables = [v.strip() for v in text.split(",")]
    if not all(variables):
        raise UsageError(f"--order {text!r}: empty variable name (give v1,v2,...)")
    return variables


def _kernel(arguments: argparse.Namespace) -> Kernel:
    """The kernel that the options of ``compile`` and ``explain`` describe."""
    layouts = _pairs(arguments.layouts, "-l", "TENSOR=LAYOUT, e.g. -l A=CSR")
    share = _pairs(arguments.share, "--share", "OUTPUT=INPUT, e.g. --share A=B")
    samples = _pairs(arguments.samples, "--sample", "TENSOR=FILE, e.g. --sample B=matrix.mtx")
    if samples and not arguments.autoschedule:
        raise UsageError("--sample chooses the autoscheduler's schedule: give --autoschedule too")
    schedule = None
    if arguments.autoschedule:
        # a C library takes its inputs as stored: no copies in other mode orders
        search = spf.autoschedule(arguments.expression, layouts=layouts, share=share or None, mode_orders=False)
        if samples:  # chosen for these operands: by their sizes, timed where the model is unsure
            schedule = search.select(**_read_samples(samples, search, layouts))
        else:  # no operands: the static choice (least memory depth, then loop depth)
            schedule = search.default()
    # build=False: the library is written and compiled where the user asks, not in the kernel cache
    return spf.compile(arguments.expression, layouts, find=arguments.find, parallel=arguments.parallel,
                       share=share or None, schedule=schedule, order=_order(arguments.order), build=False,
                       semiring=arguments.semiring, mask=arguments.mask,
                       mask_values=True if arguments.mask_values else None)


# ----------------------------------------------------------------------------- C libraries


def _comment(lines: list[str]) -> str:
    return "/*\n" + "\n".join(f" * {line}".rstrip() for line in lines) + "\n */\n"


def library_files(kernel: Kernel, name: str) -> tuple[str, str]:
    """The C source and header of a library exporting ``int NAME(...)`` and every variant.

    ``NAME`` calls the statically preferred variant (the first); the header's comment
    lists the find templates of each variant.  The source is self-contained: the run-time
    C files the kernel includes are inlined (a user compiles it with nothing but a C
    compiler, docs/c-abi.md).
    """
    preferred = kernel.kernels[0]
    prototype = preferred.prototype.replace(f"{preferred.function}(", f"{name}(", 1)
    check = preferred.prototype.replace(f"{preferred.function}(", f"{name}_check(", 1)
    arguments = ", ".join(list(kernel.tensors) + ([] if kernel.output in kernel.tensors else [kernel.output])
                          + (["spf_report", "spf_handle"] if kernel.assembly is not None else []))
    wrapper = check_function(check, kernel.expression, kernel.tensors, kernel.output, kernel.assembly is not None)
    wrapper += (f"{prototype[:-1]}\n{{\n  const int spf_status = {name}_check({arguments});\n"
                f"  if (spf_status) return spf_status;\n  return {preferred.function}({arguments});\n}}\n")
    assembled: list[str] = []
    if kernel.assembly is not None:
        output_layout = kernel.tensors[kernel.output].layout
        struct = f"struct {struct_name(output_layout)}"
        assembled = [f"int {name}_fill(void *handle, {struct} *{kernel.output});",
                     f"void {name}_free(void *handle);"]
        checks = "".join(f"  {line}\n" for line in fill_checks(kernel.output, output_layout))
        wrapper += (f"{assembled[0][:-1]}\n{{\n{checks}  return {kernel.assembly_prefix}_fill(handle, {kernel.output});\n}}\n"
                    f"{assembled[1][:-1]}\n{{\n  {kernel.assembly_prefix}_free(handle);\n}}\n")
        if direct_rows(kernel.assembly) is not None:
            assembled.append(f"int {name}_take(void *handle, {struct} *{kernel.output});")
            wrapper += (f"{assembled[2][:-1]}\n{{\n  if (!handle || !{kernel.output}) return {NULL_ARGUMENT};\n"
                        f"  return {kernel.assembly_prefix}_take(handle, {kernel.output});\n}}\n")

    release = f"void {name}_release_state(void);"
    frees = f"  {kernel.release_function}();\n" if kernel.release_function else ""
    wrapper += f"{release[:-1]}\n{{\n{frees}}}\n"

    def finds(choices: tuple) -> str:
        described = [f"find {report.variable}: {choice}" for report, choice in zip(kernel.reports, choices)]
        return "; ".join(described) or "no finds"

    tensors = ", ".join(f"{tensor}: {layout.spec}" + (" (output)" if is_output else "")
                        for tensor, (layout, _, is_output) in kernel.tensors.items())
    lines = [f"{name}: {kernel.expression}", f"  {tensors}",
             f"  compiled with: {' '.join(kernel.flags)}", ""]
    if len(kernel.kernels) == 1:
        lines.append(f"{name} calls {preferred.function} ({finds(kernel.variant_choices[0])}).")
    else:
        lines += [f"{name} calls the statically preferred variant, {preferred.function}",
                  f"  ({finds(kernel.variant_choices[0])}).",
                  "The other variants take the same arguments and compute the same result",
                  "with other find templates (spf's Python side picks one per call by cost):"]
        lines += [f"  {variant.function}: {finds(choices)}"
                  for variant, choices in zip(kernel.kernels[1:], kernel.variant_choices[1:])]
    lines += ["", f"{name} first runs {name}_check (the same arguments; it reads, never writes): 0, or",
              f"  the first problem's code: {NULL_ARGUMENT} (a NULL argument), {INCONSISTENT_FIELDS} (inconsistent "
              f"scalar fields), {SHAPE_MISMATCH} (shapes",
              f"  that disagree), {BROKEN_PROPERTY} (index arrays that break their layout's assumptions or",
              "  properties); the variants do not run it (docs/c-abi.md lists each check)."]
    if kernel.assembly is not None:
        lines += [""] + _assembly_lines(kernel, name)
    lines += ["", f"{name}_release_state() frees the memory the kernels keep between calls (find",
              "  tables and positions, an assembled output's scratch); later calls allocate again."]
    prototypes = ([_comment(lines) + prototype, check] + assembled + [release]
                  + [variant.prototype for variant in kernel.kernels])
    layouts = [layout for layout, _, _ in kernel.tensors.values()]
    header = header_text(layouts, prototypes, f"SPF_{name.upper()}_H")
    return runtime.inline(f"{kernel.c_source}\n{wrapper}"), header


def _assembly_lines(kernel: Kernel, name: str) -> list[str]:
    """The header's account of an assembled output: the calls in order, the arrays to allocate."""
    from spf.codegen.c.emit_stream import kernel_report_length
    out = kernel.output
    layout = kernel.tensors[out].layout
    counts = ", ".join(sorted(kernel.assembly.counts)) or "no count"
    length = kernel_report_length(kernel.assembly, kernel.workspace, kernel.two_phase)
    arrays = ", ".join(f"{f.name}[{']['.join(str(d) for d in f.dimensions)}]" for f in layout.arrays)
    return [f"{out} ({layout.spec}) is assembled: its pattern is what the kernel computes.",
            f"  1. {name}(..., &{out}, report, &handle) computes; it sets {out}'s scalars (the shape",
            f"     and {counts}) and keeps the entries in handle. report: NULL, or {length}",
            "     int64_t that name the entry the layout cannot hold when it returns 3.",
            f"  2. The caller allocates {out}'s arrays: {arrays}.",
            f"  3. {name}_fill(handle, &{out}) writes them (returns 0) and frees handle;",
            f"     {name}_free(handle) frees it without writing (e.g. when an allocation failed).",
            *([f"  Or, instead of 2 and 3: {name}_take(handle, &{out}) returns 0 after pointing {out}'s",
               "     arrays at memory the kernel allocated (free each with free()) and freeing handle;",
               f"     it returns 1 (nothing done) when the result is not held as rows: then 2 and 3."]
              if direct_rows(kernel.assembly) is not None else []),
            "  Return 3: an entry of the result cannot be stored in the output's layout."]


def write_library(kernel: Kernel, directory: Path, name: str) -> list[Path]:
    """Write ``NAME.c`` and ``NAME.h`` into ``directory`` (created if needed) and compile
    ``libNAME.so`` with the kernel's flags; the three paths."""
    command = compiler_command()  # before writing anything: no compiler, no files
    source, header = library_files(kernel, name)
    c_file, h_file, library = directory / f"{name}.c", directory / f"{name}.h", directory / f"lib{name}.so"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        c_file.write_text(source)
        h_file.write_text(header)
    except OSError as error:
        raise spf.SpfError(f"cannot write {error.filename or directory}: {error.strerror or error}") from None
    compile_file(command, c_file, kernel.flags, library)
    return [c_file, h_file, library]


# ----------------------------------------------------------------------------- commands


def _compile_command(arguments: argparse.Namespace) -> int:
    target = Path(arguments.output)
    if not (target.name.isascii() and target.name.isidentifier()):
        raise UsageError(f"-o {arguments.output!r}: NAME must be a C identifier (letters, digits, '_'): "
                         "it names the library and its function")
    for path in write_library(_kernel(arguments), target.parent, target.name):
        print(f"wrote {path}")
    return 0


def _explain_command(arguments: argparse.Namespace) -> int:
    kernel = _kernel(arguments)
    print(kernel.explain())
    if arguments.c:
        print()
        print(kernel.c_source)
    return 0


def _bench_command(arguments: argparse.Namespace) -> int:
    try:
        bench = importlib.import_module("spf.cli.bench")
    except ImportError as error:
        raise spf.SpfError(f"the benchmarks are not available in this build ({error})") from None
    return bench.run(quick=arguments.quick, output=arguments.output)


def _demo_command(arguments: argparse.Namespace) -> int:
    from spf.cli.demo import run
    options = {} if arguments.grid is None else {"grid": arguments.grid}  # else the demo's default
    return run(arguments.files or None, arguments.layout, **options)


def _layouts_command(arguments: argparse.Namespace) -> int:
    for name in spf.layouts():
        print(name)
    return 0


def _show_command(arguments: argparse.Namespace) -> int:
    print(spf.load_layout(arguments.layout))
    return 0


# ----------------------------------------------------------------------------- parser


def _kernel_options() -> argparse.ArgumentParser:
    """The options that describe a kernel, shared by ``compile`` and ``explain``."""
    options = _Parser(add_help=False)
    options.add_argument("expression", metavar="EXPR", help=EXPRESSION_HELP)
    options.add_argument("-l", "--layout", dest="layouts", action="append", metavar="TENSOR=LAYOUT",
                         help=LAYOUT_HELP)
    options.add_argument("--find", choices=FIND_POLICIES, default="auto",
                         help="how a tensor's nonzeros are matched against another's: auto (default: "
                         "every template Z3 proves valid, one C function each) or one template, "
                         "refused with the failed assumption when it is not proven")
    options.add_argument("--parallel", action="store_true",
                         help="run the outermost loop the dependence test proves free of dependences "
                         "with OpenMP")
    options.add_argument("--share", action="append", metavar="OUTPUT=INPUT",
                         help="the output uses the input's index arrays: the result restricted to "
                         "that input's pattern (a masked product), e.g. --share A=B")
    options.add_argument("--order", metavar="V1,V2,...",
                         help="the loop order: every variable of the iteration space (see spf explain)")
    options.add_argument("--autoschedule", action="store_true",
                         help="let the autoscheduler choose the schedule")
    options.add_argument("--sample", dest="samples", action="append", metavar="TENSOR=FILE",
                         help="with --autoschedule: an input to choose the schedule for (.mtx or .tns, "
                         "packed in its layout; .npy for a dense array), one per input; the choice is "
                         "then by their sizes, timing the closest candidates where the model is unsure "
                         "(without samples: the least memory depth)")
    options.add_argument("--semiring", default="plus_times", metavar="NAME",
                         help="what + and * mean, as GraphBLAS names it: plus_times (default), min_plus, "
                         "lor_land, any_pair, plus_pair, ...")
    options.add_argument("--mask", metavar="M|~M",
                         help="compute the output only at the entries of tensor M (~M: only where M has none); "
                         "in a C library, a complemented or dense mask is a 0/1 keep array in layout Mask1 or "
                         "Mask2 (1: computed), which the caller fills")
    options.add_argument("--mask-values", action="store_true",
                         help="a sparse mask's entries are its nonzero values, not its stored positions")
    return options


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="spf", description="spf: a compiler for sparse tensor algebra built on the "
                     "sparse polyhedral framework")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    kernel_options = _kernel_options()

    compile_ = commands.add_parser(
        "compile", parents=[kernel_options], help="write a C library (NAME.c, NAME.h, libNAME.so)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Compile EXPR for the given layouts into a C library for applications:\n"
        "DIR/NAME.c, DIR/NAME.h (one struct per layout, the prototypes, the ABI) and\n"
        "DIR/libNAME.so, which exports int NAME(...) and one function per find variant.",
        epilog="example:\n  spf compile 'y(i) = A(i,j) * x(j)' -l A=CSR -l x=Dense -l y=Dense -o build/spmv\n"
        "  cc app.c -Ibuild -Lbuild -lspmv -Wl,-rpath,build\n\nThe ABI is described in docs/c-abi.md.")
    compile_.add_argument("-o", "--output", required=True, metavar="DIR/NAME",
                          help="where to write; NAME (a C identifier) names the library and its function")
    compile_.set_defaults(handler=_compile_command)

    explain = commands.add_parser(
        "explain", parents=[kernel_options], help="print the iteration space, loop nest and find choices",
        description="Print how EXPR is compiled: the iteration space, the loop order and nest, the "
        "dependence tests (with --parallel) and each find with the chosen template and why the "
        "others were rejected.")
    explain.add_argument("--c", action="store_true", help="also print the generated C")
    explain.set_defaults(handler=_explain_command)

    bench = commands.add_parser("bench", help="run the benchmarks",
                                description="Run the benchmarks against scipy.sparse and the other "
                                "tools installed, and report medians and ratios.")
    size = bench.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="quick", action="store_true", default=True,
                      help="a short run on small inputs (default)")
    size.add_argument("--full", dest="quick", action="store_false", help="the full run")
    bench.add_argument("--output", metavar="DIR", help="write the results to DIR")
    bench.set_defaults(handler=_bench_command)

    demo = commands.add_parser("demo", help="compile kernels and run, check and time them on your data",
                               description="Compile the demo's kernels, then run, check and time them "
                               "on matrices (Matrix Market .mtx) and tensors (FROSTT .tns), or, with no "
                               "file, on a built-in Laplacian and a random tensor.")
    demo.add_argument("files", nargs="*", metavar="FILE", help="a .mtx or .tns file")
    demo.add_argument("-l", "--layout", help="the matrix layout of SpMV (default CSR), e.g. DCSR, "
                      "'BCSR(R=2, C=2)' or a path to a .layout file")
    demo.add_argument("--grid", type=int, metavar="N", help="size of the built-in inputs: the Laplacian "
                      "of an N x N grid and an N x N x N random tensor")
    demo.set_defaults(handler=_demo_command)

    layouts = commands.add_parser("layouts", help="list the built-in layouts",
                                  description="List the built-in layouts.")
    layouts.set_defaults(handler=_layouts_command)

    show = commands.add_parser("show", help="print a layout's fields, relation and properties",
                               description="Print a layout's fields, relation and properties.")
    show.add_argument("layout", help="a name, 'NAME(k=v, ...)' or a path to a .layout file")
    show.set_defaults(handler=_show_command)
    return parser


# ----------------------------------------------------------------------------- main


def _report(message: str) -> None:
    """``spf: error: FIRST LINE`` and the message's further lines indented, on stderr."""
    first, *rest = message.splitlines() or [""]
    print(f"spf: error: {first}", file=sys.stderr)
    for line in rest:
        print(f"  {line}".rstrip(), file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the ``spf`` command with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    try:
        arguments = _parser().parse_args(argv)
        return arguments.handler(arguments)
    except UsageError as error:
        _report(str(error))
        return 2
    except spf.NotationError as error:
        _report(f"expression: {error}")
        return 1
    except spf.SpfError as error:
        _report(str(error))
        return 1
    except OSError as error:
        _report(f"{error.filename}: {error.strerror}" if error.filename else str(error))
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug of spf, still reported as one line
        if os.environ.get("SPF_TRACEBACK"):
            raise
        _report(f"internal error (a bug in spf, please report it; SPF_TRACEBACK=1 shows where): "
                f"{type(error).__name__}: {error}")
        return 1
