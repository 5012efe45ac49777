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
// it for stdin, is read again through another description, which leaves
// the original's blocking mode alone: the data, then io.EOF once the
// writer is closed.
func TestPolledStdinPipe(t *testing.T) {
	r, w := blockingPipe(t)
	got, polled := polledStdin(r)
	if !polled || got == io.Reader(r) {
		t.Fatalf("polledStdin(pipe) = %v, %v; want another reader and true", got, polled)
	}
	defer got.(*os.File).Close()
	if _, err := w.WriteString("hello\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if all, err := io.ReadAll(got); err != nil || string(all) != "hello\n" {
		t.Errorf("read %q, %v; want %q, then io.EOF", all, err, "hello\n")
	}
	if flags := fileFlags(t, r); flags&syscall.O_NONBLOCK != 0 {
		t.Errorf("the original descriptor is non-blocking (flags %#x)", flags)
	}
}

// TestPolledStdinReadsInThePoller checks that a pending read of the pipe
// polledStdin opens ends when it is closed, which a read blocked in its
// thread would not.
func TestPolledStdinReadsInThePoller(t *testing.T) {
	r, _ := blockingPipe(t)
	got, _ := polledStdin(r)
	reopened := got.(*os.File)
	readDone := make(chan error, 1)
	go func() {
		_, err := reopened.Read(make([]byte, 16))
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

// blockingPipe returns a pipe in blocking mode, as a child process gets
// its stdin (os.Pipe's are non-blocking); the test's end closes it.
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "stdin writer")
	t.Cleanup(func() {
		r.Close()
		w.Close()
	})
	return r, w
}

// fileFlags returns the status flags of f's open file description.
func fileFlags(t *testing.T, f *os.File) int {
	t.Helper()
	conn, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags uintptr
	var errno syscall.Errno
	if err := conn.Control(func(fd uintptr) {
		flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	}); err != nil || errno != 0 {
		t.Fatal(err, errno)
	}
	return int(flags)
}
