// Package setup installs the tools the lab's commands need into the tools dir: istioctl and yq
// with `go install` at pinned versions, gojq as jq, and Envoy as the official release binary
// checked against its pinned sha256 (resumable, from a mirror or a local file), or a script around
// the official image where docker or podman answers. Nothing half-written is ever left in place.
package setup
