// Package content holds the lesson: its structure (lesson.yaml), the prose of each page in each
// language, the glossary, and the strings the engine and the tutorial show.
package content

import "embed"

// FS is the lesson as shipped inside the binary.
//
// Every YAML file and every language's folder of pages (a new language's folder comes along).
//
//go:embed *.yaml */*.md
var FS embed.FS
