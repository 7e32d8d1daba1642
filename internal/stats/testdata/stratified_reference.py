#!/usr/bin/env python3
"""Reference values for stratified_test.go, by other means than the Go code.

The exact conditional p-value P(S <= s) is computed in exact rational
arithmetic (fractions.Fraction): each stratum's hypergeometric distribution
from math.comb, convolved term by term over all strata, then the lower tail
summed and rounded once to a float. The CMH p-value follows the textbook
formula with the standard library's erfc. Standard library only:

    python3 internal/stats/testdata/stratified_reference.py

Each case is a list of strata (succ1, fail1, succ2, fail2): the baseline's
passes and failures, then the candidate's.
"""
from fractions import Fraction
from math import comb, erfc, sqrt

CASES = {
    # 24 combinations of 5 runs: the baseline passes 62 of 120, the
    # candidate none.
    "collapse": [(p, 5 - p, 0, 5) for p in [5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0]],
    # 8 combinations of 10 runs, each 7/10 -> 4/10: no single one is
    # significant, together they are.
    "overall only": [(7, 3, 4, 6)] * 8,
    # one combination collapses 10/10 -> 0/10 while three improve 3/10 -> 8/10.
    "one collapse among improvements": [(10, 0, 0, 10)] + [(3, 7, 8, 2)] * 3,
    # uneven strata, a mild drop.
    "mixed": [(3, 2, 1, 4), (6, 4, 2, 8), (1, 9, 0, 10), (5, 5, 5, 5), (0, 4, 0, 4), (9, 1, 7, 3)],
    # the candidate improves: p near 1 (the Go code takes the upper tail).
    "improvement": [(2, 8, 7, 3), (3, 7, 6, 4), (4, 1, 5, 0)],
    # one large stratum, an extreme tail: 200/200 -> 0/200.
    "extreme tail": [(200, 0, 0, 200)],
    # unequal group sizes per stratum.
    "unequal sizes": [(12, 3, 2, 3), (4, 16, 0, 5), (30, 10, 20, 20)],
}



# k combinations of 30 runs a side, a drop of one pass in every fourth: with
# 400 the exact test is used, with 2000 it is too much work and
# StratifiedLess falls back to CMH. Their exact p-values are too slow to get
# in rational arithmetic here; stratified_reference.R gets them from R.
def large(k):
    return [(10 + i % 11, 20 - i % 11, 10 + i % 11 - (i % 4 == 0), 20 - i % 11 + (i % 4 == 0)) for i in range(k)]


def pmf(s1, f1, s2, f2):
    n1, n2, m = s1 + f1, s2 + f2, s1 + s2
    n = n1 + n2
    lo, hi = max(0, m - n1), min(n2, m)
    total = comb(n, n2)
    return {x: Fraction(comb(m, x) * comb(n - m, n2 - x), total) for x in range(lo, hi + 1)}


def exact_less(strata):
    dist = {0: Fraction(1)}
    for t in strata:
        p = pmf(*t)
        new = {}
        for a, pa in dist.items():
            for x, px in p.items():
                new[a + x] = new.get(a + x, 0) + pa * px
        dist = new
    obs = sum(t[2] for t in strata)
    return float(sum(v for k, v in dist.items() if k <= obs))


def cmh_less(strata):
    obs = mean = var = 0.0
    for s1, f1, s2, f2 in strata:
        n1, n2, m = s1 + f1, s2 + f2, s1 + s2
        n = n1 + n2
        if n1 == 0 or n2 == 0 or m == 0 or m == n:
            continue
        obs += s2
        mean += n2 * m / n
        var += n1 * n2 * m * (n - m) / (n * n * (n - 1))
    delta = obs - mean
    corr = 0.5 if abs(delta) >= 0.5 else 0.0
    z = (abs(delta) - corr) / sqrt(var)
    if delta < 0:
        z = -z
    return 0.5 * erfc(-z / sqrt(2)), obs, mean, var


def pooled_fisher_less(strata):
    s1 = sum(t[0] for t in strata)
    f1 = sum(t[1] for t in strata)
    s2 = sum(t[2] for t in strata)
    f2 = sum(t[3] for t in strata)
    return exact_less([(s1, f1, s2, f2)])


for name, strata in CASES.items():
    cmh, obs, mean, var = cmh_less(strata)
    print(f"{name}: exact={exact_less(strata)!r} cmh={cmh!r} observed={obs!r} expected={mean!r} "
          f"variance={var!r} pooled_fisher={pooled_fisher_less(strata)!r}")
for k in (400, 2000):
    cmh, obs, mean, var = cmh_less(large(k))
    print(f"large {k}: cmh={cmh!r} observed={obs!r} expected={mean!r} variance={var!r}")
