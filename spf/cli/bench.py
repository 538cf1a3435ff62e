"""The benchmark report: the demo's kernels on built-in and real inputs, as markdown and plots.

``spf.cli.bench.run(quick, output)`` runs a compact suite (SpMV, SpMSpV with x at two
densities, SDDMM and TTM, from :mod:`spf.cli.demo`) on the built-in inputs and, when the data
directory is present ($SPF_DATA, else ``../shared/data`` beside the repository), on a few
real matrices and tensors; it checks every spf result, then writes ``report.md`` (a table
of times and ratios and the machine) and bar charts of the speedups as PNG files
(matplotlib, when installed).  ``benchmarks/report.py`` builds the repository's full
report from the same functions.
"""

from __future__ import annotations

import datetime
import functools
import importlib.util
import math
import os
import platform
import shlex
import subprocess
from pathlib import Path
from typing import Callable

import numpy as np

import spf
from spf.cli import demo
from spf.cli.demo import Measurement

DENSITIES = (0.01, 0.1)  # of x in SpMSpV
QUICK = {"grid": 64, "tensor": (64, 64, 64), "budget": 0.05,
         "matrices": ["bcsstk13", "ca-GrQc"], "tensors": ["nations"]}
FULL = {"grid": 256, "tensor": (128, 128, 128), "budget": 0.3,
        "matrices": ["494_bus", "west0479", "bcsstk13", "ca-GrQc", "email-Eu-core", "cage10",
                     "astro-ph", "EX5", "ct2010", "BlogCatalog3"],
        "tensors": ["nations", "kinship", "collegemsg-daily", "nell-995", "fb13"]}
PLOTS = {"scipy": "speedup-vs-scipy.png", "GraphBLAS": "speedup-vs-graphblas.png"}


def data_directory() -> Path:
    """The real matrices and tensors: $SPF_DATA, else ``../shared/data`` beside the repository."""
    repository = Path(__file__).resolve().parents[2]
    return Path(os.environ.get("SPF_DATA", repository.parent / "shared" / "data"))


def machine() -> dict[str, str]:
    """What the numbers were measured on: CPU, cores, C compiler, libraries, date, load."""
    from spf.codegen.toolchain.compiler import CFLAGS, compiler
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), cpu)
    except OSError:
        pass
    try:
        result = subprocess.run([*shlex.split(compiler()), "--version"], capture_output=True, text=True)
        version = (result.stdout or result.stderr).partition("\n")[0].strip()
    except OSError as error:
        version = f"{compiler()} (cannot run it: {error.strerror})"
    gb = demo.serial_graphblas()
    import scipy
    return {
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "C compiler": f"{version}, flags {' '.join(CFLAGS)}",
        "GraphBLAS": (f"SuiteSparse:GraphBLAS {'.'.join(map(str, gb.ss.about['library_version']))} "
                      f"(python-graphblas {gb.__version__}), 1 thread" if gb is not None else "not installed"),
        "Python": f"{platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "load": f"{os.getloadavg()[0]:.2f} runnable processes (1-minute average; other users' work slows the timings)",
    }


def collect(quick: bool, say: Callable[[str], None] = print) -> tuple[list[Measurement], list[str]]:
    """Check and time every case; the measurements and notes on inputs that were skipped."""
    settings = QUICK if quick else FULL
    kernels = demo.compile_kernels()
    gb = demo.serial_graphblas()
    grid = settings["grid"]
    shape = settings["tensor"]
    matrices = [(f"Laplacian {grid}x{grid}", demo.laplacian_2d(grid))]
    tensors = [(f"random {shape[0]}x{shape[1]}x{shape[2]}",
                demo.random_tensor(shape, round(math.prod(shape) * demo.TENSOR_DENSITY), seed=7))]
    notes = []
    data = data_directory()
    if not (data / "matrices").is_dir() or not (data / "tensors").is_dir():
        notes.append(f"real inputs skipped: {data} has no matrices/ and tensors/ "
                     "(set SPF_DATA or place ../shared/data beside the repository)")
    else:
        for name in settings["matrices"]:
            path = data / "matrices" / f"{name}.mtx"
            if path.exists():
                matrices.append((name, demo.read_matrix(str(path))))
            else:
                notes.append(f"skipped {path}: missing")
        for name in settings["tensors"]:
            path = data / "tensors" / f"{name}.tns"
            if path.exists():
                tensors.append((name, spf.read_tns(path)))
            else:
                notes.append(f"skipped {path}: missing")
    for note in notes:
        say(note)

    measurements = []
    for label, matrix in matrices:
        for case in demo.matrix_cases(kernels, label, matrix, gb, densities=DENSITIES):
            measurements.append(demo.measure(case, settings["budget"]))
        say(f"  measured {label}")
    for label, tensor in tensors:
        measurements.append(demo.measure(demo.tensor_case(kernels, label, tensor, gb), settings["budget"]))
        say(f"  measured {label}")
    return measurements, notes


def geometric_mean(values: list[float]) -> float:
    """Geometric mean of positive values."""
    return math.exp(sum(math.log(v) for v in values) / len(values))


def kernel_table(measurements: list[Measurement], graphblas_installed: bool) -> str:
    """The measurements as a markdown table, then the geometric-mean ratios."""
    rows = demo.table_rows(measurements, graphblas_installed)
    right = ["---"] * 2 + ["---:"] * (len(demo.COLUMNS) - 2)
    lines = ["| " + " | ".join(cells) + " |" for cells in [list(demo.COLUMNS), right, *rows]]
    means = []
    for name, attribute in (("scipy", "scipy"), ("GraphBLAS", "graphblas")):
        ratios = [r for m in measurements if (r := demo.ratio(getattr(m, attribute), m.spf))]
        if ratios:
            means.append(f"{name}/spf {geometric_mean(ratios):.2f} over {len(ratios)} rows")
    if means:
        lines.append(f"\nGeometric means: {'; '.join(means)}.")
    return "\n".join(lines)


def bar_chart(pairs: list[tuple[str, float]], path: Path, title: str, xlabel: str) -> None:
    """A horizontal bar per (label, ratio), from 1 on a log scale (green above 1, red below)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels, values = zip(*pairs)
    figure, axes = plt.subplots(figsize=(9, 0.3 * len(pairs) + 1.2))
    positions = np.arange(len(values))[::-1]
    axes.barh(positions, [v - 1 for v in values], left=1,
              color=["tab:green" if v >= 1 else "tab:red" for v in values])
    for position, value in zip(positions, values):
        axes.text(value, position, f" {value:.2f} ", va="center", ha="left" if value >= 1 else "right", fontsize=7)
    axes.set_yticks(positions, labels, fontsize=8)
    axes.axvline(1.0, color="black", linewidth=0.8)
    axes.set_xscale("log")
    axes.margins(x=0.15)
    axes.set_xlabel(xlabel)
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write_plots(measurements: list[Measurement], directory: Path, say: Callable[[str], None] = print) -> list[str]:
    """A bar chart of the speedups per kernel and input against each baseline; the PNGs' names."""
    if importlib.util.find_spec("matplotlib") is None:
        say("matplotlib is not installed (pip install 'spf[bench]'): no plots")
        return []
    written = []
    for baseline, name in PLOTS.items():
        pairs = [(f"{m.kernel} | {m.input}", r) for m in measurements
                 if (r := demo.ratio(getattr(m, baseline.lower()), m.spf))]
        if pairs:
            bar_chart(pairs, directory / name, f"spf against {baseline}",
                      f"{baseline} time / spf time (log scale; right of 1: spf is faster)")
            written.append(name)
    return written


def markdown_section(measurements: list[Measurement], notes: list[str], plots: list[str],
                     graphblas_installed: bool) -> str:
    """The kernel table with how it was measured, skipped inputs and the plots."""
    parts = [kernel_table(measurements, graphblas_installed), "",
             "spf is timed through bound kernels (inputs packed once: only the C call), scipy "
             "(numpy for SDDMM's sampling) and GraphBLAS through their Python calls; every time is the "
             "median of repeated runs, every ratio baseline time / spf time (above 1: spf is faster). "
             "Every spf result is checked against scipy's before timing. SpMSpV rows give the find "
             "that find=\"auto\" chose."]
    parts += [f"- {note}" for note in notes]
    parts += [f"\n![{name}]({name})" for name in plots]
    return "\n".join(parts)


def machine_section(info: dict[str, str]) -> str:
    return "\n".join(f"- {key}: {value}" for key, value in info.items())


def run(quick: bool = True, output: str | None = None) -> int:
    """Run the suite and write ``report.md`` and the plots to ``output`` (default
    ``spf-bench``); 0 when every check passed, 1 otherwise."""
    directory = Path(output or "spf-bench")
    directory.mkdir(parents=True, exist_ok=True)
    say = functools.partial(print, flush=True)
    say(f"spf bench ({'quick' if quick else 'full'}): writing {directory / 'report.md'}")
    measurements, notes = collect(quick, say)
    info = machine()
    graphblas_installed = demo.serial_graphblas() is not None
    plots = write_plots(measurements, directory, say)
    report = (f"# spf benchmark report ({'quick' if quick else 'full'})\n\n## Machine\n\n{machine_section(info)}\n\n"
              f"## Kernels\n\n{markdown_section(measurements, notes, plots, graphblas_installed)}\n")
    (directory / "report.md").write_text(report)
    say(demo.text_table(demo.table_rows(measurements, graphblas_installed)))
    say(f"wrote {directory / 'report.md'}" + (f" and {', '.join(plots)}" if plots else ""))
    return demo.report_failures(measurements, say)
