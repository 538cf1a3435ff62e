"""Printing a Merge (spf.codegen.assembly.merge): the arms' ranges, then their positions advanced by
the least coordinate: the two-pointer merge (with branches, or branch-free as the rows
pass decided), or one loop over every arm's key for more than two arms."""

from __future__ import annotations

from pycparser import c_ast

from spf.errors import SpfError

from spf.codegen.assembly.merge import arm_assignments, key_assignments
from spf.codegen.c.c_syntax import INDEX, assign, binary, block, c_statements, c_text, call, const, declare, ident
from spf.codegen.loops import Merge


class MergePrinter:
    """The Emitter's printing of Merge nodes (a part of :class:`spf.codegen.c.emit_statements.Emitter`,
    whose state it reads: names, append_mode, held, drop_zeros, merge_ranges)."""

    def merge(self, node: Merge) -> list:
        """The arms' ranges (each arm's path run, its loop's bounds kept; an arm whose
        guards fail keeps an empty range), then their positions advanced by the least
        coordinate: two arms as the two-pointer merge (one ahead, the other, or both) with
        its two tails, more as one loop over every arm's current coordinate."""
        names, tag = self.names, self.fresh("spf_merge")
        count = len(node.arms)
        low, high = [f"{tag}_low{k}" for k in range(count)], [f"{tag}_high{k}" for k in range(count)]
        at, key = [f"{tag}_at{k}" for k in range(count)], [f"{tag}_key{k}" for k in range(count)]
        items = []
        for k, arm in enumerate(node.arms):
            items += [declare(low[k], INDEX, const(0)), declare(high[k], INDEX, const(-1))]
            self.merge_ranges[id(arm.loop)] = (low[k], high[k])
            items += self.nodes(arm.path)
            del self.merge_ranges[id(arm.loop)]
        items += [declare(at[k], INDEX, ident(low[k])) for k in range(count)]

        def position(k: int) -> list:  # the arm's position variable and the path's values its body reads
            arm = node.arms[k]
            return ([declare(names.name(arm.loop.variable), INDEX, ident(at[k]), const_=True)] +
                    [self._declaration(a) for a in arm_assignments(arm)])

        def coordinate(k: int) -> c_ast.Compound:  # key[k] = the arm's coordinate at its position
            keys = key_assignments(node.arms[k].loop, node.coordinate)
            return block(position(k) + [self._declaration(a) for a in keys] +
                         [assign(ident(key[k]), ident(names.name(node.coordinate)))])

        def run(k: int, mode: str | None = None) -> c_ast.Compound:  # the arm's body there, then the next position
            saved, self.append_mode = self.append_mode, mode
            body = self.nodes(node.arms[k].loop.body)
            self.append_mode = saved
            return block(position(k) + body + [c_ast.UnaryOp("p++", ident(at[k]))])

        def active(k: int) -> c_ast.BinaryOp:
            return binary("<=", ident(at[k]), ident(high[k]))

        if node.steps == "least":
            return [block(items + self._least_merge(node, tag, key, coordinate, run, active))]
        if count != 2:
            raise SpfError(f"a merge of {count} terms cannot step as {node.steps!r} (two terms only)")
        if node.steps == "branchless":
            return [block(items + self._branchless_merge(node, at, high, key, coordinate, position, run, active))]
        # three cases, as scipy's merge: each emitted body then sees one outcome of its tests
        # an arm that pushes appends its key new to the group (the merge advanced every
        # arm past the keys before it); otherwise the cursor compares
        new = ["push" if arm.pushes else None for arm in node.arms]
        if node.steps == "held":
            # both at one key: the terms summed in a register, then one push (no store read back)
            both = block([declare("spf_held", "double", const(0.0)), run(0, "hold"), run(1, "add_held"),
                          call("spf_cursor_push", ident("&spf_my_cursor"), ident("spf_my_stream"),
                               ident(key[0]), ident("spf_held"))])
        else:
            both = block([run(0, new[0]), run(1, None)])
        step = [declare(key[0], INDEX), declare(key[1], INDEX), coordinate(0), coordinate(1),
                c_ast.If(binary("<", ident(key[0]), ident(key[1])), run(0, new[0]),
                         c_ast.If(binary("<", ident(key[1]), ident(key[0])), run(1, new[1]), both))]
        items += [c_ast.While(binary("&&", active(0), active(1)), block(step)),
                  c_ast.While(active(0), run(0, new[0])), c_ast.While(active(1), run(1, new[1]))]
        return [block(items)]

    @staticmethod
    def _least_merge(node: Merge, tag: str, key, coordinate, run, active) -> list:
        """One loop over the arms' current keys: each step runs every arm at the least."""
        count, least = len(node.arms), f"{tag}_least"
        step = []
        for k in range(count):
            step += [declare(key[k], INDEX, ident("INT64_MAX")), c_ast.If(active(k), coordinate(k), None)]
        step.append(declare(least, INDEX, ident(key[0])))
        step += [c_ast.If(binary("<", ident(key[k]), ident(least)), assign(ident(least), ident(key[k])), None)
                 for k in range(1, count)]
        step.append(c_ast.If(binary("==", ident(least), ident("INT64_MAX")), c_ast.Break(), None))
        step += [c_ast.If(binary("==", ident(key[k]), ident(least)), run(k), None) for k in range(count)]
        return [c_ast.For(None, None, None, block(step))]

    def _branchless_merge(self, node: Merge, at, high, key, coordinate, position, run, active) -> list:
        """The two-pointer merge with no branch on which key is less: each step reads both
        arms' keys and values (each arm's iteration is assignments and one entry, unguarded:
        its position is in range while both arms are), stores the least key with the sum of
        the values at it (the other's masked to zero), keeps the entry when it is not zero
        (an assembled output stores none) and advances each arm whose key was the least
        (spf.codegen.assembly.rows says why).  The cursor's fields are copied into locals for the loop
        (stores to the rows cannot then make the compiler reload them); the tails run as
        before."""
        terms = [f"{key[k]}_term" for k in range(2)]
        steps = [declare(key[0], INDEX), declare(key[1], INDEX), coordinate(0), coordinate(1),
                 declare(terms[0], "double"), declare(terms[1], "double")]
        for k in range(2):
            saved, self.append_mode, self.held = self.append_mode, "hold", terms[k]
            steps.append(block(position(k) + self.nodes(node.arms[k].loop.body)))
            self.append_mode, self.held = saved, "spf_held"
        kept = "spf_value != 0.0" if self.drop_zeros else "1"
        if self.semiring.add.c_operator == "+":  # a term not at the least key masked to +0.0
            combined = f"spf_masked({terms[0]}, spf_take0) + spf_masked({terms[1]}, spf_take1)"
        else:  # ⊕ of both where both are at the least key, else the one that is, as it is
            both = c_text(self.reduced(ident(terms[0]), ident(terms[1])))
            combined = f"spf_take0 && spf_take1 ? {both} : spf_take0 ? {terms[0]} : {terms[1]}"
        room = c_statements(f"""
            if (__builtin_expect(spf_n == spf_capacity, 0)) {{
              spf_my_cursor.n = spf_n;
              if (!spf_cursor_room(&spf_my_cursor, spf_my_stream)) {{ {at[0]} = {high[0]} + 1; {at[1]} = {high[1]} + 1; break; }}
              spf_keys = spf_my_cursor.key; spf_values = spf_my_cursor.v; spf_capacity = spf_my_cursor.capacity;
            }}""")
        steps += c_statements(f"""
            const int spf_take0 = {key[0]} <= {key[1]}, spf_take1 = {key[1]} <= {key[0]};
            const double spf_value = {combined};
            spf_keys[spf_n] = {key[0]} < {key[1]} ? {key[0]} : {key[1]};
            spf_values[spf_n] = spf_value;
            spf_n += {kept};
            {at[0]} += spf_take0; {at[1]} += spf_take1;""")
        head = c_statements("""
            spf_cursor_key *spf_keys = spf_my_cursor.key;
            double *spf_values = spf_my_cursor.v;
            int64_t spf_n = spf_my_cursor.n, spf_capacity = spf_my_cursor.capacity;""")
        loop = c_ast.While(binary("&&", active(0), active(1)), block(room + steps))
        tails = [c_ast.While(active(k), run(k, "push")) for k in range(2)]
        return [block(head + [loop] + c_statements("spf_my_cursor.n = spf_n;"))] + tails
