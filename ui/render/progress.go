package render

import (
	"fmt"
	"strconv"
	"strings"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/setup"
)

// ProgressBar is a bar of width cells for done of total ("" bar of dots when the total is unknown).
func ProgressBar(done, total int64, width int) string {
	if total <= 0 {
		return "[" + strings.Repeat("·", width) + "]"
	}
	full := int(min(done, total) * int64(width) / total)
	return "[" + strings.Repeat("█", full) + strings.Repeat("░", width-full) + "]"
}

// ProgressText is the amount in words: megabytes of a download, packages of a build.
func ProgressText(e setup.SetupEvent, lang i18n.Lang) string {
	pct := "0"
	if e.Total > 0 {
		pct = strconv.FormatInt(min(e.Done, e.Total)*100/e.Total, 10)
	}
	// The time taken is inside the line's parentheses in Chinese and Japanese (zh r22 L13), not
	// a half-width bracket after them.
	elapsed := i18n.Duration(lang, int(e.Elapsed.Seconds()))
	if e.Unit == setup.Packages {
		return i18n.T(lang, "setup.progress_packages", map[string]string{"done": fmt.Sprint(e.Done), "total": fmt.Sprint(e.Total), "pct": pct, "elapsed": elapsed})
	}
	mb := func(n int64) string { return fmt.Sprintf("%.1f", float64(n)/1e6) }
	if e.Total <= 0 {
		return i18n.T(lang, "setup.progress_bytes_unknown", map[string]string{"done": mb(e.Done), "elapsed": elapsed})
	}
	return i18n.T(lang, "setup.progress_bytes", map[string]string{"done": mb(e.Done), "total": mb(e.Total), "pct": pct, "elapsed": elapsed})
}
