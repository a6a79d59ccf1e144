// Package common is what every part of the tutorial reads and none owns, as soft-serve's
// common.Common: the Engine (the lesson, the environment, the progress store and the run's
// settings) and Common, the context each component is handed per call: the engine, the styles, the
// language, the terminal's size and the snapshot of the engine's state.
package common

import (
	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"
)

// Common is what every component reads and none owns. The root keeps it and hands each component
// a copy when it calls it, so a language switch or a resize reaches every component at once and
// no component keeps a stale one.
type Common struct {
	Eng           *Engine
	Styles        *render.Styles
	Dark          bool
	Lang          i18n.Lang
	Width, Height int
	Snapshot
}

// Snapshot is the engine's state as last reported: the saved progress, each section's latest
// verdict, the tools found, and the sections whose reference commands the learner asked to see.
// Only the root writes it, from the messages the engine's commands send back.
type Snapshot struct {
	Progress *progress.Progress
	Results  map[string]check.SectionResult
	Tools    steps.Tools
	Revealed map[string]bool
}

// T words a catalog key in the current language.
func (c Common) T(key string, kv ...string) string { return i18n.M(key, kv...).In(c.Lang) }

// RenderStyle is the markdown style for the terminal's background and NO_COLOR.
func (c Common) RenderStyle() render.Style {
	switch {
	case c.Eng.NoColor:
		return render.Plain
	case c.Dark:
		return render.Dark
	}
	return render.Light
}

// HintsUsed is how many hints of a section the learner has seen.
func (c Common) HintsUsed(id string) int {
	if c.Progress == nil || c.Progress.Sections[id] == nil {
		return 0
	}
	return c.Progress.Sections[id].HintsUsed
}

// DrillsToAvoid are the faults the drill record says not to draw again soon.
func (c Common) DrillsToAvoid() []string {
	if c.Progress == nil {
		return nil
	}
	return c.Progress.Drills.Avoid()
}
