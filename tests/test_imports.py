"""The package's import graph, imports inside functions included (issue 26, item 5).

Read from the source with ``ast``: an import made inside a function to dodge a circle is
still a circle.  Imports under ``if TYPE_CHECKING:`` do not run and do not count.  The
graph has no circle; the compiler's stages never import the run time (the run time calls
the compiler and wraps its output, the kernel's description in spf.codegen.compiled); and no
private name is imported from another module.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
PACKAGES = {"spf": REPOSITORY / "spf", "spf.layout_library": REPOSITORY / "layouts"}

# The stages a compile goes through (README, "Repository"), and what calls them: the compiler's
# packages never reach the run time's, the command line's or the distributed layer's modules.
COMPILER = ("spf.layout_library", "spf.notation", "spf.space", "spf.scheduling", "spf.codegen")
CALLERS = ("spf.runtime", "spf.distributed", "spf.cli")


def modules() -> dict[str, Path]:
    found = {}
    for prefix, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = [p for p in path.relative_to(folder).with_suffix("").parts if p != "__init__"]
            found[".".join([prefix, *parts])] = path
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return skipped


def import_graph() -> tuple[dict[str, set[str]], list[tuple[str, str, str]]]:
    """Module -> the package modules it imports; and (importer, module, name) of each private name."""
    known = modules()
    graph: dict[str, set[str]] = defaultdict(set)
    private = []
    for name, path in known.items():
        tree = ast.parse(path.read_text())
        skipped = _type_checking_only(tree)
        base = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = base.split(".")
                    parts = parts[:len(parts) - (node.level - 1)]
                    target = ".".join(parts + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    candidate = f"{target}.{alias.name}"
                    imported = candidate if candidate in known else target
                    if imported in known and imported != name:
                        graph[name].add(imported)
                        if alias.name.startswith("_") and not alias.name.startswith("__"):
                            private.append((name, imported, alias.name))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known and alias.name != name:
                        graph[name].add(alias.name)
    return graph, private


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.get(module, ()):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in list(graph):
        if module not in index:
            visit(module)
    return found


def test_the_graph_is_read_from_every_module():
    graph, _ = import_graph()
    assert len(modules()) > 60 and "spf.codegen.pipeline" in graph
    assert "spf.space.sets" in graph["spf.space.iteration_space"]


def test_the_import_graph_has_no_circle():
    graph, _ = import_graph()
    assert circles(graph) == []


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen, stack = set(), [start]
    while stack:
        for imported in graph.get(stack.pop(), ()):
            if imported not in seen:
                seen.add(imported)
                stack.append(imported)
    return seen


def _in(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def test_the_compiler_does_not_import_the_run_time():
    """The run time calls the compiler and wraps its output (spf.codegen.compiled), never the
    reverse: no module of a compiler stage reaches one of the run time, distributed or cli."""
    graph, _ = import_graph()
    compiler = [module for module in modules() if _in(module, COMPILER)]
    assert len(compiler) > 40
    assert {module: sorted(m for m in reachable(graph, module) if _in(m, CALLERS)) for module in compiler} == \
        {module: [] for module in compiler}


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_private_name_is_imported_from_another_module():
    """A name another module needs is public in the module whose job it is."""
    _, private = import_graph()
    assert private == []
