package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPolledStdinPipe checks that a blocking pipe, as a child process gets
// it for stdin, is read through the poller: a pending read ends when the
// reader is closed, which a read blocked in its thread would not; and that
// the pipe's original description stays in blocking mode.
func TestPolledStdinPipe(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil { // os.Pipe's are non-blocking
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "stdin writer")
	defer r.Close()
	defer w.Close()
	got, polled := polledStdin(r)
	if !polled || got == io.Reader(r) {
		t.Fatalf("polledStdin(pipe) = %v, %v; want another reader and true", got, polled)
	}
	reopened := got.(*os.File)

	if _, err := w.WriteString("hello\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := reopened.Read(buf); err != nil || string(buf[:n]) != "hello\n" {
		t.Fatalf("read %q, %v; want %q", buf[:n], err, "hello\n")
	}

	if flags := fileFlags(t, r); flags&syscall.O_NONBLOCK != 0 {
		t.Errorf("the original descriptor is non-blocking (flags %#x)", flags)
	}

	readDone := make(chan error, 1)
	go func() {
		_, err := reopened.Read(buf)
		readDone <- err
	}()
	time.Sleep(50 * time.Millisecond) // let the read wait
	reopened.Close()
	select {
	case err := <-readDone:
		if !errors.Is(err, os.ErrClosed) {
			t.Errorf("the pending read ended with %v, want os.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("closing the reader did not end its pending read: the read is not in the poller")
	}
}

// TestPolledStdinOthers checks that what is not a pipe is left as it is.
func TestPolledStdinOthers(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stdin"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, in := range []io.Reader{f, strings.NewReader("x")} {
		if got, polled := polledStdin(in); polled || got != in {
			t.Errorf("polledStdin(%T) = %v, %v; want it unchanged and false", in, got, polled)
		}
	}
}

// fileFlags returns the status flags of f's open file description.
func fileFlags(t *testing.T, f *os.File) int {
	t.Helper()
	conn, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	var flagsErr error
	if err := conn.Control(func(fd uintptr) {
		var errno syscall.Errno
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		flags, errno = int(r), e
		if errno != 0 {
			flagsErr = errno
		}
	}); err != nil || flagsErr != nil {
		t.Fatal(err, flagsErr)
	}
	return flags
}
