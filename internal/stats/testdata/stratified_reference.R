# Reference values for stratified_test.go from R's own implementation
# (mantelhaen.test, fisher.test), independent of both the Go code and
# stratified_reference.py. Needs R (Debian: r-base-core):
#
#     Rscript internal/stats/testdata/stratified_reference.R
#
# Each stratum is (succ1, fail1, succ2, fail2) as in the Go test; the array
# puts the candidate in row 1 and passes in column 1, so x[1,1,k] is the
# candidate's passes and alternative = "less" is a drop. R refuses strata
# that carry no information in the exact test, so they are dropped here as
# StratifiedLess drops them.
cases <- list(
  "collapse" = lapply(c(5,5,5,5,4,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1,1,1,0,0), function(p) c(p, 5-p, 0, 5)),
  "overall only" = rep(list(c(7,3,4,6)), 8),
  "one collapse among improvements" = c(list(c(10,0,0,10)), rep(list(c(3,7,8,2)), 3)),
  "mixed" = list(c(3,2,1,4), c(6,4,2,8), c(1,9,0,10), c(5,5,5,5), c(0,4,0,4), c(9,1,7,3)),
  "improvement" = list(c(2,8,7,3), c(3,7,6,4), c(4,1,5,0)),
  "extreme tail" = list(c(200,0,0,200)),
  "unequal sizes" = list(c(12,3,2,3), c(4,16,0,5), c(30,10,20,20)),
  "large 400" = lapply(0:399, function(k) { s1 <- 10 + k %% 11; s2 <- s1 - (k %% 4 == 0); c(s1, 30-s1, s2, 30-s2) }),
  "large 2000" = lapply(0:1999, function(k) { s1 <- 10 + k %% 11; s2 <- s1 - (k %% 4 == 0); c(s1, 30-s1, s2, 30-s2) })
)
for (nm in names(cases)) {
  st <- cases[[nm]]
  a <- array(0, dim = c(2, 2, length(st)))
  for (k in seq_along(st)) { v <- st[[k]]; a[, , k] <- matrix(c(v[3], v[1], v[4], v[2]), 2, 2) }
  keep <- apply(a, 3, function(t) all(rowSums(t) > 0) && all(colSums(t) > 0))
  a <- a[, , keep, drop = FALSE]
  if (dim(a)[3] == 1) {
    cat(sprintf("%s: exact=%.17g (fisher.test)\n", nm, fisher.test(a[, , 1], alternative = "less")$p.value))
  } else {
    cat(sprintf("%s: exact=%.17g cmh=%.17g\n", nm,
      mantelhaen.test(a, exact = TRUE, alternative = "less")$p.value,
      mantelhaen.test(a, exact = FALSE, correct = TRUE, alternative = "less")$p.value))
  }
}
