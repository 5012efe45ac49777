package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// groupedCommand is selfCommand run by a shell that first starts
// `sleep ARG` in the background: a grandchild in the server's process
// group, as npx or a wrapper script leaves. ARG is an odd duration unique
// to the caller, by which the sleep is found in /proc.
func groupedCommand(t *testing.T, role string, env ...string) (StdioConfig, string) {
	t.Helper()
	arg := fmt.Sprintf("577.%d%d", os.Getpid(), time.Now().UnixNano()%1e6)
	self := selfCommand(role, env...)
	self.Args = []string{"-c", `sleep ` + arg + ` & exec "$0"`, self.Command}
	self.Command = "sh"
	return self, arg
}

// processWithArgs returns the pid of a live (not zombie) process whose
// command line is exactly args, or 0.
func processWithArgs(args ...string) int {
	want := []byte{}
	for _, a := range args {
		want = append(append(want, a...), 0)
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		cmdline, err := os.ReadFile(dir + "/cmdline")
		if err != nil || !bytes.Equal(cmdline, want) {
			continue
		}
		stat, err := os.ReadFile(dir + "/stat")
		if err != nil {
			continue
		}
		// The state follows the command name in parentheses: "pid (comm) S ...".
		if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		return pid
	}
	return 0
}

// waitProcess waits up to d for a process with command line args to
// appear (alive true) or to be gone (alive false), and reports whether it
// did.
func waitProcess(alive bool, d time.Duration, args ...string) bool {
	for deadline := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
		if (processWithArgs(args...) != 0) == alive {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// TestStdioStopReachesTheProcessGroup checks that what a server started in
// its process group does not outlive the server, however the server ends.
func TestStdioStopReachesTheProcessGroup(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		// end ends the server; the sleep must be gone once it returns.
		end func(t *testing.T, c *Client)
	}{
		{"Close, server exits on stdin EOF", nil, closeClient},
		{"Close, server needs SIGTERM", []string{"FAKE_IGNORE_EOF=1"}, closeClient},
		{"Close, server needs SIGKILL", []string{"FAKE_IGNORE_EOF=1", "FAKE_IGNORE_TERM=1"}, closeClient},
		{"server exits on its own", nil, func(t *testing.T, c *Client) {
			if _, err := c.Call(testContext(t), "exit", nil); err == nil {
				t.Fatal("the exit call succeeded")
			}
			select {
			case <-c.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("Done not closed after the server exited")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, arg := groupedCommand(t, "fake", tt.env...)
			c, err := ConnectStdio(testContext(t), cfg, Options{})
			if err != nil {
				t.Fatalf("ConnectStdio: %v", err)
			}
			defer c.Close()
			t.Cleanup(func() {
				if pid := processWithArgs("sleep", arg); pid != 0 {
					p, _ := os.FindProcess(pid)
					_ = p.Kill()
				}
			})
			if !waitProcess(true, 5*time.Second, "sleep", arg) {
				t.Fatalf("sleep %s did not start", arg)
			}
			tt.end(t, c)
			if !waitProcess(false, time.Second, "sleep", arg) {
				t.Errorf("sleep %s outlived its server", arg)
			}
		})
	}
}

func closeClient(t *testing.T, c *Client) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestStdioServerOutlivesTheStartingThread starts a server from a goroutine
// locked to its OS thread, which Go ends when the goroutine returns. The
// server's parent-death signal must not follow that thread.
func TestStdioServerOutlivesTheStartingThread(t *testing.T) {
	type connected struct {
		c   *Client
		err error
	}
	ch := make(chan connected)
	go func() {
		// Go never ends the main thread, so hold whichever thread this
		// is while another goroutine, on another thread, connects.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		inner := make(chan connected)
		go func() {
			runtime.LockOSThread() // not unlocked: the thread ends with the goroutine
			c, err := ConnectStdio(testContext(t), selfCommand("sdk"), Options{})
			inner <- connected{c, err}
		}()
		ch <- <-inner
	}()
	r := <-ch
	if r.err != nil {
		t.Fatalf("ConnectStdio: %v", r.err)
	}
	mustClose(t, r.c)
	time.Sleep(200 * time.Millisecond) // for the thread to end
	if _, err := r.c.CallTool(testContext(t), "echo", json.RawMessage(`{"text":"still here"}`)); err != nil {
		t.Fatalf("the server died with the thread that started it: %v", err)
	}
}
