package bootcheck

import (
	"fmt"
	"net/netip"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	quicv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/quic/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/proto"
)

// The TLS transport sockets: a cluster's (and each of its transport_socket_matches) is built
// with the cluster, before ClusterInfoImpl (source/common/upstream/upstream_impl.cc:1663-1680);
// a filter chain's with its listener, before its network filters
// (source/common/listener_manager/filter_chain_manager_impl.cc:921). Building one makes the
// context config (source/common/tls/context_config_impl.cc, server_context_config_impl.cc), then
// — when every secret it names is at hand, none awaited from SDS — the context BoringSSL holds
// (context_impl.cc). Only what needs no file, environment variable or private key is judged.

// staticSecrets are the bootstrap's secrets by kind, as the secret manager keeps them
// (source/common/secret/secret_manager_impl.cc addStaticSecret: the first of a name).
type staticSecrets struct {
	certs, validation, ticketKeys map[string]*tlsv3.Secret
}

// tlsChecks judges every TLS context a static cluster or listener builds, each at its stage.
func tlsChecks(bs *bootstrapv3.Bootstrap, tree []visited, add addFunc) {
	s := staticSecrets{map[string]*tlsv3.Secret{}, map[string]*tlsv3.Secret{}, map[string]*tlsv3.Secret{}}
	for _, secret := range bs.GetStaticResources().GetSecrets() {
		var kind map[string]*tlsv3.Secret
		switch {
		case secret.GetTlsCertificate() != nil:
			kind = s.certs
		case secret.GetValidationContext() != nil:
			kind = s.validation
		case secret.GetSessionTicketKeys() != nil:
			kind = s.ticketKeys
		default: // a generic secret, or none (server.go's to refuse)
			continue
		}
		if _, dup := kind[secret.GetName()]; !dup {
			kind[secret.GetName()] = secret
		}
	}
	quicContexts := map[string]bool{} // the server contexts a QUIC transport judged with its own checks
	for _, n := range tree {
		st := stageListeners
		switch {
		case quicContexts[n.path] || !strings.Contains(n.path, "transport_socket"):
			continue
		case strings.HasPrefix(n.path, "static_resources.clusters["):
			st = stageClusters
		case !strings.HasPrefix(n.path, "static_resources.listeners["):
			continue
		}
		var m proto.Message = n.inner // a transport socket's typed_config
		if m == nil {
			m = n.m.Interface() // a context inside another socket's config (starttls)
		}
		// A context of the other side's kind has no factory there: the extension check's to refuse.
		var msg, where string
		switch ctx := m.(type) {
		case *tlsv3.UpstreamTlsContext:
			if st == stageClusters {
				msg, where = s.clientProblem(ctx, n.path)
			}
		case *tlsv3.DownstreamTlsContext:
			if st == stageListeners {
				msg, where = s.serverProblem(ctx, n.path)
			}
		case *quicv3.QuicDownstreamTransport:
			// QuicServerTransportSocketConfigFactory::createTransportSocketFactory
			// (quic_server_transport_socket_factory.cc:15-46): the server context config first,
			// then the QUIC transport's own checks.
			if st == stageListeners {
				quicContexts[n.path+".downstream_tls_context"] = true
				if msg, where = s.serverProblem(ctx.GetDownstreamTlsContext(), n.path+".downstream_tls_context"); msg == "" {
					msg, where = quicTransportProblem(ctx, n.path)
				}
			}
		}
		if msg != "" {
			add(st, where, msg)
		}
	}
}

// clientProblem is ClientContextConfigImpl, then (when ready) ClientContextImpl.
func (s staticSecrets) clientProblem(c *tlsv3.UpstreamTlsContext, path string) (msg, where string) {
	cc := c.GetCommonTlsContext()
	common := path + ".common_tls_context"
	cfg, msg, where := s.contextConfig(cc, c.GetAutoSniSanValidation(), common)
	if msg != "" {
		return msg, where
	}
	// context_config_impl.cc:435-448.
	if strings.ContainsRune(c.GetSni(), 0) {
		return "SNI names containing NULL-byte are not allowed", path + ".sni"
	}
	if len(cc.GetTlsCertificates())+len(cc.GetTlsCertificateSdsSecretConfigs()) > 1 && cc.GetCustomTlsCertificateSelector() == nil {
		return "Multiple TLS certificates are not supported for client contexts", common
	}
	if !cfg.ready {
		return "", ""
	}
	if msg, where := cfg.contextProblem(cc, common); msg != "" {
		return msg, where
	}
	// client_context_impl.cc:72-76.
	if c.GetAutoSniSanValidation() && cfg.validation == nil {
		return "'auto_sni_san_validation' was configured without a validation context", path + ".auto_sni_san_validation"
	}
	return "", ""
}

// serverProblem is ServerContextConfigImpl, then (when ready) the ContextImpl a server context
// starts with.
func (s staticSecrets) serverProblem(c *tlsv3.DownstreamTlsContext, path string) (msg, where string) {
	cc := c.GetCommonTlsContext()
	common := path + ".common_tls_context"
	cfg, msg, where := s.contextConfig(cc, false, common)
	if msg != "" {
		return msg, where
	}
	// server_context_config_impl.cc:29-76, 139-150: the session ticket keys, inline or static.
	var keys *tlsv3.TlsSessionTicketKeys
	keysPath := path + ".session_ticket_keys"
	switch {
	case c.GetSessionTicketKeys() != nil:
		keys = c.GetSessionTicketKeys()
	case c.GetSessionTicketKeysSdsSecretConfig() != nil:
		sds := c.GetSessionTicketKeysSdsSecretConfig()
		if sds.GetSdsConfig() == nil {
			secret, ok := s.ticketKeys[sds.GetName()]
			if !ok {
				return "Unknown tls session ticket keys: " + sds.GetName(), path + ".session_ticket_keys_sds_secret_config.name"
			}
			keys, keysPath = secret.GetSessionTicketKeys(), path+".session_ticket_keys_sds_secret_config"
		}
	}
	for i, key := range keys.GetKeys() {
		data, known, msg := readDataSource(key, false)
		where := keysPath
		if keysPath == path+".session_ticket_keys" {
			where = fmt.Sprintf("%s.keys[%d]", keysPath, i)
		}
		if msg != "" {
			return msg, where
		}
		if known && len(data) != 80 { // sizeof(SessionTicketKey), server_context_config_impl.cc:247-252
			return fmt.Sprintf("Incorrect TLS session ticket key length. Length %d, expected length 80.", len(data)), where
		}
	}
	if cc.GetCustomHandshaker() != nil { // a handshaker may provide the certificates
		return "", ""
	}
	// server_context_config_impl.cc:153-163 (the default handshaker provides no certificates).
	certs, sds := len(cc.GetTlsCertificates()), len(cc.GetTlsCertificateSdsSecretConfigs())
	switch {
	case certs+sds == 0 && cc.GetCustomTlsCertificateSelector() == nil:
		return "No TLS certificates found for server context", common
	case certs > 0 && sds > 0:
		return "SDS and non-SDS TLS certificates may not be mixed in server contexts", common + ".tls_certificate_sds_secret_configs"
	}
	// The on-demand selector, not under QUIC (source/extensions/transport_sockets/tls/
	// cert_selectors/on_demand/config.cc:313-324).
	selector := cc.GetCustomTlsCertificateSelector()
	if factoryType(selector.GetTypedConfig()) == "envoy.extensions.transport_sockets.tls.cert_selectors.on_demand_secret.v3.Config" &&
		!strings.HasSuffix(path, ".downstream_tls_context") && (!c.GetDisableStatelessSessionResumption() || !c.GetDisableStatefulSessionResumption()) {
		return "On demand certificates are not integrated with session resumption support.", common + ".custom_tls_certificate_selector"
	}
	if !cfg.ready || cc.GetCustomTlsCertificateSelector() != nil {
		return "", ""
	}
	return cfg.contextProblem(cc, common)
}

// tlsConfig is what ContextConfigImpl holds for the context built from it.
type tlsConfig struct {
	ready          bool                                // no secret awaited from SDS (ContextConfigImpl::isReady)
	validation     *tlsv3.CertificateValidationContext // nil: none
	validationPath string                              // where it is written (or named)
	autoSNI        bool
	certs          []certConfig
}

// certConfig is one TlsCertificate as TlsCertificateConfigImpl read it, where it is written:
// inline, or a static secret named at path.
type certConfig struct {
	cert   *tlsv3.TlsCertificate
	path   string
	inline bool
}

// contextConfig is ContextConfigImpl's constructor (context_config_impl.cc:195-281).
func (s staticSecrets) contextConfig(cc *tlsv3.CommonTlsContext, autoSNI bool, common string) (cfg tlsConfig, msg, where string) {
	cfg = tlsConfig{ready: true, autoSNI: autoSNI}
	// The certificate providers, then the validation context's: a later failure overwrites the
	// status an earlier one set (getTlsCertificateConfigProviders, getProviderFromSds).
	if len(cc.GetTlsCertificates()) > 0 {
		for i, c := range cc.GetTlsCertificates() {
			if c.GetPrivateKeyProvider() != nil || c.GetCertificateChain() != nil || c.GetPrivateKey() != nil || c.GetPkcs12() != nil {
				cfg.certs = append(cfg.certs, certConfig{c, fmt.Sprintf("%s.tls_certificates[%d]", common, i), true})
			}
		}
	} else {
		for i, sds := range cc.GetTlsCertificateSdsSecretConfigs() {
			p := fmt.Sprintf("%s.tls_certificate_sds_secret_configs[%d]", common, i)
			if sds.GetSdsConfig() != nil {
				cfg.ready = false
				continue
			}
			secret, ok := s.certs[sds.GetName()]
			if !ok {
				msg, where = "Unknown static secret: "+sds.GetName(), p+".name"
				break
			}
			cfg.certs = append(cfg.certs, certConfig{secret.GetTlsCertificate(), p, false})
		}
	}
	var sds *tlsv3.SdsSecretConfig
	validationPath := common + ".validation_context"
	var combinedDefault *tlsv3.CertificateValidationContext
	switch v := cc.GetValidationContextType().(type) {
	case *tlsv3.CommonTlsContext_ValidationContext:
		cfg.validation = v.ValidationContext
	case *tlsv3.CommonTlsContext_ValidationContextSdsSecretConfig:
		sds, validationPath = v.ValidationContextSdsSecretConfig, common+".validation_context_sds_secret_config"
	case *tlsv3.CommonTlsContext_CombinedValidationContext:
		combinedDefault = v.CombinedValidationContext.GetDefaultValidationContext()
		sds, validationPath = v.CombinedValidationContext.GetValidationContextSdsSecretConfig(), common+".combined_validation_context"
	}
	if sds != nil {
		if sds.GetSdsConfig() != nil {
			cfg.ready = false
		} else if secret, ok := s.validation[sds.GetName()]; ok {
			cfg.validation = secret.GetValidationContext()
		} else {
			msg, where = "Unknown static certificate validation context: "+sds.GetName(), validationPath
		}
	}
	cfg.validationPath = validationPath
	if msg != "" {
		return cfg, msg, where
	}
	if combinedDefault != nil && cfg.validation != nil { // the dynamic part merged into the default
		merged := proto.Clone(combinedDefault).(*tlsv3.CertificateValidationContext)
		proto.Merge(merged, cfg.validation)
		cfg.validation = merged
	}
	// The key log's address ranges (Network::Address::IpList: the last bad one is named).
	for _, side := range []string{"local_address_range", "remote_address_range"} {
		ranges := cc.GetKeyLog().GetLocalAddressRange()
		if side == "remote_address_range" {
			ranges = cc.GetKeyLog().GetRemoteAddressRange()
		}
		for i := len(ranges) - 1; i >= 0; i-- {
			if _, err := netip.ParseAddr(ranges[i].GetAddressPrefix()); err != nil {
				return cfg, fmt.Sprintf("invalid ip/mask combo '%s/%d' (format is <ip>/<# mask bits>)", ranges[i].GetAddressPrefix(), ranges[i].GetPrefixLen().GetValue()),
					fmt.Sprintf("%s.key_log.%s[%d]", common, side, i)
			}
		}
	}
	if cfg.validation != nil {
		if msg := validationConfigProblem(cfg.validation); msg != "" {
			return cfg, msg, validationPath
		}
	}
	for _, c := range cfg.certs {
		if msg := certConfigProblem(c.cert); msg != "" {
			return cfg, msg, c.path
		}
	}
	return cfg, "", ""
}

// readDataSource is Config::DataSource::read (source/common/config/datasource.cc:53-82) as far as
// it can be known here: known is false for a file or an environment variable.
func readDataSource(ds *corev3.DataSource, allowEmpty bool) (data string, known bool, msg string) {
	switch v := ds.GetSpecifier().(type) {
	case *corev3.DataSource_Filename, *corev3.DataSource_EnvironmentVariable:
		return "", false, ""
	case *corev3.DataSource_InlineBytes:
		data = string(v.InlineBytes)
	case *corev3.DataSource_InlineString:
		data = v.InlineString
	default:
		if !allowEmpty {
			return "", true, "Unexpected DataSource::specifier_case(): 0"
		}
	}
	if !allowEmpty && data == "" {
		return "", true, "DataSource cannot be empty"
	}
	return data, true, ""
}

// dataPath is the name a message gives a DataSource read as data (DataSource::getPath, else
// "<inline>" for what is not empty).
func dataPath(ds *corev3.DataSource, data string) string {
	if f, ok := ds.GetSpecifier().(*corev3.DataSource_Filename); ok {
		return f.Filename
	}
	if data == "" {
		return ""
	}
	return "<inline>"
}

// validationConfigProblem is CertificateValidationContextConfigImpl::create
// (source/common/ssl/certificate_validation_context_config_impl.cc:53-92).
func validationConfigProblem(v *tlsv3.CertificateValidationContext) string {
	// An empty trusted_ca that is set is refused (runtime guard reject_empty_trusted_ca_file).
	ca, caKnown, msg := readDataSource(v.GetTrustedCa(), v.GetTrustedCa() == nil)
	if msg != "" {
		return msg
	}
	crl, crlKnown, _ := readDataSource(v.GetCrl(), true)
	if !caKnown || ca != "" || v.GetCustomValidatorConfig() != nil {
		return ""
	}
	switch {
	case crlKnown && crl != "":
		return fmt.Sprintf("Failed to load CRL from %s without trusted CA", dataPath(v.GetCrl(), crl))
	case len(v.GetMatchTypedSubjectAltNames()) > 0 || len(v.GetMatchSubjectAltNames()) > 0:
		return "SAN-based verification of peer certificates without trusted CA is insecure and not allowed"
	case v.GetAllowExpiredCertificate():
		return "Certificate validity period is always ignored without trusted CA"
	}
	return ""
}

// certConfigProblem is TlsCertificateConfigImpl's constructor
// (source/common/ssl/tls_certificate_config_impl.cc:57-127). It reads every DataSource first but,
// passing its status by value, loses the errors of all but the OCSP staple's.
func certConfigProblem(c *tlsv3.TlsCertificate) string {
	if c.GetOcspStaple() != nil {
		if _, known, _ := readDataSource(c.GetOcspStaple(), true); known {
			if _, inline := c.GetOcspStaple().GetSpecifier().(*corev3.DataSource_InlineString); inline {
				return "OCSP staple cannot be provided via inline_string"
			}
		}
	}
	msg := ""
	if c.GetPkcs12() != nil { // the last that applies is the one kept
		if c.GetPrivateKey() != nil {
			msg = "Certificate configuration can't have both pkcs12 and private_key"
		}
		if c.GetCertificateChain() != nil {
			msg = "Certificate configuration can't have both pkcs12 and certificate_chain"
		}
		if c.GetPrivateKeyProvider() != nil {
			msg = "Certificate configuration can't have both pkcs12 and private_key_provider"
		}
		return msg
	}
	if p := c.GetPrivateKeyProvider(); p != nil {
		// The stock build registers no private key provider (cryptomb and qat are contrib).
		return "Failed to load private key provider: " + p.GetProviderName()
	}
	chain, chainKnown, _ := readDataSource(c.GetCertificateChain(), true)
	if chainKnown && chain == "" {
		msg = "Failed to load incomplete certificate from : certificate chain not set"
	}
	if key, keyKnown, _ := readDataSource(c.GetPrivateKey(), true); keyKnown && key == "" {
		msg = "Failed to load incomplete private key from path: "
	}
	return msg
}
