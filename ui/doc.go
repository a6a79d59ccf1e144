// Package ui is the interactive tutorial, a Bubble Tea v2 program. Its root model (Model) keeps
// size, focus, navigation, the question asked, the status line and a snapshot of the engine
// (progress, results, tools), and only routes: keys to the bindings enabled now, the results of
// work to the component that asked for them. The components live in packages of their own, so
// none can write another's fields:
//
//   - ui/page: the Page interface every page kind implements, the effects a page asks of the
//     root (Save, Status, Open, NewLab) and the Msg marker that routes a page's messages by id;
//   - ui/page/lesson (the intro, the sections, the finish page), ui/page/drill, ui/page/tools;
//   - ui/pane/prose and ui/pane/output, the two panes; ui/overlay/help and ui/overlay/diff;
//   - ui/keys (bindings and their help-screen groups), ui/task (background work), ui/common
//     (the Engine and the context every component is handed per call).
//
// A new page kind is one package implementing page.Page, listed in New. Every piece of work
// (reading, checking, rendering, running) is a tea.Cmd: Update and View never do I/O.
package ui
