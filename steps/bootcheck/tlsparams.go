package bootcheck

import (
	"slices"
	"strings"
)

// A TLS context's tls_params are handed to BoringSSL as strings (ContextImpl's constructor,
// source/common/tls/context_impl.cc:117-165): the cipher suites joined by ':' to
// SSL_CTX_set_strict_cipher_list, the curves to SSL_CTX_set1_curves_list, the signature
// algorithms to SSL_CTX_set1_sigalgs_list. What each takes is ported here from the BoringSSL Envoy
// pins, its tables generated into tlsnames_gen.go (scripts/gen-boringssl-tables.go).

type bsslCipher struct {
	name, standardName   string
	mkey, auth, enc, mac uint32
	minVersion           uint16
	tls13, deprecated    bool // tls13: not in the TLS 1.2 list a rule string chooses from
}

type bsslCipherAlias struct {
	name                 string
	mkey, auth, enc, mac uint32
	minVersion           uint16
	includeDeprecated    bool
}

type bsslGroup struct {
	id          uint16
	name, alias string
}

// cRule is a string as BoringSSL reads it: a C string, ending at the first NUL.
func cRule(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// The rules of a cipher rule string (ssl/ssl_cipher.cc).
const (
	cipherAdd = iota
	cipherKill
	cipherDel
	cipherOrd
	cipherSpecial
)

// cipherList is ssl_create_cipher_list's list of TLS 1.2 suites, as far as which end up in it:
// the order the rules give them does not decide whether the list is empty, which is all a
// configuration can get wrong besides the words.
type cipherList struct{ active, killed []bool }

// strictCipherListOK is SSL_CTX_set_strict_cipher_list's verdict on rule (ssl_create_cipher_list
// with strict set: every word a suite or alias, and at least one suite chosen).
func strictCipherListOK(rule string) bool {
	l := cipherList{make([]bool, len(bsslCiphers)), make([]bool, len(bsslCiphers))}
	rule = cRule(rule)
	if strings.HasPrefix(rule, "DEFAULT") {
		if !l.process(bsslDefaultCipherList) {
			return false
		}
		rule = strings.TrimPrefix(rule[len("DEFAULT"):], ":")
	}
	if rule != "" && !l.process(rule) {
		return false
	}
	return slices.Contains(l.active, true) // else SSL_R_NO_CIPHER_MATCH
}

// process is ssl_cipher_process_rulestr in strict mode.
func (l cipherList) process(s string) bool {
	inGroup, hasGroup := false, false
	for i := 0; i < len(s); {
		ch := s[i]
		rule := cipherAdd
		switch {
		case inGroup && ch == ']':
			inGroup = false
			i++
			continue
		case inGroup && ch == '|':
			i++
			continue
		case inGroup && !isAlnum(ch):
			return false // SSL_R_UNEXPECTED_OPERATOR_IN_GROUP
		case inGroup:
		case ch == '-':
			rule, i = cipherDel, i+1
		case ch == '+':
			rule, i = cipherOrd, i+1
		case ch == '!':
			rule, i = cipherKill, i+1
		case ch == '@':
			rule, i = cipherSpecial, i+1
		case ch == '[':
			inGroup, hasGroup = true, true
			i++
			continue
		}
		if hasGroup && rule != cipherAdd {
			return false // SSL_R_MIXED_SPECIAL_OPERATOR_WITH_GROUPS
		}
		if ch == ':' { // strict: the only separator
			i++
			continue
		}
		multi, cipher, skip := false, -1, false
		alias := bsslCipherAlias{mkey: ^uint32(0), auth: ^uint32(0), enc: ^uint32(0), mac: ^uint32(0), includeDeprecated: rule != cipherAdd}
		var word string
		for {
			start := i
			for i < len(s) && (isAlnum(s[i]) || s[i] == '-' || s[i] == '.' || s[i] == '_') {
				i++
			}
			word = s[start:i]
			if word == "" {
				return false // SSL_R_INVALID_COMMAND
			}
			if rule == cipherSpecial {
				break
			}
			plus := i < len(s) && s[i] == '+'
			if !multi && !plus {
				cipher = slices.IndexFunc(bsslCiphers, func(c bsslCipher) bool { return c.name == word || c.standardName == word })
			}
			if cipher < 0 {
				j := slices.IndexFunc(bsslCipherAliases, func(a bsslCipherAlias) bool { return a.name == word })
				if j < 0 {
					return false // strict: SSL_R_INVALID_COMMAND
				}
				a := bsslCipherAliases[j]
				alias.mkey &= a.mkey
				alias.auth &= a.auth
				alias.enc &= a.enc
				alias.mac &= a.mac
				alias.includeDeprecated = alias.includeDeprecated || a.includeDeprecated
				if alias.minVersion != 0 && alias.minVersion != a.minVersion {
					skip = true
				} else {
					alias.minVersion = a.minVersion
				}
			}
			if !plus {
				break
			}
			i++
			multi = true
		}
		if rule == cipherSpecial {
			if word != "STRENGTH" {
				return false
			}
			for i < len(s) && s[i] != ':' { // the rest of the command is thrown away
				i++
			}
		} else if !skip {
			l.apply(cipher, alias, rule)
		}
	}
	return !inGroup
}

// apply is ssl_cipher_apply_rule, as far as which suites it leaves chosen.
func (l cipherList) apply(cipher int, alias bsslCipherAlias, rule int) {
	if cipher < 0 && alias.minVersion == 0 && (alias.mkey == 0 || alias.auth == 0 || alias.enc == 0 || alias.mac == 0) {
		return
	}
	for i, c := range bsslCiphers {
		if c.tls13 || l.killed[i] {
			continue
		}
		if cipher >= 0 {
			if i != cipher {
				continue
			}
		} else if alias.mkey&c.mkey == 0 || alias.auth&c.auth == 0 || alias.enc&c.enc == 0 || alias.mac&c.mac == 0 ||
			(alias.minVersion != 0 && c.minVersion != alias.minVersion) || (!alias.includeDeprecated && c.deprecated) {
			continue
		}
		switch rule {
		case cipherAdd:
			l.active[i] = true
		case cipherDel:
			l.active[i] = false
		case cipherKill:
			l.active[i], l.killed[i] = false, true
		}
	}
}

// rejectedCiphers is what Envoy names after a cipher list fails: each word of it tried alone
// (context_impl.cc:127-143: split on any of ":+![|]", a leading '-' dropped).
func rejectedCiphers(list string) []string {
	var bad []string
	for _, word := range strings.FieldsFunc(list, func(r rune) bool { return strings.ContainsRune(":+![|]", r) }) {
		word = strings.TrimPrefix(word, "-")
		if !strictCipherListOK(word) {
			bad = append(bad, word)
		}
	}
	return bad
}

// curvesListOK is SSL_CTX_set1_curves_list (ssl_lib.cc ssl_str_to_group_ids): ':'-separated
// names or aliases of kNamedGroups, none twice.
func curvesListOK(list string) bool {
	var ids []uint16
	for _, name := range strings.Split(cRule(list), ":") {
		j := slices.IndexFunc(bsslGroups, func(g bsslGroup) bool { return g.name == name || (g.alias != "" && g.alias == name) })
		if j < 0 || slices.Contains(ids, bsslGroups[j].id) {
			return false
		}
		ids = append(ids, bsslGroups[j].id)
	}
	return true
}

// sigalgsListOK is SSL_CTX_set1_sigalgs_list: parse_sigalgs_list (names, or PKEY+HASH pairs, each
// under 24 bytes), then set_sigalg_prefs (none twice, each known, not only rsa_pkcs1_md5_sha1).
func sigalgsListOK(list string) bool {
	var ids []uint16
	for _, elem := range strings.Split(cRule(list), ":") {
		// Every element the parser takes is one of the tables' keys (a name, or PKEY+HASH); an
		// empty one, a second '+', a stray character or a 24-byte word is in neither.
		id, ok := bsslSigalgNames[elem]
		if strings.Contains(elem, "+") {
			id, ok = bsslSigalgPairs[elem]
		}
		if !ok {
			return false
		}
		ids = append(ids, id)
	}
	kept := 0
	for i, id := range ids {
		if slices.Contains(ids[i+1:], id) {
			return false // SSL_R_DUPLICATE_SIGNATURE_ALGORITHM
		}
		if id == bsslSignRSAPKCS1MD5SHA1 {
			continue
		}
		if !bsslSigalgs[id] {
			return false
		}
		kept++
	}
	return kept > 0
}
