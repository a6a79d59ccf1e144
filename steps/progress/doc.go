// Package progress is what the tutorial remembers between sessions: the saved progress (per
// section its checks, hints, first opening and pass; the language, the last page, the drill record,
// the rounds), each change a locked read-modify-write written atomically; the review built from it;
// and reset and new-lab, which move the produced files to a backup before a section or a round
// starts again.
package progress
