"""Schedule trees of two kernels that once computed wrong results (issue 25), shared by
tests/codegen/test_fused.py (each must compute the unfused result) and tests/golden_c.py
(their C is pinned)."""

from pathlib import Path

CHAIN = "R(i,j,k) = A(i,p,q) * B(j,p,r) * C(k,q,r) * D(j,k,r)"
CHAIN_LAYOUTS = {"A": "CSF3", "B": "CSF3", "C": "CSF3", "D": "CSF3", "R": "Dense"}
CHAIN_TREES = [
    # an unfused branch under fused loops whose leaves search C and B by the fused k and j
    "j, k < T_BD(p,r) ; p, r : T_BD(p,r) += B(j,p,r) * D(j,k,r) , < T_BCD(p,q) ; q, r, p : T_BCD(p,q) += "
    "T_BD(p,r) * C(k,q,r) , i, p, q : R(i,j,k) += T_BCD(p,q) * A(i,p,q) > >",
    "j, k < T_CD(q,r) ; q, r : T_CD(q,r) += C(k,q,r) * D(j,k,r) , < T_BCD(p,q) ; p, r, q : T_BCD(p,q) += "
    "T_CD(q,r) * B(j,p,r) , i, p, q : R(i,j,k) += T_BCD(p,q) * A(i,p,q) > >",
    # fused loops over the leading levels of A, B and C, which no single leaf reads together
    "i, j, k < T_ABC(r) ; p < T_BC(q,r) ; q, r : T_BC(q,r) += B(j,p,r) * C(k,q,r) , q, r : T_ABC(r) += "
    "T_BC(q,r) * A(i,p,q) > , r : R(i,j,k) += T_ABC(r) * D(j,k,r) >",
    "i, j < T_ABC(k,r) ; k, p < T_BC(q,r) ; q, r : T_BC(q,r) += B(j,p,r) * C(k,q,r) , q, r : T_ABC(k,r) += "
    "T_BC(q,r) * A(i,p,q) > , k, r : R(i,j,k) += T_ABC(k,r) * D(j,k,r) >",
    "i, j, p < T_ACD(k,r) ; k < T_CD(q,r) ; q, r : T_CD(q,r) += C(k,q,r) * D(j,k,r) , q, r : T_ACD(k,r) += "
    "T_CD(q,r) * A(i,p,q) > , r, k : R(i,j,k) += T_ACD(k,r) * B(j,p,r) >",
    "i, j, k < T_ABD(q,r) ; p < T_BD(r) ; r : T_BD(r) += B(j,p,r) * D(j,k,r) , q, r : T_ABD(q,r) += "
    "T_BD(r) * A(i,p,q) > , q, r : R(i,j,k) += T_ABD(q,r) * C(k,q,r) >",
    "i, j, k, p < T_ACD(r) ; < T_CD(q,r) ; q, r : T_CD(q,r) += C(k,q,r) * D(j,k,r) , q, r : T_ACD(r) += "
    "T_CD(q,r) * A(i,p,q) > , r : R(i,j,k) += T_ACD(r) * B(j,p,r) >",
    "i, j, k < T_ABD(q,r) ; < T_BD(p,r) ; p, r : T_BD(p,r) += B(j,p,r) * D(j,k,r) , p, q, r : T_ABD(q,r) += "
    "T_BD(p,r) * A(i,p,q) > , q, r : R(i,j,k) += T_ABD(q,r) * C(k,q,r) >",
]

CSF6 = str(Path(__file__).resolve().parents[1] / "examples" / "layouts" / "CSF6.layout")
TTTC = "Z(e,n) = T(i,j,k,l,m,n) * A(i,a) * B(a,j,b) * C(b,k,c) * D(c,l,d) * E(d,m,e)"
TTTC_LAYOUTS = {"Z": "Dense", "T": CSF6, "A": "Dense", "B": "Dense", "C": "Dense", "D": "Dense", "E": "Dense"}
TTTC_TREES = [
    # a dense fused index (c) outside T's fused levels, which only the consumer's leaf reads
    "c, i, j, k < T_ABC() ; a, b : T_ABC() += A(i,a) * B(a,j,b) * C(b,k,c) , e, l, m < T_DE() ; d : T_DE() += "
    "D(c,l,d) * E(d,m,e) , n : Z(e,n) += T_DE() * T_ABC() * T(i,j,k,l,m,n) > >",
    # a dense fused index (d, then b) read by no sparse operand, an unfused branch under it
    "d < T_ABCDT(n,m) ; b < T_AB(i,j) ; a, i, j : T_AB(i,j) += A(i,a) * B(a,j,b) , < T_CD(k,l) ; c, k, l : "
    "T_CD(k,l) += C(b,k,c) * D(c,l,d) , i, j, k, l, m, n : T_ABCDT(n,m) += T_CD(k,l) * T_AB(i,j) * "
    "T(i,j,k,l,m,n) > > , e, m, n : Z(e,n) += T_ABCDT(n,m) * E(d,m,e) >",
]
