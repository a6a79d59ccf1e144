// Package content holds the lesson: its structure (lesson.yaml), the prose of each page in each
// language, the glossary, and the strings the engine and the tutorial show.
package content

import "embed"

// FS is the lesson as shipped inside the binary.
//
//go:embed lesson.yaml strings.yaml glossary.yaml ko zh ja
var FS embed.FS
