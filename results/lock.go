package results

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockName is the lock file a results writer keeps in its folder.
const lockName = ".agenteval.lock"

// LockedError is returned when another process writes results into the
// same folder: one writer per folder, so that two runs never interleave
// their records.
type LockedError struct {
	// Dir is the results folder.
	Dir string
	// PID and Host name the process that holds the lock (0 and "" when its
	// lock file could not be read).
	PID  int
	Host string
}

func (e *LockedError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = "process " + strconv.Itoa(e.PID)
		if e.Host != "" {
			who += " on " + e.Host
		}
	}
	return fmt.Sprintf("results folder %s is in use by %s (lock %s); wait for it to finish or write elsewhere",
		e.Dir, who, filepath.Join(e.Dir, lockName))
}

// dirLock is a held lock on a results folder.
type dirLock struct {
	f    *os.File // nil in pid mode
	path string
}

// lockDir takes the lock of dir. Where the system has flock, the lock is
// the kernel's: it ends with the process, however it ends, so a killed run
// never blocks the next. Elsewhere (or on a file system without flock) the
// lock file's existence is the lock, and a lock whose process is gone from
// this host is taken over.
func lockDir(dir string) (*dirLock, error) {
	path := filepath.Join(dir, lockName)
	var orphanDeadline time.Time
	for attempt := 0; attempt < 5; {
		l, retry, err := lockOnce(dir, path)
		if le := (*LockedError)(nil); errors.As(err, &le) && ownerGone(le.PID, le.Host) {
			// The run named in the lock is gone, yet the kernel's lock is
			// held: by a program it was starting when it was killed, between
			// fork and exec (the lock's descriptor closes at exec). That
			// lasts a moment on a busy machine; wait for it, briefly.
			if orphanDeadline.IsZero() {
				orphanDeadline = time.Now().Add(orphanWait)
			}
			if time.Now().Before(orphanDeadline) {
				time.Sleep(20 * time.Millisecond)
				continue
			}
		}
		if !retry {
			return l, err
		}
		attempt++
	}
	return nil, fmt.Errorf("results: cannot take the lock %s: it keeps changing", path)
}

func lockOnce(dir, path string) (l *dirLock, retry bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("results: lock %s: %w", path, err)
	}
	held, supported, err := tryFlock(f)
	switch {
	case err != nil:
		f.Close()
		return nil, false, fmt.Errorf("results: lock %s: %w", path, err)
	case !supported:
		f.Close()
		return lockByFile(dir, path)
	case !held:
		pid, host := readLockOwner(f)
		f.Close()
		return nil, false, &LockedError{Dir: dir, PID: pid, Host: host}
	}
	// The holder before us may have removed the file between our open and
	// our flock; then we hold a lock on a name nobody sees. Start again.
	if !sameFile(f, path) {
		f.Close()
		return nil, true, nil
	}
	if err := writeLockOwner(f); err != nil {
		f.Close()
		return nil, false, fmt.Errorf("results: lock %s: %w", path, err)
	}
	return &dirLock{f: f, path: path}, false, nil
}

// lockByFile is the lock where flock is not available: creating the file
// exclusively takes it; a file whose process is gone from this host is stale.
func lockByFile(dir, path string) (*dirLock, bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		if err := writeLockOwner(f); err != nil {
			f.Close()
			os.Remove(path)
			return nil, false, fmt.Errorf("results: lock %s: %w", path, err)
		}
		f.Close()
		return &dirLock{path: path}, false, nil
	}
	if !errors.Is(err, os.ErrExist) {
		return nil, false, fmt.Errorf("results: lock %s: %w", path, err)
	}
	g, err := os.Open(path)
	if err != nil {
		return nil, true, nil // removed meanwhile
	}
	pid, host := readLockOwner(g)
	g.Close()
	if ownerGone(pid, host) {
		// Left by a run that was killed: take it over.
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, false, fmt.Errorf("results: removing the stale lock %s: %w", path, err)
		}
		return nil, true, nil
	}
	return nil, false, &LockedError{Dir: dir, PID: pid, Host: host}
}

// orphanWait bounds how long lockDir waits for a lock whose named owner is
// gone (see lockDir).
var orphanWait = 3 * time.Second

// ownerGone reports whether the process a lock file names ran on this
// host and has ended.
func ownerGone(pid int, host string) bool {
	me, _ := os.Hostname()
	return pid > 0 && host == me && !processAlive(pid)
}

// writeLockOwner records who holds the lock: "pid host started".
func writeLockOwner(f *os.File) error {
	host, _ := os.Hostname()
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(fmt.Sprintf("%d %s %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))), 0)
	return err
}

func readLockOwner(f *os.File) (pid int, host string) {
	b, _ := io.ReadAll(io.LimitReader(f, 1024))
	fields := strings.Fields(string(b))
	if len(fields) >= 2 {
		pid, _ = strconv.Atoi(fields[0])
		host = fields[1]
	}
	return pid, host
}

func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// unlock removes the lock file and releases the lock. The file goes first,
// while the lock is still held, so that a waiting process notices the
// change (sameFile) instead of locking a removed file.
func (l *dirLock) unlock() error {
	if l == nil {
		return nil
	}
	err := os.Remove(l.path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if l.f != nil {
		if cerr := l.f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
