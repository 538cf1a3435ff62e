"""Printing finds (spf.codegen.finds.find) and their state: binary search (a lower bound), SeqIter
(a resumable position, kept per value of a keyed index), HashMap and Bitmap (a position
table filled once per state); the state kept between calls is taken at function entry."""

from __future__ import annotations

from pycparser import c_ast

from spf.errors import SpfInternalError
from spf.space.expressions import Affine, UFCall

from spf.codegen.c.c_expressions import affine, array_read, lower_bound, upper_bound
from spf.codegen.c.c_syntax import (INDEX, KEPT, OUT_OF_MEMORY, assign, binary, block, c_statements, c_text, call,
                                    conjunction, const, declare, ident)
from spf.codegen.finds.find import FindChoice
from spf.codegen.loops import Find, StateInit


def hash_table_length(entries: int) -> int:
    """The int64 length of a hash map's table for ``entries`` positions (spf_hash_fill)."""
    bits = 1
    while bits < 58 and (1 << bits) < 2 * entries:
        bits += 1
    return 2 + (1 << bits) // 2 + 3 * (1 << bits)


def bitmap_table_length(capacity: int) -> int:
    """The int64 length of a bitmap table for values in [0, capacity) (spf_bitmap_fill)."""
    capacity = max(capacity, 1)
    return 2 + 2 * capacity + (capacity >> 3) + 1


class FindPrinter:
    """The Emitter's printing of finds and their state (a part of
    :class:`spf.codegen.c.emit_statements.Emitter`, whose state it reads and extends: names,
    state_names, state_count, entry, epilogue)."""

    def state_init(self, node: StateInit) -> list:
        """Start a find's state: a SeqIter position (a scalar, or an array of positions per
        value of a keyed index) or a HashMap table filled from the searched range."""
        find, names = node.find, self.names
        low, high = lower_bound(find.lower, names), upper_bound(find.upper, names)
        if find.template.kind == "seqiter":
            state = self.state_names[id(find)] = self.fresh(f"{names.name(find.variable)}_position")
            start = low if find.template.direction > 0 else high
            if not find.template.keyed:
                return [declare(state, INDEX, start)]
            # positions kept per value of a reduced state index (COO: per row)
            (key,) = find.template.keyed
            size = ident(names.extents[key])
            fill = self.fresh("start")
            return self._state_array(state, binary("+", size, const(1)), node.per_thread) + [
                c_ast.For(c_ast.DeclList([declare(fill, INDEX, const(0))]),
                          binary("<", ident(fill), size), c_ast.UnaryOp("p++", ident(fill)),
                          assign(c_ast.ArrayRef(ident(state), ident(fill)), start))]
        if find.template.kind == "bitmap":
            return self._bitmap_init(node, low, high)
        # hashmap: a table from the searched array's values to positions (spf_hash_*), kept
        # between calls, sized by the range each fill puts (so a few entries of a wide value
        # range make a small table), and emptied by the next fill through its touched list.
        table = self.state_names[id(find)] = self.fresh(f"{names.name(find.variable)}_table")
        slot = self._state_slot(table, node.per_thread)
        fill = self.fresh("fill")
        return c_statements(f"""
            int64_t *const {table} = spf_hash_fill({slot}, ({c_text(high)}) - ({c_text(low)}) + 1);
            for (int64_t {fill} = {c_text(low)}; {fill} <= {c_text(high)}; {fill}++)
              spf_hash_put({table}, {c_text(self._read_at(find, fill))}, {fill});""")

    def _bitmap_init(self, node: StateInit, low, high) -> list:
        """A bitmap table (spf_bitmap_*): positions addressed by the searched array's value
        less the low end of its range property, kept between calls, cleared by the next fill
        through its touched list (or whole, after a dense fill)."""
        find, names = node.find, self.names
        low_value, high_value = find.template.values
        offset = "" if low_value == Affine() else f" - ({c_text(affine(low_value, names))})"
        capacity = c_text(affine(high_value - low_value, names))
        view = self.state_names[id(find)] = self.fresh(f"{names.name(find.variable)}_bitmap")
        table = self.fresh(f"{names.name(find.variable)}_table")
        slot = self._state_slot(table, node.per_thread)
        fill = self.fresh("fill")
        return c_statements(f"""
            int64_t *const {table} = spf_bitmap_fill({slot}, {capacity});
            for (int64_t {fill} = {c_text(low)}; {fill} <= {c_text(high)}; {fill}++)
              spf_bitmap_put({table}, {c_text(self._read_at(find, fill))}{offset}, {fill});
            const spf_bitmap {view} = spf_bitmap_view({table});""")

    def _state_slot(self, name: str, per_thread: bool) -> str:
        """The kept state (a C ``spf_state *`` expression) of one more find, taken at function
        entry; ``per_thread``: the running thread's own sub-state."""
        slot = f"&{KEPT}[{self.state_count}]"
        self.state_count += 1
        if not per_thread:
            return slot
        threads = f"{name}_threads"
        self.entry.extend(c_statements(f"""
            spf_state *const {threads} = spf_state_threads({slot}, spf_threads());""") + [
            c_ast.If(binary("==", ident(threads), ident("NULL")),
                     block(list(self.epilogue) + [c_ast.Return(const(OUT_OF_MEMORY))]), None)])
        return f"&{threads}[spf_thread()]"

    def _state_array(self, name: str, length, per_thread: bool) -> list:
        """An int64 array of ``length`` entries for find state, taken at function entry from
        the state the kernel keeps between calls (``spf_state_array``: as a previous call
        left it, or new and zeroed when it was shorter).  ``per_thread``: one slice per
        thread, and the returned declaration points ``name`` at the running thread's slice."""
        storage = f"{name}_all" if per_thread else name
        slot = c_ast.UnaryOp("&", c_ast.ArrayRef(ident(KEPT), const(self.state_count)))
        self.state_count += 1
        count = binary("*", call("spf_threads"), length) if per_thread else length
        self.entry.extend([
            declare(storage, INDEX, call("spf_state_array", slot, count), pointer=True),
            c_ast.If(binary("==", ident(storage), ident("NULL")),
                     block(list(self.epilogue) + [c_ast.Return(const(OUT_OF_MEMORY))]), None)])
        if not per_thread:
            return []
        slice_ = binary("+", ident(storage), binary("*", call("spf_thread"), length))
        return [declare(name, INDEX, slice_, pointer=True)]

    def find(self, node: Find) -> list:
        template: FindChoice = node.template
        if template.kind == "binary":
            return self.binary_search(node, template)
        if template.kind == "seqiter":
            return self.sequential(node, template)
        if template.kind in ("hashmap", "bitmap"):
            return self.table_lookup(node, template)
        raise SpfInternalError(f"a find with the template {template.kind!r}, which the C printer has no case for")

    def _match_body(self, node: Find, position) -> list:
        names = self.names
        return ([declare(names.name(node.variable), INDEX, position, const_=True)]
                + [declare(names.name(part.dimension), INDEX, affine(part.key, names), const_=True)
                   for part in node.parts]
                + self.nodes(node.body))

    def _read_at(self, node: Find, position: str, searched: UFCall | None = None):
        """U(position): the find's call (or ``searched``, a part of its key) with its variable
        replaced by the C variable ``position``."""
        searched = searched or node.call
        substituted = UFCall(searched.function, tuple(
            a.substitute({node.variable: Affine.of(position)}) for a in searched.arguments))
        return array_read(substituted, self.names)

    def _keys(self, node: Find, key: str) -> tuple[list, list[str]]:
        """Declarations of the key's parts (C variables ``key``, ``key_1``, ...) and their names."""
        names = [key] + [self.fresh("key") for _ in node.minor]
        return ([declare(name, INDEX, affine(part.key, self.names), const_=True)
                 for name, part in zip(names, node.parts)], names)

    def _before(self, node: Find, position: str, keys: list[str], before: str):
        """The key at ``position`` comes before ``keys`` (``before``: "<" or ">"), lexicographically."""
        parts = list(zip(node.parts, keys))
        part, key = parts[-1]
        condition = binary(before, self._read_at(node, position, part.call), ident(key))
        for part, key in reversed(parts[:-1]):
            read = self._read_at(node, position, part.call)
            condition = binary("||", binary(before, read, ident(key)),
                               binary("&&", binary("==", read, ident(key)), condition))
        return condition

    def _equal(self, node: Find, position: str, keys: list[str]):
        """The key at ``position`` is ``keys``."""
        return conjunction([binary("==", self._read_at(node, position, part.call), ident(key))
                            for part, key in zip(node.parts, keys)])

    def binary_search(self, node: Find, template: FindChoice) -> list:
        names = self.names
        low, high, key = self.fresh("lo"), self.fresh("hi"), self.fresh("key")
        middle, end = self.fresh("mid"), self.fresh("end")
        before = "<" if template.increasing else ">"
        declarations, keys = self._keys(node, key)
        items = declarations + [
            declare(low, INDEX, lower_bound(node.lower, names)),
            declare(end, INDEX, binary("+", upper_bound(node.upper, names), const(1)), const_=True),
            declare(high, INDEX, ident(end))]
        search_body = block([
            declare(middle, INDEX, binary("+", ident(low), binary("/", binary("-", ident(high), ident(low)),
                                                                    const(2))), const_=True),
            c_ast.If(self._before(node, middle, keys, before),
                     assign(low, binary("+", ident(middle), const(1))), assign(high, ident(middle)))])
        items.append(c_ast.While(binary("<", ident(low), ident(high)), search_body))
        matches = binary("&&", binary("<", ident(low), ident(end)), self._equal(node, low, keys))
        if template.multiple:
            position = self.fresh("p")
            loop = c_ast.For(c_ast.DeclList([declare(position, INDEX, ident(low))]),
                             binary("&&", binary("<", ident(position), ident(end)), self._equal(node, position, keys)),
                             c_ast.UnaryOp("p++", ident(position)),
                             block(self._match_body(node, ident(position))))
            items.append(loop)
        else:
            items.append(c_ast.If(matches, block(self._match_body(node, ident(low))), None))
        return [block(items)]

    def sequential(self, node: Find, template: FindChoice) -> list:
        names = self.names
        state = self.state_names[id(node)]
        key = self.fresh("key")
        saved = []
        if template.keyed:
            (key_variable,) = template.keyed
            slot = c_ast.ArrayRef(ident(self.state_names[id(node)]), ident(names.name(key_variable)))
            state = self.fresh("position")
            saved = [assign(slot, ident(state))]
        low, high = lower_bound(node.lower, names), upper_bound(node.upper, names)
        inside = binary("&&", binary(">=", ident(state), low), binary("<=", ident(state), high))
        declarations, keys = self._keys(node, key)
        advance = self._before(node, state, keys, "<" if template.keys_increasing else ">")
        step = c_ast.UnaryOp("p++" if template.direction > 0 else "p--", ident(state))
        items = declarations
        if template.keyed:
            items.append(declare(state, INDEX, saved[0].lvalue))
        items.append(c_ast.While(binary("&&", inside, advance), step))
        if node.exit_when_exhausted:  # the position left the range: no later iteration of the loop matches
            items.append(c_ast.If(c_ast.UnaryOp("!", inside), c_ast.Break(), None))
        matched = binary("&&", inside, self._equal(node, state, keys))
        items.append(c_ast.If(matched, block(self._match_body(node, ident(state)) + [step]), None))
        return [block(items + saved)]

    def table_lookup(self, node: Find, template: FindChoice) -> list:
        """The position of the key in the find's hash map or bitmap table, if any; a masked
        bitmap lookup (spf.codegen.passes.masked_lookup) where the fill says so."""
        position = self.fresh("q")
        table = ident(self.state_names[id(node)])
        if template.kind == "hashmap":
            lookup = call("spf_hash_get", table, affine(node.key, self.names))
        else:
            lookup = call("spf_bitmap_get", table, affine(node.key - template.values[0], self.names))
        branched = [declare(position, INDEX, lookup, const_=True),
                    c_ast.If(binary(">=", ident(position), const(0)),
                             block(self._match_body(node, ident(position))), None)]
        if not node.masked:
            return [block(branched)]
        return [c_ast.If(c_ast.StructRef(table, ".", ident("masked")),
                         block(self._masked_lookup(node, template, position, table)), block(branched))]

    def _masked_lookup(self, node: Find, template: FindChoice, position: str, table) -> list:
        """Where the fill put many values (``view.masked``, the same for every key): the
        position and the term read without a branch (at a position of the fill's where the
        key is absent), the term masked by the hit."""
        key, hit = self.fresh("key"), self.fresh("hit")
        self.lookup_mask = hit
        body = self._match_body(node, ident(position))
        self.lookup_mask = None
        return [declare(key, INDEX, affine(node.key - template.values[0], self.names), const_=True),
                declare(position, INDEX, call("spf_bitmap_masked", table, ident(key)), const_=True),
                declare(hit, "uint64_t", call("spf_bitmap_hit", table, ident(key)), const_=True)] + body
