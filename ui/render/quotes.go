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

// keepShortParens keeps a short Korean parenthetical whole — (또는 둘 다인지), (시작 후 약 30초),
// (일부러 단순화한 것) — as a quoted status is: a reader takes it in at once, and a break inside
// it left 「(또는 둘⏎다인지)」 (ko r25 M1). Korean only (Chinese and Japanese set full-width
// parentheses, broken by kinsoku); none with code inside.
func keepShortParens(us []unit, tiers []tier) {
	for i := 0; i < len(us); i++ {
		if us[i].text != "(" || us[i].code || codeInWordBefore(us, i) {
			continue // after a long code word the whole 어절 would outgrow the line
		}
		for j := i + 1; j < len(us) && j-i <= maxParen+1; j++ {
			if us[j].code {
				break
			}
			if us[j].text == ")" {
				if hangulInside(us[i+1 : j]) {
					for k := i + 2; k < j; k++ {
						if tiers[k] < tierGlue {
							tiers[k] = tierGlue
						}
					}
				}
				break
			}
		}
	}
	// 「약 30초」 and 「둘 다」 are one unit of meaning each, not two words (ko r25 M1).
	for i := 2; i < len(us); i++ {
		if !us[i-1].space || tiers[i] >= tierGlue {
			continue
		}
		if prev, next := us[i-2].text, us[i].text; prev == "약" && isDigits(next) || prev == "둘" && next == "다" {
			if i < 3 || us[i-3].space || !isHangul(us[i-3].text) {
				tiers[i] = tierGlue
			}
		}
	}
}

// maxParen is the longest parenthetical kept whole, in units (Hangul syllables, spaces, numbers).
const maxParen = 12

// hangulInside: some unit is Hangul.
func hangulInside(us []unit) bool {
	for _, u := range us {
		if isHangul(u.text) {
			return true
		}
	}
	return false
}

// codeInWordBefore: the word (up to the space before) that us[i] ends has a code unit, or is
// longer than a parenthetical kept whole (a field's path with its particle).
func codeInWordBefore(us []unit, i int) bool {
	for j := i - 1; j >= 0 && !us[j].space; j-- {
		if us[j].code || i-j > maxParen {
			return true
		}
	}
	return false
}
