package main

import (
	"net"
	"strings"
	"testing"
)

// TestCallHidesURLSecrets: `playground call` output ends up in CI logs, so
// neither its --trace lines nor its errors show the credentials of the
// server URL.
func TestCallHidesURLSecrets(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	secrets := []string{"us3r-name", "passw0rd-value", "query-k3y-value"}
	for _, flag := range []string{"--url", "--sse"} {
		t.Run(flag, func(t *testing.T) {
			_, errOut, err := runCallCmd("--trace", flag, "http://us3r-name:passw0rd-value@"+addr+"/mcp?api_key=query-k3y-value", "ping")
			if err == nil {
				t.Fatal("connected to a closed port")
			}
			if !strings.Contains(errOut, "/mcp?api_key=REDACTED") {
				t.Errorf("the trace does not show the redacted URL:\n%s", errOut)
			}
			for _, s := range secrets {
				if strings.Contains(errOut, s) || strings.Contains(err.Error(), s) {
					t.Errorf("%q shown: err %q, stderr:\n%s", s, err, errOut)
				}
			}
		})
	}
}
