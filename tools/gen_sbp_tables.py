#!/usr/bin/env python3
"""Generate csrc/sbp_tables.h: diagonal-norm SBP first-derivative closures in exact arithmetic.

Orders 2, 4, 6 are the Mattsson-Nordstrom (2004) operators from ../shared/reference/sbp_operators.md.
For order 6 the boundary block is *re-derived* here from the H weights, the interior stencil and the
free parameter Q_56, and asserted equal to the printed table. Order 8 uses the MN2004 H weights and
the well-conditioned free parameters (Q_67, Q_68, Q_78) as printed (decimals taken as exact
rationals); the remaining 25 entries of the boundary block follow from the accuracy conditions.
The result is compared against the printed 17-digit h*D table (agreement ~1e-13, the table's own
rounding). Every entry is written as the double nearest to the exact rational.

Usage: python3 tools/gen_sbp_tables.py > csrc/sbp_tables.h
"""
from fractions import Fraction as F
import sys


def solve(order, w, interior, free):
    """Boundary block Q (nb x nb, h = 1) with Q + Q^T = diag(-1, 0, ...) from the accuracy conditions
    sum_j Q_ij x_j^k = w_i k x_i^(k-1), k = 0..p, x_j = j (0-based), for the boundary rows i < nb."""
    nb = len(w)
    p = order // 2
    wd = len(interior)
    unk = [(i, j) for i in range(nb) for j in range(i + 1, nb) if (i, j) not in free]
    idx = {u: k for k, u in enumerate(unk)}
    rows = []
    for i in range(nb):
        for k in range(p + 1):
            pw = (lambda x: F(x) ** k) if k > 0 else (lambda x: F(1))
            coef = [F(0)] * len(unk)
            rhs = w[i] * k * (F(i) ** (k - 1) if k > 1 else 1) if k >= 1 else F(0)
            known = F(-1, 2) * pw(0) if i == 0 else F(0)
            for j in range(nb):
                if j == i:
                    continue
                a, b, s = (i, j, 1) if i < j else (j, i, -1)
                if (a, b) in free:
                    known += s * free[(a, b)] * pw(j)
                else:
                    coef[idx[(a, b)]] += s * pw(j)
            for j in range(nb, nb + wd + 1):
                d = j - i
                if 1 <= d <= wd:
                    known += interior[d - 1] * pw(j)
            rows.append(coef + [rhs - known])
    m = len(unk)
    r = 0
    piv = []
    for c in range(m):
        pr = next((q for q in range(r, len(rows)) if rows[q][c] != 0), None)
        if pr is None:
            continue
        rows[r], rows[pr] = rows[pr], rows[r]
        inv = 1 / rows[r][c]
        rows[r] = [v * inv for v in rows[r]]
        for q in range(len(rows)):
            if q != r and rows[q][c] != 0:
                f = rows[q][c]
                rows[q] = [a - f * b for a, b in zip(rows[q], rows[r])]
        piv.append(c)
        r += 1
    if len(piv) != m:
        sys.exit("order %d: accuracy conditions leave %d free entries" % (order, m - len(piv)))
    if any(rows[q][m] != 0 for q in range(r, len(rows))):
        sys.exit("order %d: accuracy conditions are inconsistent" % order)
    Q = [[F(0)] * nb for _ in range(nb)]
    Q[0][0] = F(-1, 2)
    vals = {unk[c]: rows[k][m] for k, c in enumerate(piv)}
    vals.update(free)
    for (a, b), v in vals.items():
        Q[a][b] = v
        Q[b][a] = -v
    return Q


def fl(lst):
    return [F(s) for s in lst]


ORD = {}
ORD[2] = dict(w=fl(['1/2']), inner=fl(['1/2']), Q=[[F(-1, 2)]])
ORD[4] = dict(w=fl(['17/48', '59/48', '43/48', '49/48']), inner=fl(['2/3', '-1/12']),
              Q=[fl(r) for r in [['-1/2', '59/96', '-1/12', '-1/32'], ['-59/96', '0', '59/96', '0'],
                                 ['1/12', '-59/96', '0', '59/96'], ['1/32', '0', '-59/96', '0']]])
w6 = fl(['13649/43200', '12013/8640', '2711/4320', '5359/4320', '7877/8640', '43801/43200'])
in6 = fl(['3/4', '-3/20', '1/60'])
tab6 = [fl(r) for r in [
    ['-1/2', '104009/172800', '30443/259200', '-33311/86400', '5621/28800', '-601/20736'],
    ['-104009/172800', '0', '-311/51840', '6743/5760', '-24337/34560', '36661/259200'],
    ['-30443/259200', '311/51840', '0', '-2231/5184', '41287/51840', '-7333/28800'],
    ['33311/86400', '-6743/5760', '2231/5184', '0', '4147/17280', '25427/259200'],
    ['-5621/28800', '24337/34560', '-41287/51840', '-4147/17280', '0', '342523/518400'],
    ['601/20736', '-36661/259200', '7333/28800', '-25427/259200', '-342523/518400', '0']]]
Q6 = solve(6, w6, in6, {(4, 5): F(342523, 518400)})
if Q6 != tab6:
    sys.exit("order 6: derived block differs from the MN2004 table")
ORD[6] = dict(w=w6, inner=in6, Q=Q6)
for o in (2, 4):
    if solve(o, ORD[o]['w'], ORD[o]['inner'], {}) != ORD[o]['Q']:
        sys.exit("order %d: derived block differs from the table" % o)

w8 = fl(['1498139/5080320', '1107307/725760', '20761/80640', '1304999/725760', '299527/725760',
         '103097/80640', '670091/725760', '5127739/5080320'])
in8 = fl(['4/5', '-1/5', '4/105', '-1/280'])
free8 = {(5, 6): F('0.69789473684211'), (5, 7): F('-0.12052631578947'), (6, 7): F('0.75868421052632')}
Q8 = solve(8, w8, in8, free8)
ref8_row1 = [-1.6955436044318986, 2.2474124634140407, -0.033893192260149974, -0.78102816812674902,
             0.025488148610790518, 0.34386522738887315, -0.086285816263333537, -0.020015058331576074]
err = max(abs(float(Q8[0][j] / w8[0]) - ref8_row1[j]) for j in range(8))
if err > 1e-12:
    sys.exit("order 8: derived first row differs from the reference table by %g" % err)
ORD[8] = dict(w=w8, inner=in8, Q=Q8)

out = sys.stdout
out.write("/* Generated by tools/gen_sbp_tables.py -- do not edit. */\n")
out.write("/* Diagonal-norm SBP closures: H boundary weights, interior stencil, boundary block of Q (h = 1).\n"
          "   Each entry is the double nearest the exact rational value. */\n")
out.write("#ifndef VM_SBP_TABLES_H\n#define VM_SBP_TABLES_H\n\n")
for o in (2, 4, 6, 8):
    d = ORD[o]
    nb = len(d['w'])
    out.write("static const double vm_sbp%d_w[%d] = {\n" % (o, nb))
    out.write(",\n".join("  %r /* %s */" % (float(v), v) for v in d['w']) + "};\n")
    out.write("static const double vm_sbp%d_c[%d] = {" % (o, len(d['inner'])))
    out.write(", ".join("%r" % float(v) for v in d['inner']) + "};\n")
    out.write("static const double vm_sbp%d_q[%d] = { /* row-major %d x %d */\n" % (o, nb * nb, nb, nb))
    out.write(",\n".join("  " + ", ".join("%r" % float(v) for v in row) for row in d['Q']) + "};\n\n")
out.write("#endif\n")
