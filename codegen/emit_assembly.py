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
"""

from __future__ import annotations

from .assembly import AssemblyPlan, arith_c, coordinate_name, position_name, rename, scalar_name
from .emit_c import PRELUDE
from .structs import header_text, struct_name

# report[] after the node counts of the compressed levels
DUPLICATES, FIRST_DUPLICATE, FIRST_BAD, BAD_CHECK = range(4)


def _key_is_coordinate(plan: AssemblyPlan, expression: str) -> int | None:
    """The coordinate number when a key is a coordinate itself (read in place, not copied)."""
    for number, coordinate in enumerate(plan.coordinates):
        if expression.replace(" ", "") in (f"({coordinate_name(coordinate)})", coordinate_name(coordinate)):
            return number
    return None


def assembly_source(plan: AssemblyPlan, prefix: str) -> str:
    """C source (prelude, the layout's struct, the builder) for ``plan``; functions ``prefix_*``."""
    layout = plan.layout
    struct = f"struct {struct_name(layout)}"
    keys = plan.keys
    m = len(keys)
    compressed = [number for number, level in enumerate(plan.levels) if level.kind == "compressed"]
    d = len(plan.coordinates)
    scalars = [f for f in layout.scalars]
    in_place = [_key_is_coordinate(plan, key.expression) if key.sign > 0 else None for key in keys]

    lines: list[str] = [PRELUDE, header_text([layout], [], f"SPF_ASSEMBLY_{prefix.upper()}_STRUCTS"),
                        "#include <string.h>", ""]
    emit = lines.append
    emit(f"typedef struct {{\n  int64_t n;\n  const int64_t *x[{max(d, 1)}];\n  int64_t stride[{max(d, 1)}];\n"
         f"  const double *v;\n  int64_t *key[{max(m, 1)}];\n  int64_t key_stride[{max(m, 1)}];\n"
         f"  int owned[{max(m, 1)}];\n  int64_t *perm;\n  unsigned char *diff;\n}} {prefix}_handle;\n")
    for k in range(m):
        emit(f"#define {prefix.upper()}_K{k}(h, e) ((h)->key[{k}][(e) * (h)->key_stride[{k}]])")
    emit("")

    def load(indent: str) -> list[str]:
        return [f"{indent}const int64_t {scalar_name(f.name)} = T->{f.name}; (void){scalar_name(f.name)};"
                for f in scalars]

    def entry_values(indent: str, positions: bool) -> list[str]:
        out = [f"{indent}const int64_t {coordinate_name(c)} = h->x[{k}][e * h->stride[{k}]]; "
               f"(void){coordinate_name(c)};" for k, c in enumerate(plan.coordinates)]
        if positions:
            for level in plan.levels:
                if level.kind == "dense":
                    out.append(f"{indent}const int64_t {position_name(level.index)} = {level.keys[0].expression}; "
                               f"(void){position_name(level.index)};")
        return out

    # comparison and first difference
    emit(f"static inline int {prefix}_compare(const {prefix}_handle *h, int64_t a, int64_t b, int from) {{")
    for k in range(m):
        emit(f"  if (from <= {k}) {{ const int64_t u = {prefix.upper()}_K{k}(h, a), w = {prefix.upper()}_K{k}(h, b);"
             " if (u != w) return u < w ? -1 : 1; }")
    emit("  return 0;\n}\n")
    emit(f"static inline int {prefix}_first_difference(const {prefix}_handle *h, int64_t a, int64_t b) {{")
    for k in range(m):
        emit(f"  if ({prefix.upper()}_K{k}(h, a) != {prefix.upper()}_K{k}(h, b)) return {k};")
    emit(f"  return {m};\n}}\n")
    # merge sort of perm[0..count) by the keys from `from` on, stable
    emit(f"""static void {prefix}_merge_sort(const {prefix}_handle *h, int64_t *perm, int64_t *tmp, int64_t count, int from) {{
  for (int64_t width = 1; width < count; width *= 2) {{
    for (int64_t low = 0; low < count; low += 2 * width) {{
      const int64_t mid = spf_min(low + width, count), high = spf_min(low + 2 * width, count);
      int64_t a = low, b = mid, t = low;
      if (mid >= high || {prefix}_compare(h, perm[mid - 1], perm[mid], from) <= 0) {{
        memcpy(tmp + low, perm + low, (size_t)(high - low) * sizeof(int64_t));
        continue;
      }}
      while (a < mid && b < high) tmp[t++] = {prefix}_compare(h, perm[b], perm[a], from) < 0 ? perm[b++] : perm[a++];
      while (a < mid) tmp[t++] = perm[a++];
      while (b < high) tmp[t++] = perm[b++];
    }}
    memcpy(perm, tmp, (size_t)count * sizeof(int64_t));
  }}
}}
""")
    emit(f"void {prefix}_free(void *handle) {{\n  {prefix}_handle *h = ({prefix}_handle *)handle;\n"
         "  if (!h) return;")
    emit(f"  for (int k = 0; k < {m}; k++) if (h->owned[k]) free(h->key[k]);")
    emit("  free(h->perm);\n  free(h->diff);\n  free(h);\n}\n")

    # ---- begin
    report_base = len(compressed)
    emit(f"void *{prefix}_begin(const {struct} *T, int64_t n, const int64_t *const *x, const int64_t *stride, "
         "const double *v, int64_t *report) {")
    emit(f"  for (int r = 0; r < {report_base + 4}; r++) report[r] = 0;")
    emit(f"  report[{report_base + FIRST_DUPLICATE}] = -1; report[{report_base + FIRST_BAD}] = -1; "
         f"report[{report_base + BAD_CHECK}] = -1;")
    emit(f"  {prefix}_handle *h = ({prefix}_handle *)calloc(1, sizeof({prefix}_handle));")
    emit("  if (!h) return NULL;")
    emit("  h->n = n; h->v = v;")
    emit(f"  for (int k = 0; k < {d}; k++) {{ h->x[k] = x[k]; h->stride[k] = stride[k]; }}")
    materialized = []
    for k, key in enumerate(keys):
        if in_place[k] is not None:
            emit(f"  h->key[{k}] = (int64_t *)x[{in_place[k]}]; h->key_stride[{k}] = stride[{in_place[k]}];")
        else:
            materialized.append(k)
            emit(f"  h->key[{k}] = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t)); "
                 f"h->key_stride[{k}] = 1; h->owned[{k}] = 1;")
            emit(f"  if (!h->key[{k}]) {{ {prefix}_free(h); return NULL; }}")
    lines.extend(load("  "))
    # checks and computed keys
    emit("  for (int64_t e = 0; e < n; e++) {")
    lines.extend(entry_values("    ", positions=True))
    for number, (condition, _) in enumerate(plan.checks):
        emit(f"    if (!({condition})) {{ report[{report_base + FIRST_BAD}] = e; "
             f"report[{report_base + BAD_CHECK}] = {number}; {prefix}_free(h); return NULL; }}")
    for k in materialized:
        sign = "-" if keys[k].sign < 0 else ""
        emit(f"    h->key[{k}][e] = {sign}({keys[k].expression});")
    emit("  }")
    # storage order
    emit("  int sorted = 1;")
    emit(f"  for (int64_t t = 1; t < n && sorted; t++) sorted = {prefix}_compare(h, t - 1, t, 0) <= 0;")
    emit("  if (!sorted) {")
    emit("    h->perm = (int64_t *)malloc((size_t)n * sizeof(int64_t));")
    emit(f"    if (!h->perm) {{ {prefix}_free(h); return NULL; }}")
    if m:
        emit(f"""    int64_t low = {prefix.upper()}_K0(h, 0), high = low;
    for (int64_t e = 1; e < n; e++) {{ const int64_t k = {prefix.upper()}_K0(h, e); low = spf_min(low, k); high = spf_max(high, k); }}
    const int64_t range = high - low + 1;
    int64_t *count = range <= n + (1 << 20) ? (int64_t *)calloc((size_t)range + 1, sizeof(int64_t)) : NULL;
    int from = 1;
    if (count) {{
      for (int64_t e = 0; e < n; e++) count[{prefix.upper()}_K0(h, e) - low + 1]++;
      for (int64_t r = 0; r < range; r++) count[r + 1] += count[r];
      for (int64_t e = 0; e < n; e++) h->perm[count[{prefix.upper()}_K0(h, e) - low]++] = e;
      free(count);
    }} else {{
      for (int64_t e = 0; e < n; e++) h->perm[e] = e;
      from = 0;
    }}
    /* groups of equal first keys (or everything) not yet in order: merge sort them */
    int64_t largest = 0;
    for (int64_t start = 0, end; start < n; start = end) {{
      end = start + 1;
      int ordered = 1;
      while (end < n && (from == 0 || {prefix.upper()}_K0(h, h->perm[end]) == {prefix.upper()}_K0(h, h->perm[start]))) {{
        if (ordered && {prefix}_compare(h, h->perm[end - 1], h->perm[end], from) > 0) ordered = 0;
        end++;
      }}
      if (!ordered && end - start > largest) largest = end - start;
    }}
    if (largest > 0 && {m} > from) {{
      int64_t *tmp = (int64_t *)malloc((size_t)largest * sizeof(int64_t));
      if (!tmp) {{ {prefix}_free(h); return NULL; }}
      for (int64_t start = 0, end; start < n; start = end) {{
        end = start + 1;
        int ordered = 1;
        while (end < n && (from == 0 || {prefix.upper()}_K0(h, h->perm[end]) == {prefix.upper()}_K0(h, h->perm[start]))) {{
          if (ordered && {prefix}_compare(h, h->perm[end - 1], h->perm[end], from) > 0) ordered = 0;
          end++;
        }}
        if (!ordered) {prefix}_merge_sort(h, h->perm + start, tmp, end - start, from);
      }}
      free(tmp);
    }}""")
    emit("  }")
    # first differences and node counts
    emit("  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));")
    emit(f"  if (!h->diff) {{ {prefix}_free(h); return NULL; }}")
    emit("  for (int64_t t = 0; t < n; t++) {")
    emit("    const int64_t e = h->perm ? h->perm[t] : t;")
    emit(f"    const int d = t == 0 ? 0 : {prefix}_first_difference(h, h->perm ? h->perm[t - 1] : t - 1, e);")
    emit("    h->diff[t] = (unsigned char)d;")
    for slot, number in enumerate(compressed):
        _, end = plan.key_span(number)
        emit(f"    report[{slot}] += d < {end};")
    emit(f"    if (d == {m}) {{ if (report[{report_base + DUPLICATES}]++ == 0) "
         f"report[{report_base + FIRST_DUPLICATE}] = e; }}")
    emit("  }")
    emit("  return h;\n}\n")

    # ---- fill
    emit(f"int {prefix}_fill(void *handle, {struct} *T) {{")
    emit(f"  {prefix}_handle *h = ({prefix}_handle *)handle;")
    emit("  const int64_t n = h->n;")
    lines.extend(load("  "))
    for f in layout.arrays:
        emit(f"  {f.c_type} *const a_{f.name} = T->{f.name}; (void)a_{f.name};")
    for number in compressed:
        emit(f"  int64_t {position_name(plan.levels[number].index)} = -1;")
    emit("  for (int64_t t = 0; t < n; t++) {")
    emit("    const int64_t e = h->perm ? h->perm[t] : t;")
    emit("    const int d = h->diff[t]; (void)d;")
    lines.extend(entry_values("    ", positions=False))
    for number, level in enumerate(plan.levels):
        p = position_name(level.index)
        if level.kind == "dense":
            emit(f"    const int64_t {p} = {level.keys[0].expression}; (void){p};")
            continue
        _, end = plan.key_span(number)
        emit(f"    if (d < {end}) {{")
        emit(f"      {p}++;")
        for key in level.keys:
            emit(f"      a_{key.array}[{p}] = {key.expression};")
        if level.pointer:
            emit(f"      a_{level.pointer}[{level.pointer_argument} + 1]++;")
        emit("    }")
    emit(f"    a_{layout.values_field}[{plan.values_index}] += h->v[e];")
    emit("  }")
    for level in plan.levels:
        if level.pointer:
            pointer = layout.field(level.pointer)
            length = pointer.dimensions[0]
            naming = {f.name: scalar_name(f.name) for f in layout.scalars}
            emit(f"  for (int64_t q = 0; q + 1 < {arith_c(rename(length, naming))}; q++) "
                 f"a_{level.pointer}[q + 1] += a_{level.pointer}[q];")
    emit(f"  {prefix}_free(h);")
    emit("  return 0;\n}\n")
    return "\n".join(lines)
