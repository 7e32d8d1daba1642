package judge

// ParseVerdict is the judge's lenient verdict parser, for the external tests.
var ParseVerdict = parseVerdict
