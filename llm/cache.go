package llm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/agenteval/agenteval/internal/infile"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/agenteval/agenteval/redact"
)

// Cache stores judge answers by key. Keys are hex SHA-256 digests computed by
// the judge from everything that can change an answer. Implementations must
// be safe for concurrent use; a Get that fails is treated as a miss, so a
// cache can only cost a model call, never fail an evaluation.
type Cache interface {
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	Put(ctx context.Context, key string, value []byte) error
}

// memoryCache is the [Cache] NewMemoryCache returns. The zero value is
// ready to use.
type memoryCache struct {
	mu sync.RWMutex
	m  map[string][]byte
}

// NewMemoryCache returns an empty [Cache] in memory, for one process; it
// stores a copy of each value.
func NewMemoryCache() Cache { return &memoryCache{} }

// Get returns the value stored under key.
func (c *memoryCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return v, ok, nil
}

// Put stores a copy of value under key.
func (c *memoryCache) Put(_ context.Context, key string, value []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string][]byte)
	}
	c.m[key] = append([]byte(nil), value...)
	return nil
}

// len returns the number of entries.
func (c *memoryCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// dirCache is the [Cache] NewDirCache returns.
type dirCache struct {
	dir string
	// redactor masks secrets in every entry before it is written: a model
	// reply that echoes a key must not be stored.
	redactor *redact.Redactor
}

// NewDirCache returns a [Cache] on disk rooted at dir, creating it if
// needed: one file per key, fanned out by the key's first two characters
// so no directory grows huge. Writes go to a temporary file that is
// renamed into place, so readers (other goroutines, other processes, a
// crashed earlier run) see a whole entry or none, and concurrent writers of
// the same key simply race to an identical result. The directory can be
// shared by CI shards and kept between runs. Every entry has r's secrets
// masked before it is written, since a model reply that echoes a key must
// not be stored; nil r means the environment's
// (redact.FromEnvironment(os.Environ()), read here).
func NewDirCache(dir string, r *redact.Redactor) (Cache, error) {
	if dir == "" {
		return nil, errors.New("llm: cache directory is empty")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("llm: create cache directory: %w", err)
	}
	if r == nil {
		r = redact.FromEnvironment(os.Environ())
	}
	return &dirCache{dir: dir, redactor: r}, nil
}

func (c *dirCache) path(key string) (string, error) {
	if len(key) < 3 || !isHex(key) {
		// Keys become file names; refusing anything else keeps a bad key
		// from escaping the directory.
		return "", fmt.Errorf("llm: cache key %q is not a hex digest", key)
	}
	return filepath.Join(c.dir, key[:2], key+".json"), nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s)%2 == 0
}

// Get returns the entry stored under key.
func (c *dirCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	p, err := c.path(key)
	if err != nil {
		return nil, false, err
	}
	b, err := infile.ReadFile(p, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("llm: read cache entry: %w", err)
	}
	return b, true, nil
}

// Put stores value under key atomically.
func (c *dirCache) Put(_ context.Context, key string, value []byte) error {
	p, err := c.path(key)
	if err != nil {
		return err
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("llm: create cache directory: %w", err)
	}
	var suffix [8]byte
	_, _ = rand.Read(suffix[:]) // crypto/rand.Read never fails
	tmp := filepath.Join(dir, "."+filepath.Base(p)+"."+hex.EncodeToString(suffix[:])+".tmp")
	if err := os.WriteFile(tmp, c.redactor.JSON(value), 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("llm: write cache entry: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("llm: write cache entry: %w", err)
	}
	return nil
}
