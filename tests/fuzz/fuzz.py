"""The differential fuzzer's command line: run a profile, print the counts per class,
write minimized reproducers of every failure.

    .venv/bin/python tests/fuzz/fuzz.py                                  # the long profile: 10,000 cases
    .venv/bin/python tests/fuzz/fuzz.py --profile short                  # what tests/fuzz/test_fuzz.py runs
    .venv/bin/python tests/fuzz/fuzz.py --cases 2000 --seed 7 --jobs 2 --reproducers fuzz-failures.md
    .venv/bin/python tests/fuzz/fuzz.py --family 'spmspm|sddmm'          # only these expression families

Run the long profile before closing a change to code generation: it must end with no
failure (exit status 0).  A case is one (kernel, data set) check of every variant;
a compiled kernel is reused for several data sets.  See tests/fuzz/fuzz_harness.py for the
classes and tests/fuzz/fuzz_cases.py for what is generated.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_cases import generate  # noqa: E402
from fuzz_harness import CLASSES, PROFILES, WorkerPool, minimize, reproducer, run_cases  # noqa: E402


def group_failures(failures) -> list[tuple[str, list]]:
    """Failures grouped by cause, the largest group first."""
    groups = defaultdict(list)
    for failure in failures:
        groups[failure.cause].append(failure)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def write_reproducers(path: Path, groups, minimized: dict, arguments: str, summary: str) -> None:
    lines = [f"# Fuzz failures ({arguments})", "", "```", summary, "```", ""]
    for cause, failures in groups:
        kernels = {f.kernel for f in failures}
        lines += [f"## {cause}", "", f"{len(failures)} cases, {len(kernels)} kernels.", ""]
        shown = minimized.get(cause, failures[0])
        lines += ["```python", reproducer(shown), "```", ""]
        others = [f for f in failures if f is not failures[0]][:4]
        if others:
            lines.append("Other cases:")
            lines += [f"- `{f.kernel.expression}` {dict(f.kernel.layouts)} find={f.kernel.find} "
                      f"parallel={f.kernel.parallel} plan={f.plan} data={f.data.extent_map}" for f in others]
            lines.append("")
    path.write_text("\n".join(lines))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", choices=sorted(PROFILES), default="long")
    parser.add_argument("--cases", type=int, help="(kernel, data) cases to generate (default: the profile's)")
    parser.add_argument("--seed", type=int, help="generation seed (default: the profile's)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--threads", type=int, default=2, help="OpenMP threads per worker (default 2)")
    parser.add_argument("--repeats", type=int, help="runs of each parallel kernel variant (races are intermittent)")
    parser.add_argument("--timeout", type=float, default=90.0,
                        help="seconds without progress (a compile, a kernel run) before a worker is stopped")
    parser.add_argument("--no-load", action="store_true",
                        help="no busy process beside the workers (races then show far less often)")
    parser.add_argument("--family", help="only expression families matching this regular expression")
    parser.add_argument("--reproducers", type=Path, default=Path("fuzz-failures.md"),
                        help="where to write the failures and their reproducers (default fuzz-failures.md)")
    parser.add_argument("--minimize", type=int, default=20, metavar="GROUPS",
                        help="minimize the first case of this many failure groups (default 20; 0: none)")
    options = parser.parse_args(argv)
    profile = PROFILES[options.profile]
    data_per_kernel = profile.data_per_kernel
    count = options.cases if options.cases is not None else profile.kernels * data_per_kernel
    seed = profile.seed if options.seed is None else options.seed
    repeats = options.repeats or profile.repeats
    cases = generate(math.ceil(count / data_per_kernel), seed, data_per_kernel)
    if options.family:
        cases = [c for c in cases if re.search(options.family, c.kernel.family)]
    started = time.monotonic()

    def progress(done, total, tally):
        if done % 25 == 0 or done == total:
            counts = ", ".join(f"{kind} {tally.cases[kind]}" for kind in CLASSES if tally.cases[kind])
            print(f"[{time.monotonic() - started:6.0f} s] {done}/{total} kernels: {counts}", flush=True)

    print(f"{len(cases)} kernels x {data_per_kernel} data sets, seed {seed}, {options.jobs} workers x "
          f"{options.threads} OpenMP threads, {repeats} runs per parallel variant", flush=True)
    with WorkerPool(options.jobs, {"OMP_NUM_THREADS": str(options.threads), "SPF_PARALLEL_GRAIN": "1"}, load=not options.no_load) as pool:
        tally = run_cases(cases, repeats=repeats, timeout=options.timeout, pool=pool, progress=progress)
        summary = tally.summary()
        print(summary)
        groups = group_failures(tally.failures)
        arguments = f"--profile {options.profile} --cases {count} --seed {seed} --repeats {repeats}"
        minimized = {}
        if groups:
            write_reproducers(options.reproducers, groups, minimized, arguments, summary)
            print(f"\n{len(tally.failures)} failing cases in {len(groups)} groups (written to {options.reproducers}):")
            for cause, failures in groups:
                print(f"  {len(failures):5d}  {cause}")
        for cause, failures in groups[:options.minimize]:
            print(f"minimizing: {cause}", flush=True)
            budget = 4 if failures[0].result.kind == "hang" else 16
            minimized[cause] = minimize(failures[0], pool, repeats=max(repeats, 8), timeout=options.timeout,
                                        budget=budget)
            write_reproducers(options.reproducers, groups, minimized, arguments, summary)
    print("\nrefusals (SpfError at compile time), most frequent first:")
    for line, number in tally.refusals.most_common(12):
        print(f"  {number:5d}  {line}")
    print("\nslowest kernels:")
    for seconds, kernel in tally.slowest[:5]:
        print(f"  {seconds:6.1f} s  {kernel.expression}  {dict(kernel.layouts)}  {kernel.schedule}")
    if groups:
        print(f"\n{len(tally.failures)} failing cases in {len(groups)} groups; reproducers in {options.reproducers}")
        return 1
    print("\nno failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
