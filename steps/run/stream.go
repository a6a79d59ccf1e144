package run

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"ist2-boot/steps/i18n"
)

// streamLines hands each line r yields to emit as Output, as soon as it is read; of a line
// longer than maxLine only its head is kept, and the cut is said.
func streamLines(r io.Reader, emit func(Line)) {
	br := bufio.NewReaderSize(r, maxLine)
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than maxLine: its head is kept (cut at a character), the rest read and
			// dropped, and the cut said — memory stays bounded whatever a command prints.
			head := strings.ToValidUTF8(string(chunk[:utf8Start(chunk)]), "")
			cut := 0
			for errors.Is(err, bufio.ErrBufferFull) {
				cut += len(chunk)
				chunk, err = br.ReadSlice('\n')
			}
			cut += len(chunk) - len(head)
			if bytes.HasSuffix(chunk, []byte("\n")) {
				cut--
			}
			emit(Line{Kind: Output, Text: head + "…"})
			emit(Line{Kind: Note, Msg: i18n.M("run.line_cut", "bytes", strconv.Itoa(cut))})
		} else if len(chunk) > 0 {
			emit(Line{Kind: Output, Text: strings.TrimRight(string(chunk), "\r\n")})
		}
		if err != nil {
			return
		}
	}
}

// maxLine is the longest output line kept whole (Envoy's refusals end with the whole config).
const maxLine = 64 << 10

// utf8Start is how much of b ends on a character boundary.
func utf8Start(b []byte) int {
	n := len(b)
	for i := 0; i < utf8.UTFMax && n > 0; i++ {
		if utf8.Valid(b[:n]) {
			return n
		}
		n--
	}
	return n
}
