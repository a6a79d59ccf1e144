package check

import (
	"errors"
	"strconv"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
)

// unreadableYAML is why a learner's YAML file cannot be judged, in their words: the line the
// parser stopped at and what is wrong there, its English kept beside as the original.
func unreadableYAML(file string, err error, text string) i18n.Msg {
	if errors.Is(err, errNotMapping) {
		return i18n.M("reason.yaml_not_map", "file", file)
	}
	line, key, original := bootcheck.YAMLErrorWords(err, []byte(text))
	if line > 0 {
		return i18n.M("reason.bad_yaml_at", "file", file, "line", strconv.Itoa(line), "error", i18n.Ref(key), "original", original)
	}
	return i18n.M("reason.bad_yaml", "file", file, "error", i18n.Ref(key), "original", original)
}

// unreadableJSON is why a learner's JSON file gives no object, in their words.
func unreadableJSON(file string, err error, data []byte) i18n.Msg {
	line, key, args := bootcheck.JSONErrorWords(err, data)
	kv := append([]string{"file", file, "error", i18n.Ref(key)}, args...)
	if line > 0 {
		return i18n.M("reason.bad_json_at", append(kv, "line", strconv.Itoa(line))...)
	}
	return i18n.M("reason.bad_json", kv...)
}
