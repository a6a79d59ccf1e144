package render

import (
	"strings"
	"unicode"
)

// keepPhrases lowers the breaks inside a Japanese phrase (文節) or a run of Chinese characters
// to tierPhrase, so a heading breaks between phrases where one fits: 「…2 つの場合を⏎見分ける」,
// not 「…場合を見⏎分ける」 (ja T3). Body text keeps every opportunity: a page fills its lines as
// a typesetter sets CJK, and JIS X 4051 allows a break between any two characters.
//
// A phrase boundary is found as BudouX finds most of them, without a dictionary: a phrase ends
// in kana (its particle or inflection) and the next starts with a kanji, a katakana word or a
// Latin word; a space or a punctuation mark ends one too. Chinese has no such mark, so a run of
// Han characters is kept whole, broken at punctuation and spaces.
func keepPhrases(us []unit, tiers []tier) {
	for i := 1; i < len(us); i++ {
		if tiers[i] != tierBreak && tiers[i] != tierKana {
			continue
		}
		prev, next := us[i-1], us[i]
		if prev.space || next.space || prev.code || next.code || prev.w != 2 || next.w != 2 {
			continue // a space, or CJK meeting Latin or code: a phrase boundary
		}
		p, _ := firstRune(prev.text)
		n, _ := firstRune(next.text)
		if !letter(p) || !letter(n) {
			continue // after or before punctuation
		}
		if unicode.Is(unicode.Hiragana, p) && !unicode.Is(unicode.Hiragana, n) && !okurigana(us, i-1) {
			continue // kana ending a phrase, a kanji or katakana word starting the next
		}
		tiers[i] = tierPhrase
	}
}

// letter: a Han, kana or Hangul character (not a punctuation mark or a symbol).
func letter(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 'ー' || r == '々'
}

// okurigana: us[k] is one kana between two kanji that is not a particle — the inflection inside
// a compound verb (突き合わせる, 受け取る), where a phrase does not end.
func okurigana(us []unit, k int) bool {
	if k == 0 || k+1 >= len(us) || strings.Contains(caseParticles, us[k].text) {
		return false
	}
	before, _ := firstRune(us[k-1].text)
	after, _ := firstRune(us[k+1].text)
	return unicode.Is(unicode.Han, before) && unicode.Is(unicode.Han, after)
}

// caseParticles are the one-kana particles that end a phrase before a kanji (場合を見分ける).
const caseParticles = "をがにでとのはへもやか"
