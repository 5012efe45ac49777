package backend_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcp-playground/playground/backend/sdktest"
)

// TestPoolStartsAProgramOnTheServersPATH registers a stdio server by a bare
// program name found only on the PATH set in its environment: saving
// accepts it and connecting starts it.
func TestPoolStartsAProgramOnTheServersPATH(t *testing.T) {
	e := MustEnv(t)
	dir := t.TempDir()
	script := "#!/bin/sh\nexec '" + os.Args[0] + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "sdk-on-server-path"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := sdktest.StdioServer("on the server's PATH")
	srv.Command = "sdk-on-server-path"
	srv.Env["PATH"] = dir + string(filepath.ListSeparator) + os.Getenv("PATH")
	sess := e.MustConnect(t, e.MustServer(t, srv))
	if sess.PeerName != "sdk-test" {
		t.Errorf("connected to %q, want the SDK test server", sess.PeerName)
	}
}
