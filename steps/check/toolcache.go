package check

import (
	"sync"

	"ist2-boot/steps"
)

// toolCache answers "is this tool installed?" for the checks, one tool at a time and only when
// asked: judging files that all exist runs nothing, and an absent file asks only for its tools.
// Only a tool that must prove what it is (Require) is run.
type toolCache struct {
	mu    sync.Mutex
	env   *steps.Env
	specs []steps.ToolSpec
	found map[string]steps.ToolStatus
}

func (c *toolCache) lookup(name string) steps.ToolStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.found[name]; ok {
		return t
	}
	if c.found == nil {
		c.found = map[string]steps.ToolStatus{}
	}
	for _, spec := range c.specs {
		if spec.Name == name {
			c.found[name] = steps.LocateTools(c.env, []steps.ToolSpec{spec})[0]
		}
	}
	return c.found[name]
}

func (c *toolCache) has(name string) bool { return c.lookup(name).Found }

// path is where the tool was found ("" when it was not).
func (c *toolCache) path(name string) string { return c.lookup(name).Path }

// missing returns the first of names not installed, or "".
func (c *toolCache) missing(names []string) string {
	for _, n := range names {
		if !c.has(n) {
			return n
		}
	}
	return ""
}
