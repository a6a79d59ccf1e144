package steps

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// versionCacheFile keeps each tool's answer to its version command, so no program is asked twice
// ever: Debian's yq (a Python program) takes 300 ms of CPU to say it is not the yq we need.
const versionCacheFile = "tool-versions.json"

// versionCache is keyed by what identifies a program's build: its path after symlinks, size and
// modification time (an upgrade changes them), and the version arguments. It is only a cache:
// unreadable or corrupt, it starts empty; two copies writing at once lose an entry, nothing more.
type versionCache struct {
	mu      sync.Mutex
	path    string
	entries map[string]string
	dirty   bool
}

func loadVersionCache(env *Env) *versionCache {
	c := &versionCache{entries: map[string]string{}}
	if env.StateDir == "" || !filepath.IsAbs(env.StateDir) {
		return c // no state dir: kept in memory only (never a file in the current directory)
	}
	c.path = filepath.Join(env.StateDir, versionCacheFile)
	if data, err := ReadRegularFile(c.path, 1<<20); err == nil {
		_ = json.Unmarshal(data, &c.entries) // corrupt: start again
		if c.entries == nil {
			c.entries = map[string]string{}
		}
	}
	return c
}

// versionKey names one build of a program and one way of asking it; "" if the file cannot be
// identified (then it is asked, not cached).
func versionKey(path string, args []string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	fi, err := os.Stat(real)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s\x00%d\x00%d\x00%s", real, fi.Size(), fi.ModTime().UnixNano(), strings.Join(args, " "))
}

// version is toolVersion through the cache. A version command that timed out is not kept: the
// next start asks again.
func (c *versionCache) version(path string, args []string) string { return c.lookUp(path, args, true) }

// recalled is what the cache knows of a program's version, without asking it ("" when nothing).
func (c *versionCache) recalled(path string, args []string) string {
	return c.lookUp(path, args, false)
}

func (c *versionCache) lookUp(path string, args []string, ask bool) string {
	if len(args) == 0 {
		return ""
	}
	key := versionKey(path, args)
	c.mu.Lock()
	v, ok := c.entries[key]
	c.mu.Unlock()
	if ok && key != "" {
		return v
	}
	if !ask {
		return ""
	}
	v, answered := toolVersion(path, args)
	if key != "" && answered {
		c.mu.Lock()
		c.entries[key], c.dirty = v, true
		c.mu.Unlock()
	}
	return v
}

// save writes the cache if it learned something, atomically (temp file, then rename).
func (c *versionCache) save() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty || c.path == "" {
		return
	}
	// Entries for builds that are gone (an upgraded tool) are dropped.
	for k := range c.entries {
		if real, _, _ := strings.Cut(k, "\x00"); real != "" {
			if _, err := os.Stat(real); err != nil {
				delete(c.entries, k)
			}
		}
	}
	data, err := json.Marshal(c.entries)
	if err != nil || os.MkdirAll(filepath.Dir(c.path), 0o755) != nil {
		return
	}
	if WriteFileAtomic(c.path, data, 0o644) != nil {
		return
	}
	c.dirty = false
}
