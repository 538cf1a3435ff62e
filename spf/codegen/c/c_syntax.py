"""The C printer's vocabulary: pycparser ``c_ast`` built by small helpers, C parsed from
text where it reads best as C (:func:`c_statements`), and the constants every part of
the printer shares (the index type, the kernel's status codes)."""

from __future__ import annotations

from pycparser import c_ast, c_generator, c_parser

INDEX = "int64_t"
KEPT = "spf_kept"  # the kernel's find state kept between calls (spf_state slots), a parameter of its body
SHAPE_MISMATCH, OUT_OF_MEMORY = 1, 2
UNSTORABLE = 3  # an assembled output: an entry its layout cannot hold (report names it)


def ident(name: str) -> c_ast.ID:
    return c_ast.ID(name)


def const(value: int | float) -> c_ast.Constant:
    if isinstance(value, float):
        return c_ast.Constant("double", repr(value))
    return c_ast.Constant("int", str(value)) if value >= 0 else c_ast.UnaryOp("-", c_ast.Constant("int", str(-value)))


def binary(op: str, left: c_ast.Node, right: c_ast.Node) -> c_ast.BinaryOp:
    return c_ast.BinaryOp(op, left, right)


def call(function: str, *arguments: c_ast.Node) -> c_ast.FuncCall:
    return c_ast.FuncCall(ident(function), c_ast.ExprList(list(arguments)))


def declare(name: str, c_type: str, value: c_ast.Node | None = None, pointer: bool = False, const_: bool = False,
            restrict: bool = False) -> c_ast.Decl:
    qualifiers = ["const"] if const_ else []
    declarator = c_ast.TypeDecl(name, qualifiers, None, c_ast.IdentifierType([c_type]))
    if pointer:
        declarator = c_ast.PtrDecl(["restrict"] if restrict else [], declarator)
    return c_ast.Decl(name, qualifiers, [], [], [], declarator, value, None)


def assign(target: str | c_ast.Node, value: c_ast.Node, op: str = "=") -> c_ast.Assignment:
    return c_ast.Assignment(op, target if not isinstance(target, str) else ident(target), value)


def block(items: list) -> c_ast.Compound:
    return c_ast.Compound(items)


def conjunction(conditions: list) -> c_ast.Node:
    result = None
    for condition in conditions:
        result = condition if result is None else binary("&&", result, condition)
    return result if result is not None else const(1)


def c_text(expression: c_ast.Node) -> str:
    """An expression (or statement) printed as C text, to splice into C written as text."""
    return c_generator.CGenerator().visit(expression)


def replace_marker(items: list, marker: str, replacement: c_ast.Node) -> bool:
    """Put ``replacement`` where the parsed statements call ``marker()``, in place."""
    for node in items:
        for name, child in list(node.children()):
            if isinstance(child, c_ast.FuncCall) and isinstance(child.name, c_ast.ID) and child.name.name == marker:
                field, _, index = name.partition("[")
                if index:
                    getattr(node, field)[int(index[:-1])] = replacement
                else:
                    setattr(node, field, replacement)
                return True
            if replace_marker([child], marker, replacement):
                return True
    return False


def c_statements(text: str) -> list:
    """C statements parsed from text (pycparser), for code that reads best as C."""
    prelude = ("typedef long int64_t; typedef int int32_t; typedef unsigned long size_t; typedef int spf_key; "
               "typedef int spf_cursor_key; "
               "typedef int spf_pointer_type; typedef struct spf_bitmap_ spf_bitmap; "
               "typedef struct spf_stream_ spf_stream; "
               "typedef struct spf_workspace_ spf_workspace; typedef struct spf_rows_ spf_rows; "
               "typedef struct spf_scratch_ spf_scratch; typedef struct spf_state_ spf_state; "
               "typedef struct spf_workspaces_ spf_workspaces; typedef struct spf_run_ spf_run;\n")
    unit = c_parser.CParser().parse(prelude + "void spf_snippet(void) {" + text + "}")
    return list(unit.ext[-1].body.block_items or [])
