// Package run runs a section's reference commands with bash, each step in its own process group
// with the lab's environment, streaming its lines as they come; it also gives the learner's shell
// its environment, and finds, records and stops the Envoy a section starts — only a process that
// still matches the pid, start time and directory recorded when it was started.
package run
