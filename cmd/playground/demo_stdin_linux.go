package main

import (
	"io"
	"os"
	"strconv"
	"syscall"
)

// polledStdin returns a reader of the same input as stdin whose reads wait
// in the runtime's poller rather than in a blocked thread, and true; or
// stdin itself and false when it cannot.
//
// It can when stdin is an [*os.File] for a pipe (what a client that starts
// the demo server gives it): it opens the pipe again through
// /proc/self/fd, which gives a description of its own, in non-blocking
// mode. The description stdin shares with its parent, if any, keeps its
// blocking mode. A terminal, a regular file or a socket is left as it is.
func polledStdin(stdin io.Reader) (io.Reader, bool) {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin, false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return stdin, false
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return stdin, false
	}
	var reopened *os.File
	var openErr error
	if err := conn.Control(func(fd uintptr) {
		// O_NONBLOCK: opening a pipe for reading would otherwise wait
		// for a writer.
		reopened, openErr = os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(fd)), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	}); err != nil || openErr != nil {
		return stdin, false
	}
	return reopened, true
}
