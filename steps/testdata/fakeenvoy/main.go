// Command fakeenvoy is a test double for Envoy, built by the tests as "envoy" so the lab's own
// commands for sections 4-6 can run where no Envoy exists. It is never shipped.
//
//	envoy --mode validate -c FILE   prints Envoy's verdict in Envoy's words (only the one
//	                                start-up check the lab trips: ADS naming an unknown cluster)
//	envoy -c FILE [...]             serves the admin port as an Envoy without istiod does:
//	                                /ready 503 PRE_INITIALIZING, /config_dump, /stats
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

func main() {
	mode := flag.String("mode", "serve", "")
	config := flag.String("c", "", "")
	flag.String("log-level", "info", "")
	flag.Bool("allow-unknown-static-fields", false, "") // pilot-agent's flag: what the drills pass
	flag.Parse()
	raw, err := os.ReadFile(*config)
	var boot map[string]any
	if err == nil {
		err = yaml.Unmarshal(raw, &boot)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "[critical][main] error initializing configuration '%s': %v\n", *config, err)
		os.Exit(1)
	}
	if *mode == "validate" {
		if name := adsCluster(boot); !staticCluster(boot, name) {
			fmt.Fprintf(os.Stderr, "[2026-11-29 00:00:00.000][1][critical][main] [source/server/server.cc:431] error initializing configuration '%s': Unknown gRPC client cluster '%s'\n", *config, name)
			os.Exit(1)
		}
		fmt.Printf("configuration '%s' OK\n", *config)
		return
	}
	serve(boot)
}

func get(v any, path ...string) any {
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			i, _ := strconv.Atoi(p)
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func adsCluster(boot map[string]any) string {
	s, _ := get(boot, "dynamic_resources", "ads_config", "grpc_services", "0", "envoy_grpc", "cluster_name").(string)
	return s
}

func staticCluster(boot map[string]any, name string) bool {
	list, _ := get(boot, "static_resources", "clusters").([]any)
	for _, c := range list {
		if n, _ := get(c, "name").(string); n == name {
			return true
		}
	}
	return false
}

func serve(boot map[string]any) {
	port := fmt.Sprint(get(boot, "admin", "address", "socket_address", "port_value"))
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	node, _ := get(boot, "node").(map[string]any)
	withExtras := map[string]any{"user_agent_name": "envoy", "extensions": []any{}}
	for k, v := range node {
		withExtras[k] = v
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/ready", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "PRE_INITIALIZING")
	})
	mux.HandleFunc("/config_dump", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"configs": []any{map[string]any{
			"@type": "type.googleapis.com/envoy.admin.v3.BootstrapConfigDump", "bootstrap": map[string]any{"node": withExtras}}}})
	})
	mux.HandleFunc("/stats", func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Query().Get("filter"), "connected_state") {
			fmt.Fprintln(w, "control_plane.connected_state: 0")
		}
	})
	_ = http.Serve(ln, mux)
}
