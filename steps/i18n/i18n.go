package i18n

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// Lang is a language the tutorial speaks.
type Lang string

// The languages, in the order the tutorial cycles them. A language is this constant, its entry in
// Langs, its folder of pages in content/ and its lines in the YAML files there.
const (
	Korean   Lang = "ko"
	Chinese  Lang = "zh"
	Japanese Lang = "ja"
)

// Langs are the supported languages in cycling order.
var Langs = []Lang{Korean, Chinese, Japanese}

// ParseLang accepts a language's code, alone or as a language tag or locale names it (zh-CN,
// zh_CN, zh-Hans, ko-KR, ja_JP): the tag a Chinese reader types is zh-CN (kubernetes.io/zh-cn).
// Chinese written in traditional characters (zh-TW, zh-HK, zh-Hant) is not the lesson's.
func ParseLang(s string) (Lang, error) {
	tag := strings.ToLower(strings.ReplaceAll(s, "_", "-"))
	base, region, _ := strings.Cut(tag, "-")
	for _, l := range Langs {
		if string(l) != base {
			continue
		}
		if l == Chinese && (strings.HasPrefix(region, "hant") || region == "tw" || region == "hk" || region == "mo") {
			break
		}
		return l, nil
	}
	return "", fmt.Errorf("unknown language %q (use %s)", s, LangList(", "))
}

// LangList is the languages' codes joined by sep ("ko|zh|ja" for a usage line).
func LangList(sep string) string {
	codes := make([]string, len(Langs))
	for i, l := range Langs {
		codes[i] = string(l)
	}
	return strings.Join(codes, sep)
}

// LangFromLocale reads LC_ALL, then LANG (ko_KR.UTF-8 → ko); ok is false when neither names one.
func LangFromLocale(getenv func(string) string) (Lang, bool) {
	for _, v := range []string{"LC_ALL", "LANG"} {
		loc := strings.ToLower(getenv(v))
		for _, l := range Langs {
			if strings.HasPrefix(loc, string(l)) {
				return l, true
			}
		}
	}
	return "", false
}

// Default is the language when nothing names one.
const Default = Korean

// Choose is the one rule for the learner's language, for every front end (code review W7): the
// --lang flag, then the saved choice, then the locale (LangFromLocale), then Default; "" is not
// given. The flag comes parsed: the caller refuses one it cannot parse.
func Choose(flag, saved, locale Lang) Lang {
	for _, l := range []Lang{flag, saved, locale} {
		if l != "" {
			return l
		}
	}
	return Default
}

// Locale is the locale's language, "" when LC_ALL and LANG name none.
func Locale(getenv func(string) string) Lang {
	l, _ := LangFromLocale(getenv)
	return l
}

// Text is one string in each language.
type Text map[Lang]string

// Msg is a message not yet put into words: a key of strings.yaml and its named arguments. Results
// carry Msgs so the tutorial can show them again in another language.
type Msg struct {
	Key  string
	Args map[string]string
}

// refMark starts an argument that is itself a message key, put into words in the same language.
const refMark = "\x1fref:"

// Ref makes a message argument that stands for the catalog string key; that string's own {name}s
// are filled from the same message's other arguments, references among them.
func Ref(key string) string { return refMark + key }

// M builds a Msg from a key and name, value pairs.
func M(key string, kv ...string) Msg {
	m := Msg{Key: key}
	if len(kv) > 0 {
		m.Args = make(map[string]string, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			m.Args[kv[i]] = kv[i+1]
		}
	}
	return m
}

// In puts the message into words in lang; {name} is replaced by its argument.
func (m Msg) In(lang Lang) string {
	if m.Key == "" {
		return ""
	}
	return T(lang, m.Key, m.Args)
}

// without is args less name: what a referenced message may use in turn, so references nest
// (a reason's error naming a kind) and never loop.
func without(args map[string]string, name string) map[string]string {
	out := make(map[string]string, len(args))
	for k, v := range args {
		if k != name {
			out[k] = v
		}
	}
	return out
}

// With is m with one more argument (a copy: m's own map is left as it is).
func (m Msg) With(name, value string) Msg {
	args := make(map[string]string, len(m.Args)+1)
	for k, v := range m.Args {
		args[k] = v
	}
	args[name] = value
	return Msg{Key: m.Key, Args: args}
}

// Sayer is M(key, kv...).In(lang) as one function, for a page that says many things in one
// language.
func Sayer(lang Lang) func(key string, kv ...string) string {
	return func(key string, kv ...string) string { return M(key, kv...).In(lang) }
}

// T looks a string up in lang and fills in its {name} arguments. An unknown key shows as itself,
// so a gap is visible rather than silent; tests keep every used key in the catalog.
func T(lang Lang, key string, args map[string]string) string {
	text, err := entry(key)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return key
	}
	s, ok := text[lang]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return strings.TrimRight(s, "\n")
	}
	values := make(map[string]string, len(args)) // each argument as shown, a reference worded once
	pairs := make([]string, 0, 2*len(args))
	for k, v := range args {
		if key, ok := strings.CutPrefix(v, refMark); ok {
			v = T(lang, key, without(args, k)) // the others, references too: each is used once per path
		}
		values[k] = v
		pairs = append(pairs, "{"+k+"}", v)
	}
	if lang == Korean {
		s = chooseParticles(countWith(s, values), values)
	} else {
		s = closeUpWide(s, values)
	}
	return strings.TrimRight(strings.NewReplacer(pairs...).Replace(s), "\n")
}

// Duration is a span of seconds as the language writes it ("7분 10초", "7 分 10 秒", "7分10秒"),
// to the second under an hour and to the minute past it — not Go's "7m10s".
func Duration(lang Lang, seconds int) string {
	key, args := durationWords(seconds)
	return T(lang, key, args)
}

// Elapsed is how long something took, as Duration says it; under a second it says so
// ("1초 미만") rather than "0초" or Go's "0.0s".
func Elapsed(lang Lang, d time.Duration) string {
	key, args := elapsedWords(d)
	return T(lang, key, args)
}

// ElapsedArgs are message arguments that put d into words under name in whatever language the
// message is later shown in (a line kept on screen follows a switch of language).
func ElapsedArgs(name string, d time.Duration) []string {
	key, args := elapsedWords(d)
	kv := []string{name, Ref(key)}
	for k, v := range args {
		kv = append(kv, k, v)
	}
	return kv
}

func elapsedWords(d time.Duration) (string, map[string]string) {
	if d < time.Second {
		return "duration.under_second", nil
	}
	return durationWords(int(d.Round(time.Second).Seconds()))
}

func durationWords(seconds int) (string, map[string]string) {
	h, m, s := seconds/3600, seconds%3600/60, seconds%60
	arg := func(n int) string { return fmt.Sprint(n) }
	switch {
	case h > 0:
		return "duration.hm", map[string]string{"h": arg(h), "m": arg(m)}
	case m > 0:
		return "duration.ms", map[string]string{"m": arg(m), "s": arg(s)}
	}
	return "duration.s", map[string]string{"s": arg(s)}
}

// ListOf joins items as the language lists them: 「、」 in Chinese and Japanese, ", " in Korean.
func ListOf(lang Lang, items []string) string { return strings.Join(items, T(lang, "list.sep", nil)) }
