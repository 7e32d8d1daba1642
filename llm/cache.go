package llm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
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

// MemoryCache is a [Cache] in memory, for one process. The zero value is
// ready to use.
type MemoryCache struct {
	mu sync.RWMutex
	m  map[string][]byte
}

// NewMemoryCache returns an empty in-memory cache.
func NewMemoryCache() *MemoryCache { return &MemoryCache{} }

// Get returns the value stored under key.
func (c *MemoryCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return v, ok, nil
}

// Put stores a copy of value under key.
func (c *MemoryCache) Put(_ context.Context, key string, value []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string][]byte)
	}
	c.m[key] = append([]byte(nil), value...)
	return nil
}

// Len returns the number of entries.
func (c *MemoryCache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// DirCache is a [Cache] on disk: one file per key under a directory, fanned
// out by the key's first two characters so no directory grows huge. Writes go
// to a temporary file that is renamed into place, so readers (other
// goroutines, other processes, a crashed earlier run) see a whole entry or
// none, and concurrent writers of the same key simply race to an identical
// result. The directory can be shared by CI shards and kept between runs.
type DirCache struct {
	dir string
	// Redactor masks secrets in every entry before it is written: a model
	// reply that echoes a key must not be stored (default:
	// redact.FromEnvironment(os.Environ()) at creation).
	Redactor *redact.Redactor
}

// NewDirCache returns a cache rooted at dir, creating it if needed.
func NewDirCache(dir string) (*DirCache, error) {
	if dir == "" {
		return nil, errors.New("llm: cache directory is empty")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("llm: create cache directory: %w", err)
	}
	return &DirCache{dir: dir, Redactor: redact.FromEnvironment(os.Environ())}, nil
}

// Dir returns the cache's root directory.
func (c *DirCache) Dir() string { return c.dir }

func (c *DirCache) path(key string) (string, error) {
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
func (c *DirCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	p, err := c.path(key)
	if err != nil {
		return nil, false, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("llm: read cache entry: %w", err)
	}
	return b, true, nil
}

// Put stores value under key atomically.
func (c *DirCache) Put(_ context.Context, key string, value []byte) error {
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
	if err := os.WriteFile(tmp, c.Redactor.JSON(value), 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("llm: write cache entry: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("llm: write cache entry: %w", err)
	}
	return nil
}
