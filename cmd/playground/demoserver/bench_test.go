package demoserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
)

// BenchmarkStdioEcho times one echo call at a time through Run over stdio,
// the way the dashboard drives a demo-server process: one frame written,
// its answer read, then the next. Every answer is checked.
func BenchmarkStdioEcho(b *testing.B) {
	ctx, cancel := context.WithCancel(b.Context())
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Run(ctx, "", stdinR, stdoutW, io.Discard) }()
	defer func() {
		cancel()
		stdinW.Close()
		stdoutR.Close()
		waitRun(b, done)
	}()
	out := bufio.NewReader(stdoutR)
	send := func(frame string) []byte {
		b.Helper()
		if _, err := io.WriteString(stdinW, frame+"\n"); err != nil {
			b.Fatal(err)
		}
		if frame == notifyInitialized {
			return nil
		}
		line, err := out.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	send(notifyInitialized)
	id := 0
	for b.Loop() {
		id++
		line := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`, id))
		if want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"hi"}]}}`, id); !bytes.Equal(bytes.TrimSpace(line), []byte(want)) {
			b.Fatalf("echo answered %s, want %s", line, want)
		}
	}
}

const notifyInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
