package render

import "unicode"

// keepColonLabel keeps whole the short label of a fact before a full-width colon (「使うステップ：」,
// 「需要它的步骤：」): up to colonLabel characters of Chinese or Japanese are not broken between
// (ja r23 L7, zh r23 L10: 「使う⏎ステップ：」「需要⏎它的步骤」).
func keepColonLabel(us []unit, tiers []tier, colon int) {
	k := colon - 1
	for k > 0 && colon-k < colonLabel && wordLetter(us[k-1]) && wordLetter(us[k]) {
		k--
	}
	// Only a label of a list of facts, after "·" (a tool's line on the tools page) or at the
	// paragraph's start: in running prose (「Istio 的格式：」) the colon ends a phrase, not a label.
	j := k - 1
	for j >= 0 && us[j].space {
		j--
	}
	if j >= 0 && us[j].text != "·" {
		return
	}
	for j := k + 1; j < colon; j++ {
		if tiers[j] == tierBreak {
			tiers[j] = tierGlue
		}
	}
}

// colonLabel is the longest label kept whole before a full-width colon.
const colonLabel = 6

// wordLetter: a Han, kana or prolonged-sound character of prose (not code).
func wordLetter(u unit) bool {
	r, ok := firstRune(u.text)
	return ok && !u.code && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || r == 'ー')
}
