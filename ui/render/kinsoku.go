package render

import (
	"slices"
	"strings"
	"unicode"

	"ist2-boot/steps/i18n"
)

// The rules a CJK typesetter adds to UAX #14, as this lesson sets its text: kinsoku (what may not
// start or end a line), Korean keep-all and particles, a number kept with its counter and a label
// with its number.

// noStart are the characters a line must not start with (kinsoku shori, 避头尾): closing brackets
// and quotes, sentence and clause marks, small kana, the prolonged sound mark and iteration marks;
// also the middle dot that separates facts on a surface (「合格 · チェック回数 2」).
const noStart = ")]}>,.:;!?%" + "·" + "）］｝〕〉》」』】〙〗〟’”｠»、。，．：；！？・…‥ー―～" +
	"ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ々〻ゝゞヽヾ"

// noEnd are the characters a line must not end with: opening brackets and quotes.
const noEnd = "([{<" + "（［｛〔〈《「『【〘〖〝‘“｟«"

// particles are the Korean particles that follow a code span or a Latin word after a space, as
// this lesson writes them (`Envoy` 를): the space before one is not a break, so a particle never
// starts a line alone.
var particles = []string{"에서", "으로", "까지", "부터", "처럼", "보다", "에게", "이라", "라는", "이나", "이다", "입니",
	"과", "와", "가", "이", "은", "는", "을", "를", "의", "에", "로", "도", "만", "나", "란", "랑"}

// keepLabels keeps a label whole where it is kept with its number ("ステップ 3", "步骤 3", "約 30",
// "チェック回数\u00a02"): the breaks inside the label's word are glue too, so the line breaks
// before the label rather than inside it.
func keepLabels(us []unit, tiers []tier) {
	for i := 1; i < len(us); i++ {
		if us[i].text == "：" {
			keepColonLabel(us, tiers, i)
		}
		numbered := tiers[i] == tierGlue && us[i-1].space && isDigits(us[i].text)
		if us[i].text == "\u00a0" {
			keepJoined(us, tiers, i)
		}
		if !numbered && us[i].text != "\u00a0" {
			continue
		}
		b := i - 1
		for b > 0 && us[b].space {
			b--
		}
		if !labelChar(us[b]) {
			continue
		}
		k, kana := b, isKatakana(us[b])
		for k > 0 && labelChar(us[k-1]) && b-k+1 < maxLabel {
			k--
			kana = kana || isKatakana(us[k])
		}
		if !kana { // a Han label is a prefix (第, 約) or two (最长, 大约): the text before it is prose
			k = max(k, b-hanLabelLen(us, b)+1)
		}
		for j := k + 1; j <= b; j++ {
			if tiers[j] == tierBreak {
				tiers[j] = tierGlue
			}
		}
	}
}

// keepJoined keeps whole the words a no-break space joins (「✗\u00a0不合格」, 「一度で合格\u00a0—」,
// 「1\u00a0分\u00a00\u00a0秒」): the letters and digits on each side of it, up to maxLabel each,
// are not broken between (ja T1: 「不⏎合格」「一⏎度で合格」).
func keepJoined(us []unit, tiers []tier, i int) {
	joined := func(u unit) bool {
		r, ok := firstRune(u.text)
		return ok && !u.space && (letter(r) || unicode.IsDigit(r))
	}
	for j, n := i-1, 0; j > 0 && n < maxLabel && joined(us[j]) && joined(us[j-1]); j, n = j-1, n+1 {
		if tiers[j] == tierBreak {
			tiers[j] = tierGlue
		}
	}
	for j, n := i+2, 0; j < len(us) && n < maxLabel && joined(us[j]) && joined(us[j-1]); j, n = j+1, n+1 {
		if tiers[j] == tierBreak {
			tiers[j] = tierGlue
		}
	}
}

// twoCharUnits are the units of two characters a number counts in Chinese and Japanese text.
var twoCharUnits = []string{"分钟", "小时", "毫秒", "秒钟", "字节", "个月", "時間", "か所", "ミリ"}

// countsAfterNumber: us[i] follows a number, after a space ("5 分钟").
func countsAfterNumber(us []unit, i int) bool {
	j := i - 1
	for j > 0 && us[j].space {
		j--
	}
	return j >= 0 && j < i-1 && isDigits(us[j].text)
}

// counted: the number starting at us[i] counts something — it is followed by a space, a CJK
// character or the end, not by ')' or '.' (a list's "2)" or "2." after a word is not its number).
func counted(us []unit, i int) bool {
	for i < len(us) && isDigits(us[i].text) {
		i++
	}
	// ・ and 、 too: 「ステップ 4、5」 lists numbers after one label (ja r8 M3).
	return i == len(us) || us[i].space || isCJK(us[i].text) || us[i].text == "・" || us[i].text == "、" || us[i].text == "，"
}

// maxLabel is the longest label kept whole with its number (ステップ, トラストドメイン).
const maxLabel = 8

func isKatakana(u unit) bool {
	r, ok := firstRune(u.text)
	return ok && (unicode.Is(unicode.Katakana, r) || r == 'ー')
}

// hanNumberPrefixes are the Han characters that make one word with the number after them
// (第 4、约 30、約 10、每 5、全 8); superlatives are two (最长 5、至少 1). Any other Han character
// may end a line before a number: 「并以退出码⏎1 结束」, not 「并以退⏎出码 1」 (zh B2).
const (
	hanNumberPrefixes = "第约約每毎共全各近"
	hanSuperlatives   = "长長大多少小高低"
	hanSuperlativeOf  = "最至"
)

// hanLabelLen is how many Han characters, ending at us[b], are the label of the number after
// them: 最长 and 大约 are two, a prefix alone one.
func hanLabelLen(us []unit, b int) int {
	if b == 0 {
		return 1
	}
	p, _ := firstRune(us[b-1].text)
	r, _ := firstRune(us[b].text)
	if strings.ContainsRune(hanSuperlativeOf, p) && strings.ContainsRune(hanSuperlatives, r) || p == '大' && (r == '约' || r == '約') {
		return 2
	}
	return 1
}

// numberLabel: us[b] ends a label kept with the number after it — a Katakana word (ステップ 3),
// a Han prefix, or a superlative.
func numberLabel(us []unit, b int) bool {
	if isKatakana(us[b]) {
		return true
	}
	if !labelChar(us[b]) {
		return false
	}
	r, _ := firstRune(us[b].text)
	if strings.ContainsRune(hanNumberPrefixes, r) {
		return true
	}
	if b == 0 || !strings.ContainsRune(hanSuperlatives, r) {
		return false
	}
	p, _ := firstRune(us[b-1].text)
	return strings.ContainsRune(hanSuperlativeOf, p)
}

// labelChar: a character of a label word — Katakana (and its prolonged sound mark) or Han.
func labelChar(u unit) bool {
	r, ok := firstRune(u.text)
	return ok && !u.code && (unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Han, r) || r == 'ー')
}

// kinsokuForbids: next may not start a line, or prev may not end one. ASCII punctuation that
// starts a token (after a space, or a code span's first: ":15021", ".trustDomain") may start a
// line; one that ends a token may end one.
func kinsokuForbids(prev, next unit) bool {
	first, _ := firstRune(next.text)
	last := lastRune(prev.text)
	tokenStarts := prev.space || next.code && !prev.code
	tokenEnds := next.space || prev.code && !next.code
	if strings.ContainsRune(noStart, first) && !(first <= unicode.MaxASCII && tokenStarts) {
		return true
	}
	return strings.ContainsRune(noEnd, last) && !(last <= unicode.MaxASCII && tokenEnds)
}

// glued: the rules this lesson's typesetting adds to UAX #14 — a break before us[i] that UAX #14
// allows but a reader would not want.
func glued(us []unit, i int) bool {
	prev, next := us[i-1], us[i]
	switch {
	case !prev.space && !next.space && (isHangul(prev.text) || isHangul(next.text)):
		// Korean breaks between words (at spaces), never inside one: keep-all.
		return true
	case !prev.space && next.text == "目" && strings.Contains("番行回個件枚度", prev.text):
		return true // "1 番目": an ordinal's counter is one word
	case !prev.space && slices.Contains(twoCharUnits, prev.text+next.text) && countsAfterNumber(us, i-1):
		return true // "5 分钟", "2 小时": a unit of two characters after its number is one word
	case !prev.space && !prev.code && !next.code && (prev.text == "每" || prev.text == "毎") && unicode.Is(unicode.Han, firstOf(next.text)):
		return true // "每一步", "每次", "毎回": 每 is one word with the count after it (zh r7 L10)
	case !prev.space && prev.text == "第" && strings.ContainsRune("一二三四五六七八九十百两", firstOf(next.text)):
		return true // "第三类", "第一次": 第 is one word with a Chinese numeral too (zh r11 L23)
	case prev.text == "、" && isDigits(next.text) && i >= 2 && isDigits(us[i-2].text):
		return true // "第 4、5 步": numbers listed with 、 stay together (zh M7)
	case prev.space:
		before := i - 1
		for before > 0 && us[before].space {
			before--
		}
		if us[before].space {
			return false
		}
		b := us[before]
		// "2 つ", "1 行": a number stays with its counter; "ステップ 3", "約 30", "第 4": a label
		// with its number.
		if isDigits(b.text) && isCJK(next.text) || numberLabel(us, before) && isDigits(next.text) && counted(us, i) {
			return true
		}
		// Korean: a label keeps its number ("종료 코드 1"), and a native numeral its counter
		// ("한 줄", "세 개"): ko r8 KO-17.
		if isHangul(b.text) && !endsWithParticle(b.text) && bareNumberAt(us, i) || nativeNumeralEnds(us, before) && counterStarts(us, i) {
			return true
		}
		// "`Envoy` 를": a particle stays with the word before it.
		if !isHangul(b.text) && isHangul(next.text) && startsWithParticle(us[i:]) {
			return true
		}
		// Japanese: what follows a Latin word or code span in hiragana is its particle
		// ("node.cluster は", "istiod への"): no line starts with it (ja r17 M4).
		if wordChar(b) && (japaneseParticle(us[i:]) || next.text == "名") { // 「Pod 名」 too (ja r18 M3)
			return true
		}
		// Korean: "약 270", "32번 줄", and a name with its version ("Istio 1.31"): one unit each
		// (ko r17 L15).
		if b.text == "약" && (before == 0 || us[before-1].space) && isDigits(next.text) ||
			b.text == "번" && before > 0 && isDigits(us[before-1].text) && (next.text == "줄" || next.text == "열") ||
			wordChar(b) && !b.code && unicode.IsLetter(firstOf(b.text)) && !next.code && isDigits(next.text) {
			return true
		}
	}
	return false
}

// quoteInCJK: a break after a closing or before an opening curly quote in Chinese or Japanese
// text. UAX #14 (LB19, as uniseg implements it) never breaks beside one, as quotes may open or
// close in Latin text; in CJK text ” closes and “ opens, as （ and ） do.
func quoteInCJK(us []unit, i int) bool {
	prev, next := us[i-1], us[i]
	cjk := func(j int) bool { return j >= 0 && j < len(us) && us[j].w == 2 && !isHangul(us[j].text) }
	return (prev.text == "”" || prev.text == "’") && cjk(i) || (next.text == "“" || next.text == "‘") && cjk(i-1)
}

// wideMeetsWord: a Chinese or Japanese character (or full-width mark) next to a Latin word or
// code span.
func wideMeetsWord(prev, next unit) bool {
	wide := func(u unit) bool { return u.w == 2 && !u.code && !isHangul(u.text) }
	return wide(prev) && wordChar(next) || wordChar(prev) && wide(next)
}

// wordChar: part of a run of printable ASCII (a path, flag, URL, version or Latin word) or of a
// code span.
func wordChar(u unit) bool {
	if u.space || u.text == "" {
		return false
	}
	if u.code {
		return true
	}
	for _, r := range u.text {
		if r > unicode.MaxASCII || !unicode.IsGraphic(r) || r == ' ' {
			return false
		}
	}
	return true
}

// japaneseParticle: us starts with hiragana that is not the copula (「です」 after a code span
// may start a line; 「は」「が」「への」 may not).
func japaneseParticle(us []unit) bool {
	var word strings.Builder
	for _, u := range us {
		if u.space || u.code || !unicode.Is(unicode.Hiragana, firstOf(u.text)) || word.Len() > 6 {
			break
		}
		word.WriteString(u.text)
	}
	w := word.String()
	return w != "" && !strings.HasPrefix(w, "です") && !strings.HasPrefix(w, "でし")
}

func startsWithParticle(us []unit) bool {
	var word strings.Builder
	for _, u := range us {
		if u.space || !isHangul(u.text) || word.Len() > 12 {
			break
		}
		word.WriteString(u.text)
	}
	for _, p := range particles {
		if strings.HasPrefix(word.String(), p) {
			return true
		}
	}
	return false
}

func firstRune(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}

func lastRune(s string) rune {
	r := rune(0)
	for _, c := range s {
		r = c
	}
	return r
}

func isHangul(s string) bool {
	r, ok := firstRune(s)
	return ok && unicode.Is(unicode.Hangul, r)
}

func isCJK(s string) bool {
	r, ok := firstRune(s)
	return ok && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

func isDigits(s string) bool {
	r, ok := firstRune(s)
	return ok && r >= '0' && r <= '9'
}

// firstOf is text's first rune (0 for none).
func firstOf(text string) rune {
	r, _ := firstRune(text)
	return r
}

// koreanCounters are the counters such a numeral goes with.
var koreanCounters = []string{"줄", "개", "번", "가지", "칸", "군데", "단계"}

// nativeNumeralEnds: the word ending at us[end] is a native numeral.
func nativeNumeralEnds(us []unit, end int) bool {
	start := end
	for start > 0 && !us[start-1].space {
		start--
	}
	var w strings.Builder
	for _, u := range us[start : end+1] {
		w.WriteString(u.text)
	}
	return w.Len() > 0 && slices.Contains(i18n.NativeCount, w.String()) // as the catalog counts
}

// counterStarts: the word starting at us[i] begins with a counter.
func counterStarts(us []unit, i int) bool {
	var w strings.Builder
	for j := i; j < len(us) && !us[j].space && j < i+3; j++ {
		w.WriteString(us[j].text)
	}
	for _, c := range koreanCounters {
		if strings.HasPrefix(w.String(), c) {
			return true
		}
	}
	return false
}

// endsWithParticle: a Korean syllable that ends a word as its particle (명령은, 코드를): a word
// so ended is not a label, and the number after it starts its own phrase (ko r9 M5).
func endsWithParticle(text string) bool {
	return strings.Contains("은는이가을를의에로와과도", text)
}

// bareNumberAt: us[i] starts a number standing as a value — digits then a space, the end, a
// particle or punctuation ("1로", "0,"), not a counter or a file name ("6단계", "04-validate.txt").
func bareNumberAt(us []unit, i int) bool {
	j := i
	for j < len(us) && isDigits(us[j].text) {
		j++
	}
	if j == i {
		return false
	}
	if j == len(us) || us[j].space {
		return true
	}
	next := us[j].text
	return strings.Contains(",.)」）", next) && !(next == "." && j+1 < len(us) && !us[j+1].space) || isHangul(next) && strings.Contains("로은는이가을를의에와과도", next)
}
