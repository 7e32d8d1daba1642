package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/agenteval/agenteval/redact"
)

// DefaultMaxLineBytes is the longest record line read when Options leaves it 0.
const DefaultMaxLineBytes = 64 << 20

// errLineTooLong reports a line longer than the limit; the reader has
// skipped it and can go on.
var errLineTooLong = errors.New("line too long")

// lineReader yields the lines of a stream with their byte offsets. A line
// may be longer than the bufio buffer; it is then assembled in a buffer that
// is reused for the next long line. The returned slice is valid only until
// the next call. Every line passes through the redactor before anything
// reads it, so no secret reaches a statistic, a renderer or an error.
type lineReader struct {
	br   *bufio.Reader
	buf  []byte
	max  int
	off  int64 // offset of the next line
	line int   // 1-based number of the last line returned
	red  *redact.Redactor
}

func newLineReader(r io.Reader, start int64, maxLine int, red *redact.Redactor) *lineReader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: maxLine, off: start, red: red}
}

// next returns the next line, masked, without its line ending and the
// offset where it starts. It returns io.EOF after the last line and
// errLineTooLong (wrapped) for a line over the limit, which it skips.
func (l *lineReader) next() ([]byte, int64, error) {
	line, start, err := l.nextRaw()
	if err == nil {
		line = l.red.JSON(line)
	}
	return line, start, err
}

func (l *lineReader) nextRaw() ([]byte, int64, error) {
	start := l.off
	l.buf = l.buf[:0]
	long, tooLong := false, false
	for {
		s, err := l.br.ReadSlice('\n')
		l.off += int64(len(s))
		switch {
		case err == nil || errors.Is(err, io.EOF):
			if err != nil && len(s) == 0 && !long {
				return nil, start, io.EOF
			}
			l.line++
			if tooLong {
				return nil, start, fmt.Errorf("%w (limit %d bytes)", errLineTooLong, l.max)
			}
			if long {
				if len(l.buf)+len(s) > l.max {
					return nil, start, fmt.Errorf("%w (limit %d bytes)", errLineTooLong, l.max)
				}
				l.buf = append(l.buf, s...)
				s = l.buf
			}
			return trimEOL(s), start, nil
		case errors.Is(err, bufio.ErrBufferFull):
			long = true
			if !tooLong && len(l.buf)+len(s) <= l.max {
				l.buf = append(l.buf, s...)
			} else {
				tooLong = true
				l.buf = l.buf[:0]
			}
		default:
			return nil, start, err
		}
	}
}

func trimEOL(s []byte) []byte {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		s = s[:n-1]
	}
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s
}

// reset makes the reader continue from offset start of r, keeping its buffers.
func (l *lineReader) reset(r io.Reader, start int64) {
	l.br.Reset(r)
	l.off = start
}
