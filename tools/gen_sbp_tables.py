#!/usr/bin/env python3
"""Generate csrc/sbp/sbp_tables.h: diagonal-norm SBP first-derivative closures in exact arithmetic.

Orders 2, 4, 6 are the Mattsson-Nordstrom (2004) operators from ../shared/reference/sbp_operators.md.
For order 6 the boundary block is *re-derived* here from the H weights, the interior stencil and the
free parameter Q_56, and asserted equal to the printed table. Order 8 uses the MN2004 H weights and
the free parameters (Q_67, Q_68, Q_78) = (0.51482342, -0.05836005, 0.74573169) of doc/sbp.md
("Order 8 in time integration"; decimals taken as exact rationals), chosen for SBP in time: they keep
the smallest eigenvalue of h (D + H^-1 e1 e1') away from zero. The remaining 25 entries of the
boundary block follow from the accuracy conditions (full rank, consistent). Every entry is written
as the double nearest to the exact rational.

Checks (the script exits non-zero when one fails), for every order on the full N x N operator at
N = 2 nb and N = 2 nb + 2 w + 1 in exact arithmetic: Q + Q' = B; D exact on t^k for k <= p on every
row and k <= 2p on the interior rows; sum (H t^k) exact for k <= 2p - 1; and in floating point at
N = 64 the spectral facts doc/sbp.md states: h rho(D) and the smallest |eig| of h (D + H^-1 e1 e1')
(eigenvalues by a small Hessenberg QR written here, no numpy). Pass --report to print them.

Usage: python3 tools/gen_sbp_tables.py > csrc/sbp/sbp_tables.h
       python3 tools/gen_sbp_tables.py --report > /dev/null
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


def full_q(Qb, inner, n):
    """The full n x n matrix Q (h = 1): corner block Qb, its mirror Q(n-1-i, n-1-j) = -Qb(i, j), the
    interior stencil Q(i, i+d) = inner[d-1] = -Q(i+d, i) everywhere else (as csrc/sbp/sbp.c builds it)."""
    nb = len(Qb)
    Q = [[F(0)] * n for _ in range(n)]
    for i in range(n):
        for d, c in enumerate(inner, 1):
            if i + d < n:
                Q[i][i + d] = c
                Q[i + d][i] = -c
    for i in range(nb):
        for j in range(nb):
            Q[i][j] = Qb[i][j]
            Q[n - 1 - i][n - 1 - j] = -Qb[i][j]
    return Q


def check_exact(order, w, inner, Qb):
    """Exact-arithmetic properties of the full operator at N = 2 nb and N = 2 nb + 2 w + 1."""
    nb, wd, p = len(w), len(inner), order // 2
    for n in (2 * nb, 2 * nb + 2 * wd + 1):
        Q = full_q(Qb, inner, n)
        hw = [w[i] if i < nb else (w[n - 1 - i] if i >= n - nb else F(1)) for i in range(n)]
        for i in range(n):
            for j in range(n):
                b = F(-1) if i == j == 0 else (F(1) if i == j == n - 1 else F(0))
                if Q[i][j] + Q[j][i] != b:
                    sys.exit("order %d, N = %d: Q + Q' != B at (%d, %d)" % (order, n, i + 1, j + 1))
        for k in range(2 * p + 1):
            x = [F(j) ** k for j in range(n)]
            dx = [F(k) * F(j) ** (k - 1) if k > 0 else F(0) for j in range(n)]
            for i in range(n):
                interior = nb <= i < n - nb
                if k > p and not interior:
                    continue
                if sum(Q[i][j] * x[j] for j in range(n)) != hw[i] * dx[i]:
                    sys.exit("order %d, N = %d: D not exact on t^%d, row %d" % (order, n, k, i + 1))
        for k in range(2 * p):
            if sum(hw[j] * F(j) ** k for j in range(n)) != F(n - 1) ** (k + 1) / (k + 1):
                sys.exit("order %d, N = %d: H not exact on t^%d" % (order, n, k))


def eigvals(A):
    """Eigenvalues of a real square matrix (list of lists of float): reduction to Hessenberg form by
    stabilized elementary similarity transformations, then the complex single-shift QR algorithm
    (Wilkinson shift, Givens rotations, deflation on negligible subdiagonals)."""
    n = len(A)
    H = [[complex(v) for v in row] for row in A]
    for m in range(1, n - 1):
        piv = max(range(m, n), key=lambda r: abs(H[r][m - 1]))
        if H[piv][m - 1] == 0:
            continue
        if piv != m:
            H[piv], H[m] = H[m], H[piv]
            for r in range(n):
                H[r][piv], H[r][m] = H[r][m], H[r][piv]
        for r in range(m + 1, n):
            f = H[r][m - 1] / H[m][m - 1]
            if f != 0:
                Hr, Hm = H[r], H[m]
                for c in range(m - 1, n):
                    Hr[c] -= f * Hm[c]
                for q in range(n):
                    H[q][m] += f * H[q][r]
    eps = 2.0 ** -52
    ev = []
    hi = n - 1
    its = 0
    while hi >= 0:
        lo = hi
        while lo > 0 and abs(H[lo][lo - 1]) > eps * (abs(H[lo - 1][lo - 1]) + abs(H[lo][lo])):
            lo -= 1
        if lo > 0:
            H[lo][lo - 1] = 0j
        if lo == hi:
            ev.append(H[hi][hi])
            hi -= 1
            its = 0
            continue
        its += 1
        if its > 60 * n:
            sys.exit("eigvals: QR iteration did not converge")
        a, b, c, d = H[hi - 1][hi - 1], H[hi - 1][hi], H[hi][hi - 1], H[hi][hi]
        if its % 11 == 0:
            mu = d + abs(c) + abs(H[hi - 1][hi - 2]) if hi - 2 >= lo else d + abs(c)
        else:
            tr, det = a + d, a * d - b * c
            s = (tr * tr / 4 - det) ** 0.5
            m1, m2 = tr / 2 + s, tr / 2 - s
            mu = m1 if abs(m1 - d) < abs(m2 - d) else m2
        for k in range(lo, hi + 1):
            H[k][k] -= mu
        rots = []
        for k in range(lo, hi):
            x, y = H[k][k], H[k + 1][k]
            r = (abs(x) ** 2 + abs(y) ** 2) ** 0.5
            cs, sn = (1.0, 0j) if r == 0 else (x / r, y / r)
            Hk, Hk1 = H[k], H[k + 1]
            for col in range(k, hi + 1):
                u, v = Hk[col], Hk1[col]
                Hk[col] = cs.conjugate() * u + sn.conjugate() * v
                Hk1[col] = -sn * u + cs * v
            rots.append((cs, sn))
        for k, (cs, sn) in zip(range(lo, hi), rots):
            for row in range(lo, min(k + 2, hi) + 1):
                u, v = H[row][k], H[row][k + 1]
                H[row][k] = u * cs + v * sn
                H[row][k + 1] = -u * sn.conjugate() + v * cs.conjugate()
        for k in range(lo, hi + 1):
            H[k][k] += mu
    return ev


def spectral(w, inner, Qb, n):
    """(h rho(D), min |eig(h (D + H^-1 e1 e1'))|) at N = n."""
    nb = len(w)
    Q = full_q(Qb, inner, n)
    hw = [float(w[i] if i < nb else (w[n - 1 - i] if i >= n - nb else 1)) for i in range(n)]
    D = [[float(Q[i][j]) / hw[i] for j in range(n)] for i in range(n)]
    rho = max(abs(z) for z in eigvals(D))
    D[0][0] += 1.0 / hw[0]
    return rho, min(abs(z) for z in eigvals(D))


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
# (Q_67, Q_68, Q_78) of doc/sbp.md, 1-based; 0-based (5, 6), (5, 7), (6, 7) here
free8 = {(5, 6): F('0.51482342'), (5, 7): F('-0.05836005'), (6, 7): F('0.74573169')}
Q8 = solve(8, w8, in8, free8)
ORD[8] = dict(w=w8, inner=in8, Q=Q8)

for o in sorted(ORD):
    check_exact(o, ORD[o]['w'], ORD[o]['inner'], ORD[o]['Q'])
# the spectral facts doc/sbp.md states for order 8 (N = 64), to the digits printed there
rho8, lam8 = spectral(w8, in8, Q8, 64)
if abs(rho8 - 2.00) > 0.005 or abs(lam8 - 0.205) > 0.0005:
    sys.exit("order 8: h rho(D) = %.4f, min |eig h D_sat| = %.4f at N = 64; doc/sbp.md states 2.00, 0.205"
             % (rho8, lam8))
if '--report' in sys.argv[1:]:
    for o in sorted(ORD):
        r, l = spectral(ORD[o]['w'], ORD[o]['inner'], ORD[o]['Q'], 64)
        sys.stderr.write("order %d, N = 64: h rho(D) = %.4f, min |eig(h (D + H^-1 e1 e1'))| = %.4f\n"
                         % (o, r, l))
    r, l = spectral(w8, in8, Q8, 200)
    sys.stderr.write("order 8, N = 200: h rho(D) = %.4f, min |eig(h (D + H^-1 e1 e1'))| = %.4f\n" % (r, l))

out = sys.stdout
out.write("/* Generated by tools/gen_sbp_tables.py -- do not edit. */\n")
out.write("/* Diagonal-norm SBP closures: H boundary weights, interior stencil, boundary block of Q (h = 1).\n"
          "   Each entry is the double nearest the exact rational value. */\n")
out.write("#ifndef VM_SBP_TABLES_H\n#define VM_SBP_TABLES_H\n\n")
for o in sorted(ORD):
    d = ORD[o]
    nb = len(d['w'])
    out.write("static const double vm_sbp%d_w[%d] = {\n" % (o, nb))
    out.write(",\n".join("  %r /* %s */" % (float(v), v) for v in d['w']) + "};\n")
    out.write("static const double vm_sbp%d_c[%d] = {" % (o, len(d['inner'])))
    out.write(", ".join("%r" % float(v) for v in d['inner']) + "};\n")
    out.write("static const double vm_sbp%d_q[%d] = { /* row-major %d x %d */\n" % (o, nb * nb, nb, nb))
    out.write(",\n".join("  " + ", ".join("%r" % float(v) for v in row) for row in d['Q']) + "};\n\n")
out.write("#endif\n")
