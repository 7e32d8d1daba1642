package matrix

import "errors"

// ErrTooManyJobs is returned (wrapped, with the count and the cap) when a
// selection holds more jobs than Options.MaxJobs allows. Raise the cap, or
// narrow the run with filters, to go on.
var ErrTooManyJobs = errors.New("matrix: too many jobs")

// ErrOverflow is returned (wrapped) when the number of jobs does not fit an
// int64; such a matrix can be neither counted nor run.
var ErrOverflow = errors.New("matrix: job count overflows int64")
