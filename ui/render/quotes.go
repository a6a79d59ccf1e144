package render

// keepShortQuotes keeps a short quoted word whole: 「未作成」, “未创建”, '아직 없음' (ja r20 M2,
// ko r20): a status named in a sentence is read as one word, so the line breaks before its
// opening bracket rather than inside it.
func keepShortQuotes(us []unit, tiers []tier) {
	closers := map[string]string{"「": "」", "『": "』", "“": "”", "‘": "’", "'": "'"}
	for i := 0; i < len(us); i++ {
		closer, ok := closers[us[i].text]
		if !ok || us[i].code {
			continue
		}
		for j := i + 1; j < len(us) && j-i <= maxLabel+1; j++ {
			if us[j].text == closer {
				if closer == "'" && !wideInside(us[i+1:j]) {
					break // an ASCII quote around ASCII is a shell's or a program's, not a word's
				}
				for k := i + 2; k < j; k++ {
					if tiers[k] < tierGlue {
						tiers[k] = tierGlue
					}
				}
				break
			}
		}
	}
}

// wideInside: some unit is a CJK or Hangul character.
func wideInside(us []unit) bool {
	for _, u := range us {
		if isCJK(u.text) || isHangul(u.text) {
			return true
		}
	}
	return false
}
