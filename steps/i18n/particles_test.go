package i18n

import (
	"regexp"
	"strings"
	"testing"

	"ist2-boot/content"
)

// Each pair takes the particle a Korean reader expects after the word as it is read aloud.
func TestParticleFollowsTheWordsSound(t *testing.T) {
	for _, c := range []struct{ word, pair, want string }{
		{"role", "이(가)", "이"},                  // 롤
		{"fr", "은(는)", "은"},                    // 에프알: no vowel, read by its letters (ko r11 L27)
		{"kr", "은(는)", "은"},                    // 케이알
		{"jp", "은(는)", "는"},                    // 제이피
		{"initial_fetch_timeout", "이(가)", "이"}, // 타임아웃 (ko review H7)
		{"secret", "을(를)", "을"},                // 시크릿
		{"setup", "이(가)", "이"},                 // 셋업
		{"type", "은(는)", "은"},                  // 타입 (ko review KH-1)
		{"static_resources.clusters[0].type", "이(가)", "이"},
		{"api_type", "을(를)", "을"},
		{"STATIC", "이(가)", "이"},                  // 스태틱
		{"classic", "은(는)", "은"},                 // 클래식
		{"logic", "이(가)", "이"},                   // 로직
		{"bootstrap", "은(는)", "은"},               // 부트스트랩
		{"lookup", "(으)로", "으로"},                 // 룩업
		{"hook", "이(가)", "이"},                    // 훅
		{"check", "이(가)", "가"},                   // 체크
		{"network", "을(를)", "를"},                 // 네트워크
		{"root", "이(가)", "가"},                    // 루트
		{"make", "을(를)", "를"},                    // 메이크
		{"report", "이(가)", "가"},                  // 리포트
		{"ca_addr_same", "이(가)", "이"},            // 세임
		{"domain", "이(가)", "이"},                  // 도메인
		{"cluster", "이(가)", "가"},                 // 클러스터
		{"podman", "(으)로", "으로"},                 // 포드맨
		{"docker", "(으)로", "로"},                  // 도커
		{"/tmp/x/lab", "은(는)", "은"},              // 랩 (ko r17 M1)
		{"web", "을(를)", "을"},                     // 웹
		{"tab", "이(가)", "이"},                     // 탭
		{"job", "은(는)", "은"},                     // 잡
		{"hub", "은(는)", "는"},                     // 허브
		{"01-args.txt", "을(를)", "를"},             // 티엑스티
		{"inject.yaml", "을(를)", "을"},             // 야믈
		{"06-node.json", "은(는)", "은"},            // 제이슨
		{"3", "(으)로", "으로"},                      // 삼
		{"6", "(으)로", "으로"},                      // 육
		{"1", "(으)로", "로"},                       // 일
		{"2", "이(가)", "가"},                       // 이
		{"DNS", "이(가)", "가"},                     // 디엔에스
		{"URL", "을(를)", "을"},                     // 유알엘
		{"파일", "(으)로", "로"},                      // ㄹ
		{"설정", "과(와)", "과"},                      // ㅇ
		{"키", "은(는)", "는"},                       // 모음
		{"/root/ist2-boot/", "에", "에"},           // not a pair: as it is
		{"메시 설정(--meshConfigFile)", "을(를)", "을"}, // the word before the parenthesis
		{"주입 템플릿(inject)", "을(를)", "을"},
	} {
		if got := Particle(c.word, c.pair); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.word, c.pair, got, c.want)
		}
	}
}

// A message fills the particle in for its argument; a Korean string never fixes a particle that
// depends on the sound right after an argument (it writes the pair).
func TestKoreanStringsChooseTheirParticles(t *testing.T) {
	if got := M("reason.depends", "file", "role", "dep", "x", "status", "y").In(Korean); strings.Contains(got, "(") && strings.Contains(got, "를)") {
		t.Errorf("a pair left unchosen: %q", got)
	}
	if got := M("reason.field_wrong", "file", "06-node.json", "field", Ref("field.top_keys"), "want", "a", "got", "b").In(Korean); !strings.Contains(got, "최상위 키가") {
		t.Errorf("a particle after a Korean word is written on: %q", got)
	}
	c, err := loadCatalog(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	fixed := regexp.MustCompile(`\{[a-z_]+\} ?(가|이|를|을|는|은|로|으로|와|과)([\s.,:)!?]|$)`)
	pair := regexp.MustCompile(`을\(를\)|이\(가\)|은\(는\)|과\(와\)|\(으\)로`)
	for key, text := range c {
		if m := fixed.FindString(text[Korean]); m != "" {
			t.Errorf("%s: %q fixes a particle after an argument: write the pair (을(를), 이(가), 은(는), 과(와), (으)로)", key, m)
		}
		// Every pair is chosen: it follows an argument (ko review KM-12: 「'{error}'은(는)」 was
		// printed as it is written).
		if n, chosen := len(pair.FindAllString(text[Korean], -1)), len(particleAfterArg.FindAllString(text[Korean], -1)); n != chosen {
			t.Errorf("%s: %d particle pairs, %d after an argument: the others are printed raw", key, n, chosen)
		}
	}
}

// Small counts are said in Hangul before a native counter, others in digits (style sheet, 숫자).
func TestNativeCounts(t *testing.T) {
	for v, want := range map[string]string{"4": "네 줄입니다", "10": "열 줄입니다", "0": "0줄입니다", "12": "12줄입니다"} {
		if got := countWith("{got#줄}입니다", map[string]string{"got": v}); got != want {
			t.Errorf("%s: %q, want %q", v, got, want)
		}
	}
}
