package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"gopkg.in/yaml.v3"

	"ist2-boot/steps/controlplane"
	"ist2-boot/steps/i18n"
)

// lockedBuffer is an output the command writes from several goroutines while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits up to 10 s for out to hold s.
func waitFor(t *testing.T, out *lockedBuffer, s string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(out.String(), s) {
			return
		}
	}
	t.Fatalf("no %q in:\n%s", s, out.String())
}

// fixtureBootstrap is the control plane's fixture bootstrap, with its node id and the ADS
// cluster's address and port as the file says them.
func fixtureBootstrap(t *testing.T) (file, node, host, port string) {
	t.Helper()
	file, _ = filepath.Abs("../../steps/controlplane/testdata/bootstrap.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Node   struct{ ID string } `yaml:"node"`
		Static struct {
			Clusters []struct {
				LA struct {
					Endpoints []struct {
						LB []struct {
							Endpoint struct {
								Address struct {
									Socket struct {
										Address string `yaml:"address"`
										Port    string `yaml:"port_value"`
									} `yaml:"socket_address"`
								} `yaml:"address"`
							} `yaml:"endpoint"`
						} `yaml:"lb_endpoints"`
					} `yaml:"endpoints"`
				} `yaml:"load_assignment"`
			} `yaml:"clusters"`
		} `yaml:"static_resources"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	sa := doc.Static.Clusters[0].LA.Endpoints[0].LB[0].Endpoint.Address.Socket
	return file, doc.Node.ID, sa.Address, sa.Port
}

var listening = regexp.MustCompile(`127\.0\.0\.1:(\d+)`)

// `control-plane` says where it listens and which fields of the bootstrap point Envoy there, tells
// an ADS client's requests, ACKs and (with --reject) its NACK with the detail it sent, and on
// TERM, INT, HUP and QUIT stops, closes its port and exits 128+n.
func TestControlPlaneCommand(t *testing.T) {
	file, node, host, port := fixtureBootstrap(t)
	sb := newSandbox(t, os.Getenv("PATH"))
	for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT} {
		out, errs := &lockedBuffer{}, &lockedBuffer{}
		args := []string{"control-plane", "--bootstrap", file, "--addr", "127.0.0.1:0"}
		if i == 0 {
			args = append(args, "--reject")
		}
		done := make(chan int, 1)
		go func() {
			done <- Main(args, IO{In: strings.NewReader(""), Out: out, Err: errs, Getenv: func(k string) string { return sb.vars[k] }})
		}()
		waitFor(t, out, i18n.T(i18n.Korean, "cp.stop_hint", nil)) // the signals are caught from here on
		m := listening.FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no address said:\n%s", out.String())
		}
		addr := m[0]
		for _, want := range []string{node, host + " → 127.0.0.1", port + " → " + m[1]} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("the start-up lines lack %q:\n%s", want, out.String())
			}
		}
		if i == 0 {
			detail, hangUp := exchange(t, addr, node)
			waitFor(t, out, detail)
			hangUp()
			waitFor(t, out, i18n.T(i18n.Korean, "cp.kept", map[string]string{"version": controlplane.GoodVersion}))
			for _, key := range []string{"cp.requested", "cp.acked"} {
				head, _, _ := strings.Cut(i18n.T(i18n.Korean, key, map[string]string{"stream": "1"}), "{")
				if !strings.Contains(out.String(), head) {
					t.Errorf("no %s line:\n%s", key, out.String())
				}
			}
		}
		syscall.Kill(os.Getpid(), sig)
		select {
		case code := <-done:
			if code != 128+int(sig) {
				t.Errorf("%v: exit %d, want %d\n%s%s", sig, code, 128+int(sig), out.String(), errs.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: still running:\n%s", sig, out.String())
		}
		if !strings.HasSuffix(out.String(), i18n.T(i18n.Korean, "cp.stopped", nil)+"\n") {
			t.Errorf("%v: the stop is not said last:\n%s", sig, out.String())
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Errorf("%v: %s still accepts after the exit", sig, addr)
		}
	}
}

// exchange is an ADS client's round: CDS and LDS requested and ACKed, then the pushed version
// NACKed with the validator's refusal in Envoy's words; it returns the detail it sent, and what
// ends the stream.
func exchange(t *testing.T, addr, node string) (detail string, hangUp func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	hangUp = func() { cancel(); conn.Close() }
	t.Cleanup(hangUp)
	stream, err := discoveryv3.NewAggregatedDiscoveryServiceClient(conn).StreamAggregatedResources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	send := func(r *discoveryv3.DiscoveryRequest) {
		r.Node = &corev3.Node{Id: node, Cluster: "practice"}
		if err := stream.Send(r); err != nil {
			t.Fatal(err)
		}
	}
	recv := func(typeURL string) *discoveryv3.DiscoveryResponse {
		for {
			r, err := stream.Recv()
			if err != nil {
				t.Fatalf("waiting for %s: %v", typeURL, err)
			}
			if r.GetTypeUrl() == typeURL {
				return r
			}
			send(&discoveryv3.DiscoveryRequest{TypeUrl: r.GetTypeUrl(), VersionInfo: r.GetVersionInfo(), ResponseNonce: r.GetNonce()})
		}
	}
	for _, typeURL := range []string{resource.ClusterType, resource.ListenerType} {
		send(&discoveryv3.DiscoveryRequest{TypeUrl: typeURL})
		r := recv(typeURL)
		send(&discoveryv3.DiscoveryRequest{TypeUrl: typeURL, VersionInfo: r.GetVersionInfo(), ResponseNonce: r.GetNonce()})
	}
	bad := recv(resource.ClusterType)
	p, ok := controlplane.Refusal(node)
	if !ok {
		t.Fatal("the rejected version passes the validator")
	}
	detail = "Error adding/updating cluster(s) " + controlplane.ClusterName + ": " + p.Message // cds_api_impl.cc:109-111
	send(&discoveryv3.DiscoveryRequest{TypeUrl: resource.ClusterType, VersionInfo: controlplane.GoodVersion, ResponseNonce: bad.GetNonce(),
		ErrorDetail: &rpcstatus.Status{Code: 13, Message: detail}})
	return detail, hangUp
}

// A bootstrap with no node, or an address off the loopback, is refused in the learner's language
// before anything listens.
func TestControlPlaneRefuses(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	noNode := filepath.Join(t.TempDir(), "bootstrap.yaml")
	os.WriteFile(noNode, []byte("admin: {}\n"), 0o644)
	code, _, errs := sb.main("", "control-plane", "--lang", "zh", "--bootstrap", noNode)
	if want := i18n.T(i18n.Chinese, "cp.no_node_id", map[string]string{"file": noNode}); code != exitNotPass || !strings.Contains(errs, want) {
		t.Errorf("no node: %d %q, want %q", code, errs, want)
	}
	file, _, _, _ := fixtureBootstrap(t)
	code, _, errs = sb.main("", "control-plane", "--lang", "ja", "--bootstrap", file, "--addr", "0.0.0.0:0")
	if want := i18n.T(i18n.Japanese, "cp.not_loopback", map[string]string{"addr": "0.0.0.0:0"}); code != exitNotPass || !strings.Contains(errs, want) {
		t.Errorf("0.0.0.0: %d %q, want %q", code, errs, want)
	}
}
