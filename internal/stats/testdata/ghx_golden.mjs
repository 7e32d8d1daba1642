// Writes ghx_golden.json: the outputs of ghx's agent-profiler statistics
// (packages/agent-profiler/src/stats at aryeko/ghx f128993), run by Node.js,
// for the inputs ghx_test.go replays through our Go implementation.
//
// To regenerate (ghx's TypeScript is compiled where it is, never committed):
//
//   git -C GHX show HEAD:packages/agent-profiler/src/stats/{prng,bootstrap,descriptive,comparison}.ts
//     and src/shared/constants.ts, src/types/metrics.ts → DIR/src/*.ts, with the
//     @profiler/... imports pointed at ./constants.js and ./metrics.js
//   cd DIR && npm install typescript@5 && (package.json "type": "module")
//   npx tsc --target es2022 --module nodenext --moduleResolution nodenext --outDir out src/*.ts
//   GHX_STATS=DIR/out node ghx_golden.mjs > ghx_golden.json
//
// Numbers are written as JavaScript's String(n) (the shortest text that reads
// back as the same double; Go's strconv reads it to the same bits), with -0
// kept as "-0".
const dir = process.env.GHX_STATS
const { mulberry32 } = await import(`${dir}/prng.js`)
const { bootstrapCI, bootstrapReductionCI } = await import(`${dir}/bootstrap.js`)
const { computeDescriptive } = await import(`${dir}/descriptive.js`)
const { cohensD, permutationTest, compareGroups } = await import(`${dir}/comparison.js`)

const statistics = {
  mean: (v) => v.reduce((a, x) => a + x, 0) / v.length,
  max: (v) => Math.max(...v),
}
const num = (v) => (Object.is(v, -0) ? "-0" : String(v))
const nums = (a) => a.map(num)
const gen = (n) => Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 7 + i / 10)

const samples = {
  ghxA: [10, 12, 11, 13, 10],
  ghxB: [20, 22, 21, 23, 20],
  lat8: [1523.4, 1877.25, 1402.1, 2210.9, 1650, 1733.33, 1999.99, 1580.5],
  lat7: [1611.7, 1590.25, 2402.1, 1810.9, 1755, 1699.33, 2099.99],
  tokens11: [10234, 9876, 11002, 15000, 9950, 10100, 12345, 9999, 10500, 20001, 10050],
  tenths: [0.1, 0.2, 0.3],
  zeros: [-0, 0, 0.1, -0.1, 0, -0],
  negativeZeros: [-0, -0, -0],
  signedZeros: [-0, 0, -0, 0, -0],
  negative: [-5.5, -3.25, -10.125, -0.5, -7],
  medianZero: [0, 0, 0, 5, 6],
  two: [3.3, 1.1],
  one: [42.42],
  empty: [],
  gen101: gen(101),
  gen1000: gen(1000),
  one10: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  by10: [10, 20, 30, 40, 50],
  r1: [1, 2, 3, 4, 5],
  r2: [6, 7, 8, 9, 10],
  r3: [10, 11, 12, 13, 14],
  r4: [100, 101, 102, 103, 104],
}

const out = { samples: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, nums(v)])) }

out.mulberry32 = [42, 7, 0, 1, -1, -7, 2 ** 31, 2 ** 32 + 5, 123456789].map((seed) => {
  const r = mulberry32(seed)
  const first = Array.from({ length: 5 }, () => r())
  for (let i = 5; i < 9999; i++) r()
  return { seed, first: nums(first), at10000: num(r()) }
})

const ciOpts = [
  {},
  { seed: 7 },
  { seed: 0 },
  { seed: -7 },
  { seed: 2 ** 32 + 5 },
  { resamples: 999, confidenceLevel: 0.9 },
  { confidenceLevel: 0.99 },
  { resamples: 1 },
  { resamples: 2 },
  { resamples: 3, confidenceLevel: 0.5 },
  { resamples: 2000, statistic: "mean" },
  { resamples: 20, confidenceLevel: 0.8, seed: 1, statistic: "max" },
]
const ciOf = (r) => ({ lower: num(r.lower), upper: num(r.upper), pointEstimate: num(r.pointEstimate), confidenceLevel: num(r.confidenceLevel), resamples: r.resamples })
const withStat = (o) => (o.statistic ? { ...o, statistic: statistics[o.statistic] } : o)

out.bootstrapCI = []
for (const name of ["lat8", "lat7", "tokens11", "tenths", "zeros", "negativeZeros", "signedZeros", "negative", "two", "one", "empty", "gen101"]) {
  for (const opts of ciOpts) out.bootstrapCI.push({ values: name, opts, want: ciOf(bootstrapCI(samples[name], withStat(opts))) })
}
out.bootstrapCI.push({ values: "gen1000", opts: {}, want: ciOf(bootstrapCI(samples.gen1000)) })
out.bootstrapCI.push({ values: "one10", opts: { seed: 123, resamples: 1000 }, want: ciOf(bootstrapCI(samples.one10, { seed: 123, resamples: 1000 })) })
out.bootstrapCI.push({ values: "by10", opts: {}, want: ciOf(bootstrapCI(samples.by10)) })

const pairs = [
  ["ghxA", "ghxB"], ["ghxB", "ghxA"], ["lat7", "lat8"], ["lat8", "tokens11"], ["r1", "medianZero"],
  ["medianZero", "r1"], ["negative", "lat7"], ["zeros", "tenths"], ["one", "two"], ["two", "one"], ["gen101", "lat8"],
]
out.bootstrapReductionCI = []
for (const [a, b] of pairs) {
  for (const opts of ciOpts) out.bootstrapReductionCI.push({ a, b, opts, want: ciOf(bootstrapReductionCI(samples[a], samples[b], withStat(opts))) })
}

out.describe = []
for (const name of ["r1", "lat8", "lat7", "tokens11", "tenths", "zeros", "negativeZeros", "signedZeros", "negative", "two", "one", "empty", "gen101", "medianZero"]) {
  const d = computeDescriptive(samples[name])
  out.describe.push({ values: name, want: Object.fromEntries(Object.entries(d).map(([k, v]) => [k, num(v)])) })
}
out.describe.push({ values: "symmetric", inline: ["-1", "1"], want: Object.fromEntries(Object.entries(computeDescriptive([-1, 1])).map(([k, v]) => [k, num(v)])) })

const dPairs = [["r3", "r1"], ["ghxA", "ghxB"], ["lat7", "lat8"], ["tokens11", "lat8"], ["one", "two"], ["one", "one"], ["one", "empty"], ["tenths", "tenths"], ["negative", "zeros"], ["gen101", "lat7"]]
out.cohensD = dPairs.map(([a, b]) => {
  const r = cohensD(samples[a], samples[b])
  return { a, b, d: num(r.d), magnitude: r.magnitude }
})

const permOpts = [
  {},
  { permutations: 1000, seed: 42 },
  { permutations: 500, seed: 77 },
  { alternative: "less" },
  { alternative: "greater", seed: 3 },
  { permutations: 777, alternative: "two-sided", seed: -1 },
]
const permPairs = [["r4", "r1"], ["r1", "r2"], ["ghxA", "ghxB"], ["lat7", "lat8"], ["tenths", "zeros"], ["one", "two"], ["one", "empty"], ["negative", "lat7"]]
out.permutationTest = []
for (const [a, b] of permPairs) {
  for (const opts of permOpts) {
    const r = permutationTest(samples[a], samples[b], opts)
    out.permutationTest.push({ a, b, opts, pValue: num(r.pValue), observedDifference: num(r.observedDifference), permutations: r.permutations })
  }
}

// ghx's report compares modes with these options (reporter/pairwise-comparison.ts).
const reportOpts = { permutationOptions: { permutations: 1000, seed: 42 }, bootstrapOptions: { resamples: 1000, seed: 42 } }
out.compareGroups = [["ghxA", "ghxB"], ["lat7", "lat8"], ["tokens11", "lat8"]].map(([a, b]) => {
  const r = compareGroups("A", samples[a], "B", samples[b], "m", reportOpts)
  return { a, b, reductionPct: num(r.reductionPct), ci95: nums(r.ci95), effectSize: num(r.effectSize), effectMagnitude: r.effectMagnitude, pValue: num(r.pValue) }
})

process.stdout.write(JSON.stringify(out, null, 1) + "\n")
