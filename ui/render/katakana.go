package render

import "unicode"

// kanaSlack is how many cells a line may end short to keep a katakana word whole: a Japanese
// reader stumbles on 「バージョ⏎ン」, but a line ending seven cells early reads as a gap.
const kanaSlack = 6

// katakanaWords lowers the breaks inside each katakana word (a run of katakana and ー) that UAX #14
// allows anywhere: between two letters each side, tierKana (taken only if keeping the word whole
// would lose more than kanaSlack); nearer an end, where one letter would be left alone, tierSafe.
func katakanaWords(us []unit, tiers []tier) {
	for a := 0; a < len(us); {
		if !katakanaUnit(us[a]) {
			a++
			continue
		}
		b := a + 1
		for b < len(us) && katakanaUnit(us[b]) {
			b++
		}
		for i := a + 1; i < b; i++ {
			if tiers[i] != tierBreak {
				continue
			}
			tiers[i] = tierSafe
			if i-a >= 2 && b-i >= 2 {
				tiers[i] = tierKana
			}
		}
		a = b
	}
}

// katakanaUnit: a katakana letter or the prolonged sound mark, outside code.
func katakanaUnit(u unit) bool {
	r, ok := firstRune(u.text)
	return ok && !u.code && !u.space && (unicode.Is(unicode.Katakana, r) && r != '・' || r == 'ー')
}
