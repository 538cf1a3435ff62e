"""The benchmark report: every suite's key table and spf.cli.bench's kernels in results/report.md.

Run: python benchmarks/report.py [--reuse]

Runs each suite below and saves its output as results/NAME.txt (a suite that fails
keeps its previous file, and the report says so), runs ``spf.cli.bench`` in full (the
demo's kernels against scipy and GraphBLAS on built-in and real inputs), and writes
results/report.md with the machine, spf.cli.bench's table, each suite's summary and bar
charts (results/*.png, when matplotlib is installed).

The long suites (spmv_spmspv, spmspm_pairs, parallel: together well over 10 minutes,
parallel.py alone about 6 minutes and 8 GB of memory) run again only without
``--reuse``; with it their existing results/*.txt are read as they are, so the report
can be regenerated in a few minutes.  The short suites (codegen_time,
iteration_space_time) and spf.cli.bench always run.  results/autoschedule.txt, when
present, is included verbatim (its script, benchmarks/autoschedule.py, is run with the
long suites when it exists).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from spf.cli import bench, demo

BENCHMARKS = Path(__file__).resolve().parent
REPOSITORY = BENCHMARKS.parent
RESULTS = BENCHMARKS / "results"

# "  label   1.23  (47 matrices)": a geometric-mean line of a suite's summary
SUMMARY_LINE = re.compile(r"^\s+(\S.*?)\s{2,}(\d+\.\d+)\s+\(\d+ [\w -]+\)")
RATIO = "baseline time / spf time (geometric mean, log scale; right of 1: spf is faster)"


@dataclass(frozen=True)
class Suite:
    """A benchmark script, how the report runs it and which part of its output it shows."""

    name: str
    arguments: tuple[str, ...] = ()
    long: bool = False  # skipped with --reuse
    summary: str | None = None  # the summary starts at the last line starting with this; None: all
    plot: str | None = None  # the x label of a bar chart of the summary's geometric means (None: no chart)
    keep: tuple[str, ...] = ()  # plot only summary lines containing one of these (all when empty)


SUITES = [
    Suite("spmv_spmspv", long=True, summary="geometric-mean speedups", plot=RATIO,
          keep=("SpMV", "auto", "x-driven")),
    Suite("spmspm_pairs", long=True, summary="geometric-mean ratios", plot=RATIO),
    Suite("parallel", ("--wait-idle", "600"), long=True, summary="geometric-mean speedup",
          plot="serial time / time on 2 threads (geometric mean, log scale)"),
    Suite("codegen_time"),
    Suite("iteration_space_time"),
    # writes results/autoschedule.txt itself as it prints; here only the printed copy is kept, as for the others
    Suite("autoschedule", ("--output", os.devnull), long=True),
]


def title(suite: Suite) -> str:
    """The first line of the script's docstring (the suite's name when the script is absent)."""
    script = BENCHMARKS / f"{suite.name}.py"
    if not script.exists():
        return suite.name
    docstring = ast.get_docstring(ast.parse(script.read_text())) or suite.name
    return docstring.splitlines()[0].rstrip(".")


def rerun(suite: Suite) -> str:
    """Run the suite, echoing its output, and save it as results/NAME.txt if it succeeds;
    what happened, for the report."""
    command = [sys.executable, str(BENCHMARKS / f"{suite.name}.py"), *suite.arguments]
    shown = f"python benchmarks/{suite.name}.py {' '.join(suite.arguments)}".rstrip()
    print(f"\n== {shown}", flush=True)
    lines = []
    with subprocess.Popen(command, cwd=REPOSITORY, stdout=subprocess.PIPE, text=True) as process:
        for line in process.stdout:
            print(line, end="", flush=True)
            lines.append(line)
    if process.returncode != 0:
        return f"`{shown}` failed with exit status {process.returncode}; showing the previous results"
    (RESULTS / f"{suite.name}.txt").write_text("".join(lines))
    return f"made now by `{shown}`"


def summary(text: str, marker: str | None) -> str:
    """The part of a suite's output from the last line starting with ``marker`` (all of it for None)."""
    lines = text.rstrip("\n").splitlines()
    if marker is not None:
        starts = [n for n, line in enumerate(lines) if line.lstrip().startswith(marker)]
        if starts:
            lines = lines[starts[-1]:]
    return "\n".join(lines)


def section(suite: Suite, origin: str) -> str:
    """The report's section for one suite: where its numbers come from, its summary, its chart."""
    path = RESULTS / f"{suite.name}.txt"
    if not path.exists():
        return f"## {title(suite)}\n\nNo results: {path.name} is missing ({origin}).\n"
    text = path.read_text()
    header = text.splitlines()[0] if text.startswith("#") else ""
    key = summary(text, suite.summary)
    parts = [f"## {title(suite)}", "", f"From [{path.name}]({path.name}), {origin}."]
    if header and header not in key:
        parts += ["", f"`{header.lstrip('# ')}`"]
    parts += ["", "```text", key, "```"]
    if suite.plot:
        pairs = [(match[1], float(match[2])) for line in key.splitlines()
                 if (match := SUMMARY_LINE.match(line)) and (not suite.keep or any(k in match[1] for k in suite.keep))]
        name = f"{suite.name}.png"
        if pairs and write_chart(pairs, name, f"benchmarks/{suite.name}.py: geometric means", suite.plot):
            parts += ["", f"![{name}]({name})"]
    return "\n".join(parts) + "\n"


def write_chart(pairs: list[tuple[str, float]], name: str, heading: str, xlabel: str) -> bool:
    """results/NAME as a bar chart, if matplotlib is installed."""
    try:
        bench.bar_chart(pairs, RESULTS / name, heading, xlabel)
    except ImportError:
        return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse", action="store_true",
                        help="read the long suites' existing results/*.txt instead of running them")
    arguments = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)

    origins = {}
    for suite in SUITES:
        script_exists = (BENCHMARKS / f"{suite.name}.py").exists()
        if (arguments.reuse and suite.long) or not script_exists:
            origins[suite.name] = "as saved earlier (not run again)"
        else:
            origins[suite.name] = rerun(suite)

    print("\n== spf.cli.bench (full)", flush=True)
    measurements, notes = bench.collect(quick=False)
    info = bench.machine()
    graphblas_installed = demo.serial_graphblas() is not None
    plots = bench.write_plots(measurements, RESULTS)

    parts = ["# spf benchmark results", "",
             f"Made by `python benchmarks/report.py{' --reuse' if arguments.reuse else ''}`. "
             "Ratios are baseline time / spf time: above 1, spf is faster.", "",
             "## Machine", "", bench.machine_section(info), "",
             "## The demo's kernels against scipy and GraphBLAS (spf.cli.bench, full)", "",
             bench.markdown_section(measurements, notes, plots, graphblas_installed), ""]
    for suite in SUITES:
        if suite.name == "autoschedule" and not (RESULTS / "autoschedule.txt").exists():
            continue  # not written yet
        parts.append(section(suite, origins[suite.name]))
    (RESULTS / "report.md").write_text("\n".join(parts))
    print(f"\nwrote {RESULTS / 'report.md'}")
    return demo.report_failures(measurements, print)


if __name__ == "__main__":
    sys.exit(main())
