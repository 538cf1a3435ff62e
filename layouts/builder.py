"""From the text of a layout file to a checked :class:`~.model.Layout`.

:func:`build_layout` reads the directives (see README.md for the format), checks every
name, call, type and count in context, substitutes parameter values, and reports
each problem as a :class:`~spf.errors.LayoutError` at the file's line and column.

Order rules: params and fields are read top to bottom, so a field's length or
definition may only use names declared above it; ``shape``, ``relation``,
``values``, ``assume`` and ``property`` may use any param or field of the file.
"""

from __future__ import annotations

import dataclasses
import numbers
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping

from spf.errors import LayoutError, LayoutSpecError, TextError
from spf.notation.value_types import GENERIC
from spf.space.expressions import (KEYWORDS, TRUE, Affine, Formula, Parser, conjoin, formula_names, parse_set_text,
                                   tokenize)

from spf.layout_library.formula_text import FormulaText, tuple_offsets
from spf.layout_library.model import (ARRAY_TYPES, PROPERTY_KINDS, SCALAR_TYPES, VALUE_TYPE_NAMES, Arith, Field,
                                      Layout, LayoutFamily, Number, PropertySpec)
from spf.layout_library.source import (IDENTIFIER, LARGEST_INTEGER, Directive, Reader, split_arguments,
                                       split_directives, too_large)

BUILTIN_DIRECTORY = Path(__file__).resolve().parent

USAGE = {
    "layout": "'layout NAME'",
    "family": "'family NAME: LAYOUT, LAYOUT, ...'",
    "description": "'description \"free text\"'",
    "param": "'param NAME = DEFAULT'",
    "field": "'field NAME: TYPE', 'field NAME: TYPE = EXPR' or 'field NAME: TYPE[LEN]...'",
    "shape": "'shape EXTENT, EXTENT, ...'",
    "relation": "'relation [physical, ...] -> [logical, ...] : constraints'",
    "values": "'values FIELD[INDEX]...'",
}
PROPERTY_USAGE = {
    "range": "range(ARRAY, LOW, HIGH)",
    "injective": "injective(ARRAY, ARRAY, ...)",
    "monotonic": "monotonic(ARRAY, increasing|decreasing, strict|weak)",
    "periodic_monotonic": "periodic_monotonic(ARRAY, POINTERS or PERIOD, "
                          "increasing|decreasing, strict|weak)",
    "covarying_monotonic": "covarying_monotonic(ARRAY, ARRAY, ..., increasing|decreasing)",
}
DIRECTIONS = ("increasing", "decreasing")
STRICTNESS = ("strict", "weak")
FLAGS = DIRECTIONS + STRICTNESS

# Names a param, field or tuple variable may not take (formula keywords, C keywords).
RESERVED = set(KEYWORDS) | {"shape"} | {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "typedef", "union", "unsigned", "void", "volatile", "while"}

# Which kinds of names each context accepts, and the rule quoted in error messages.
SCALARS = {"param", "scalar field", "count field"}
CONTEXTS = {
    "definition": ({"param", "scalar field"},
                   "a field definition may use shape[k], params and fields computed "
                   "from the shape above it"),
    "length": (SCALARS, "a length may use params and scalar fields declared above it"),
    "shape": (SCALARS, "the shape may use params and scalar fields"),
    "relation": (SCALARS | {"physical variable", "logical variable"},
                 "the relation may use its tuple variables, params and scalar fields"),
    "values": (SCALARS | {"physical variable"},
               "a values index may use physical variables, params and scalar fields"),
    "assume": (SCALARS, "an assumption may use params, scalar fields and calls of index arrays"),
    "bound": (SCALARS, "a range bound may use params and scalar fields"),
    "period": ({"param"}, "a period is a pointer array or a positive integer over params"),
}


def check_parameter_value(name: str, value: object) -> int:
    """``value`` as an int, or LayoutSpecError when it is not a positive integer."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise LayoutSpecError(f"parameter {name} must be a positive integer, got {value!r}")
    if value > LARGEST_INTEGER:
        raise LayoutSpecError(f"parameter {name} = {value} is too large; the largest is 2**63 - 1")
    return int(value)


def build_layout(text: str, path: str,
                 parameters: Mapping[str, int] | None = None) -> Layout | LayoutFamily:
    """Parse and check the text of a layout file, binding ``parameters``."""
    directives = split_directives(text, path)
    if not directives:
        raise LayoutError(path, 1, 1, "empty layout file; expected 'layout NAME' "
                                      "(or 'family NAME: ...') as the first directive")
    bound = {name: check_parameter_value(name, value)
             for name, value in (parameters or {}).items()}
    return _Builder(path, directives, bound).build()


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _either(words: tuple[str, ...]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@contextmanager
def _reading(directive: Directive) -> Iterator[None]:
    """Turn a TextError inside the block into a LayoutError at the directive's text."""
    try:
        yield
    except TextError as error:
        raise directive.error(error.offset, error.message) from None


@dataclass
class _Symbol:
    kind: str  # param, count field, scalar field, array field, physical/logical variable
    line: int


class _Builder:
    """Reads the directives of one file in order and assembles the layout."""

    def __init__(self, path: str, directives: list[Directive], parameters: dict[str, int]):
        self.path = path
        self.directives = directives
        self.requested = parameters
        name = Path(path).name
        self.stem = name[: -len(".layout")] if name.endswith(".layout") else None
        self.symbols: dict[str, _Symbol] = {}
        self.parameter_values: dict[str, int] = {}
        self.fields: dict[str, Field] = {}
        self.description = ""
        self.padded = False
        self.single: dict[str, Directive] = {}
        self.repeated: list[Directive] = []
        self.definition_shape_uses: list[tuple[Directive, int, int]] = []
        # where names and directives are, for errors found after loading (packing a layout)
        self.locations: dict[str, tuple[int, int]] = {}
        self.monotonic_directions: dict[str, tuple[bool, int]] = {}
        self.called: set[str] = set()  # the index arrays the relation calls (none of them holds values)

    # ------------------------------------------------------------------ top level
    def build(self) -> Layout | LayoutFamily:
        head = self.directives[0]
        if head.keyword == "family":
            return self._build_family(head)
        if head.keyword != "layout":
            raise head.error_at_keyword(f"expected 'layout NAME' as the first directive, "
                                        f"found {head.keyword!r}")
        with _reading(head):
            name = self._declared_name(head, "layout")
        for directive in self.directives[1:]:
            with _reading(directive):
                self._read(directive, name)
        self._check_requested_parameters(name)
        for keyword in ("shape", "relation", "values"):
            if keyword not in self.single:
                raise head.error_at_keyword(f"layout {name} has no {keyword!r} directive; "
                                            f"expected {USAGE[keyword]}")
        with _reading(self.single["shape"]):
            shape = self._shape(self.single["shape"])
        self._check_definition_shape_uses(len(shape))
        physical, logical, relation = self._relation(self.single["relation"], len(shape))
        for keyword in ("shape", "relation", "values"):
            directive = self.single[keyword]
            self.locations[keyword] = directive.position(directive.text_start())
        with _reading(self.single["values"]):
            values_field, values_index = self._values(self.single["values"])
        assumptions: list[Formula] = []
        properties: list[PropertySpec] = []
        for directive in self.repeated:
            with _reading(directive):
                if directive.keyword == "assume":
                    assumptions.append(self._assume(directive))
                else:
                    properties.append(self._property(directive))
        self.fields[values_field] = dataclasses.replace(self.fields[values_field], holds_values=True)
        return Layout(
            name=name, path=self.path, description=self.description,
            parameters=dict(self.parameter_values), fields=tuple(self.fields.values()),
            shape=shape, physical=physical, logical=logical, relation=relation,
            values_field=values_field, values_index=values_index,
            assumptions=conjoin(*assumptions) if assumptions else TRUE,
            properties=tuple(properties), padded=self.padded,
            generic=self.fields[values_field].type == GENERIC, locations=self.locations)

    def _read(self, directive: Directive, name: str) -> None:
        """Handle one directive after the first: now (param, field, ...) or later."""
        keyword = directive.keyword
        if keyword == "family":
            raise directive.error_at_keyword(
                f"a 'family' directive belongs in a family file of its own; "
                f"this file already declares layout {name}")
        if keyword in ("layout", "description", "shape", "relation", "values", "padded"):
            self._only_once(directive)
        if keyword == "param":
            self._param(directive)
        elif keyword == "field":
            self._field(directive)
        elif keyword == "description":
            self.description = self._description_text(directive)
        elif keyword == "padded":
            Reader(directive.text).expect_end("nothing after 'padded'")
            self.padded = True
        elif keyword in ("assume", "property"):
            self.repeated.append(directive)

    def _only_once(self, directive: Directive) -> None:
        first = self.single.get(directive.keyword) or (
            self.directives[0] if directive.keyword == "layout" else None)
        if first is not None:
            raise directive.error_at_keyword(
                f"duplicate {directive.keyword!r} directive; the first is on line {first.line}")
        self.single[directive.keyword] = directive

    def _declared_name(self, directive: Directive, what: str) -> str:
        reader = Reader(directive.text)
        name, offset = reader.identifier(f"a {what} name after '{what}'")
        if self.stem is not None and name != self.stem:
            raise TextError(offset, f"{what} name {name!r} differs from the file name; "
                                    f"expected {self.stem!r} (the file is {self.stem}.layout)")
        if what == "layout":
            reader.expect_end("the end of the directive after the layout name")
        return name

    def _check_requested_parameters(self, name: str) -> None:
        unknown = sorted(set(self.requested) - set(self.parameter_values))
        if not unknown:
            return
        declared = ", ".join(self.parameter_values)
        known = (f"its parameters are {declared}" if declared
                 else "it takes no parameters")
        raise LayoutSpecError(f"layout {name} has no parameter {unknown[0]!r}; {known}")

    # ------------------------------------------------------------------ names
    def _declare(self, name: str, offset: int, kind: str, directive: Directive) -> None:
        self._check_new_name(name, offset)
        self.symbols[name] = _Symbol(kind, directive.line)

    def _check_new_name(self, name: str, offset: int) -> None:
        if name in RESERVED:
            raise TextError(offset, f"{name!r} is a reserved word; expected another name")
        previous = self.symbols.get(name)
        if previous is not None:
            raise TextError(offset, f"duplicate name {name!r}: already {_article(previous.kind)} "
                                    f"declared on line {previous.line}")

    def _name_problem(self, name: str, context: str) -> str | None:
        """Why ``name`` may not appear in ``context``, or None when it may."""
        allowed, rule = CONTEXTS[context]
        symbol = self.symbols.get(name)
        if symbol is None:
            return f"unknown name {name!r}; {rule}"
        if symbol.kind in allowed:
            return None
        hint = ""
        if symbol.kind == "array field" and context in ("relation", "assume"):
            dimensions = len(self.fields[name].dimensions)
            hint = f" (call it as {name}(...) with {_plural(dimensions, 'argument')})"
        return f"{name!r} is {_article(symbol.kind)}{hint}; {rule}"

    def _check_reader_names(self, reader: Reader, context: str) -> None:
        for name, offset in reader.name_uses:
            problem = self._name_problem(name, context)
            if problem:
                raise TextError(offset, problem)

    def _check_formula_names(self, text: FormulaText, formula: Formula,
                             name_offsets: Mapping[str, int], context: str) -> None:
        names = sorted(formula_names(formula), key=lambda n: name_offsets.get(n, 0))
        for name in names:
            problem = self._name_problem(name, context)
            if problem:
                raise text.error(name_offsets.get(name, 0), problem)

    def _check_calls(self, text: FormulaText, where: str) -> None:
        for name, offset, count in text.call_sites():
            problem = self._call_problem(name, count, where)
            if problem:
                raise text.error(offset, problem)
            self.called.add(name)

    def _call_problem(self, name: str, count: int, where: str) -> str | None:
        symbol = self.symbols.get(name)
        if symbol is None:
            return f"unknown array {name!r}; expected a call of {self._index_array_list()}"
        if symbol.kind != "array field":
            return (f"{name!r} is {_article(symbol.kind)}, not an array field; "
                    f"only integer array fields can be called")
        field = self.fields[name]
        if not field.is_integer:
            return (f"{name!r} is a {field.type} array; only integer index arrays "
                    f"can be called in {where}")
        dimensions = len(field.dimensions)
        if count != dimensions:
            return (f"{name!r} has {_plural(dimensions, 'dimension')}, so a call takes "
                    f"{_plural(dimensions, 'argument')}; found {count}")
        return None

    def _index_array_list(self) -> str:
        names = [f.name for f in self.fields.values() if f.is_index_array]
        return f"an integer array field (one of {', '.join(names)})" if names else \
            "an integer array field (this layout declares none)"

    def _substitute(self, expression: Arith) -> Arith:
        return expression.substitute(self.parameter_values)

    # ------------------------------------------------------------------ param, field, description
    def _param(self, directive: Directive) -> None:
        reader = Reader(directive.text)
        name, offset = reader.identifier("a parameter name after 'param'")
        self._check_new_name(name, offset)
        reader.expect("=", f"'=' and a default value: {USAGE['param']}")
        reader.skip_space()
        default_offset = reader.position
        default = directive.text[default_offset:].strip()
        if not re.fullmatch(r"[0-9]+", default) or int(default) <= 0:
            found = repr(default) if default else "nothing"
            raise TextError(default_offset, f"expected a positive integer default for "
                                            f"parameter {name}, found {found}")
        if too_large(default):
            raise TextError(default_offset, too_large(default))
        self._declare(name, offset, "param", directive)
        self.parameter_values[name] = self.requested.get(name, int(default))

    def _field(self, directive: Directive) -> None:
        reader = Reader(directive.text)
        name, name_offset = reader.identifier("a field name after 'field'")
        self._check_new_name(name, name_offset)
        reader.expect(":", f"':' and a type after the field name: {USAGE['field']}")
        type_name, type_offset = reader.identifier(
            "a type (" + ", ".join(ARRAY_TYPES) + ")")
        if type_name not in ARRAY_TYPES:
            raise TextError(type_offset, f"unknown type {type_name!r}; expected one of "
                                         + ", ".join(ARRAY_TYPES))
        if reader.peek() == "[":
            dimensions = self._lengths(reader)
            field = Field(name, type_name, dimensions, None, directive.line)
            kind = "array field"
        else:
            if type_name not in SCALAR_TYPES:
                raise TextError(type_offset, f"a scalar field holds an integer: expected int "
                                             f"or int64, found {type_name!r} (an array "
                                             f"needs lengths: {type_name}[LEN])")
            definition = self._definition(reader, directive) if reader.accept("=") else None
            reader.expect_end("'=' and a definition, '[' and a length, or the end of the directive")
            field = Field(name, type_name, (), definition, directive.line)
            kind = "count field" if definition is None else "scalar field"
        self._declare(name, name_offset, kind, directive)
        self.fields[name] = field
        self.locations[name] = directive.position(name_offset)

    def _lengths(self, reader: Reader) -> tuple[Arith, ...]:
        dimensions = []
        while reader.accept("["):
            dimensions.append(reader.arith())
            reader.expect("]", "']' to close the length")
        reader.expect_end("another [length] or the end of the directive")
        self._check_reader_names(reader, "length")
        for index, offset in reader.shape_uses:
            raise TextError(offset, f"shape[{index}] is not allowed in a length; "
                                    f"define a scalar field from it first")
        return tuple(self._substitute(length) for length in dimensions)

    def _definition(self, reader: Reader, directive: Directive) -> Arith:
        definition = reader.arith()
        self._check_reader_names(reader, "definition")
        for index, offset in reader.shape_uses:
            self.definition_shape_uses.append((directive, index, offset))
        return self._substitute(definition)

    def _check_definition_shape_uses(self, order: int) -> None:
        for directive, index, offset in self.definition_shape_uses:
            if index >= order:
                raise directive.error(offset, f"shape[{index}] is out of range: the shape has "
                                              f"{_plural(order, 'extent')} (shape[0] to "
                                              f"shape[{order - 1}])")

    def _description_text(self, directive: Directive) -> str:
        text = directive.text.strip()
        match = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', text, re.DOTALL)
        if not match:
            raise TextError(directive.text_start(),
                            f"expected a quoted description: {USAGE['description']}")
        unescaped = re.sub(r"\\(.)", r"\1", match.group(1))
        return " ".join(unescaped.split())

    # ------------------------------------------------------------------ shape, relation, values
    def _shape(self, directive: Directive) -> tuple[Arith, ...]:
        reader = Reader(directive.text)
        extents = [reader.arith()]
        while reader.accept(","):
            extents.append(reader.arith())
        reader.expect_end("',' and another extent, or the end of the directive")
        self._check_reader_names(reader, "shape")
        for index, offset in reader.shape_uses:
            raise TextError(offset, f"the shape cannot use shape[{index}]; "
                                    "write extents over params and scalar fields")
        return tuple(self._substitute(extent) for extent in extents)

    def _relation(self, directive: Directive, order: int):
        start = directive.text_start()
        if start >= len(directive.text):
            raise directive.error(start, f"expected a relation: {USAGE['relation']}")
        if directive.text[start] == "{":
            raise directive.error(start, "write the relation without braces: "
                                         + USAGE["relation"])
        text = FormulaText(directive, start, len(directive.text), self.parameter_values,
                            prefix="{ ", suffix=" }")
        parsed = text.parse(parse_set_text)
        if parsed.output is None:
            raise text.error(len(text.prefix), "expected '->' and the logical tuple: "
                                               + USAGE["relation"])
        physical_offsets, logical_offsets = tuple_offsets(text.parsed_text)
        self._declare_tuple(text, parsed.input, physical_offsets, "physical variable")
        self._declare_tuple(text, parsed.output, logical_offsets, "logical variable")
        if len(parsed.output) != order:
            arrow = next(t for t in tokenize(text.parsed_text) if t.text == "->")
            logical_offset = text.parsed_text.index("[", arrow.offset)
            raise text.error(logical_offset,
                             f"the logical tuple has {_plural(len(parsed.output), 'variable')} "
                             f"but the shape has {_plural(order, 'extent')}; expected one "
                             f"logical variable per extent")
        self._check_formula_names(text, parsed.formula, parsed.name_offsets, "relation")
        self._check_calls(text, "the relation")
        return parsed.input, parsed.output, parsed.formula

    def _declare_tuple(self, text: FormulaText, names: tuple[str, ...],
                       offsets: list[int], kind: str) -> None:
        for name, offset in zip(names, offsets):
            symbol = self.symbols.get(name)
            if symbol is not None and symbol.kind.endswith("variable"):
                raise text.error(offset, f"tuple variable {name!r} appears in both the "
                                         "physical and the logical tuple")
            if symbol is not None:
                raise text.error(offset, f"tuple variable {name!r} has the name of "
                                         f"{_article(symbol.kind)} declared on line "
                                         f"{symbol.line}; rename one of them")
            if name in RESERVED:
                raise text.error(offset, f"{name!r} is a reserved word; expected another name")
            self.symbols[name] = _Symbol(kind, text.directive.line)
            self.locations[name] = text.location(offset)

    def _values(self, directive: Directive) -> tuple[str, tuple[Arith, ...]]:
        reader = Reader(directive.text)
        name, offset = reader.identifier("the array field that holds the values")
        field = self._values_field(name, offset)
        reader.expect("[", f"'[' and an index after {name}: {USAGE['values']}")
        indices = [reader.arith()]
        reader.expect("]", "']' to close the index")
        while reader.accept("["):
            indices.append(reader.arith())
            reader.expect("]", "']' to close the index")
        reader.expect_end("another [index] or the end of the directive")
        if len(indices) != len(field.dimensions):
            raise TextError(offset, f"{name!r} has {_plural(len(field.dimensions), 'dimension')}"
                                    f" ({field}); expected {len(field.dimensions)} "
                                    f"[index] after it, found {len(indices)}")
        self._check_reader_names(reader, "values")
        for index, shape_offset in reader.shape_uses:
            raise TextError(shape_offset, f"shape[{index}] is not allowed in a values index")
        return name, tuple(self._substitute(index) for index in indices)

    def _values_field(self, name: str, offset: int) -> Field:
        expected = f"an array field of a value type ({', '.join(VALUE_TYPE_NAMES)})"
        symbol = self.symbols.get(name)
        if symbol is None:
            raise TextError(offset, f"unknown field {name!r}; values live in {expected}")
        if symbol.kind != "array field":
            raise TextError(offset, f"{name!r} is {_article(symbol.kind)}; "
                                    f"values live in {expected}")
        field = self.fields[name]
        if field.type not in VALUE_TYPE_NAMES:
            raise TextError(offset, f"{name!r} is {_article(field.type)} array; values live in {expected}")
        if name in self.called:
            raise TextError(offset, f"{name!r} is an index array the relation calls; values live in {expected} "
                                    "of their own")
        return field

    # ------------------------------------------------------------------ assume
    def _assume(self, directive: Directive) -> Formula:
        start = directive.text_start()
        if start >= len(directive.text):
            raise TextError(start, "expected a formula after 'assume'")
        text = FormulaText(directive, start, len(directive.text), self.parameter_values)

        def parse(source: str):
            parser = Parser(source)
            formula = parser.parse_formula()
            parser.expect_end()
            return formula, parser.name_offsets

        formula, name_offsets = text.parse(parse)
        self._check_formula_names(text, formula, name_offsets, "assume")
        self._check_calls(text, "an assumption")
        return formula

    # ------------------------------------------------------------------ properties
    def _property(self, directive: Directive) -> PropertySpec:
        reader = Reader(directive.text)
        kind, kind_offset = reader.identifier(
            "a property kind (" + ", ".join(PROPERTY_KINDS) + ")")
        if kind not in PROPERTY_KINDS:
            raise TextError(kind_offset, f"unknown property kind {kind!r}; expected one of "
                                         + ", ".join(PROPERTY_KINDS))
        open_offset = reader.expect("(", f"'(' after {kind}: {PROPERTY_USAGE[kind]}")
        arguments, close_offset = split_arguments(directive.text, open_offset)
        Reader(directive.text, close_offset + 1).expect_end("the end of the directive after ')'")
        for text, offset in arguments:
            if not text:
                raise TextError(offset, f"expected an argument: {PROPERTY_USAGE[kind]}")
        line, column = directive.position(kind_offset)
        build = getattr(self, f"_property_{kind}")
        spec: PropertySpec = build(directive, arguments, kind_offset)
        return dataclasses.replace(spec, line=line, column=column)

    def _argument_count(self, kind: str, arguments: list, offset: int,
                        least: int, most: int | None) -> None:
        count = len(arguments)
        if count < least or (most is not None and count > most):
            expected = str(least) if most == least else (
                f"{least} to {most}" if most is not None else f"at least {least}")
            raise TextError(offset, f"{kind} takes {expected} arguments, found {count}: "
                                    f"expected {PROPERTY_USAGE[kind]}")

    def _index_array(self, text: str, offset: int) -> Field:
        if not IDENTIFIER.fullmatch(text):
            raise TextError(offset, f"expected an array field name, found {text!r}")
        symbol = self.symbols.get(text)
        if symbol is None:
            raise TextError(offset, f"unknown array {text!r}; expected {self._index_array_list()}")
        if symbol.kind != "array field":
            raise TextError(offset, f"{text!r} is {_article(symbol.kind)}, not an array field; "
                                    f"expected {self._index_array_list()}")
        field = self.fields[text]
        if not field.is_integer:
            raise TextError(offset, f"{text!r} is a {field.type} array; properties apply to "
                                    "integer index arrays")
        return field

    def _same_dimensions(self, fields: list[Field], arguments: list, kind: str) -> None:
        for field, (_, offset) in zip(fields[1:], arguments[1:]):
            if len(field.dimensions) != len(fields[0].dimensions):
                raise TextError(offset, f"{kind} relates arrays indexed alike; {field.name!r} "
                                        f"has {_plural(len(field.dimensions), 'dimension')}, "
                                        f"{fields[0].name!r} has {len(fields[0].dimensions)}")

    def _flags(self, arguments: list, allowed: tuple[str, ...], kind: str) -> tuple[bool, bool]:
        """(increasing, strict) from flag arguments; defaults increasing, strict."""
        chosen: dict[str, str] = {}
        for text, offset in arguments:
            if text not in FLAGS:
                raise TextError(offset, f"unknown flag {text!r}; expected {_either(allowed)}")
            if text not in allowed:
                raise TextError(offset, f"flag {text!r} does not apply to {kind}; "
                                        f"expected {_either(allowed)}")
            group = "direction" if text in DIRECTIONS else "strictness"
            previous = chosen.get(group)
            if previous == text:
                raise TextError(offset, f"flag {text!r} is given twice")
            if previous is not None:
                raise TextError(offset, f"contradictory flags {previous!r} and {text!r}")
            chosen[group] = text
        return (chosen.get("direction", "increasing") == "increasing",
                chosen.get("strictness", "strict") == "strict")

    @staticmethod
    def _flag_text(increasing: bool, strict: bool | None = None) -> str:
        text = "increasing" if increasing else "decreasing"
        return text if strict is None else text + (", strict" if strict else ", weak")

    def _property_range(self, directive, arguments, offset) -> PropertySpec:
        self._argument_count("range", arguments, offset, 3, 3)
        field = self._index_array(*arguments[0])
        low = self._bound(directive, *arguments[1])
        high = self._bound(directive, *arguments[2])
        if low.is_constant and high.is_constant and low.constant >= high.constant:
            raise TextError(arguments[2][1], f"empty range: the high bound {high} must exceed "
                                             f"the low bound {low} (the range is [low, high))")
        return PropertySpec("range", (field.name,), low=low, high=high,
                            text=f"range({field.name}, {low}, {high})")

    def _bound(self, directive: Directive, text: str, offset: int) -> Affine:
        formula_text = FormulaText(directive, offset, offset + len(text), self.parameter_values)

        def parse(source: str):
            parser = Parser(source)
            expression = parser.parse_expression()
            parser.expect_end()
            return expression, parser.name_offsets

        expression, name_offsets = formula_text.parse(parse)
        for name, call_offset, _ in formula_text.call_sites():
            raise formula_text.error(call_offset, f"a range bound cannot call {name!r}; "
                                                  + CONTEXTS["bound"][1])
        for name in sorted(expression.names(), key=lambda n: name_offsets.get(n, 0)):
            problem = self._name_problem(name, "bound")
            if problem:
                raise formula_text.error(name_offsets.get(name, 0), problem)
        return expression

    def _property_injective(self, directive, arguments, offset) -> PropertySpec:
        self._argument_count("injective", arguments, offset, 1, None)
        fields = [self._index_array(*argument) for argument in arguments]
        self._same_dimensions(fields, arguments, "injective")
        names = tuple(f.name for f in fields)
        return PropertySpec("injective", names, text=f"injective({', '.join(names)})")

    def _property_monotonic(self, directive, arguments, offset) -> PropertySpec:
        self._argument_count("monotonic", arguments, offset, 1, 3)
        field = self._index_array(*arguments[0])
        increasing, strict = self._flags(arguments[1:], FLAGS, "monotonic")
        self._check_direction(field.name, increasing, arguments[0][1], directive)
        return PropertySpec("monotonic", (field.name,), increasing, strict,
                            text=f"monotonic({field.name}, {self._flag_text(increasing, strict)})")

    def _check_direction(self, name: str, increasing: bool, offset: int,
                         directive: Directive) -> None:
        previous = self.monotonic_directions.get(name)
        if previous is not None and previous[0] != increasing:
            raise TextError(offset, f"contradicts the monotonic property of {name!r} on line "
                                    f"{previous[1]}, which has the opposite direction")
        self.monotonic_directions[name] = (increasing, directive.line)

    def _property_periodic_monotonic(self, directive, arguments, offset) -> PropertySpec:
        self._argument_count("periodic_monotonic", arguments, offset, 2, 4)
        field = self._index_array(*arguments[0])
        period_text, period_offset = arguments[1]
        increasing, strict = self._flags(arguments[2:], FLAGS, "periodic_monotonic")
        flags = self._flag_text(increasing, strict)
        symbol = self.symbols.get(period_text)
        if IDENTIFIER.fullmatch(period_text) and (symbol is None or symbol.kind != "param"):
            pointers = self._index_array(period_text, period_offset)
            return PropertySpec("periodic_monotonic", (field.name,), increasing, strict,
                                period_array=pointers.name,
                                text=f"periodic_monotonic({field.name}, {pointers.name}, {flags})")
        period = self._period(period_text, period_offset)
        return PropertySpec("periodic_monotonic", (field.name,), increasing, strict,
                            period=period,
                            text=f"periodic_monotonic({field.name}, {period}, {flags})")

    def _period(self, text: str, offset: int) -> int:
        reader = Reader(text)
        try:
            expression = reader.arith()
            reader.expect_end("the end of the period")
            self._check_reader_names(reader, "period")
            for _, shape_offset in reader.shape_uses:
                raise TextError(shape_offset, CONTEXTS["period"][1])
        except TextError as error:
            raise TextError(offset + error.offset, error.message) from None
        value = self._substitute(expression)
        if not isinstance(value, Number) or value.value <= 0:
            raise TextError(offset, f"a period must be a positive integer, found {text!r} = {value}")
        return value.value

    def _property_covarying_monotonic(self, directive, arguments, offset) -> PropertySpec:
        flag_start = next((i for i, (text, _) in enumerate(arguments) if text in FLAGS),
                          len(arguments))
        self._argument_count("covarying_monotonic", arguments[:flag_start], offset, 2, None)
        fields = [self._index_array(*argument) for argument in arguments[:flag_start]]
        self._same_dimensions(fields, arguments, "covarying_monotonic")
        increasing, _ = self._flags(arguments[flag_start:], DIRECTIONS + ("strict",),
                                    "covarying_monotonic (always strict)")
        names = tuple(f.name for f in fields)
        return PropertySpec("covarying_monotonic", names, increasing, True,
                            text=f"covarying_monotonic({', '.join(names)}, "
                                 f"{self._flag_text(increasing)})")

    # ------------------------------------------------------------------ families
    def _build_family(self, head: Directive) -> LayoutFamily:
        description = ""
        with _reading(head):
            name = self._declared_name(head, "family")
            members, paths = self._family_members(head, name)
        for directive in self.directives[1:]:
            if directive.keyword != "description":
                raise directive.error_at_keyword(
                    f"a family file holds only 'family' and 'description' directives; "
                    f"found {directive.keyword!r}")
            with _reading(directive):
                self._only_once(directive)
                description = self._description_text(directive)
        return LayoutFamily(name, self.path, tuple(members), tuple(paths), description,
                            dict(self.requested), self.locations)

    def _family_members(self, head: Directive, name: str) -> tuple[list[str], list[str]]:
        reader = Reader(head.text)
        reader.identifier()
        reader.expect(":", f"':' and the member layouts: {USAGE['family']}")
        members: list[str] = []
        paths: list[str] = []
        while True:
            member, offset = reader.identifier("a member layout name")
            if member == name or member in members:
                raise TextError(offset, f"member {member!r} is listed twice or is the family itself")
            path = self._member_path(member)
            if path is None:
                raise TextError(offset, f"unknown layout {member!r} in family {name}; expected "
                                        f"a built-in layout or a file {member}.layout next "
                                        "to the family file")
            members.append(member)
            paths.append(str(path))
            self.locations[member] = head.position(offset)
            if not reader.accept(","):
                break
        reader.expect_end("',' and another member, or the end of the directive")
        return members, paths

    def _member_path(self, member: str) -> Path | None:
        directories = [BUILTIN_DIRECTORY]
        if not self.path.startswith("<"):
            directories.insert(0, Path(self.path).resolve().parent)
        for directory in directories:
            candidate = directory / f"{member}.layout"
            if candidate.is_file():
                return candidate
        return None
