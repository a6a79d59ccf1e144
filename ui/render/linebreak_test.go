package render

import (
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
)

// The typesetter's rules the reviewers asked for, each on the line they found broken: a label or
// a number kept with what it counts, an identifier broken at a space or a slash rather than at
// '.' or '_' while a space break exists, a Korean particle kept with the word before it.
func TestBreaksAReaderExpects(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		never []string // a line must not end with the first and the next start with the second
	}{
		// ja 24: 「ステップ⏎3 の」, 「約⏎30 秒」
		{"ブートストラップの `node.id` は、ステップ 3 の値から作ります。", 24, []string{"ステップ", "3"}},
		{"設定を 1 つも受け取っていないのに約 30 秒で LIVE になります。", 24, []string{"約", "30"}},
		// ja 25: 「1 番⏎目」
		{"`role` は `sed -n 2p` で選ぶ 1 番目の引数です。", 25, []string{"番", "目"}},
		// ja 27, zh, ko: an identifier cut at '_' or '.' while a space break existed
		{"ヒント：`dynamic_resources.ads_config.grpc_services[0].envoy_grpc.cluster_name` を直します。", 40, []string{"ads_", "config"}},
		{"ヒント：`dynamic_resources.ads_config.grpc_services[0].envoy_grpc.cluster_name` を直します。", 40, []string{"dynamic_", "resources"}},
		// zh B2: a prefix stays with its number (TestNoEarlyBreakBeforeANumber: other Han
		// characters do not)
		{"请从第 1 步开始，运行第 6 步的命令。", 8, []string{"第", "6"}},
		{"每次启动都要等最长 5 分钟。", 8, []string{"最", "长 5"}},
		// ko r8 KO-17: 「한⏎줄」, 「종료 코드⏎1」
		{"Envoy는 `error initializing configuration '<파일>': <이유>` 한 줄을 남기고 종료 코드 1로 끝납니다.", 30, []string{"한", "줄을"}},
		{"Envoy는 `error initializing configuration '<파일>': <이유>` 한 줄을 남기고 종료 코드 1로 끝납니다.", 30, []string{"코드", "1로"}},
		// ja r8 M3: 「ステップ⏎4、5」
		{"さい（macOS では `brew install envoy`）。Envoy がなくても、ステップ 4、5 のブートストラップファイルはオフラインで検証できます。", 55, []string{"ステップ", "4"}},
		// zh r7 L10: 「每⏎一步」「每⏎次」
		{"这里说明了每一步的判定和每次运行的标记。", 6, []string{"每", "一"}},
		{"这里说明了每一步的判定和每次运行的标记。", 6, []string{"每", "次"}},
		// zh r11 L23: 「第⏎三类」「第⏎一次」
		{"前两类要回答出问题的是哪个字段，然后修好文件；第三类要回答被拒绝的推送。", 6, []string{"第", "三"}},
		{"演练的第三类就是这种第一次推送就被拒绝的情况。", 6, []string{"第", "一"}},
		// zh r7 M13: a code span parts at its pipe on a line of its own, not at a dot here
		{"投射令牌卷是 `projected.sources[]` 中含有 `serviceAccountToken` 的那个：`select(.projected.sources[] | has(\"serviceAccountToken\"))`。", 49, []string{"select(.projected.", "sources"}},
		// and between its commands rather than inside one
		{"把退出码记下来：`cds updates: 0 successful, 1 rejected; lds updates: 1 successful, 0 rejected`。", 60, []string{"lds", "updates"}},
		// zh r14 M1, ko r14 M5: a shell line parts between its commands, not inside a redirection
		{"종료 코드는 명령 바로 다음에 받으세요: `rc=0; envoy --mode validate -c … > 05-typo.txt 2>&1 || rc=$?; echo \"rc=$rc\" >> 05-typo.txt`.", 50, []string{"05-typo.txt", "2>&1"}},
		{"并在命令之后立刻取得退出码：`rc=0; envoy --mode validate -c … > 05-typo.txt 2>&1 || rc=$?; echo \"rc=$rc\" >> 05-typo.txt`。", 50, []string{"05-typo.txt", "2>&1"}},
		// ko 1: a particle after a code span starts no line
		{"값은 `02-env.txt` 에 이름=값 으로 적으세요. 그 다음에 `/fixtures/mesh-config.yaml` 을 읽어", 32, []string{"`/fixtures/mesh-config.yaml`", "을"}},
		{"값은 `02-env.txt` 에 이름=값 으로 적으세요.", 16, []string{"`02-env.txt`", "에"}},
		// ja r17 M4: a particle after a Latin word or code span starts no line
		{"そのうち `node.id` は 4 つの要素をチルダでつないだもの、node.cluster は payments.default です。", 20, []string{"node.cluster", "は"}},
		{"証明書を受け取って Envoy に渡し、istiod への xDS 接続を確立します。", 12, []string{"istiod", "への"}},
		// ko r17 L15: 「약⏎270」, 「32번⏎줄」, 「Istio⏎1.31의」
		{"보이는 이벤트의 횟수는 이미 약 270입니다.", 12, []string{"약", "270입니다."}},
		{"고장 난 필드는 드릴 파일의 32번 줄에 있습니다.", 12, []string{"32번", "줄에"}},
		{"Istio 1.31의 웹훅은 이 값을 채웁니다.", 12, []string{"Istio", "1.31의"}},
	} {
		// At every width from the one given to a line longer than the text: the pair may fall
		// at any line's end.
		for width := c.width; width < xansi.StringWidth(c.text)+2; width++ {
			lines := WrapLines(c.text, width, 0)
			for i := 0; i+1 < len(lines); i++ {
				if strings.HasSuffix(strings.TrimSpace(lines[i]), c.never[0]) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), c.never[1]) {
					t.Errorf("%q at %d: broken between %q and %q:\n%s", c.text, width, c.never[0], c.never[1], strings.Join(lines, "\n"))
				}
			}
		}
	}
}

// ko r16 M7: a field path wider than the line, cut only at its dots, starts a line of its own —
// the reader finds the name from its first part — rather than a piece of it ending the line of
// prose before. In each language, with and without a particle written on to it.
func TestALongFieldPathStartsItsOwnLine(t *testing.T) {
	path := "static_resources.clusters[0].load_assignment.endpoints[0].lb_endpoints[0].endpoint.address"
	for _, text := range []string{
		"힌트: 값은 `" + path + "`에 있습니다.",
		"힌트: 다음 필드를 보세요. `" + path + "` 값이 다릅니다.",
		"提示：请查看 `" + path + "` 的值。",
		"ヒント：`" + path + "` の値を見てください。",
	} {
		for _, width := range []int{40, 60, 80} {
			lines := WrapLines(text, width, 0)
			for _, l := range lines {
				if i := strings.Index(l, "static_"); i > 0 {
					t.Errorf("at %d, the path starts mid-line:\n%s", width, strings.Join(lines, "\n"))
				}
			}
		}
	}
}

// zh T5: on a page, a quoted jq program longer than the line is cut before its pipe, not inside
// its braces.
func TestALongCodeSpanIsCutBeforeItsPipe(t *testing.T) {
	md := "用 `jq '.configs[0].bootstrap.node | {id, cluster, metadata}'` 从 `config_dump` 中只挑出这三个字段。"
	for _, width := range []int{40, 50, 60} {
		out, err := RenderMarkdown(md, width, Plain)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, "{id,\n") || strings.Contains(out, "{id, cluster,\n") {
			t.Errorf("at %d, cut inside the braces:\n%s", width, out)
		}
	}
}

// zh r20 M2: pilot-agent's counters in prose part after "; ", never inside one type's pair.
func TestCountersInProsePartAfterTheSemicolon(t *testing.T) {
	md := "被拒绝的是 CDS 推送。pilot-agent 读到的更新次数是 `cds updates: 0 successful, 1 rejected; lds updates: 1 successful, 0 rejected`，所以 `NOT ready` 那一行写的原因是这个。"
	for _, width := range []int{56, 60, 72, 76, 80} {
		out, err := RenderMarkdown(md, width, Plain)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "cds updates: 0 successful, 1 rejected;") || !strings.Contains(out, "lds updates: 1 successful, 0 rejected") {
			t.Errorf("at %d, a counter pair cut:\n%s", width, out)
		}
	}
}

// zh B2: a line ends where the next character would not fit, not early to keep the Han
// characters before a number with it (「并以退⏎出码 1 结束」 ended five cells short).
func TestNoEarlyBreakBeforeANumber(t *testing.T) {
	for _, text := range []string{
		"如果这个名称不在静态集群列表中，Envoy 就无从获取配置，并以退出码 1 结束。",
		"探测每秒一次，连续失败 600 次之后 kubelet 才重启容器。",
	} {
		for width := 12; width < xansi.StringWidth(text); width++ {
			lines := WrapLines(text, width, 0)
			for i := 0; i+2 < len(lines); i++ { // the line before the last may end early: balanced
				next := []rune(strings.TrimSpace(lines[i+1]))
				if len(next) == 0 || !isCJK(string(next[0])) || strings.ContainsRune(noStart, next[1]) {
					continue
				}
				w := xansi.StringWidth(lines[i]) + 2
				if strings.Contains(text, string(lastRune(lines[i]))+" "+string(next[0])) {
					w++ // the break took the space between them
				}
				if w <= width {
					t.Errorf("%q at %d: line %d ends early (%q fits):\n%s", text, width, i+1, string(next[0]), strings.Join(lines, "\n"))
				}
			}
		}
	}
}

// zh M7: a unit of two characters stays with its number, and numbers listed with 、 stay
// together: never 「5 分⏎钟」 or 「第 4、⏎5 步」.
func TestTwoCharacterUnitsAndNumberLists(t *testing.T) {
	for _, c := range []struct {
		text  string
		never [2]string
	}{
		{"退避从 10 秒开始，每次翻倍，最长 5 分钟，所以事件中有 BackOff。", [2]string{"分", "钟"}},
		{"连续失败 600 次（约 10 分钟）之后容器被重启。", [2]string{"分", "钟"}},
		{"没有它，第 4、5 步的 bootstrap 文件也可以离线校验。", [2]string{"、", "5"}},
	} {
		for width := 16; width < xansi.StringWidth(c.text)+2; width++ {
			lines := WrapLines(c.text, width, 0)
			for i := 0; i+1 < len(lines); i++ {
				if strings.HasSuffix(strings.TrimSpace(lines[i]), c.never[0]) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), c.never[1]) {
					t.Errorf("%q at %d:\n%s", c.text, width, strings.Join(lines, "\n"))
				}
			}
		}
	}
}

// A Korean word longer than the line is broken before its bracket, never between its letters
// when the bracket gives a place (ko r7 M10: 「…입니다(드⏎릴」).
func TestLongKoreanWordBreaksAtItsBracket(t *testing.T) {
	s := "고장 난 필드는 `dynamic_resources.ads_config.grpc_services[0].envoy_grpc.cluster_name`입니다(드릴 파일의 20번째 줄)."
	for w := 72; w <= 80; w++ {
		lines := WrapLines(s, w, 0)
		for i := 0; i+1 < len(lines); i++ {
			last, first := []rune(lines[i]), []rune(lines[i+1])
			if a, b := string(last[len(last)-1]), string(first[0]); isHangul(a) && isHangul(b) && strings.Contains(s, a+b) {
				t.Errorf("width %d: a word broken between letters: %q / %q", w, lines[i], lines[i+1])
			}
		}
	}
}

// ja r20 M2, ko r20: a short quoted status is never broken inside its brackets.
func TestAShortQuotedWordStaysWhole(t *testing.T) {
	for _, text := range []string{
		"01-args.txt は inject.yaml を基準に判定しますが、inject.yaml はいま「未作成」です。まず inject.yaml を直してください。",
		"01-args.txt는 inject.yaml을 기준으로 판정하는데, inject.yaml은 지금 '아직 없음' 상태입니다. 먼저 inject.yaml을 고치세요.",
		"01-args.txt 以 inject.yaml 为准来判定，但 inject.yaml 现在是“未创建”。请先修好 inject.yaml。",
	} {
		for width := 20; width <= 80; width++ {
			for _, line := range WrapLines(text, width, 0) {
				for _, cut := range []string{"「未", "「未作", "未作成」", "作成」", "'아직", "없음'", "“未", "未创"} {
					if strings.HasSuffix(line, cut) && !strings.HasSuffix(line, "「未作成」") && !strings.HasSuffix(line, "'아직 없음'") {
						t.Errorf("width %d: %q ends inside a quoted word", width, line)
					}
				}
			}
		}
	}
}

// ko r20 M1: a program's message quoted as code parts at its spaces, so the line before it is not
// left short; a command stays whole.
func TestAQuotedMessagePartsAtItsSpaces(t *testing.T) {
	md := "kubelet은 Normal 이벤트 Killing을 남깁니다. 메시지는 `Container istio-proxy failed startup probe, will be restarted`입니다. 확인은 `kubectl get events --field-selector involvedObject.name=x`로 합니다."
	for _, width := range []int{60, 76} {
		lines := WrapLines(md, width, 0)
		for _, l := range lines {
			if strings.HasSuffix(l, "메시지는") && xansi.StringWidth(l) < width*3/4 {
				t.Errorf("at %d, the line before the message is left short: %q", width, lines)
			}
		}
		joined := strings.Join(lines, "\n")
		if !strings.Contains(joined, "kubectl get events --field-selector involvedObject.name=x") {
			t.Errorf("at %d, a command span parted: %q", width, lines)
		}
	}
}

// zh, ko r22 M1: a command is never a message, whatever program it starts with.
func TestACommandIsNotAMessage(t *testing.T) {
	for _, text := range []string{"brew install envoy", "pkill -x envoy", "setsid envoy -c bootstrap.yaml &", "1 (5m54s ago)", "source <(ist2-boot completion bash)", "diff <(cat a) b"} {
		_, us := spanUnits("`" + text + "`")
		if isMessage(us) {
			t.Errorf("%q read as a message", text)
		}
	}
	for _, text := range []string{"Container istio-proxy failed startup probe, will be restarted", "Unknown gRPC client cluster 'istiod-xds'", "error initializing configuration '<ファイル>': <理由>"} {
		_, us := spanUnits("`" + text + "`")
		if !isMessage(us) {
			t.Errorf("%q not read as a message", text)
		}
	}
}
