package ui

import (
	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"
)

// common is what every component reads and none owns, as soft-serve's common.Common: the engine,
// the styles, the language, the terminal's size and the snapshot of the engine's state. The root
// keeps it and hands each component a copy when it calls it, so a language switch or a resize
// reaches every component at once and no component keeps a stale one.
type common struct {
	eng           *Engine
	styles        *render.Styles
	dark          bool
	lang          i18n.Lang
	width, height int
	snapshot
}

// snapshot is the engine's state as last reported: the saved progress, each section's latest
// verdict and the tools found. Only the root writes it, from the messages the engine's commands
// send back.
type snapshot struct {
	progress *progress.Progress
	results  map[string]check.SectionResult
	tools    steps.Tools
}

// t words a catalog key in the current language.
func (c common) t(key string, kv ...string) string { return i18n.M(key, kv...).In(c.lang) }

// renderStyle is the markdown style for the terminal's background and NO_COLOR.
func (c common) renderStyle() render.Style {
	switch {
	case c.eng.NoColor:
		return render.Plain
	case c.dark:
		return render.Dark
	}
	return render.Light
}

// hintsUsed is how many hints of a section the learner has seen.
func (c common) hintsUsed(id string) int {
	if c.progress == nil || c.progress.Sections[id] == nil {
		return 0
	}
	return c.progress.Sections[id].HintsUsed
}

func (c common) isSection(id string) bool {
	_, ok := c.eng.Lesson.Section(id)
	return ok
}

// drillsToAvoid are the faults the drill record says not to draw again soon.
func (c common) drillsToAvoid() []string {
	if c.progress == nil {
		return nil
	}
	return c.progress.Drills.Avoid()
}
