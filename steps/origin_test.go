package steps

import "testing"

// A version other than the pinned release is noted; the pinned one, or none to compare, is not.
func TestVersionDiffers(t *testing.T) {
	spec := ToolSpec{Name: "envoy", Release: &ReleaseSpec{Version: "1.39.0"}}
	for version, want := range map[string]string{
		"envoy  version: 8eea3285d6bdb89f8ea34632cfe7ce1608a8f374/1.39.0/Clean/RELEASE/BoringSSL": "",
		"envoy  version: 0000/1.38.2/Clean/RELEASE/BoringSSL":                                     "1.39.0",
		"envoy from the container image docker.io/envoyproxy/envoy:v1.39.0 (run by docker)":       "",
		"envoy without a number": "",
	} {
		if got := VersionDiffers(spec, version); got != want {
			t.Errorf("%q: %q, want %q", version, got, want)
		}
	}
	if got := VersionDiffers(ToolSpec{Name: "yq"}, "v4.0.0"); got != "" {
		t.Errorf("a tool with no release: %q", got)
	}
}
