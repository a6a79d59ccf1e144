// Package ui is the interactive tutorial, a Bubble Tea v2 program. The root model (Model) keeps
// size, focus, navigation, the question asked, the status line and a snapshot of the engine
// (progress, results, tools); each page and pane is a component with its own state, keys, update
// and view, and the root routes messages to them. Every piece of work (reading, checking,
// rendering, running) is a tea.Cmd in commands.go: Update and View never do I/O.
package ui
