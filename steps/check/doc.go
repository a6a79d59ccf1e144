// Package check judges the files a learner produced: each file's kind in lesson.yaml names its
// judge (the injected manifest, the bootstrap, an output of a command, a key=value list, a report),
// and each judge derives what the file should be from the fixtures and the learner's own earlier
// files, then says pass, fail, missing or needs-tool with a reason in three languages and a diff.
package check
