package i18n

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// A Korean particle after an argument depends on how the argument ends: 이/을/은/과/으로 after a
// final consonant, 가/를/는/와/로 after a vowel (and 로 after ㄹ too). Korean strings write the pair
// ("{file} 을(를)") and the one that fits the argument is chosen as the string is filled in.

// particleAfterArg is an argument followed by a particle pair. Particles are written on to the
// word before them, code and Latin words included (한글 맞춤법 제41항, as kubernetes.io/ko writes
// 「kubelet은」): a space a string still has there is dropped.
// A closing quote, bracket or backtick may stand between them: 「'{cluster}'은(는)」 is the
// cluster's.
var particleAfterArg = regexp.MustCompile(`\{([a-z_]+)\}(['’”」』)）` + "`" + `]?) ?(을\(를\)|이\(가\)|은\(는\)|과\(와\)|\(으\)로)`)

// chooseParticles replaces each pair after an argument by the particle its value takes.
func chooseParticles(s string, args map[string]string) string {
	return particleAfterArg.ReplaceAllStringFunc(s, func(m string) string {
		sub := particleAfterArg.FindStringSubmatch(m)
		value, ok := args[sub[1]]
		if !ok {
			return m
		}
		return "{" + sub[1] + "}" + sub[2] + Particle(value, sub[3])
	})
}

// Particle is the particle of pair ("을(를)", "이(가)", "은(는)", "과(와)", "(으)로") that follows
// word: read as a Korean reader reads it — a Hangul syllable by its final consonant, a number as
// spoken (삼, 육, 칠…), an abbreviation by its letters' names (DNS 디엔에스, URL 유알엘), a Latin
// word as its loanword sounds (role 롤, podman 포드맨, docker 도커).
func Particle(word, pair string) string {
	final, rieul := finalSound(word)
	switch pair {
	case "을(를)":
		return pick(final, "을", "를")
	case "이(가)":
		return pick(final, "이", "가")
	case "은(는)":
		return pick(final, "은", "는")
	case "과(와)":
		return pick(final, "과", "와")
	case "(으)로":
		return pick(final && !rieul, "으로", "로")
	}
	return pair
}

func pick(final bool, withFinal, withoutFinal string) string {
	if final {
		return withFinal
	}
	return withoutFinal
}

// finalSound tells whether word, read aloud in Korean, ends in a consonant, and whether that is ㄹ.
func finalSound(word string) (final, rieul bool) {
	w := strings.TrimSpace(word)
	closes := strings.HasSuffix(w, ")") || strings.HasSuffix(w, "）")
	if i := strings.LastIndexAny(w, "(（"); closes && i > 0 {
		w = w[:i] // a particle after a parenthesis follows the word before it: 설정(--x)을
	}
	w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if w == "" {
		return false, false
	}
	runes := []rune(w)
	last := runes[len(runes)-1]
	switch {
	case last >= 0xAC00 && last <= 0xD7A3: // a Hangul syllable: its final consonant
		jong := (last - 0xAC00) % 28
		return jong != 0, jong == 8
	case unicode.IsDigit(last): // 영 일 이 삼 사 오 육 칠 팔 구
		return strings.ContainsRune("013678", last), strings.ContainsRune("178", last)
	case last > unicode.MaxASCII:
		return false, false
	}
	tail := tailWord(runes)
	if isAbbreviation(tail) { // letter names: 엘 알 ㄹ; 엠 엔 a final; the rest (에스, 디…) none
		switch unicode.ToUpper(last) {
		case 'L', 'R':
			return true, true
		case 'M', 'N':
			return true, false
		}
		return false, false
	}
	lower := strings.ToLower(string(tail))
	// A stop after a vowel is written as a final consonant in the loanword: setup 셋업, secret
	// 시크릿, timeout 타임아웃, hook 훅 (ko review H7); not after a consonant (check 체크, script
	// 스크립트, network 네트워크), not before a silent e (make 메이크), not in -oot (root 루트).
	// So is a c after a vowel (static 스태틱, classic 클래식, logic 로직: ko review KH-1), and type,
	// read 타입 though its e is silent (api_type, prototype).
	// A b after a vowel too: lab 랩, web 웹, tab 탭, job 잡 (ko r17 M1) — but hub 허브, sub 서브.
	if n := len(lower); n >= 2 && strings.ContainsRune("tpkcb", rune(lower[n-1])) &&
		strings.ContainsRune("aeiou", rune(lower[n-2])) && !strings.HasSuffix(lower, "oot") &&
		lower != "hub" && lower != "sub" ||
		strings.HasSuffix(lower, "type") {
		return true, false
	}
	lower = strings.TrimSuffix(lower, "e") // a silent e: role 롤, file 파일
	switch {
	case strings.HasSuffix(lower, "l"):
		return true, true
	case strings.HasSuffix(lower, "m"), strings.HasSuffix(lower, "n"), strings.HasSuffix(lower, "ng"):
		return true, false
	}
	return false, false // pod 파드, node 노드, cluster 클러스터, txt 티엑스티: a vowel
}

// tailWord is the last run of Latin letters of runes (the word a path or a name ends with).
func tailWord(runes []rune) []rune {
	i := len(runes)
	for i > 0 && runes[i-1] <= unicode.MaxASCII && unicode.IsLetter(runes[i-1]) {
		i--
	}
	return runes[i:]
}

// isAbbreviation: a run of capitals (DNS, URL, CA) is read letter by letter.
func isAbbreviation(word []rune) bool {
	if len(word) == 0 || len(word) > 5 {
		return false
	}
	if len(word) <= 4 && !strings.ContainsAny(strings.ToLower(string(word)), "aeiouy") {
		return true // no vowel to say it by: read letter by letter (fr 에프알, kr 케이알: ko r11 L27)
	}
	for _, r := range word {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// countedArg is an argument counted with a native Korean counter: 「{want#줄}」. The style sheet
// counts small things in Hangul (「네 줄」, 「파일 세 개」) and measures in digits (「25개」), so a
// page that says 「네 줄」 is not contradicted by a reason that says 「4줄」.
var countedArg = regexp.MustCompile(`\{([a-z_]+)#(\p{Hangul}+)\}`)

// NativeCount is how Korean counts 1–10 before a counter (한 줄, 두 개 … 열 줄), by the number;
// the line breaker keeps each with its counter too.
var NativeCount = []string{"", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열"}

// countWith fills each {name#counter}: 1–10 in Hangul before the counter, other numbers in digits
// on to it.
func countWith(s string, args map[string]string) string {
	return countedArg.ReplaceAllStringFunc(s, func(m string) string {
		sub := countedArg.FindStringSubmatch(m)
		v, ok := args[sub[1]]
		if !ok {
			return m
		}
		for n := 1; n < len(NativeCount); n++ {
			if v == strconv.Itoa(n) {
				return NativeCount[n] + " " + sub[2]
			}
		}
		return v + sub[2]
	})
}
