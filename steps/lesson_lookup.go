package steps

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"ist2-boot/steps/i18n"
)

// Section returns the section with this id, or the practice page: both are run and checked
// alike (IsPractice tells them apart).
func (l *Lesson) Section(id string) (*Section, bool) {
	for _, s := range l.allSections() {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// allSections are the sections, then the practice pages.
func (l *Lesson) allSections() []*Section {
	out := make([]*Section, 0, len(l.Sections)+len(l.Practice))
	for i := range l.Sections {
		out = append(out, &l.Sections[i])
	}
	for i := range l.Practice {
		out = append(out, &l.Practice[i].Section)
	}
	return out
}

// IsPractice: id is a practice page, not one of the numbered sections.
func (l *Lesson) IsPractice(id string) bool {
	for _, p := range l.Practice {
		if p.ID == id {
			return true
		}
	}
	return false
}

// PracticeIDs are the practice pages in reading order.
func (l *Lesson) PracticeIDs() []string {
	var ids []string
	for _, id := range l.PageIDs() {
		if l.IsPractice(id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// Tool returns the spec of a tool by name.
func (l *Lesson) Tool(name string) (ToolSpec, bool) {
	for _, t := range l.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return ToolSpec{}, false
}

// ProducerOf returns the section (or practice page) that produces a file.
func (l *Lesson) ProducerOf(file string) (*Section, *FileSpec) {
	for _, s := range l.allSections() {
		for j := range s.Files {
			if s.Files[j].Name == file {
				return s, &s.Files[j]
			}
		}
	}
	return nil, nil
}

// NeededBy lists the pages judged (sections, then practice pages, in reading order) that need a
// tool, directly or for their inputs.
func (l *Lesson) NeededBy(tool string) []string {
	var ids []string
	for _, id := range l.CheckedIDs() {
		if s, ok := l.Section(id); ok && slices.Contains(s.ToolsNeeded(), tool) {
			ids = append(ids, id)
		}
	}
	return ids
}

// ToolsNeeded is every tool a section's files or steps need.
func (s *Section) ToolsNeeded() []string {
	var out []string
	add := func(ts []string) {
		for _, t := range ts {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	for _, f := range s.Files {
		add(f.Needs)
	}
	for _, st := range s.Steps {
		add(st.Tools)
	}
	return out
}

// Page returns the page with this id: "intro", "finish" or a section id.
func (l *Lesson) Page(id string) (Page, bool) {
	switch id {
	case l.Intro.ID:
		return l.Intro, true
	case l.Finish.ID:
		return l.Finish, true
	}
	if s, ok := l.Section(id); ok {
		return s.Page, true
	}
	return Page{}, false
}

// Number is a section's number in lab order (1 for the first), as the pages and the list show
// it; 0 for an id the lesson does not have, and for a practice page (it is not numbered).
// NeededByWords are the pages that need tool as the learner reads them: section numbers, then
// the practice page by its name (ids read as English in a CJK line: ko/ja r11 L30 L8).
func (l *Lesson) NeededByWords(tool string, lang i18n.Lang) string {
	var numbers, parts, practice []string
	for _, id := range l.NeededBy(tool) {
		if n := l.Number(id); n > 0 {
			numbers = append(numbers, strconv.Itoa(n))
		} else if l.IsPractice(id) {
			practice = append(practice, i18n.T(lang, "doctor.practice_page", nil))
		}
	}
	if len(numbers) > 0 {
		parts = append(parts, i18n.M("doctor.step_numbers", "numbers", strings.Join(numbers, i18n.T(lang, "doctor.number_sep", nil))).In(lang))
	}
	if len(parts) == 1 && len(practice) == 1 { // the steps and the page: "第 4、5 步和进阶练习" (zh r14 L28)
		return i18n.M("doctor.steps_and_practice", "steps", parts[0], "practice", practice[0]).In(lang)
	}
	return i18n.ListOf(lang, append(parts, practice...))
}

func (l *Lesson) Number(id string) int {
	for i, s := range l.Sections {
		if s.ID == id {
			return i + 1
		}
	}
	return 0
}

// SectionIDs are the sections in lab order, as lesson.yaml lists them.
func (l *Lesson) SectionIDs() []string {
	ids := make([]string, len(l.Sections))
	for i, s := range l.Sections {
		ids[i] = s.ID
	}
	return ids
}

// PageIDs lists every page in reading order: the intro, the sections, each practice page right
// after the section its After names, the finish.
func (l *Lesson) PageIDs() []string {
	ids := []string{l.Intro.ID}
	for _, id := range l.SectionIDs() {
		ids = append(ids, id)
		for _, p := range l.Practice {
			if p.After == id {
				ids = append(ids, p.ID)
			}
		}
	}
	return append(ids, l.Finish.ID)
}

// Prose returns a page's markdown in a language with the active lab paths put in for
// {{LAB_DIR}}, {{FIXTURES}} and {{MESH_CONFIG}}, and a section's reference commands for
// {{COMMANDS}} (so every language shows the very same commands), and what a real sidecar shows for
// {{POD_…}}, {{LOG_…}}, {{EVENTS_…}} and {{ADMIN_…}} (sidecarExamples), and the active lab's own
// values (pageValues).
func (l *Lesson) Prose(id string, lang i18n.Lang, env *Env) (string, error) {
	p, ok := l.Page(id)
	if !ok {
		return "", fmt.Errorf("no page %q", id)
	}
	raw, err := fs.ReadFile(l.fsys, p.Prose[lang])
	if err != nil {
		return "", err
	}
	text := string(raw)
	if s, ok := l.Section(id); ok {
		text = strings.ReplaceAll(text, "{{COMMANDS}}", s.CommandsMarkdown(lang))
	}
	if strings.Contains(text, "{{POD_") || strings.Contains(text, "{{LOG_") || strings.Contains(text, "{{EVENTS_") || strings.Contains(text, "{{ADMIN_") {
		for k, v := range l.sidecarExamples() {
			text = strings.ReplaceAll(text, k, v)
		}
	}
	if strings.Contains(text, "{{") {
		for k, v := range l.pageValues(env) {
			text = strings.ReplaceAll(text, k, v)
		}
	}
	return env.ExpandPaths(text), nil
}

// ProseParts is a page's markdown as Prose makes it, cut before the heading of its reference
// commands: body, and the commands' part (heading and code) — "" for a page without commands —
// so the tutorial can put the hints between them and keep the commands folded until asked.
func (l *Lesson) ProseParts(id string, lang i18n.Lang, env *Env) (body, commands string, err error) {
	text, err := l.Prose(id, lang, env)
	if err != nil {
		return "", "", err
	}
	s, ok := l.Section(id)
	if !ok {
		return text, "", nil
	}
	code := s.CommandsMarkdown(lang)
	at := strings.LastIndex(text, code)
	if at < 0 {
		return text, "", nil
	}
	head := strings.LastIndex(text[:at], "\n## ")
	if head < 0 {
		return text, "", nil
	}
	return text[:head+1], text[head+1:], nil
}

// CommandsMarkdown is the section's reference commands as one sh code block, each step headed
// by a comment naming its number and the tools it runs, its comments in lang.
func (s *Section) CommandsMarkdown(lang i18n.Lang) string {
	var b strings.Builder
	b.WriteString("```sh\n")
	for i, st := range s.Steps {
		if i > 0 {
			b.WriteString("\n")
		}
		head := fmt.Sprintf("# ── %d/%d", i+1, len(s.Steps))
		if len(st.Tools) > 0 {
			head += " ── " + i18n.ListOf(lang, st.Tools) // listed as the language lists (zh r11 L16)
		}
		b.WriteString(head + "\n" + strings.TrimRight(Commented(st.Run, lang), "\n") + "\n")
	}
	b.WriteString("```")
	return b.String()
}

// HintsMarkdown is the section's first n hints in lang as a numbered list under a heading (""
// when n is 0): the tutorial shows it below the page, `show --hints` below the printed page.
func (s *Section) HintsMarkdown(lang i18n.Lang, n int) string {
	if n <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## " + i18n.T(lang, "hints.title", nil) + "\n\n")
	for i, h := range s.Hints[:min(n, len(s.Hints))] {
		fmt.Fprintf(&b, "%d. %s\n", i+1, h[lang])
	}
	return b.String()
}

// CheckedIDs are the pages whose files are judged, in reading order: the sections and the
// practice pages (the tutorial's list shows a state for each; counts stay the sections').
func (l *Lesson) CheckedIDs() []string {
	var ids []string
	for _, id := range l.PageIDs() {
		if _, ok := l.Section(id); ok {
			ids = append(ids, id)
		}
	}
	return ids
}
