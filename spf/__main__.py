"""The ``spf`` command: ``spf demo``, ``spf layouts``, ``spf show LAYOUT``.

Every error a user can cause is printed as one line naming the problem, with a
non-zero exit status and no traceback.
"""

from __future__ import annotations

import argparse
import sys

import spf


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spf", description="spf: sparse tensor algebra compiler "
                                     "built on the sparse polyhedral framework")
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="pack a matrix into a layout and derive an iteration space",
                               description="Load a layout, pack a matrix (the 5-point Laplacian of a "
                               "small grid, or a Matrix Market file), derive the iteration space of "
                               "SpMSpV and check it against brute force.")
    demo.add_argument("matrix", nargs="?", help="a Matrix Market (.mtx) file; default: a Laplacian it builds")
    demo.add_argument("-l", "--layout", default="CSR", help="layout of the matrix (default CSR), "
                      "e.g. DCSR, 'BCSR(R=2, C=2)' or a path to a .layout file")
    demo.add_argument("--grid", type=int, default=8, help="grid size of the built-in Laplacian (default 8)")
    commands.add_parser("layouts", help="list the built-in layouts",
                        description="List the built-in layouts.")
    show = commands.add_parser("show", help="print a layout's fields, relation and properties",
                               description="Print a layout's fields, relation and properties.")
    show.add_argument("layout", help="a name, 'NAME(k=v, ...)' or a path to a .layout file")
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    try:
        if arguments.command == "demo":
            from spf.demo import run
            if arguments.grid < 1:
                raise spf.SpfError("--grid must be at least 1")
            run(arguments.matrix, arguments.layout, arguments.grid)
        elif arguments.command == "layouts":
            for name in spf.layouts():
                print(name)
        elif arguments.command == "show":
            print(spf.load_layout(arguments.layout))
    except spf.SpfError as error:
        first, *rest = str(error).splitlines()
        print(f"spf: error: {first}", file=sys.stderr)
        for line in rest:
            print(f"  {line.strip()}" if line.strip() else "", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
