package mcpclient

// How a server process run over stdio ends: on its own (reaped, its group
// killed, the connection ended with its exit status and stderr), or
// stopped by Close (stdin EOF, SIGTERM, SIGKILL).

import (
	"errors"
	"os"
	"strings"
	"time"
)

// ExitError reports that a server process ended on its own.
type ExitError struct {
	Status string // as in "exit status 3" or "signal: killed"
	// Stderr quotes its stderr, oldest first: the first two and the latest
	// two lines that name a fault (an error or exception, a panic, "fatal",
	// "not found", a system error) and the last three lines, each once and
	// shortened to 200 bytes.
	Stderr []string
	// Fault is the latest line of Stderr that names a fault, "" when none does.
	Fault string
}

func (e *ExitError) Error() string { return "server process exited: " + e.detail() }

func (e *ExitError) detail() string {
	if len(e.Stderr) == 0 {
		return e.Status
	}
	return e.Status + "; stderr: " + strings.Join(e.Stderr, " | ")
}

// exitDuring is an ExitError that ended a step of connecting (initialize,
// server/discover), named in its message.
type exitDuring struct {
	step string
	exit *ExitError
}

func (e *exitDuring) Error() string {
	return "server exited during " + e.step + ": " + e.exit.detail()
}

func (e *exitDuring) Unwrap() error { return e.exit }

// exitedDuring returns err as an exitDuring when it is an ExitError, and
// err itself otherwise.
func exitedDuring(step string, err error) error {
	var exit *ExitError
	if errors.As(err, &exit) {
		return &exitDuring{step: step, exit: exit}
	}
	return err
}

// wait reaps the process, and kills what is left of its process group as
// soon as it has exited. Where the platform can wait without reaping, the
// group is killed before the process is reaped, while the zombie holds the
// group id; elsewhere just after, when a group with members left still
// holds its id, and an empty one cannot be hit unless its id was taken by a
// new group in the meantime.
func (t *stdioTransport) wait() {
	defer t.wg.Done()
	defer close(t.exited)
	p := t.cmd.Process
	if awaitExit(p) == nil {
		t.sigMu.Lock()
		defer t.sigMu.Unlock()
		kill(p)
		_ = t.cmd.Wait() // the outcome is read from cmd.ProcessState
		t.reaped = true
		return
	}
	_ = t.cmd.Wait()
	t.sigMu.Lock()
	defer t.sigMu.Unlock()
	t.reaped = true
	kill(p)
}

// signal applies send (terminate or kill) to the process unless it has
// been reaped, when wait has already killed its group.
func (t *stdioTransport) signal(send func(*os.Process)) {
	t.sigMu.Lock()
	defer t.sigMu.Unlock()
	if !t.reaped {
		send(t.cmd.Process)
	}
}

// supervise notices the end of the process or of its stdout, lets the
// readers drain, records the exit and ends the connection with its cause.
func (t *stdioTransport) supervise() {
	defer t.wg.Done()
	select {
	case <-t.exited:
	case <-t.stdoutDone:
	}
	deadline := time.Now().Add(drainGrace)
	for _, ch := range []chan struct{}{t.exited, t.stdoutDone, t.stderrDone} {
		waitFor(ch, time.Until(deadline))
	}
	select {
	case <-t.exited:
		t.recordExit()
		t.peer.connectionLost(t.cause(true))
	default:
		t.peer.connectionLost(t.cause(false))
		<-t.exited // Close kills it if nothing else does
		t.recordExit()
	}
}

func (t *stdioTransport) recordExit() {
	t.peer.tap(Inbound, KindTransport, []byte("process exited: "+t.cmd.ProcessState.String()), nil)
}

// cause explains why the connection ended.
func (t *stdioTransport) cause(exited bool) error {
	select {
	case <-t.stdoutDone:
		if t.readErr != nil {
			return t.readErr
		}
	default:
	}
	if exited {
		quoted, fault := t.quote.lines()
		return &ExitError{Status: t.cmd.ProcessState.String(), Stderr: quoted, Fault: fault}
	}
	msg := "server closed its stdout"
	if tail, _ := t.quote.lines(); len(tail) > 0 {
		msg += "; stderr: " + strings.Join(tail, " | ")
	}
	return errors.New(msg)
}

// close stops the process: stdin EOF, then SIGTERM, then SIGKILL, each after
// stopGrace and each signal to its process group; wait kills the rest of
// the group once the process has exited. Then close releases the pipes and
// waits for the goroutines.
func (t *stdioTransport) close() error {
	t.stdin.Close()
	if !waitFor(t.exited, stopGrace) {
		t.signal(terminate)
		if !waitFor(t.exited, stopGrace) {
			t.signal(kill)
			<-t.exited
		}
	}
	// Let the readers drain; then unblock them if a leftover child still
	// holds the pipes open.
	waitFor(t.stdoutDone, drainGrace)
	waitFor(t.stderrDone, drainGrace)
	closeFiles(t.stdout, t.stderr)
	t.wg.Wait()
	return nil
}

// waitFor reports whether ch closed within d.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ch:
		return true
	case <-timer.C:
		return false
	}
}
