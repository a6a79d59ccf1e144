package drill

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gopkg.in/yaml.v3"
)

// startTimeout bounds how long a started Envoy has to answer on its admin port.
const startTimeout = 10 * time.Second

// envoyStart starts Envoy on a bootstrap it accepted, as the sidecar would (without istiod), reads
// what its admin port answers — /ready and control_plane.connected_state — and stops it: the one
// process it started, by the handle it holds, never anything by name. The admin port is moved to a
// free one, so a running lab Envoy is neither disturbed nor mistaken for this one.
func envoyStart(ctx context.Context, envoy, bootstrap string) (ready, connected string, port int, ok bool) {
	var doc yaml.Node
	if yaml.Unmarshal([]byte(bootstrap), &doc) != nil {
		return "", "", 0, false
	}
	port, err := freePort()
	if err != nil || !set(&doc, "admin.address.socket_address.port_value", strconv.Itoa(port)) {
		return "", "", 0, false
	}
	moved, err := encode(&doc)
	if err != nil {
		return "", "", 0, false
	}
	dir, err := os.MkdirTemp("", "ist2-boot-drill-")
	if err != nil {
		return "", "", 0, false
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "bootstrap.yaml")
	if os.WriteFile(file, moved, 0o644) != nil {
		return "", "", 0, false
	}
	cmd := exec.Command(envoy, "-c", file, "--log-level", "warn")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group: stopped whole
	if cmd.Start() != nil {
		return "", "", 0, false
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	}()
	admin := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return "", "", 0, false // it exited after all: the validate verdict stands
		case <-ctx.Done():
			return "", "", 0, false // cancelled (a signal, q): stopped and removed by the defers
		default:
		}
		if code, body, err := get(admin + "/ready"); err == nil {
			ready = strings.TrimSpace(fmt.Sprintf("%d %s", code, body))
			_, stats, _ := get(admin + "/stats?filter=control_plane.connected_state")
			for _, l := range strings.Split(stats, "\n") {
				if v, found := strings.CutPrefix(strings.TrimSpace(l), "control_plane.connected_state: "); found {
					connected = v
				}
			}
			return ready, connected, port, true
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	return "", "", 0, false
}

func get(url string) (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(body), nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
