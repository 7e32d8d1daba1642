// Package jsonl reads the lines of a JSON Lines file (a results file) with
// their byte offsets, masked, one line at a time, torn or over-long lines
// included: what the report and the planner read results with.
package jsonl

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/agenteval/agenteval/redact"
)

// DefaultMaxLineBytes is the longest record line a Reader reads when it is
// given no bound.
const DefaultMaxLineBytes = 64 << 20

// ErrLineTooLong reports a line longer than the Reader's bound; the reader
// has skipped it and can go on.
var ErrLineTooLong = errors.New("line too long")

// Reader yields the lines of a results file (or of any stream) with their
// byte offsets, so a reader can come back to one record by its offset. A
// line may be longer than the read buffer; it is then assembled in a buffer
// reused for the next long line. The returned slice is valid only until the
// next call. Every line passes through the redactor before anything reads
// it, so no secret reaches a statistic, a renderer or an error. A last line
// without its newline (a torn write) is returned like the others; readers
// that append (resume) cut it first.
type Reader struct {
	br   *bufio.Reader
	buf  []byte
	max  int
	off  int64 // offset of the next line
	line int   // 1-based number of the last line returned
	red  *redact.Redactor
}

// NewReader returns a Reader of r, whose first byte is at offset start of
// the file, reading lines of at most maxLine bytes (DefaultMaxLineBytes
// when 0) and masking each with red (nil masks nothing).
func NewReader(r io.Reader, start int64, maxLine int, red *redact.Redactor) *Reader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: maxLine, off: start, red: red}
}

// Next returns the next line, masked, without its line ending and the
// offset where it starts. It returns io.EOF after the last line and
// ErrLineTooLong (wrapped) for a line over the limit, which it skips.
func (l *Reader) Next() ([]byte, int64, error) {
	line, start, err := l.nextRaw()
	if err == nil {
		line = l.red.JSON(line)
	}
	return line, start, err
}

func (l *Reader) nextRaw() ([]byte, int64, error) {
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
				return nil, start, fmt.Errorf("%w (limit %d bytes)", ErrLineTooLong, l.max)
			}
			if long {
				if len(l.buf)+len(s) > l.max {
					return nil, start, fmt.Errorf("%w (limit %d bytes)", ErrLineTooLong, l.max)
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

// Offset is where the next line starts.
func (l *Reader) Offset() int64 { return l.off }

// Line is the number (from 1) of the last line Next returned or skipped.
func (l *Reader) Line() int { return l.line }

// Reset makes the reader continue from offset start of r, keeping its buffers.
func (l *Reader) Reset(r io.Reader, start int64) {
	l.br.Reset(r)
	l.off = start
}
