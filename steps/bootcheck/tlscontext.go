package bootcheck

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
)

// stockCertValidators are the certificate validators the stock build registers (the default,
// source/common/tls/cert_validator/default_validator.cc:704, and those of
// source/extensions/extensions_build_config.bzl:447-448).
var stockCertValidators = map[string]bool{
	"envoy.tls.cert_validator.default":         true,
	"envoy.tls.cert_validator.spiffe":          true,
	"envoy.tls.cert_validator.dynamic_modules": true,
}

// pemCertificateNames are the PEM blocks BoringSSL reads a certificate from (PEM_read_bio_X509_AUX,
// PEM_X509_INFO_read_bio): text with none of them is no certificate to it.
var pemCertificateNames = []string{"CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"}

func hasPEMCertificate(text string) bool {
	for _, name := range pemCertificateNames {
		if strings.Contains(text, "-----BEGIN "+name+"-----") {
			return true
		}
	}
	return false
}

// contextProblem is ContextImpl's constructor (source/common/tls/context_impl.cc:71-420), which
// runs once every secret the config names is at hand, as far as it needs no file or private key.
func (cfg tlsConfig) contextProblem(cc *tlsv3.CommonTlsContext, common string) (msg, where string) {
	if cc.GetCustomHandshaker() != nil { // a handshaker may provide ciphers, certificates, …
		return "", ""
	}
	v := cfg.validation
	validator := "envoy.tls.cert_validator.default"
	if v.GetCustomValidatorConfig() != nil {
		validator = v.GetCustomValidatorConfig().GetName()
	}
	if !stockCertValidators[validator] { // context_impl.cc:89-96
		return "Failed to get certificate validator factory for " + validator, cfg.validationPath + ".custom_validator_config.name"
	}
	switch validator {
	case "envoy.tls.cert_validator.dynamic_modules": // its module is a file
		return "", ""
	case "envoy.tls.cert_validator.spiffe":
		if msg := spiffeProblem(v); msg != "" {
			return msg, cfg.validationPath + ".custom_validator_config.typed_config"
		}
	}
	// The parameters, set on each SSL_CTX (context_impl.cc:117-165): an empty list means the
	// default (context_config_impl.cc:212-219), which BoringSSL takes.
	params, paramsPath := cc.GetTlsParams(), common+".tls_params"
	if ciphers := strings.Join(params.GetCipherSuites(), ":"); ciphers != "" && !strictCipherListOK(ciphers) {
		return fmt.Sprintf("Failed to initialize cipher suites %s. The following ciphers were rejected when tried individually: %s",
			ciphers, strings.Join(rejectedCiphers(ciphers), ", ")), paramsPath + ".cipher_suites"
	}
	if curves := strings.Join(params.GetEcdhCurves(), ":"); curves != "" && !curvesListOK(curves) {
		return "Failed to initialize ECDH curves " + curves, paramsPath + ".ecdh_curves"
	}
	if sigalgs := strings.Join(params.GetSignatureAlgorithms(), ":"); sigalgs != "" && !sigalgsListOK(sigalgs) {
		return "Failed to initialize TLS signature algorithms " + sigalgs, paramsPath + ".signature_algorithms"
	}
	if validator == "envoy.tls.cert_validator.default" { // SPIFFE's own set-up is not modelled
		if msg, where := cfg.defaultValidatorProblem(); msg != "" {
			return msg, where
		}
	}
	for _, c := range cfg.certs {
		if msg, field := certificateProblem(c.cert); msg != "" {
			if c.inline {
				return msg, c.path + field
			}
			return msg, c.path
		}
	}
	if !alpnOK(strings.Join(cc.GetAlpnProtocols(), ",")) { // context_impl.cc:333, 450-472
		return "Invalid ALPN protocol string", common + ".alpn_protocols"
	}
	return "", ""
}

// defaultValidatorProblem is DefaultCertValidator::initializeSslContexts
// (source/common/tls/cert_validator/default_validator.cc:125-257), without the CRL's parse and
// OTHER_NAME matchers' OIDs (BoringSSL's to judge).
func (cfg tlsConfig) defaultValidatorProblem() (msg, where string) {
	v := cfg.validation
	if v == nil {
		return "", ""
	}
	ca, known, _ := readDataSource(v.GetTrustedCa(), true)
	trusted := !known // a file is taken to hold certificates
	if known && ca != "" {
		if !hasPEMCertificate(ca) {
			return "Failed to load trusted CA certificates from " + dataPath(v.GetTrustedCa(), ca), cfg.validationPath + ".trusted_ca"
		}
		trusted = true
	}
	if cfg.autoSNI && !trusted {
		return "'auto_sni_san_validation' was configured without configuring a trusted CA", cfg.validationPath
	}
	for i, m := range v.GetMatchTypedSubjectAltNames() { // san_matcher.cc:78-84
		if m.GetSanType() == tlsv3.SubjectAltNameMatcher_OTHER_NAME && !oidMayParse(m.GetOid()) {
			return "Failed to create SAN matcher for OTHER_NAME with OID: " + m.GetOid(), fmt.Sprintf("%s.match_typed_subject_alt_names[%d].oid", cfg.validationPath, i)
		}
	}
	for i, hash := range v.GetVerifyCertificateHash() {
		if len(hash) == 95 { // a colon-separated fingerprint
			hash = strings.ReplaceAll(hash, ":", "")
		}
		if !hexSHA256(hash) {
			return "Invalid hex-encoded SHA-256 " + hash, fmt.Sprintf("%s.verify_certificate_hash[%d]", cfg.validationPath, i)
		}
	}
	for i, spki := range v.GetVerifyCertificateSpki() {
		// Base64::decode (source/common/common/base64.cc:89-94, decodeHelper): a length not a
		// multiple of 4, or unused bits of the last character set, decode to nothing.
		decoded, err := base64.StdEncoding.Strict().DecodeString(spki)
		if len(spki)%4 != 0 || err != nil || len(decoded) != 32 {
			return "Invalid base64-encoded SHA-256 " + spki, fmt.Sprintf("%s.verify_certificate_spki[%d]", cfg.validationPath, i)
		}
	}
	return "", ""
}

// spiffeProblem is SPIFFEValidator's constructor (source/extensions/transport_sockets/tls/
// cert_validator/spiffe/spiffe_validator.cc:141-240): a bundle map that is not JSON or names no
// trust domain (parseTrustBundles :40-58); else a trust domain given twice, or one whose bundle
// holds no PEM block at all.
func spiffeProblem(v *tlsv3.CertificateValidationContext) string {
	var cfg tlsv3.SPIFFECertValidatorConfig
	if v.GetCustomValidatorConfig().GetTypedConfig().UnmarshalTo(&cfg) != nil {
		return ""
	}
	if cfg.GetTrustBundles() != nil {
		bundles, known, _ := readDataSource(cfg.GetTrustBundles(), true)
		if !known {
			return ""
		}
		var doc any
		if json.Unmarshal([]byte(bundles), &doc) != nil {
			return "Invalid JSON found in SPIFFE bundle"
		}
		if obj, ok := doc.(map[string]any); ok {
			domains, has := obj["trust_domains"]
			if m, isObj := domains.(map[string]any); !has || (isObj && len(m) == 0) {
				return "No trust domains found in SPIFFE bundle"
			}
		}
		return ""
	}
	seen := map[[2]string]bool{}
	for _, d := range cfg.GetTrustDomains() {
		key := [2]string{d.GetName(), d.GetWorkloadTrustDomain()}
		if seen[key] {
			return fmt.Sprintf("Multiple trust bundles are given for one trust domain for %s, workload: %s", d.GetName(), d.GetWorkloadTrustDomain())
		}
		seen[key] = true
		if bundle, known, _ := readDataSource(d.GetTrustBundle(), true); known && !strings.Contains(bundle, "-----BEGIN ") {
			return "Failed to load trusted CA certificate for " + d.GetName()
		}
	}
	return ""
}

// oidMayParse: OBJ_txt2obj(oid, 0) may make an object of it. It takes an object's short or long
// name from BoringSSL's table (crypto/obj/obj_dat.h, none of them only digits and dots) or a
// dotted OID (CBB_add_asn1_oid_from_text: two components at least, decimal without stray leading
// zeros, the first 0-2, the second under 40 unless the first is 2); only text of digits and dots
// that breaks those rules, or nothing at all, is sure to fail.
func oidMayParse(oid string) bool {
	oid = cRule(oid)
	if strings.ContainsFunc(oid, func(r rune) bool { return r != '.' && (r < '0' || r > '9') }) {
		return true // perhaps a name
	}
	parts := strings.Split(oid, ".")
	if len(parts) < 2 {
		return false
	}
	var first uint64
	for i, p := range parts {
		if p == "" || (len(p) > 1 && p[0] == '0') {
			return false
		}
		n, err := strconv.ParseUint(p, 10, 64)
		switch {
		case err != nil:
			return false
		case i == 0:
			first = n
		case i == 1 && (first > 2 || (first < 2 && n > 39) || n > math.MaxUint64-80):
			return false
		}
	}
	return true
}

// hexSHA256: Hex::decode (source/common/common/hex.cc:27-44) makes 32 bytes of it. Each pair goes
// through strtoull, which also takes leading blanks and a sign: only other characters, or a
// length that cannot make 32 bytes, are sure refusals.
func hexSHA256(h string) bool {
	if len(h) != 64 {
		return false
	}
	return !strings.ContainsFunc(h, func(r rune) bool {
		return !strings.ContainsRune("0123456789abcdefABCDEF \t\n\v\f\r+-", r)
	})
}

// certificateProblem is what ContextImpl refuses of one certificate before its private key is
// used (context_impl.cc:210-330, TlsContext::loadCertificateChain :729-762, loadPkcs12 :781-797),
// and a private key that is not PEM at all (loadPrivateKey :764-779); field is where it is.
func certificateProblem(c *tlsv3.TlsCertificate) (msg, field string) {
	if p12, known, _ := readDataSource(c.GetPkcs12(), true); c.GetPkcs12() != nil {
		// d2i_PKCS12_bio: a PKCS#12 file is a DER (or BER) SEQUENCE.
		if known && p12 != "" && p12[0] != 0x30 {
			return "Failed to load pkcs12 from " + dataPath(c.GetPkcs12(), p12), ".pkcs12"
		}
		return "", ""
	}
	chain, known, _ := readDataSource(c.GetCertificateChain(), true)
	if known {
		path := dataPath(c.GetCertificateChain(), chain)
		if !hasPEMCertificate(chain) {
			return "Failed to load certificate chain from " + path, ".certificate_chain"
		}
		if msg := keyTypeProblem(chain, path); msg != "" {
			return msg, ".certificate_chain"
		}
	}
	if key, known, _ := readDataSource(c.GetPrivateKey(), true); known && key != "" && !strings.Contains(key, "-----BEGIN ") {
		// PEM_read_bio_PrivateKey finds no PEM block: the error Utility::getLastCryptoError
		// words is PEM_R_NO_START_LINE (ERR_PACK(ERR_LIB_PEM 9, 110)).
		return "Failed to load private key from " + dataPath(c.GetPrivateKey(), key) +
			", Cause: error:0900006e:PEM routines:OPENSSL_internal:NO_START_LINE", ".private_key"
	}
	return "", ""
}

// keyTypeProblem: the first certificate's public key must be ECDSA on P-256, P-384 or P-521, or
// RSA of 2048 bits or more (context_impl.cc:241-285, the stock build not in FIPS mode). A
// certificate Go cannot parse is left to BoringSSL.
func keyTypeProblem(chain, path string) string {
	rest := []byte(chain)
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return ""
		}
		if !slices.Contains(pemCertificateNames, block.Type) { // the first of these is the one read
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return ""
		}
		switch key := cert.PublicKey.(type) {
		case *ecdsa.PublicKey:
			if key.Curve != elliptic.P256() && key.Curve != elliptic.P384() && key.Curve != elliptic.P521() {
				return fmt.Sprintf("Failed to load certificate chain from %s, only P-256, P-384 or P-521 ECDSA certificates are supported", path)
			}
		case *rsa.PublicKey:
			if key.N.BitLen() < 2048 {
				return fmt.Sprintf("Failed to load certificate chain from %s, only RSA certificates with 2048-bit or larger keys are supported", path)
			}
		}
		return ""
	}
}

// alpnOK is ContextImpl::parseAlpnProtocols: under 65535 bytes in all, each protocol (between
// commas) 255 at most.
func alpnOK(protocols string) bool {
	if len(protocols) >= 65535 {
		return false
	}
	for _, p := range strings.Split(protocols, ",") {
		if len(p) > 255 {
			return false
		}
	}
	return true
}
