"""The autoscheduler's searches kept (spf/runtime/search_cache.py): a repeated autoschedule reads
its search and its pruning, in the process and in a new one, and gets what a new search gives;
everything the search and the pruning read is part of their keys; a damaged entry is searched again."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import spf
from conftest import REPOSITORY
from spf.errors import ArgumentError
from spf.runtime import search_cache
from spf.scheduling.autoscheduler.problem import make_problem
from spf.scheduling.autoscheduler.search import frontier

MTTKRP = "A(j,a) = B(i,j,k) * C(i,a) * D(k,a)"  # mode 1: B may be copied with j first
MTTKRP_LAYOUTS = {"A": "Dense2", "B": "CSF3", "C": "Dense2", "D": "Dense2"}
CHAIN = "A(i,l) = B(i,j) * C(j,k) * D(k,l)"
CHAIN_LAYOUTS = {"A": "Dense2", "B": "CSR", "C": "Dense2", "D": "Dense2"}
READ = "searches read from the cache"
PRUNING_READ = "stage 3 read from the cache"


def described(result) -> list:
    """What an autoschedule returns, as text with the costs: candidates, then every generated tree."""
    return [[(str(c.schedule), str(c.work), str(c.memory)) for c in candidates]
            for candidates in (result.candidates, result.generated)]


@pytest.fixture()
def own_cache(tmp_path, monkeypatch):
    """An empty cache folder and an empty process memory of searches."""
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(search_cache, "MEMORY", {})
    return tmp_path


def test_a_repeated_autoschedule_reads_its_search_and_gets_the_same(own_cache):
    first = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
    assert READ not in first.counts
    assert PRUNING_READ not in first.counts
    again = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
    assert again.counts[READ] == 1 and again.counts[PRUNING_READ] == 1 and described(again) == described(first)
    search_cache.MEMORY.clear()  # as a new process: from disk
    from_disk = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
    assert from_disk.counts[READ] == 1 and from_disk.counts[PRUNING_READ] == 1
    assert described(from_disk) == described(first)
    anew = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None, cache=False)
    assert READ not in anew.counts and PRUNING_READ not in anew.counts and described(anew) == described(first)
    assert len(list((own_cache / "searches").glob("*.pickle"))) == 2  # the search and its pruning


def test_the_users_constraints_and_skipping_the_solver_are_part_of_the_pruning_key(own_cache):
    plain = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
    constrained = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, ["16 <= K <= 128"], progress=lambda line: None)
    assert constrained.counts[READ] == 1 and PRUNING_READ not in constrained.counts  # the same search
    no_solver = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None, skip=[3])
    assert no_solver.counts[READ] == 1 and PRUNING_READ not in no_solver.counts
    assert no_solver.counts["solver queries"] == 0 < plain.counts["solver queries"]
    again = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, ["16 <= K <= 128"], progress=lambda line: None)
    assert again.counts[PRUNING_READ] == 1 and described(again) == described(constrained)


def test_each_mode_order_searched_is_kept(own_cache):
    first = spf.autoschedule(MTTKRP, MTTKRP_LAYOUTS, progress=lambda line: None)
    searched = first.counts.get("mode orders searched", 1)
    assert searched > 1  # the stored order and copies of B in other orders
    again = spf.autoschedule(MTTKRP, MTTKRP_LAYOUTS, progress=lambda line: None)
    assert again.counts[READ] == searched and described(again) == described(first)
    only_stored = spf.autoschedule(MTTKRP, MTTKRP_LAYOUTS, progress=lambda line: None, mode_orders=False)
    assert only_stored.counts[READ] == 1  # the stored order's search, kept from the first call
    assert PRUNING_READ not in only_stored.counts  # fewer buckets to compare: another pruning


def test_what_the_search_reads_is_part_of_the_key():
    problem = make_problem(CHAIN, CHAIN_LAYOUTS, None)
    key = search_cache.search_key(problem, exhaustive=False)
    assert key == search_cache.search_key(make_problem(CHAIN, CHAIN_LAYOUTS, None), exhaustive=False)
    others = [search_cache.search_key(problem, exhaustive=True),
              search_cache.search_key(make_problem(CHAIN, {**CHAIN_LAYOUTS, "B": "CSC"}, None), exhaustive=False),
              search_cache.search_key(make_problem(CHAIN, {**CHAIN_LAYOUTS, "C": "CSR"}, None), exhaustive=False),
              search_cache.search_key(make_problem("A(i,l) = B(i,j) * C(j,k) * D(k,l) * E(l)",
                                                   {**CHAIN_LAYOUTS, "E": "Dense1"}, None), exhaustive=False)]
    assert len({key, *others}) == 1 + len(others)


def test_an_exhaustive_search_is_kept_apart(own_cache):
    fast = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
    full = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None, exhaustive_search=True)
    assert READ not in full.counts
    assert full.counts["generated (stage 1 applied)"] > fast.counts["non-dominated (stage 1 applied)"]
    again = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None, exhaustive_search=True)
    assert again.counts[READ] == 1 and described(again) == described(full)


def test_a_damaged_or_foreign_entry_is_searched_again(own_cache):
    first = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
    problem = make_problem(CHAIN, CHAIN_LAYOUTS, None)
    key = search_cache.search_key(problem, exhaustive=False)
    entry = own_cache / "searches" / f"{key[:32]}.pickle"
    for content in (b"not a pickle", b"", entry.read_bytes()[:-10]):
        entry.write_bytes(content)
        search_cache.MEMORY.clear()
        again = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
        assert READ not in again.counts and described(again) == described(first)
    for pruning in set((own_cache / "searches").glob("*.pickle")) - {entry}:  # the pruning's entry, damaged
        pruning.write_bytes(b"not a pickle")
    search_cache.MEMORY.clear()
    again = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
    assert again.counts[READ] == 1 and PRUNING_READ not in again.counts and described(again) == described(first)
    # a valid entry of another key (a file copied or renamed) is not taken for this one
    other = search_cache.search_key(problem, exhaustive=True)
    search_cache.cached_search(problem, True, lambda: frontier(problem)[:1], use_cache=False)
    (own_cache / "searches" / f"{other[:32]}.pickle").replace(own_cache / "searches" / f"{key[:32]}.pickle")
    search_cache.MEMORY.clear()
    again = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
    assert READ not in again.counts and described(again) == described(first)


def test_a_cache_that_cannot_be_written_only_costs_the_search(own_cache):
    (own_cache / "searches").write_text("a file where the folder would be")
    for _ in range(2):
        result = spf.autoschedule(CHAIN, CHAIN_LAYOUTS, progress=lambda line: None)
        assert result.candidates and READ not in result.counts
        search_cache.MEMORY.clear()
    assert (own_cache / "searches").read_text() == "a file where the folder would be"


def test_a_new_process_reads_the_search_from_disk(tmp_path):
    program = ("import spf; r = spf.autoschedule('A(i,l) = B(i,j) * C(j,k) * D(k,l)', "
               "{'A': 'Dense2', 'B': 'CSR', 'C': 'Dense2', 'D': 'Dense2'}, progress=lambda line: None); "
               "print(r.counts.get('searches read from the cache', 0), len(r.candidates))")
    environment = {**os.environ, "SPF_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment,
                           cwd=REPOSITORY) for _ in range(2)]
    outputs = [run.stdout.split() for run in runs]
    assert [o[0] for o in outputs] == ["0", "1"] and outputs[0][1] == outputs[1][1], [r.stderr[-2000:] for r in runs]


def test_cache_must_be_a_flag():
    with pytest.raises(ArgumentError, match="cache must be True or False"):
        spf.autoschedule(CHAIN, CHAIN_LAYOUTS, cache="yes")
