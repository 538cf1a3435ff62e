"""The C of an assembly plan (:mod:`codegen.assembly`): a builder in two calls.

``NAME_begin(T, n, x, stride, v, report)`` checks each entry against the layout, puts
the entries in storage order and counts the nodes of every compressed level; the
caller then knows every count field, allocates the arrays (index arrays of the
counted lengths, pointer arrays and values zeroed) and calls ``NAME_fill(handle, T)``,
which writes them in one pass and frees the handle (``NAME_free`` frees one that is
not filled).  The caller owns every array: the same two calls serve Python (numpy
arrays) and C programs (docs/c-abi.md).

Storage order: an entry's sort key lists its levels' keys (see AssemblyPlan.keys).
Entries already in that order (a row-major stream into CSR, a sorted COO) are
detected in one pass and not moved.  Otherwise a stable counting sort on the first
key (its range permitting, else a merge sort) and, within each group of equal first
keys that is not already ordered, a merge sort on the rest.

The fixed part (the handle, the sorts, rows adopted, bucketed or filled in two phases)
is C in ``spf/codegen/c/runtime/spf_builder.h``, included with the plan's parameters; this
module generates what depends on the layout: the keys and their comparison, the
checks, the counts, ``begin``, ``fill`` and ``take`` level by level.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable

from spf.codegen.assembly.plan import (AssemblyPlan, arith_c, coordinate_name, direct_rows, position_name, rename,
                                       scalar_name)
from spf.codegen.c import runtime
from spf.codegen.c.runtime import PRELUDE
from spf.codegen.c.structs import header_text, struct_name

if TYPE_CHECKING:
    from spf.layout_library.model import Layout

    from spf.codegen.assembly.plan import DirectRows

# report[] after the node counts of the compressed levels; then the coordinates of the
# first bad entry and of the first duplicate (the input may be freed by then)
DUPLICATES, FIRST_DUPLICATE, FIRST_BAD, BAD_CHECK = range(4)
DROPPED = 255  # diff[] of an entry whose group sums to zero (not stored)


def report_length(plan: AssemblyPlan) -> int:
    compressed = sum(1 for level in plan.levels if level.kind == "compressed")
    return compressed + 4 + 2 * len(plan.coordinates)


def _key_is_coordinate(plan: AssemblyPlan, expression: str) -> int | None:
    """The coordinate number when a key is a coordinate itself (read in place, not copied)."""
    for number, coordinate in enumerate(plan.coordinates):
        if expression.replace(" ", "") in (f"({coordinate_name(coordinate)})", coordinate_name(coordinate)):
            return number
    return None


def assembly_prefix(digest: str) -> str:
    """The builder's function prefix inside a kernel's library."""
    return f"spf_assemble_{digest}"


def assembly_prototypes(plan: AssemblyPlan, prefix: str) -> tuple[str, ...]:
    """The builder's public functions a kernel's caller uses after the kernel ran."""
    struct = f"struct {struct_name(plan.layout)}"
    return (f"int {prefix}_fill(void *handle, {struct} *output);", f"void {prefix}_free(void *handle);")


def assembly_source(plan: AssemblyPlan, prefix: str, standalone: bool = True, coordinate: str = "int64_t") -> str:
    """C source of the builder for ``plan``, functions ``prefix_*``; ``standalone`` adds the
    prelude and the layout's struct (a kernel's library has them already).  ``coordinate``:
    the C type of the input's coordinate columns (``int32_t`` reads scipy's own index
    arrays, which would otherwise be widened into copies first)."""
    layout = plan.layout
    struct = f"struct {struct_name(layout)}"
    rows = direct_rows(plan)
    load = partial(_scalar_loads, layout)
    lines: list[str] = [PRELUDE, header_text([layout], [], f"SPF_ASSEMBLY_{prefix.upper()}_STRUCTS")] \
        if standalone else []
    lines.append(_fixed_part(plan, prefix, struct, coordinate, rows))
    lines.extend(_key_comparisons(prefix, len(plan.keys)))
    if rows is not None:
        lines.extend(_check_rows(plan, prefix, struct, rows, load))
        lines.extend(_rows_extent_and_counts(plan, prefix, struct, rows, load))
    lines.extend(_begin_function(plan, prefix, struct, coordinate, rows, load))
    lines.extend(_fill_function(plan, prefix, struct, rows, load))
    return "\n".join(lines)


def _compressed_numbers(plan: AssemblyPlan) -> list[int]:
    """The numbers of the plan's compressed levels (their order in ``plan.levels``)."""
    return [number for number, level in enumerate(plan.levels) if level.kind == "compressed"]


def _scalar_loads(layout: Layout, indent: str) -> list[str]:
    """The layout's scalar fields read from the struct ``T`` into locals."""
    return [f"{indent}const int64_t {scalar_name(f.name)} = T->{f.name}; (void){scalar_name(f.name)};"
            for f in layout.scalars]


def _entry_values(plan: AssemblyPlan, indent: str) -> list[str]:
    """An entry's coordinates and dense positions, for the checks and the computed keys."""
    out = [f"{indent}const int64_t {coordinate_name(c)} = h->x[{k}][e * h->stride[{k}]]; "
           f"(void){coordinate_name(c)};" for k, c in enumerate(plan.coordinates)]
    for level in plan.levels:
        if level.kind == "dense":
            out.append(f"{indent}const int64_t {position_name(level.index)} = {level.keys[0].expression}; "
                       f"(void){position_name(level.index)};")
    return out


def _key_comparisons(prefix: str, m: int) -> list[str]:
    """The ``m`` keys' access macros, ``compare`` (from a key on) and ``first_difference``."""
    lines = [f"#define {prefix.upper()}_K{k}(h, e) ((h)->key[{k}][(e) * (h)->key_stride[{k}]])" for k in range(m)]
    lines.append("")
    lines.append(f"static inline int {prefix}_compare(const {prefix}_handle *h, int64_t a, int64_t b, int from) {{")
    for k in range(m):
        lines.append(f"  if (from <= {k}) {{ const int64_t u = {prefix.upper()}_K{k}(h, a), "
                     f"w = {prefix.upper()}_K{k}(h, b); if (u != w) return u < w ? -1 : 1; }}")
    lines.append("  return 0;\n}\n")
    lines.append(f"static inline int {prefix}_first_difference(const {prefix}_handle *h, int64_t a, int64_t b) {{")
    for k in range(m):
        lines.append(f"  if ({prefix.upper()}_K{k}(h, a) != {prefix.upper()}_K{k}(h, b)) return {k};")
    lines.append(f"  return {m};\n}}\n")
    return lines


def _begin_function(plan: AssemblyPlan, prefix: str, struct: str, coordinate: str, rows: DirectRows | None,
                    load: Callable[[str], list[str]]) -> list[str]:
    """``NAME_begin``: the handle over the input, its entries checked, its keys set (read in
    place or computed), in storage order, and its groups counted (``_groups_counted``)."""
    keys = plan.keys
    d = len(plan.coordinates)
    report_base = len(_compressed_numbers(plan))
    # a key that is a coordinate is read in the input's own column, where it has the keys' type
    in_place = [_key_is_coordinate(plan, key.expression) if key.sign > 0 and coordinate == "int64_t" else None
                for key in keys]
    lines: list[str] = []
    emit = lines.append
    emit(f"void *{prefix}_begin({struct} *T, int64_t n, const {prefix}_coordinate *const *x, const int64_t *stride, "
         "const double *v, int64_t *report, int owns_input, int drop_zeros) {")
    emit(f"  int64_t own_report[{report_length(plan)}];")
    emit("  if (!report) report = own_report;")
    emit(f"  for (int r = 0; r < {report_length(plan)}; r++) report[r] = 0;")
    emit(f"  report[{report_base + FIRST_DUPLICATE}] = -1; report[{report_base + FIRST_BAD}] = -1; "
         f"report[{report_base + BAD_CHECK}] = -1;")
    emit(f"  {prefix}_handle *h = ({prefix}_handle *)calloc(1, sizeof({prefix}_handle));")
    emit("  if (!h) {")
    emit(f"    if (owns_input) {{ for (int k = 0; k < {d}; k++) free((void *)x[k]); free((void *)v); }}")
    emit("    return NULL;\n  }")
    emit(f"  if (owns_input) {{ for (int k = 0; k < {d}; k++) h->input_x[k] = ({prefix}_coordinate *)x[k]; "
         "h->input_v = (double *)v; }")
    emit("  h->n = n; h->v = v;")
    emit(f"  for (int k = 0; k < {d}; k++) {{ h->x[k] = x[k]; h->stride[k] = stride[k]; }}")
    materialized = []
    for k, key in enumerate(keys):
        if in_place[k] is not None:
            emit(f"  h->key[{k}] = (int64_t *)x[{in_place[k]}]; h->key_stride[{k}] = stride[{in_place[k]}];")
        else:
            materialized.append(k)
    lines.extend(load("  "))

    def allocate_keys() -> None:
        for k in materialized:
            emit(f"  h->key[{k}] = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t)); "
                 f"h->key_stride[{k}] = 1; h->owned[{k}] = 1;")
            emit(f"  if (!h->key[{k}]) {{ {prefix}_free(h); return NULL; }}")

    def compute_keys() -> None:
        for k in materialized:
            sign = "-" if keys[k].sign < 0 else ""
            emit(f"    h->key[{k}][e] = {sign}({keys[k].expression});")

    # checks, and the computed keys in the same pass where no counting sort into rows comes
    # first (it reads the coordinates themselves: after it, the keys only where it declined)
    if rows is None:
        allocate_keys()
    emit("  for (int64_t e = 0; e < n; e++) {")
    lines.extend(_entry_values(plan, "    "))
    for number, (condition, _) in enumerate(plan.checks):
        emit(f"    if (!({condition})) {{ report[{report_base + FIRST_BAD}] = e; "
             f"report[{report_base + BAD_CHECK}] = {number}; {prefix}_bad_entry(h, e, report + {report_base + 4}); "
             f"{prefix}_free(h); return NULL; }}")
    if rows is None:
        compute_keys()
    emit("  }")
    if rows is not None:
        emit(f"  if ({prefix}_bucket(h, T, report, drop_zeros)) return h;")
        if materialized:
            allocate_keys()
            emit("  for (int64_t e = 0; e < n; e++) {")
            lines.extend(_entry_values(plan, "    "))
            compute_keys()
            emit("  }")
    return lines + _groups_counted(plan, prefix)


def _groups_counted(plan: AssemblyPlan, prefix: str) -> list[str]:
    """The end of ``NAME_begin``: the entries in storage order, each entry's first
    difference from the group before, the nodes of each compressed level and the
    duplicates counted, the count fields set."""
    m = len(plan.keys)
    compressed = _compressed_numbers(plan)
    report_base = len(compressed)
    lines: list[str] = []
    emit = lines.append
    # storage order
    emit("  int sorted = 1;")
    emit(f"  for (int64_t t = 1; t < n && sorted; t++) sorted = {prefix}_compare(h, t - 1, t, 0) <= 0;")
    if m:  # (with no keys every entry compares equal: sorted)
        emit(f"  if (!sorted && !{prefix}_order(h)) {{ {prefix}_free(h); return NULL; }}")
    # first differences and node counts
    emit("  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));")
    emit(f"  if (!h->diff) {{ {prefix}_free(h); return NULL; }}")
    # a group: the entries equal in every key (summed into one); a group whose sum is zero
    # is dropped when drop_zeros (DROPPED marks its entries), and later groups compare with
    # the last group kept
    emit("  for (int64_t t = 0, last = -1, end; t < n; t = end) {")
    emit("    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */")
    emit("    double sum = h->v[t];")
    emit(f"    for (end = t + 1; end < n && {prefix}_first_difference(h, end - 1, end) == {m}; end++) "
         "sum = SPF_COMBINE(sum, h->v[end]);")
    emit(f"    if (drop_zeros && sum == 0.0) {{ memset(h->diff + t, {DROPPED}, (size_t)(end - t)); continue; }}")
    emit(f"    const int d = last < 0 ? 0 : {prefix}_first_difference(h, last, t);")
    emit("    h->diff[t] = (unsigned char)d;")
    emit(f"    if (end - t > 1) memset(h->diff + t + 1, {m}, (size_t)(end - t - 1));")
    emit("    last = t;")
    for slot, number in enumerate(compressed):
        _, end = plan.key_span(number)
        emit(f"    report[{slot}] += d < {end};")
    emit(f"    if (end - t > 1) {{ if (report[{report_base + DUPLICATES}] == 0) {{ "
         f"report[{report_base + FIRST_DUPLICATE}] = e; "
         f"{prefix}_bad_entry(h, e, report + {report_base + 4 + len(plan.coordinates)}); }} "
         f"report[{report_base + DUPLICATES}] += end - t - 1; }}")
    emit("  }")
    for count, (slot, offset) in plan.counts.items():
        emit(f"  T->{count} = report[{slot}] - {offset};")
    emit("  return h;\n}\n")
    return lines


def _fill_function(plan: AssemblyPlan, prefix: str, struct: str, rows: DirectRows | None,
                   load: Callable[[str], list[str]]) -> list[str]:
    """``NAME_fill``: the layout's arrays written from the handle's ordered groups (pointer
    arrays counted then summed, index arrays and values at their positions), then the
    handle freed; and ``NAME_take`` where rows are adopted."""
    layout = plan.layout
    m = len(plan.keys)
    lines: list[str] = []
    emit = lines.append
    emit(f"int {prefix}_fill(void *handle, {struct} *T) {{")
    emit(f"  {prefix}_handle *h = ({prefix}_handle *)handle;")
    emit("  const int64_t n = h->n;")
    lines.extend(load("  "))
    for f in layout.arrays:
        emit(f"  {f.c_type} *const a_{f.name} = T->{f.name}; (void)a_{f.name};")
    naming = {f.name: scalar_name(f.name) for f in layout.scalars}
    if rows is not None:
        lines.extend(_fill_rows(plan, prefix, rows, naming))
        take = _take_rows(plan, prefix, struct, rows, naming, load)
    else:
        take = []
    for array in [level.pointer for level in plan.levels if level.pointer] + [layout.values_field]:
        declared = layout.field(array)
        length = " * ".join(f"({arith_c(rename(d, naming))})" for d in declared.dimensions)
        emit(f"  memset(a_{array}, 0, (size_t)({length}) * sizeof(*a_{array}));")
    for number in _compressed_numbers(plan):
        emit(f"  int64_t {position_name(plan.levels[number].index)} = -1;")
    narrowed = _value_type(plan) != "double"
    if narrowed:  # a group's sum kept in double, stored rounded once (not rounded per addend)
        emit("  double group_sum = 0.0;")
    emit("  for (int64_t t = 0; t < n; t++) {")
    emit("    const int d = h->diff[t];")
    emit(f"    if (d == {DROPPED}) continue;")
    for number, level in enumerate(plan.levels):
        p = position_name(level.index)
        start, end = plan.key_span(number)
        if level.kind == "dense":  # the key of a dense level is its position
            emit(f"    const int64_t {p} = {prefix.upper()}_K{start}(h, t); (void){p};")
            continue
        emit(f"    if (d < {end}) {{")
        emit(f"      {p}++;")
        for offset, key in enumerate(level.keys):
            sign = "-" if key.sign < 0 else ""
            emit(f"      a_{key.array}[{p}] = {sign}{prefix.upper()}_K{start + offset}(h, t);")
        if level.pointer:
            emit(f"      a_{level.pointer}[{level.pointer_argument} + 1]++;")
        emit("    }")
    if narrowed:
        emit(f"    group_sum = d == {m} ? SPF_COMBINE(group_sum, h->v[t]) : h->v[t];")
        emit(f"    a_{layout.values_field}[{plan.values_index}] = ({_value_type(plan)})group_sum;")
    else:
        value = f"a_{layout.values_field}[{plan.values_index}]"
        emit(f"    {value} = d == {m} ? SPF_COMBINE({value}, h->v[t]) : h->v[t];")
    emit("  }")
    for level in plan.levels:
        if level.pointer:
            pointer = layout.field(level.pointer)
            length = pointer.dimensions[0]
            emit(f"  for (int64_t q = 0; q + 1 < {arith_c(rename(length, naming))}; q++) "
                 f"a_{level.pointer}[q + 1] += a_{level.pointer}[q];")
    emit(f"  {prefix}_free(h);")
    emit("  return 0;\n}\n")
    return lines + take


def _check_rows(plan: AssemblyPlan, prefix: str, struct: str, rows, load) -> list[str]:
    """``NAME_check_rows(h, T, report, ordered)``: every entry of a handle of rows against
    the layout's checks; 0 (the report names the first entry failing) when one fails, else
    1, with the node count and the count fields set.  ``ordered`` (when not NULL) tells
    whether every row's keys are strictly increasing.

    Rows hold a few entries each, so the passes are flat where they can be: the checks
    of the key alone and the order test (descents over all the keys, less those at row
    starts) run over every entry at once, without early exits, so they vectorize; a row's
    own checks run once per row, and only checks of both the row and the key entry by
    entry within it.  Only when something fails is it walked again to name the entry."""
    import re
    outer, inner = plan.levels
    base = len(plan.compressed)
    position = {c: k for k, c in enumerate(plan.coordinates)}
    outer_names = {coordinate_name(rows.outer), position_name(outer.index)}
    inner_names = {coordinate_name(rows.inner), position_name(inner.index)}

    def mentions(condition: str, names: set[str]) -> bool:
        return any(re.search(rf"\b{name}\b", condition) for name in names)

    key_checks = [c for c, _ in plan.checks if not mentions(c, outer_names)]
    row_checks = [c for c, _ in plan.checks if not mentions(c, inner_names) and mentions(c, outer_names)]
    both_checks = [c for c, _ in plan.checks if mentions(c, inner_names) and mentions(c, outer_names)]

    def passes(conditions: list[str]) -> str:
        return " && ".join(f"({c})" for c in conditions) or "1"

    out = [f"static int {prefix}_check_rows({prefix}_handle *h, {struct} *T, int64_t *report, int *ordered) {{",
           f"  const {_row_pointer_type(plan)} *const pointer = h->row_pointer;",
           "  const int64_t n = h->n, groups = pointer ? h->row_count : h->groups;",
           "  const int64_t *const group_outer = h->group_outer, *const group_end = h->group_end;",
           f"  const {_row_key_type(plan)} *const keys = h->row_keys;",
           "  int good = 1;",
           "  int64_t descents = 0, descents_at_starts = 0;"]
    out += load("  ")
    counted = ["report[0] = n;"] + [f"T->{count} = report[{slot}] - {offset};"
                                     for count, (slot, offset) in plan.counts.items()]
    out += ["  if (h->trusted) {  /* proven: every entry storable, a fill's keys in order */",
            "    if (ordered) *ordered = 1;", *("    " + line for line in counted), "    return 1;", "  }"]
    entry = [f"const int64_t {coordinate_name(rows.inner)} = keys[e]; (void){coordinate_name(rows.inner)};",
             f"const int64_t {position_name(inner.index)} = e; (void){position_name(inner.index)};"]
    if key_checks:  # one pass over the keys: their checks, and the order test when asked
        out += ["  for (int64_t e = 0; e < (n < 1 ? n : 1); e++) {", *("    " + line for line in entry),
                f"    good &= {passes(key_checks)};", "  }",
                "  if (ordered) {",
                "    for (int64_t e = 1; e < n; e++) {", *("      " + line for line in entry),
                f"      good &= {passes(key_checks)};", "      descents += keys[e - 1] >= keys[e];", "    }",
                "  } else {",
                "    for (int64_t e = 1; e < n; e++) {", *("      " + line for line in entry),
                f"      good &= {passes(key_checks)};", "    }",
                "  }"]
    else:
        out.append("  if (ordered) for (int64_t e = 1; e < n; e++) descents += keys[e - 1] >= keys[e];")
    out += [
            "  for (int64_t g = 0, begin = 0; g < groups; g++) {",
            f"    const int64_t {coordinate_name(rows.outer)} = pointer ? g : group_outer[g]; "
            f"(void){coordinate_name(rows.outer)};",
            f"    const int64_t {position_name(outer.index)} = {outer.keys[0].expression}; "
            f"(void){position_name(outer.index)};",
            "    const int64_t end = pointer ? (int64_t)pointer[g + 1] : group_end[g];",
            "    const int64_t at = begin < 1 ? 1 : begin > n - 1 ? n - 1 : begin;  /* in [1, n) when n > 1 */",
            "    if (ordered && n > 1) descents_at_starts += (begin > 0) & (begin < end) & (keys[at - 1] >= keys[at]);"]
    if row_checks:
        # no branch on the row being empty: a transposition's rows are often empty at random
        out.append(f"    good &= (begin >= end) | ({passes(row_checks)});")
    if both_checks:
        out += ["    for (int64_t e = begin; e < end; e++) {", *("      " + line for line in entry),
                f"      good &= {passes(both_checks)};", "    }"]
    out += ["    begin = end;", "  }",
            "  if (!good) {  /* name the first entry that fails */",
            "    for (int64_t g = 0, e = 0; g < groups; g++) {",
            f"      const int64_t {coordinate_name(rows.outer)} = pointer ? g : group_outer[g]; "
            f"(void){coordinate_name(rows.outer)};",
            f"      const int64_t {position_name(outer.index)} = {outer.keys[0].expression}; "
            f"(void){position_name(outer.index)};",
            "      for (const int64_t end = pointer ? (int64_t)pointer[g + 1] : group_end[g]; e < end; e++) {",
            *("        " + line for line in entry)]
    for number, (condition, _) in enumerate(plan.checks):
        out.append(f"        if (!({condition})) {{ report[{base + FIRST_BAD}] = e; report[{base + BAD_CHECK}] = {number}; "
                   f"report[{base + 4 + position[rows.outer]}] = {coordinate_name(rows.outer)}; "
                   f"report[{base + 4 + position[rows.inner]}] = {coordinate_name(rows.inner)}; "
                   "return 0; }")
    out += ["      }", "    }", "  }",
            "  if (ordered) *ordered = descents == descents_at_starts;", *("  " + line for line in counted)]
    out += ["  return 1;", "}", ""]
    return out


def _fixed_part(plan: AssemblyPlan, prefix: str, struct: str, coordinate: str, rows) -> str:
    """The builder's fixed C (``spf_builder.h``: its handle, the sorts, and for a plan of
    rows adopting, bucketing and two-phase rows) with this plan's parameters."""
    base = len(plan.compressed)
    d = len(plan.coordinates)
    parameters = {
        "SPF_BUILDER": prefix, "SPF_BUILDER_OUTPUT": struct, "SPF_BUILDER_COORDINATE": coordinate,
        "SPF_BUILDER_ORDER": d, "SPF_BUILDER_KEYS": len(plan.keys),
        "SPF_BUILDER_ROW_KEY": _row_key_type(plan), "SPF_BUILDER_ROW_POINTER": _row_pointer_type(plan),
        "SPF_BUILDER_REPORT": report_length(plan), "SPF_BUILDER_DUPLICATES": base + DUPLICATES,
        "SPF_BUILDER_FIRST_DUPLICATE": base + FIRST_DUPLICATE, "SPF_BUILDER_FIRST_BAD": base + FIRST_BAD,
        "SPF_BUILDER_BAD_CHECK": base + BAD_CHECK, "SPF_BUILDER_DUPLICATE_AT": base + 4 + d,
        "SPF_BUILDER_ROWS": int(rows is not None)}
    if rows is not None:
        position = {c: k for k, c in enumerate(plan.coordinates)}
        parameters.update(SPF_BUILDER_OUTER=position[rows.outer], SPF_BUILDER_INNER=position[rows.inner])
    return runtime.include("spf_builder.h", parameters)


def _rows_extent_and_counts(plan: AssemblyPlan, prefix: str, struct: str, rows, load) -> list[str]:
    """What the fixed part of a plan of rows asks of the layout: ``NAME_rows_extent(T)``,
    the outer extent of the rows (the pointer array's length less one), and
    ``NAME_counts(T, report)``, the count fields from the node counts."""
    naming = {f.name: scalar_name(f.name) for f in plan.layout.scalars}
    extent = arith_c(rename(plan.layout.field(rows.pointer).dimensions[0], naming))
    return [
        f"static int64_t {prefix}_rows_extent({struct} *T) {{",
        *load("  "),
        f"  return ({extent}) - 1;",
        "}",
        "",
        f"static void {prefix}_counts({struct} *T, int64_t *report) {{",
        *(["  (void)T; (void)report;"] if not plan.counts else []),
        *[f"  T->{count} = report[{slot}] - {offset};" for count, (slot, offset) in plan.counts.items()],
        "}",
        "",
    ]


def _row_pointer_type(plan: AssemblyPlan) -> str:
    """The C type of the pointer array of a plan of rows (int64_t for other plans)."""
    rows = direct_rows(plan)
    return plan.layout.field(rows.pointer).c_type if rows is not None else "int64_t"


def _row_key_type(plan: AssemblyPlan) -> str:
    """The C type of adopted rows' keys: the key array's own (int64_t for other plans)."""
    rows = direct_rows(plan)
    return plan.layout.field(plan.levels[-1].keys[0].array).c_type if rows is not None else "int64_t"


def _value_type(plan: AssemblyPlan) -> str:
    """The C type of the layout's values (the builder keeps every value as a double)."""
    return plan.layout.field(plan.layout.values_field).c_type


def _copy_values(plan: AssemblyPlan, target: str, indent: str) -> str:
    """C copying the handle's ``n`` row values into ``target``: a memcpy for double values,
    else each rounded to the layout's type (a memcpy would reinterpret the doubles' bytes)."""
    value_type = _value_type(plan)
    if value_type == "double":
        return f"{indent}memcpy({target}, h->row_values, (size_t)n * sizeof(double));"
    return f"{indent}for (int64_t e = 0; e < n; e++) {target}[e] = ({value_type})h->row_values[e];"


def _narrow_values(plan: AssemblyPlan, indent: str, on_failure: str) -> list[str]:
    """For ``NAME_take`` of a layout whose values are not double: ``narrowed``, a new
    array of the row values rounded to the layout's type (the rows' own doubles cannot
    become the layout's array); out of memory, ``on_failure`` then return 2, the handle
    untouched.  Nothing for double values (the rows' array is handed over as it is)."""
    value_type = _value_type(plan)
    if value_type == "double":
        return []
    return [f"{indent}{value_type} *narrowed = ({value_type} *)malloc((size_t)(h->n > 0 ? h->n : 1) * "
            f"sizeof({value_type}));",
            f"{indent}if (!narrowed) {{ {on_failure}return 2; }}",
            f"{indent}for (int64_t e = 0; e < h->n; e++) narrowed[e] = ({value_type})h->row_values[e];",
            f"{indent}free(h->row_values);"]


def _fill_rows(plan: AssemblyPlan, prefix: str, rows, naming: dict) -> list[str]:
    """The start of ``NAME_fill`` for a handle of adopted rows: the pointer array from the
    group sizes, the keys and values copied as they stand."""
    layout = plan.layout
    outer, inner = plan.levels
    pointer = layout.field(rows.pointer)
    length = arith_c(rename(pointer.dimensions[0], naming))
    key = inner.keys[0].array
    return [
        "  if (h->row_pointer) {",
        f"    memcpy(a_{rows.pointer}, h->row_pointer, (size_t)({length}) * sizeof(*a_{rows.pointer}));",
        f"    memcpy(a_{key}, h->row_keys, (size_t)n * sizeof(*a_{key}));",
        _copy_values(plan, f"a_{layout.values_field}", "    "),
        f"    {prefix}_free(h);",
        "    return 0;",
        "  }",
        "  if (h->group_end) {",
        f"    memset(a_{rows.pointer}, 0, (size_t)({length}) * sizeof(*a_{rows.pointer}));",
        "    for (int64_t g = 0; g < h->groups; g++) {",
        f"      const int64_t {coordinate_name(rows.outer)} = h->group_outer[g];",
        f"      const int64_t {position_name(outer.index)} = {outer.keys[0].expression};",
        f"      a_{rows.pointer}[{inner.pointer_argument} + 1] = h->group_end[g] - (g ? h->group_end[g - 1] : 0);",
        "    }",
        f"    for (int64_t q = 0; q + 1 < {length}; q++) a_{rows.pointer}[q + 1] += a_{rows.pointer}[q];",
        f"    for (int64_t e = 0; e < n; e++) a_{key}[e] = h->row_keys[e];",
        _copy_values(plan, f"a_{layout.values_field}", "    "),
        f"    {prefix}_free(h);",
        "    return 0;",
        "  }",
    ]


def _take_rows(plan: AssemblyPlan, prefix: str, struct: str, rows, naming: dict, load) -> list[str]:
    """``NAME_take(handle, T)``: for a handle of adopted rows, its own key and value arrays
    become T's (no copy) and the pointer array is allocated and filled here; the caller
    frees the three with ``free``.  Returns 1 (nothing done) for any other handle, 2 when
    out of memory; then ``fill`` or ``free`` the handle as usual."""
    layout = plan.layout
    outer, inner = plan.levels
    pointer = layout.field(rows.pointer)
    length = arith_c(rename(pointer.dimensions[0], naming))
    key = inner.keys[0].array
    values = "h->row_values" if _value_type(plan) == "double" else "narrowed"
    return [
        f"int {prefix}_take(void *handle, {struct} *T) {{",
        f"  {prefix}_handle *h = ({prefix}_handle *)handle;",
        "  if (h->row_pointer) {  /* the two-phase kernel's own arrays, as they are */",
        *_narrow_values(plan, "    ", ""),
        f"    T->{rows.pointer} = h->row_pointer; T->{key} = h->row_keys; T->{layout.values_field} = {values};",
        "    h->row_pointer = 0; h->row_keys = 0; h->row_values = 0;",
        f"    {prefix}_free(h);",
        "    return 0;",
        "  }",
        "  if (!h->group_end) return 1;",
        *load("  "),
        f"  const int64_t length = {length};",
        f"  {pointer.c_type} *a_{rows.pointer} = ({pointer.c_type} *)calloc((size_t)(length > 0 ? length : 1), "
        f"sizeof({pointer.c_type}));",
        f"  if (!a_{rows.pointer}) return 2;",
        *_narrow_values(plan, "  ", f"free(a_{rows.pointer}); "),
        "  for (int64_t g = 0; g < h->groups; g++) {",
        f"    const int64_t {coordinate_name(rows.outer)} = h->group_outer[g];",
        f"    const int64_t {position_name(outer.index)} = {outer.keys[0].expression};",
        f"    a_{rows.pointer}[{inner.pointer_argument} + 1] = h->group_end[g] - (g ? h->group_end[g - 1] : 0);",
        "  }",
        f"  for (int64_t q = 0; q + 1 < length; q++) a_{rows.pointer}[q + 1] += a_{rows.pointer}[q];",
        f"  T->{rows.pointer} = a_{rows.pointer};",
        f"  T->{key} = h->row_keys;",
        f"  T->{layout.values_field} = {values};",
        "  h->row_keys = 0; h->row_values = 0;",
        f"  {prefix}_free(h);",
        "  return 0;",
        "}",
        "",
    ]
